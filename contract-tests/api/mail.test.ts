import net, { type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAIL_COMMANDS, MailUsageError } from '../../src/cli/mailbox';
import { Worker } from '../../src/jobs/worker';
import { queueEmail } from '../../src/mail/mail.outbox';
import { registerMailJobs, sendQueuedEmail, setMailTimeouts } from '../../src/mail/mail.sender';
import { getMailbox, MailboxError, setMailbox } from '../../src/mail/mailbox';
import { setHostResolver, type ResolvedAddress } from '../../src/outbound/policy';
import { refusedDials, startHarness, type Harness, type Tenant } from '../support/harness';
import { TLS_CERT, TLS_KEY } from '../support/tls';

// The mail path end to end with a real SMTP server (smtp-server on 127.0.0.1, port 0, login
// required) and what arrives parsed by mailparser. Time is the harness's ManualClock: a retry is
// due only when the clock is advanced past its backoff, and `drain()` runs what is due. DNS is an
// injected table; the harness's dial guard refuses every socket off this machine and records it.

const USER = 'mailer@northwind.example';
const PASS = 'pa:ss/w@rd-7Hq9#Zx';
const PASS_IN_URL = encodeURIComponent(PASS);
const WRONG = 'not-the-password-3141';
const TO = 'dana.whitfield@client.example';


type Mode = 'accept' | 'busy421' | 'defer451' | 'reject550';
interface Arrived {
  mail: ParsedMail;
  user: unknown;
  rcpt: string[];
}

let h: Harness;
let lab: Tenant; // a test location: loopback SMTP allowed
let live: Tenant; // a real location: public addresses only
let worker: Worker;
let smtp: SMTPServer;
let smtpPort: number;
let tlsSmtp: SMTPServer;
let tlsPort: number;
let silent: net.Server; // accepts, never greets
let silentPort: number;
let droppingPort: number;
let droppingServer: net.Server;
let closedPort: number;
let mode: Mode = 'accept';
let connections = 0;
let inbox: Arrived[] = [];
let restoreResolver: () => void;
const dnsCalls: string[] = [];

const DNS: Record<string, string[]> = {
  'smtp.partner.example': ['93.184.216.34'],
  'smtp.internal.example': ['10.0.0.5'],
  'smtp.mixed.example': ['93.184.216.34', '192.168.1.9'],
};
const fakeResolver = async (host: string): Promise<ResolvedAddress[]> => {
  dnsCalls.push(host);
  const list = DNS[host];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

function listenSmtp(server: SMTPServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  restoreResolver = setHostResolver(fakeResolver);
  registerMailJobs();
  h = await startHarness();
  lab = await h.tenant('Northwind Capital Partners', { isTest: true });
  live = await h.tenant('Live Lending Co', { isTest: false });
  worker = new Worker(h.deps);

  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true, // plain loopback only
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, cb) {
      connections++;
      if (mode === 'busy421') return cb(smtpError('Too busy, try again later', 421));
      cb();
    },
    onAuth(auth, _session, cb) {
      if (auth.username === USER && auth.password === PASS) return cb(null, { user: 'mailer' });
      cb(new Error('Invalid username or password'));
    },
    onMailFrom(_address, _session, cb) {
      if (mode === 'defer451') return cb(smtpError('Greylisted, try again later', 451));
      cb();
    },
    onRcptTo(address, _session, cb) {
      if (mode === 'reject550' || address.address.startsWith('nobody@')) return cb(smtpError('No such mailbox here', 550));
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (mail) => {
          inbox.push({ mail, user: session.user, rcpt: session.envelope.rcptTo.map((r) => r.address) });
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  smtpPort = await listenSmtp(smtp);

  tlsSmtp = new SMTPServer({
    secure: true, key: TLS_KEY, cert: TLS_CERT, authOptional: true, logger: false,
    onConnect(_s, cb) {
      connections++;
      cb();
    },
    onData(stream, _s, cb) {
      stream.resume();
      stream.on('end', () => cb());
    },
  });
  tlsPort = await listenSmtp(tlsSmtp);
  // A client that refuses the certificate hangs up mid-handshake: expected here, not a test failure.
  for (const s of [smtp, tlsSmtp]) s.on('error', () => undefined);

  silent = net.createServer(() => undefined);
  silentPort = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as AddressInfo).port)));
  // Speaks SMTP up to DATA, takes the first bytes of the message, then hangs up (a server that
  // crashed or a connection cut mid-message).
  const dropping = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('220 drop.example ESMTP\r\n');
    let inData = false;
    socket.on('data', (chunk: Buffer) => {
      if (inData) return void socket.destroy();
      for (const line of chunk.toString('latin1').split('\r\n').filter(Boolean)) {
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-drop.example\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO' || verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') socket.write('250 OK\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('502 unknown\r\n');
      }
    });
  });
  droppingPort = await new Promise<number>((resolve) => dropping.listen(0, '127.0.0.1', () => resolve((dropping.address() as AddressInfo).port)));
  droppingServer = dropping;
  closedPort = await closedLoopbackPort();
});

/**
 * A loopback port nothing listens on, below the kernel's ephemeral range (ip_local_port_range,
 * 32768-60999 by default): no server of this run takes it (they all listen on port 0, which picks
 * from that range), and no outgoing connection is given it as its own port, so a connection to it
 * is refused, never answered (a closed port inside the range may be taken by another file's server
 * before it is dialled, or a connection to it may connect to itself and wait for a greeting).
 */
async function closedLoopbackPort(): Promise<number> {
  for (let port = 20_000 + (process.pid % 5_000); ; port++) {
    const probe = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
}

afterAll(async () => {
  // Whatever happened, the SMTP password never reached a log line, a stored error or a job.
  expect(h.logs.join('\n')).not.toContain(PASS);
  expect(h.logs.join('\n')).not.toContain(PASS_IN_URL);
  const errors = [
    ...(await h.knex('outgoing_emails').whereNotNull('last_error').pluck('last_error')),
    ...(await h.knex('jobs').whereNotNull('last_error').pluck('last_error')),
  ].join('\n');
  expect(errors).not.toContain(PASS);
  expect(errors).not.toContain(WRONG);
  expect(errors).not.toContain(USER);
  expect(errors).not.toMatch(/@client\.example/); // no recipient address
  // The only socket ever attempted off this machine was the deliberate public one, refused by the guard.
  expect(refusedDials.filter((a) => a !== '93.184.216.34')).toEqual([]);
  restoreResolver?.();
  await worker?.close();
  for (const s of [smtp, tlsSmtp]) await new Promise((resolve) => (s ? s.close(() => resolve(undefined)) : resolve(undefined)));
  silent?.close();
  droppingServer?.close();
  await h?.close();
});

beforeEach(() => {
  mode = 'accept';
  inbox = [];
});
afterEach(async () => {
  // Each test settles its own messages; retries a test left scheduled never run in a later one.
  await h.knex('jobs').where({ status: 'queued' }).update({ status: 'dead' });
});

// ---------------------------------------------------------------- helpers

const labUrl = (port = smtpPort, pass = PASS_IN_URL, host = '127.0.0.1') => `smtp://${encodeURIComponent(USER)}:${pass}@${host}:${port}`;

async function mailbox(tenant: Tenant, smtpUrl: string, from = 'Northwind Capital <deals@northwind.example>') {
  return setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: tenant.locationId, smtpUrl, from });
}

async function queue(tenant: Tenant, opts: { to?: string[]; subject?: string; text?: string } = {}): Promise<string> {
  return h.knex.transaction((trx) =>
    queueEmail(trx, h.clock, {
      locationId: tenant.locationId,
      kind: 'test_message',
      to: opts.to ?? [TO],
      subject: opts.subject ?? 'Your funding offer is ready',
      text: opts.text ?? 'Hello Dana,\n\nThree offers came in for Acme Bakery.\n\nNorthwind Capital',
    }),
  );
}

const emailRow = (id: string) => h.knex('outgoing_emails').where({ id }).first();
const jobOf = async (id: string) => (await h.knex('jobs').where({ queue: 'email.send' }).select()).find((j) => (typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload).email_id === id);
const drain = () => worker.drain();
const MIN = 60_000;

// ---------------------------------------------------------------- delivery

describe('delivery', () => {
  it('sends a queued email through the location mailbox: From, To, Subject, text and our Message-ID', async () => {
    await mailbox(lab, labUrl());
    const id = await queue(lab);
    expect((await emailRow(id)).status).toBe('queued');
    expect(inbox).toHaveLength(0); // nothing is sent before the worker runs

    await drain();

    expect(inbox).toHaveLength(1);
    const { mail, user, rcpt } = inbox[0];
    const row = await emailRow(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(new Date(row.sent_at).toISOString()).toBe(h.clock.now().toISOString());
    expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@northwind\.example>$/);
    expect(mail.messageId).toBe(row.message_id);
    expect(mail.from?.value).toEqual([{ name: 'Northwind Capital', address: 'deals@northwind.example' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : null).toEqual([{ name: '', address: TO }]);
    expect(rcpt).toEqual([TO]);
    expect(mail.subject).toBe('Your funding offer is ready');
    expect(mail.text?.trim()).toBe('Hello Dana,\n\nThree offers came in for Acme Bakery.\n\nNorthwind Capital');
    expect(mail.date?.toISOString()).toBe(h.clock.now().toISOString()); // Date from the injected clock
    expect(user).toBe('mailer'); // it logged in with the sealed password
    expect((await jobOf(id)).status).toBe('succeeded');
    expect(h.logs.join('\n')).not.toContain(PASS);
  });

  it('a test location may use localhost (dialled at loopback, never asked of DNS)', async () => {
    await mailbox(lab, labUrl(smtpPort, PASS_IN_URL, 'localhost'));
    const before = dnsCalls.length;
    const id = await queue(lab, { to: [TO, 'second@client.example'] });
    await drain();
    expect((await emailRow(id)).status).toBe('sent');
    expect(inbox[0].rcpt).toEqual([TO, 'second@client.example']);
    expect(dnsCalls.length).toBe(before);
  });

  it('Unicode subject and body arrive intact', async () => {
    await mailbox(lab, labUrl(), '"Zoë Müller, Northwind" <zoe@northwind.example>');
    const id = await queue(lab, { subject: 'Angebot für Café Zoë ✓', text: 'Grüße — 3 offers 💸' });
    await drain();
    expect((await emailRow(id)).status).toBe('sent');
    expect(inbox[0].mail.subject).toBe('Angebot für Café Zoë ✓');
    expect(inbox[0].mail.text?.trim()).toBe('Grüße — 3 offers 💸');
    expect(inbox[0].mail.from?.value).toEqual([{ name: 'Zoë Müller, Northwind', address: 'zoe@northwind.example' }]);
  });

  it('a transaction that rolls back after queueEmail leaves no email and no job', async () => {
    const emails = await h.knex('outgoing_emails').count<{ c: number }[]>('* as c');
    const jobs = await h.knex('jobs').count<{ c: number }[]>('* as c');
    let queuedId = '';
    await expect(
      h.knex.transaction(async (trx) => {
        queuedId = await queueEmail(trx, h.clock, { locationId: lab.locationId, kind: 'test_message', to: [TO], subject: 'never', text: 'never' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(queuedId).toMatch(/^eml_/);
    expect(await emailRow(queuedId)).toBeUndefined();
    expect(await h.knex('outgoing_emails').count<{ c: number }[]>('* as c')).toEqual(emails);
    expect(await h.knex('jobs').count<{ c: number }[]>('* as c')).toEqual(jobs);
    await drain();
    expect(inbox).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- secrets

describe('the SMTP password', () => {
  it('is sealed at rest: not in smtp_url, not in plain anywhere in the row, and opens to the password', async () => {
    const view = await mailbox(lab, labUrl());
    expect(view).toEqual({
      location_id: lab.locationId,
      smtp_url: `smtp://${encodeURIComponent(USER)}@127.0.0.1:${smtpPort}`,
      from: 'Northwind Capital <deals@northwind.example>',
      has_password: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await h.knex('mailboxes').where({ location_id: lab.locationId }).first();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(PASS);
    expect(stored).not.toContain(PASS_IN_URL);
    expect(row.smtp_url).not.toContain(':' + PASS_IN_URL);
    expect(row.password_sealed).toMatch(/^v1\./);
    expect(h.deps.secrets.open(row.password_sealed)).toBe(PASS);
    // Sealed afresh each time (random IV): equal passwords do not give equal ciphertexts.
    await mailbox(lab, labUrl());
    const again = await h.knex('mailboxes').where({ location_id: lab.locationId }).first();
    expect(again.password_sealed).not.toBe(row.password_sealed);
    expect(JSON.stringify(await getMailbox(h.knex, lab.locationId))).not.toContain(PASS_IN_URL);
  });

  it('a wrong password: "SMTP server refused the login", with neither password nor user in the error', async () => {
    await mailbox(lab, labUrl(smtpPort, WRONG));
    const id = await queue(lab);
    await drain();
    const row = await emailRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'SMTP server refused the login (SMTP 535)' });
    expect(inbox).toHaveLength(0);
    const job = await jobOf(id);
    expect(job.last_error).toBe(row.last_error);
  });

  it('a mailbox without a login against a server that requires one: a clear category', async () => {
    await mailbox(lab, `smtp://127.0.0.1:${smtpPort}`);
    expect((await getMailbox(h.knex, lab.locationId))?.has_password).toBe(false);
    const id = await queue(lab);
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'failed', last_error: 'SMTP server requires a login the mailbox does not have (SMTP 530)' });
  });

  it('logs name the email id, never the password or an address', async () => {
    await mailbox(lab, labUrl(smtpPort, WRONG));
    const id = await queue(lab);
    const from = h.logs.length;
    await drain();
    const lines = h.logs.slice(from).join('\n');
    expect(lines).toContain(id);
    expect(lines).not.toContain(WRONG);
    expect(lines).not.toContain(TO);
    expect(lines).not.toContain(USER);
  });
});

// ---------------------------------------------------------------- retries on the injected clock

describe('retries', () => {
  it('a 4xx answer fails the attempt; the retry is due only after the backoff, and then it is sent with the same Message-ID', async () => {
    await mailbox(lab, labUrl());
    mode = 'defer451';
    const id = await queue(lab);
    await drain();
    let row = await emailRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: `SMTP server 127.0.0.1 deferred the message (SMTP 451)` });
    const messageId = row.message_id;
    expect(messageId).toMatch(/^<.+@northwind\.example>$/);
    let job = await jobOf(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(new Date(job.run_at).getTime()).toBe(h.clock.now().getTime() + MIN);

    // Not due yet: nothing is attempted, however often the worker drains.
    const seen = connections;
    h.clock.advance(MIN - 1);
    await drain();
    expect(connections).toBe(seen);

    // Due: attempt 2 meets a busy server (421 at connect) and is put off by the second backoff.
    mode = 'busy421';
    h.clock.advance(1);
    await drain();
    row = await emailRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, last_error: 'SMTP server 127.0.0.1 is not accepting mail right now (SMTP 421)' });
    job = await jobOf(id);
    expect(new Date(job.run_at).getTime()).toBe(h.clock.now().getTime() + 5 * MIN);

    mode = 'accept';
    h.clock.advance(5 * MIN);
    await drain();
    row = await emailRow(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null, message_id: messageId });
    expect(inbox).toHaveLength(1);
    expect(inbox[0].mail.messageId).toBe(messageId);
    expect((await jobOf(id)).status).toBe('succeeded');
  });

  it('a closed port: "connection refused", retried on 1m, 5m, 30m, 2h, and the row reads dead after the last attempt', async () => {
    // Only the refusal may end an attempt here: the network timeouts (real time, in nodemailer) are
    // made longer than the test, so a worker starved of CPU for the 10 s connect timeout cannot turn
    // a refusal into "timed out" (the timeouts have their own test below).
    const restore = setMailTimeouts({ connectMs: 10 * MIN, greetingMs: 10 * MIN, socketMs: 10 * MIN, totalMs: 10 * MIN });
    try {
      await mailbox(lab, labUrl(closedPort));
      const id = await queue(lab);
      await drain();
      expect(await emailRow(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Connection refused by 127.0.0.1' });
      for (const [i, wait] of [MIN, 5 * MIN, 30 * MIN, 120 * MIN].entries()) {
        h.clock.advance(wait - 1);
        await drain();
        expect((await emailRow(id)).attempts).toBe(i + 1); // not before its time
        h.clock.advance(1);
        await drain();
        expect((await emailRow(id)).attempts).toBe(i + 2);
      }
      expect(await emailRow(id)).toMatchObject({ status: 'dead', attempts: 5, last_error: 'Connection refused by 127.0.0.1' });
      expect(await jobOf(id)).toMatchObject({ status: 'dead', attempts: 5 });
      h.clock.advance(24 * 60 * MIN);
      await drain();
      expect((await emailRow(id)).attempts).toBe(5);
    } finally {
      restore();
    }
  });

  it('a 5xx refusal of every recipient ends it at once: dead after one attempt', async () => {
    await mailbox(lab, labUrl());
    mode = 'reject550';
    const id = await queue(lab);
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'dead', attempts: 1, last_error: 'SMTP server rejected every recipient (SMTP 550)' });
    expect(await jobOf(id)).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('some recipients refused: sent to the others, the refusal counted without naming anyone', async () => {
    await mailbox(lab, labUrl());
    const id = await queue(lab, { to: [TO, 'nobody@client.example'] });
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'sent', last_error: '1 of 2 recipients were rejected (SMTP 550)' });
    expect(inbox[0].rcpt).toEqual([TO]);
  });

  it('a server that never greets: "timed out", retried', async () => {
    const restore = setMailTimeouts({ greetingMs: 300, connectMs: 2_000 });
    try {
      await mailbox(lab, labUrl(silentPort));
      const id = await queue(lab);
      await drain();
      expect(await emailRow(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Timed out talking to the SMTP server 127.0.0.1' });
      expect((await jobOf(id)).status).toBe('queued');
    } finally {
      restore();
    }
  });

  it('a connection dropped in the middle of the message: failed with the error recorded, retried, never sent', async () => {
    await mailbox(lab, labUrl(droppingPort));
    const id = await queue(lab);
    await drain();
    const row = await emailRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row.last_error).toBe('The connection to 127.0.0.1 was closed before the message was accepted');
    expect((await jobOf(id)).status).toBe('queued');
    // The server is back: the retry sends it, once.
    await mailbox(lab, labUrl());
    h.clock.advance(MIN);
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(inbox).toHaveLength(1);
  });

  it('smtps to a server whose certificate can not be verified: refused, nothing sent in the clear', async () => {
    await mailbox(lab, `smtps://${encodeURIComponent(USER)}:${PASS_IN_URL}@127.0.0.1:${tlsPort}`);
    const id = await queue(lab);
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'failed', last_error: 'Secure connection to 127.0.0.1 failed (no STARTTLS, or its certificate could not be verified)' });
  });
});

// ---------------------------------------------------------------- no mailbox, idempotency

describe('no mailbox and re-runs', () => {
  it('a location without a mailbox: the row reads no_mailbox, the job ends, a warning names the email id only', async () => {
    const bare = await h.tenant('No Mailbox Yet');
    const id = await queue(bare);
    const from = h.logs.length;
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'no_mailbox', attempts: 0, last_error: 'The location has no mailbox configured' });
    expect((await jobOf(id)).status).toBe('succeeded');
    const warn = h.logs.slice(from).map((l) => JSON.parse(l)).find((l) => l.email_id === id);
    expect(warn).toMatchObject({ level: 40, email_id: id });
    expect(h.logs.slice(from).join('\n')).not.toContain(TO);
    h.clock.advance(24 * 60 * MIN);
    await drain();
    expect(inbox).toHaveLength(0);
  });

  it('a job run again for an email already sent sends nothing (worker re-run after a crash)', async () => {
    await mailbox(lab, labUrl());
    const id = await queue(lab);
    await drain();
    expect(inbox).toHaveLength(1);
    const sent = await emailRow(id);
    // The worker died after recording `sent` but before finishing the job: the job runs again.
    const job = await jobOf(id);
    await h.knex('jobs').where({ id: job.id }).update({ status: 'queued', run_at: h.clock.now(), finished_at: null });
    await drain();
    expect(inbox).toHaveLength(1);
    expect(await emailRow(id)).toEqual(sent);
    expect((await jobOf(id)).status).toBe('succeeded');
  });

  it('the handler called twice for one email sends once', async () => {
    await mailbox(lab, labUrl());
    const id = await queue(lab);
    await h.knex('jobs').where({ status: 'queued' }).update({ status: 'dead' }); // the worker stays out of it
    await sendQueuedEmail(h.deps, { email_id: id }, { attempts: 0, max_attempts: 5 });
    await sendQueuedEmail(h.deps, { email_id: id }, { attempts: 1, max_attempts: 5 });
    expect(inbox).toHaveLength(1);
    expect(await emailRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a crash after the server accepted but before `sent` was written resends with the same Message-ID', async () => {
    await mailbox(lab, labUrl());
    const id = await queue(lab);
    await drain();
    const first = await emailRow(id);
    await h.knex('outgoing_emails').where({ id }).update({ status: 'failed', sent_at: null }); // as if never recorded
    await sendQueuedEmail(h.deps, { email_id: id }, { attempts: 1, max_attempts: 5 });
    expect(inbox.map((m) => m.mail.messageId)).toEqual([first.message_id, first.message_id]);
  });

  it('a bad payload or an unknown email ends the job (not retried forever)', async () => {
    await expect(sendQueuedEmail(h.deps, {}, { attempts: 0, max_attempts: 5 })).rejects.toThrow('without an email_id');
    await expect(sendQueuedEmail(h.deps, { email_id: 'eml_missing' }, { attempts: 0, max_attempts: 5 })).rejects.toThrow('does not exist');
  });
});

// ---------------------------------------------------------------- the outbound address policy

describe('the outbound address policy', () => {
  it('a real location may not set a loopback, private or unresolvable SMTP host; nothing is stored', async () => {
    const cases: [string, RegExp][] = [
      [labUrl(), /SMTP host 127\.0\.0\.1 is not a public address \(loopback\)/],
      [labUrl(smtpPort, PASS_IN_URL, 'localhost'), /SMTP host localhost is not a public address/],
      [labUrl(smtpPort, PASS_IN_URL, '[::1]'), /SMTP host ::1 is not a public address/],
      [labUrl(smtpPort, PASS_IN_URL, '2130706433'), /SMTP host 127\.0\.0\.1 is not a public address/],
      [labUrl(smtpPort, PASS_IN_URL, '10.1.2.3'), /not a public address \(private\)/],
      [labUrl(smtpPort, PASS_IN_URL, 'smtp.internal.example'), /resolves to a non-public address/],
      [labUrl(smtpPort, PASS_IN_URL, 'smtp.mixed.example'), /resolves to a non-public address/],
      [labUrl(smtpPort, PASS_IN_URL, 'nowhere.example'), /could not be resolved/],
    ];
    const seen = connections;
    for (const [url, reason] of cases) {
      const err = await mailbox(live, url).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(MailboxError);
      expect((err as Error).message, url).toMatch(reason);
      expect((err as Error).message).not.toContain(PASS_IN_URL);
    }
    expect(await getMailbox(h.knex, live.locationId)).toBeNull();
    expect(connections).toBe(seen);
  });

  it('refused again at send: a location no longer a test location never dials its loopback mailbox', async () => {
    const was = await h.tenant('Formerly Sandbox', { isTest: true });
    await mailbox(was, labUrl());
    await h.knex('locations').where({ id: was.locationId }).update({ is_test: false });
    const id = await queue(was);
    const seen = connections;
    const refused = refusedDials.length;
    await drain();
    expect(await emailRow(id)).toMatchObject({
      status: 'failed',
      last_error: 'Refused by the outbound address policy: SMTP host 127.0.0.1 is not a public address (loopback)',
    });
    expect(connections).toBe(seen);
    expect(refusedDials.length).toBe(refused);
    expect(inbox).toHaveLength(0);
  });

  it('a public host is resolved by the policy and only its vetted address is dialled (the guard refuses it here)', async () => {
    await mailbox(live, `smtps://${encodeURIComponent(USER)}:${PASS_IN_URL}@smtp.partner.example`);
    expect((await getMailbox(h.knex, live.locationId))?.smtp_url).toBe(`smtps://${encodeURIComponent(USER)}@smtp.partner.example:465`);
    const id = await queue(live);
    const calls = dnsCalls.length;
    await drain();
    expect(dnsCalls.slice(calls)).toEqual(['smtp.partner.example']); // our resolver, once; nodemailer asked nobody
    expect(refusedDials).toContain('93.184.216.34');
    expect(await emailRow(id)).toMatchObject({ status: 'failed', last_error: 'Connection refused by smtp.partner.example' });
  });

  it('a public host that later resolves to a private address is refused at send', async () => {
    await mailbox(live, `smtps://${encodeURIComponent(USER)}:${PASS_IN_URL}@smtp.partner.example`);
    DNS['smtp.partner.example'] = ['10.9.8.7'];
    try {
      const id = await queue(live);
      const refused = refusedDials.length;
      await drain();
      expect(await emailRow(id)).toMatchObject({ status: 'failed', last_error: 'Refused by the outbound address policy: SMTP host smtp.partner.example resolves to a non-public address' });
      expect(refusedDials.length).toBe(refused);
    } finally {
      DNS['smtp.partner.example'] = ['93.184.216.34'];
    }
  });
});

// ---------------------------------------------------------------- validation

describe('mailbox validation', () => {
  it('refuses malformed URLs and From addresses with a clear message that never repeats the password', async () => {
    const bad: [string, string, RegExp][] = [
      [`http://u:${PASS_IN_URL}@127.0.0.1:25`, 'a@northwind.example', /smtp:\/\/ or smtps:\/\//],
      [`smtp://u:${PASS_IN_URL}@:25`, 'a@northwind.example', /not a valid URL|must name a host/],
      [`smtp://u:${PASS_IN_URL}@127.0.0.1:0`, 'a@northwind.example', /port must be between 1 and 65535/],
      [`smtp://u:${PASS_IN_URL}@127.0.0.1:70000`, 'a@northwind.example', /not a valid URL/],
      [`smtp://u:${PASS_IN_URL}@127.0.0.1:25/inbox?x=1`, 'a@northwind.example', /no path or query/],
      [`smtp://:${PASS_IN_URL}@127.0.0.1:25`, 'a@northwind.example', /password but no user name/],
      [`smtp://u@127.0.0.1:25`, 'a@northwind.example', /user name but no password/],
      [labUrl(), 'not an address', /--from must be an email address/],
      [labUrl(), 'Ops <ops@localhost>', /--from must be an email address/],
      [labUrl(), 'Ops\r\nBcc: x@evil.example <ops@northwind.example>', /--from must be an email address/],
      [labUrl(), 'a@b@northwind.example', /--from must be an email address/],
    ];
    for (const [smtpUrl, from, reason] of bad) {
      const err = await mailbox(lab, smtpUrl, from).catch((e: unknown) => e);
      expect(err, `${smtpUrl} ${from}`).toBeInstanceOf(MailboxError);
      expect((err as Error).message, `${smtpUrl} ${from}`).toMatch(reason);
      expect((err as Error).message).not.toContain(PASS_IN_URL);
      expect((err as Error).message).not.toContain(PASS);
    }
    await expect(setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: 'loc_nope', smtpUrl: labUrl(), from: 'a@northwind.example' })).rejects.toThrow('No location loc_nope');
  });

  it('normalises what it stores: default ports, explicit port, From with a name', async () => {
    expect((await mailbox(lab, `SMTPS://u:p@Mail.Northwind.Example`.replace('Mail.Northwind.Example', '127.0.0.1'))).smtp_url).toBe('smtps://u@127.0.0.1:465');
    expect((await mailbox(lab, `smtp://u:p@localhost`)).smtp_url).toBe('smtp://u@localhost:587');
    expect((await mailbox(lab, labUrl(), '  "Deals Desk" <deals@northwind.example> ')).from).toBe('Deals Desk <deals@northwind.example>');
    expect((await mailbox(lab, labUrl(), 'deals@northwind.example')).from).toBe('deals@northwind.example');
  });
});

// ---------------------------------------------------------------- the operator CLI

describe('operator CLI commands', () => {
  beforeEach(() => {
    // The CLI and the worker share SECRET_KEY, as in production.
    vi.stubEnv('SECRET_KEY', h.deps.config.secretKey!);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const run = (name: string, values: Record<string, string | boolean | undefined>) => MAIL_COMMANDS[name](values, [])(h.knex, h.clock);

  it('mailbox set prints the mailbox without the password; the worker then sends through it', async () => {
    const out = await run('mailbox set', { location: lab.locationId, 'smtp-url': labUrl(), from: 'Ops <ops@northwind.example>' });
    expect(out).toEqual({
      location_id: lab.locationId,
      smtp_url: `smtp://${encodeURIComponent(USER)}@127.0.0.1:${smtpPort}`,
      from: 'Ops <ops@northwind.example>',
      has_password: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(out)).not.toContain(PASS_IN_URL);
    expect(JSON.stringify(out)).not.toContain(PASS);
    const id = await queue(lab);
    await drain();
    expect((await emailRow(id)).status).toBe('sent');
    expect(inbox[0].mail.from?.value[0].address).toBe('ops@northwind.example');
  });

  it('mailbox show: the mailbox, or a clear error', async () => {
    await run('mailbox set', { location: lab.locationId, 'smtp-url': labUrl(), from: 'Ops <ops@northwind.example>' });
    const shown = await run('mailbox show', { location: lab.locationId });
    expect(shown).toMatchObject({ location_id: lab.locationId, has_password: true, from: 'Ops <ops@northwind.example>' });
    expect(JSON.stringify(shown)).not.toContain(PASS_IN_URL);
    const bare = await h.tenant('Still No Mailbox');
    await expect(run('mailbox show', { location: bare.locationId })).rejects.toThrow(/has no mailbox/);
    await expect(run('mailbox show', { location: 'loc_nope' })).rejects.toThrow('No location loc_nope');
  });

  it('mailbox set refuses what setMailbox refuses, and a policy refusal for a real location', async () => {
    await expect(run('mailbox set', { location: live.locationId, 'smtp-url': labUrl(), from: 'ops@northwind.example' })).rejects.toThrow(/not a public address/);
    await expect(run('mailbox set', { location: lab.locationId, 'smtp-url': 'ftp://x', from: 'ops@northwind.example' })).rejects.toBeInstanceOf(MailboxError);
  });

  it('mailbox set refuses a user name or password with CR, LF or another control character (raw or percent-encoded): SMTP AUTH injection; nothing stored', async () => {
    const fresh = await h.tenant('Control Char Mailbox');
    const urls = {
      encodedCrlfPassword: labUrl(smtpPort, 'pw%0D%0AMAIL%20FROM%3A%3Cx%40evil.example%3E'),
      encodedLfPassword: labUrl(smtpPort, 'pw%0Amore'),
      encodedTabPassword: labUrl(smtpPort, 'pw%09x'),
      encodedDelPassword: labUrl(smtpPort, 'pw%7Fx'),
      encodedCrUser: `smtp://us%0Der:pw@127.0.0.1:${smtpPort}`,
      rawCrlfPassword: labUrl(smtpPort, 'pw\r\nx'),
    };
    for (const [name, url] of Object.entries(urls)) {
      const err = await run('mailbox set', { location: fresh.locationId, 'smtp-url': url, from: 'ops@northwind.example' }).then(() => undefined, (e: unknown) => e);
      expect(err, name).toBeInstanceOf(MailboxError);
      expect((err as Error).message, name).toMatch(/^--smtp-url .*must not contain control characters/);
      expect((err as Error).message, name).not.toContain('pw');
    }
    expect(await h.knex('mailboxes').where({ location_id: fresh.locationId })).toHaveLength(0);
  });

  it('mailbox set tries the connection first: a wrong password or smtps:// to a plain server is refused in plain words and nothing is saved; --save-untested saves anyway', async () => {
    const fresh = await h.tenant('Tried First', { isTest: true });
    const wrong = await run('mailbox set', { location: fresh.locationId, 'smtp-url': labUrl(smtpPort, 'not-the-password'), from: 'ops@northwind.example' }).then(() => undefined, (e: unknown) => e as Error);
    expect(wrong).toBeInstanceOf(MailboxError);
    expect(wrong!.message).toBe('Not saved: The mail server turned down the user name and password. Check them and save the settings again. (To save it anyway, add --save-untested.)');
    expect(wrong!.message).not.toContain('not-the-password');
    expect(await h.knex('mailboxes').where({ location_id: fresh.locationId })).toHaveLength(0);
    // smtps:// to the plain SMTP lab server: the TLS handshake fails, and the message says what to change.
    const tls = await run('mailbox set', { location: fresh.locationId, 'smtp-url': labUrl().replace(/^smtp:/, 'smtps:'), from: 'ops@northwind.example' }).then(() => undefined, (e: unknown) => e as Error);
    expect(tls!.message).toMatch(/^Not saved: We could not set up a secure connection with 127\.0\.0\.1 \(port \d+\)\..*use smtp:\/\/ instead of smtps:\/\//);
    expect(await h.knex('mailboxes').where({ location_id: fresh.locationId })).toHaveLength(0);
    const anyway = await run('mailbox set', { location: fresh.locationId, 'smtp-url': labUrl(smtpPort, 'not-the-password'), from: 'ops@northwind.example', 'save-untested': true });
    expect(anyway).toMatchObject({ location_id: fresh.locationId, has_password: true });
    expect(inbox).toEqual([]); // trying the connection sends nothing
  });

  it('mailbox test connects, authenticates and sends one message to the given address; a clear error without a mailbox', async () => {
    const fresh = await h.tenant('Mailbox Test Co', { isTest: true });
    await expect(run('mailbox test', { location: fresh.locationId, to: 'rosa@catcher.example' })).rejects.toThrow(/has no mailbox/);
    await run('mailbox set', { location: fresh.locationId, 'smtp-url': labUrl(), from: 'Ops <ops@northwind.example>' });
    const out = await run('mailbox test', { location: fresh.locationId, to: 'rosa@catcher.example' });
    expect(out).toMatchObject({ sent: true, to: 'rosa@catcher.example', from: 'ops@northwind.example', smtp_host: '127.0.0.1', smtp_port: smtpPort });
    expect(inbox).toHaveLength(1);
    expect(inbox[0].rcpt).toEqual(['rosa@catcher.example']);
    expect(inbox[0].user).toBeTruthy(); // authenticated
    expect(inbox[0].mail.subject).toBe('Test message from Deal-Funding');
    expect(JSON.stringify(out)).not.toContain(PASS_IN_URL);
    expect(() => MAIL_COMMANDS['mailbox test']({ location: fresh.locationId, to: 'not an address' }, [])).toThrow(MailUsageError);
    // The same address policy as sending: a production location cannot test against 127.0.0.1.
    await h.knex('mailboxes').insert({ ...(await h.knex('mailboxes').where({ location_id: fresh.locationId }).first()), location_id: live.locationId }).onConflict('location_id').merge();
    await expect(run('mailbox test', { location: live.locationId, to: 'rosa@catcher.example' })).rejects.toThrow(/^The test message was not sent: This mail server address is not allowed/);
    expect(inbox).toHaveLength(1);
  });

  it('usage errors are raised before anything runs', () => {
    expect(() => MAIL_COMMANDS['mailbox set']({ location: lab.locationId, from: 'a@northwind.example' }, [])).toThrow(MailUsageError);
    expect(() => MAIL_COMMANDS['mailbox set']({ location: lab.locationId, 'smtp-url': labUrl() }, [])).toThrow('--from is required');
    expect(() => MAIL_COMMANDS['mailbox show']({}, [])).toThrow('--location is required');
    expect(() => MAIL_COMMANDS['email list']({}, [])).toThrow(MailUsageError);
    expect(() => MAIL_COMMANDS['email list']({ location: lab.locationId, status: 'bounced' }, [])).toThrow(/--status must be one of queued, sent, failed, dead, no_mailbox/);
  });

  it('email list: every message of the location, newest first, without bodies, filterable by status', async () => {
    const shop = await h.tenant('Email List Co');
    await mailbox(shop, labUrl());
    const a = await queue(shop, { subject: 'first' });
    await drain();
    h.clock.advance(1000);
    mode = 'reject550';
    const b = await queue(shop, { subject: 'second' });
    await drain();
    h.clock.advance(1000);
    mode = 'accept';
    const c = await queue(shop, { subject: 'third' });
    await drain();
    const all = (await run('email list', { location: shop.locationId })) as { data: Record<string, unknown>[] };
    expect(all.data.map((e) => e.id)).toEqual([c, b, a]);
    expect(all.data.map((e) => e.status)).toEqual(['sent', 'dead', 'sent']);
    expect(all.data[0]).toEqual({
      id: c, location_id: shop.locationId, kind: 'test_message', to: [TO], subject: 'third', status: 'sent', attempts: 1,
      last_error: null, message_id: expect.stringMatching(/^<.+@northwind\.example>$/), sent_at: h.clock.now().toISOString(),
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    });
    expect(JSON.stringify(all)).not.toContain('Three offers'); // no bodies
    const dead = (await run('email list', { location: shop.locationId, status: 'dead' })) as { data: Record<string, unknown>[] };
    expect(dead.data.map((e) => e.id)).toEqual([b]);
    expect(dead.data[0].last_error).toBe('SMTP server rejected every recipient (SMTP 550)');
    // Another location's messages are not listed.
    expect(((await run('email list', { location: lab.locationId })) as { data: { id: string }[] }).data.map((e) => e.id)).not.toContain(a);
    await expect(run('email list', { location: 'loc_nope' })).rejects.toThrow('No location loc_nope');
  });
});
