import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundSmtpLimits } from '../../src/config';
import type { DnsResolver } from '../../src/features/inbound/sender-auth';
import { startInboundSmtp, type InboundSmtp } from '../../src/features/inbound/smtp-listener';
import { runSweeps } from '../../src/jobs/maintenance';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// The self-hosted SMTP listener for lender replies, end to end: a deal is submitted by email (sent
// through a throwaway SMTP server on loopback), and the lender's reply is delivered with nodemailer
// to the listener, as a mail server delivering to our MX would. It is stored, matched by its
// Reply-To token, classified and applied, and everything is checked through the API. Recipients
// that are no location's mailbox are refused at RCPT, an oversized message at DATA, a body that is
// not an email after DATA; in none of those cases is anything stored, and no log line carries the
// message's text or addresses.
//
// Sender authentication (M5) is checked for real, without touching real DNS: the listener's
// resolver serves TXT records from DNS below (SPF for atlas.example allows 127.0.0.1, so a plain
// delivery with MAIL FROM dana@atlas.example passes SPF aligned; DKIM keys generated here). Volume
// limits (M6) run on the injected clock, each against its own listener and location.

/** A DKIM key pair; the public half published as `<selector>._domainkey.<domain>`. */
function dkimKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), record: `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}` };
}
const ATLAS_KEY = dkimKey();
const EVIL_KEY = dkimKey();
const DNS: Record<string, string[]> = {
  'atlas.example': ['v=spf1 ip4:127.0.0.1 -all'],
  'evil.example': ['v=spf1 ip4:127.0.0.0/8 -all'],
  'sel._domainkey.atlas.example': [ATLAS_KEY.record],
  'sel._domainkey.evil.example': [EVIL_KEY.record],
};
const dnsQueries: string[] = [];
const resolver: DnsResolver = async (domain, rrtype) => {
  dnsQueries.push(`${rrtype} ${domain}`);
  const records = rrtype === 'TXT' ? DNS[domain.toLowerCase()] : undefined;
  if (!records) throw Object.assign(new Error(`${domain} ${rrtype}: no such record (test table)`), { code: 'ENOTFOUND' });
  return records.map((r) => [r]);
};

const MAX_BYTES = 64 * 1024; // the listener's size limit in this file (INBOUND_MAX_BYTES in production)
// The deal asks $75,000: an approval of the full ask (less would be a counter, issue 26).
const REPLY = 'Approved for $75,000 at a 1.30 factor rate, 120 days, daily payments.';

let h: Harness;
let t: Tenant;
let other: Tenant;
let sink: SmtpSink;
let worker: Worker;
let smtp: InboundSmtp;
let logsFrom = 0;

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  t = await h.tenant('Northwind Capital');
  other = await h.tenant('Elsewhere Brokers');
  // Where the submission emails go out (the lenders' side, as far as this test cares).
  sink = await startSmtpSink();
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Northwind Deals <deals@northwind.example>' });
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: other.locationId, smtpUrl: sink.url, from: 'Replies@Elsewhere.example' });
  worker = new Worker(h.deps, { concurrency: 2 });
  h.deps.config.inboundTrustedAuthservIds = ['mx.relay.test'];
  smtp = await startInboundSmtp(h.deps, { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, resolver, limits: { clientMessages: 1000, clientBytes: 1e9, locationMessages: 1000, locationBytes: 1e9 } });
  logsFrom = h.logs.length;
});
afterAll(async () => {
  await smtp?.close();
  await worker?.close();
  await sink?.close();
  await h?.close();
});

type Body = { data: any; meta: Record<string, any>; error?: Record<string, any> };
async function post(path: string, body: unknown, tenant: Tenant = t) {
  const res = await h.api.post(path).set(tenant.auth('admin')).set('Idempotency-Key', `k-${Math.random()}`).send(body as object);
  return res as unknown as { status: number; body: Body };
}
const get = async (path: string, tenant: Tenant = t, query: Record<string, string> = {}) =>
  (await h.api.get(path).set(tenant.auth('admin')).query(query)) as unknown as { status: number; body: Body };
const stored = async (where: Record<string, unknown> = {}) => Number(((await h.knex('inbound_emails').where(where).count('* as c')) as { c: number | string }[])[0].c);

/** A deal submitted by email to a new lender and sent; its submission, trace code and Reply-To. */
async function submitted(tenant: Tenant = t) {
  const biz = await post('/v1/businesses', { legal_name: 'Sunrise Bakery LLC' }, tenant);
  const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 75000 }, tenant);
  const lender = await post('/v1/lenders', { name: `Atlas ${Math.random().toString(36).slice(2, 6)}`, submission_email: 'submissions@atlas.example' }, tenant);
  const res = await post(`/v1/deals/${deal.body.data.id}/submissions`, { lender_ids: [lender.body.data.id] }, tenant);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data[0].id as string;
  const { trace_code: traceCode } = (await h.knex('submissions').where({ id }).first('trace_code')) as { trace_code: string };
  expect(traceCode).toMatch(/^SVC-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  sink.inbox.length = 0;
  await worker.drain();
  expect(sink.inbox).toHaveLength(1);
  const sent = sink.inbox[0].mail;
  return { id, dealId: deal.body.data.id as string, lenderId: lender.body.data.id as string, traceCode, replyTo: sent.replyTo!.value[0].address!, subject: sent.subject! };
}
const tagged = (traceCode: string) => `deals+${traceCode.replace(/-/g, '').toLowerCase()}@northwind.example`;

/** A well-formed message of exactly `bytes` bytes (as counted in DATA: lines ending CRLF, none starting with a dot). */
function rawOfSize(bytes: number): Buffer {
  const head = `From: Dana Reyes <dana@atlas.example>\r\nTo: deals@northwind.example\r\nSubject: statements\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@atlas.example>\r\n\r\n`;
  let body = '';
  let left = bytes - head.length;
  while (left > 0) {
    const line = 'y'.repeat(Math.max(0, Math.min(76, left - 2)));
    body += `${line}\r\n`;
    left -= line.length + 2;
  }
  const raw = Buffer.from(head + body, 'latin1');
  expect(raw.length).toBe(bytes);
  return raw;
}

type Outcome = { ok: true; response: string; accepted: string[]; rejected: string[] } | { ok: false; responseCode?: number; command?: string; response?: string };
/** Delivers one message to the listener as a mail server would (no TLS, no AUTH). */
async function deliver(mail: Mail.Options, via: { port?: number; localAddress?: string } = {}): Promise<Outcome> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: via.port ?? smtp.port, secure: false, ignoreTLS: true, localAddress: via.localAddress });
  try {
    const info = await transport.sendMail({ from: 'Dana Reyes <dana@atlas.example>', ...mail });
    return { ok: true, response: info.response, accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
  } catch (e) {
    const err = e as { responseCode?: number; command?: string; response?: string };
    return { ok: false, responseCode: err.responseCode, command: err.command, response: err.response };
  } finally {
    transport.close();
  }
}

/** A plain SMTP conversation: each line sent once the previous reply is complete; the replies. */
function converse(lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(smtp.port, '127.0.0.1');
    const replies: string[] = [];
    let buffer = '';
    let current = '';
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        current += `${line}\n`;
        if (/^\d{3} /.test(line)) {
          replies.push(current.trimEnd());
          current = '';
          const next = lines[replies.length - 1];
          if (next === undefined) {
            socket.end();
            resolve(replies);
          } else socket.write(`${next}\r\n`);
        }
      }
    });
  });
}

describe(`the inbound SMTP listener (${ENGINE})`, () => {
  it('advertises SIZE, and neither AUTH nor STARTTLS (it is an MX for the reply addresses)', async () => {
    const [greeting, ehlo] = await converse(['EHLO relay.example', 'QUIT']);
    expect(greeting).toMatch(/^220 /);
    expect(ehlo).toContain(`SIZE ${MAX_BYTES}`);
    expect(ehlo).not.toMatch(/AUTH|STARTTLS/);
  });

  it('a lender reply to the Reply-To address is stored, matched by reply_to, and answers the submission', async () => {
    const s = await submitted();
    expect(s.replyTo).toBe(tagged(s.traceCode));
    const before = await stored();
    const out = await deliver({ to: s.replyTo, subject: `RE: ${s.subject}`, text: `${REPLY}\n\nDana Reyes\nAtlas Funding` });
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true, accepted: [s.replyTo], rejected: [] });
    expect((out as { response: string }).response).toMatch(/^250 /);
    expect(await stored()).toBe(before + 1);

    const list = await get('/v1/inbound-emails', t, { status: 'processed' });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const email = list.body.data.find((e: { submission_id: string }) => e.submission_id === s.id);
    expect(email).toMatchObject({
      status: 'processed', matched_by: 'reply_to', submission_id: s.id, deal_id: s.dealId, lender_id: s.lenderId,
      from: { address: 'dana@atlas.example', name: 'Dana Reyes' }, to: [s.replyTo], subject: `RE: ${s.subject}`,
      classification: { type: 'approved', offers: [{ amount: 75000, factor_rate: 1.3, term: 120, term_unit: 'days', payment_frequency: 'daily' }] },
    });
    expect(email.text).toContain(REPLY);
    expect(email.offer_ids).toHaveLength(1);
    const sub = await get(`/v1/submissions/${s.id}`);
    expect(sub.body.data).toMatchObject({ status: 'approved', response_type: 'approved' });
    // Nothing reached the other location.
    expect(await stored({ location_id: other.locationId })).toBe(0);
  });

  it('the envelope recipient counts: a reply whose own To does not show the tagged address (a Bcc) still finds its submission', async () => {
    const s = await submitted();
    const out = await deliver({ to: 'Underwriting <uw@atlas.example>', envelope: { from: 'dana@atlas.example', to: [s.replyTo] }, subject: 'Decision', text: REPLY });
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
    const email = (await get('/v1/inbound-emails', t, { status: 'processed' })).body.data.find((e: { submission_id: string }) => e.submission_id === s.id);
    expect(email).toMatchObject({ status: 'processed', matched_by: 'reply_to' });
    expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('approved');
  });

  it('one message for two locations is stored once for each; two addresses of one location, once', async () => {
    const s = await submitted();
    const before = { t: await stored({ location_id: t.locationId }), other: await stored({ location_id: other.locationId }) };
    const out = await deliver({ to: [s.replyTo, 'DEALS@Northwind.Example', 'replies+anything@elsewhere.example'], subject: 'Re: your file', text: REPLY });
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true, rejected: [] });
    expect(await stored({ location_id: t.locationId })).toBe(before.t + 1);
    expect(await stored({ location_id: other.locationId })).toBe(before.other + 1);
    // Each location matched only within itself: the other one's copy waits for review.
    const mine = (await get('/v1/inbound-emails', t, { status: 'processed' })).body.data.find((e: { submission_id: string }) => e.submission_id === s.id);
    expect(mine).toMatchObject({ matched_by: 'reply_to' });
    const theirs = (await get('/v1/inbound-emails', other, { status: 'unmatched' })).body.data;
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ submission_id: null, review_reason: 'no_match' });
  });

  it('a recipient that is no location\'s mailbox is refused with 550 at RCPT, and nothing is stored', async () => {
    const before = await stored();
    const mine = await stored({ location_id: t.locationId });
    for (const to of ['nobody@northwind.example', 'deals@other.example', 'deals@northwind.example.evil', 'deals@example', 'nobody+deals@northwind.example']) {
      const out = await deliver({ to, subject: 'hello', text: REPLY });
      expect(out, `${to}: ${JSON.stringify(out)}`).toMatchObject({ ok: false, responseCode: 550 });
      expect((out as { response: string }).response).toMatch(/^550 5\.1\.1 No such mailbox here/);
    }
    // With a good recipient beside it, only the bad one is refused; the message goes to the good one.
    const mixed = await deliver({ to: ['nobody@northwind.example', 'deals@northwind.example'], subject: 'hello', text: 'Any news on the bakery file?' });
    expect(mixed).toMatchObject({ ok: true, accepted: ['deals@northwind.example'], rejected: ['nobody@northwind.example'] });
    expect(await stored()).toBe(before + 1);
    expect(await stored({ location_id: t.locationId })).toBe(mine + 1);
  });

  it('a message over the size limit is refused with 552 and nothing is stored; one of exactly the limit is taken', async () => {
    const before = await stored();
    const envelope = { from: 'dana@atlas.example', to: ['deals@northwind.example'] };
    const over = await deliver({ envelope, raw: rawOfSize(MAX_BYTES + 1) });
    expect(over, JSON.stringify(over)).toMatchObject({ ok: false, responseCode: 552, command: 'DATA' });
    expect((over as { response: string }).response).toMatch(/^552 5\.3\.4 /);
    const far = await deliver({ to: 'deals@northwind.example', subject: 'statements', text: 'x'.repeat(4 * MAX_BYTES) });
    expect(far, JSON.stringify(far)).toMatchObject({ ok: false, responseCode: 552 });
    expect(await stored()).toBe(before);
    // Declared up front (SIZE=): refused at MAIL FROM, before any data.
    const declared = await converse(['EHLO relay.example', `MAIL FROM:<dana@atlas.example> SIZE=${MAX_BYTES + 1}`, 'QUIT']);
    expect(declared[2]).toMatch(/^552 /);
    const exact = await deliver({ envelope, raw: rawOfSize(MAX_BYTES) });
    expect(exact, JSON.stringify(exact)).toMatchObject({ ok: true });
    expect(await stored()).toBe(before + 1);
  });

  it('a body that is not an email is refused with a 5xx after DATA, and nothing is stored', async () => {
    const before = await stored();
    const envelope = { from: 'dana@atlas.example', to: ['deals@northwind.example'] };
    for (const raw of [
      Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x0d, 0x0a, 0x62, 0x69, 0x6e, 0x61, 0x72, 0x79, 0x0d, 0x0a]),
      'just some words, no header lines at all\r\n\r\nApproved for $50,000.\r\n',
      'Subject: no sender\r\n\r\nApproved for $50,000.\r\n',
    ]) {
      const out = await deliver({ envelope, raw });
      expect(out, JSON.stringify(out)).toMatchObject({ ok: false, responseCode: 550 });
      expect((out as { response: string }).response).toMatch(/^550 5\.6\.0 /);
    }
    expect(await stored()).toBe(before);
  });

  it('a failure while storing answers 451 (the sender retries), stores nothing, and logs no value of the message', async () => {
    const s = await submitted();
    const before = await stored();
    const from = h.logs.length;
    // The database refuses the row, with the sender's address in its error message.
    await h.knex.raw(`CREATE FUNCTION inbound_smtp_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused a row from %', NEW.from_address; END $$`);
    await h.knex.raw(`CREATE TRIGGER inbound_smtp_test_refuse BEFORE INSERT ON inbound_emails FOR EACH ROW EXECUTE FUNCTION inbound_smtp_test_refuse()`);
    try {
      const out = await deliver({ to: s.replyTo, subject: 'Re: file', text: REPLY });
      expect(out, JSON.stringify(out)).toMatchObject({ ok: false, responseCode: 451 });
    } finally {
      await h.knex.raw('DROP TRIGGER inbound_smtp_test_refuse ON inbound_emails');
      await h.knex.raw('DROP FUNCTION inbound_smtp_test_refuse()');
    }
    expect(await stored()).toBe(before);
    const line = h.logs.slice(from).find((l) => l.includes('could not store a message'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 50, location_id: t.locationId, err: { message: expect.stringContaining('refused a row from [address]') } });
    expect(line).not.toContain('atlas.example');
    // The retry, once the database is well again, goes through.
    const retry = await deliver({ to: s.replyTo, subject: 'Re: file', text: REPLY });
    expect(retry).toMatchObject({ ok: true });
    expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('approved');
  });

  it('two locations with the same mailbox address: a tagged reply goes only to the owner of its submission; an untagged one to neither', async () => {
    const squatter = await h.tenant('Squatter Brokers');
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: squatter.locationId, smtpUrl: 'smtp://127.0.0.1:9', from: 'Copycat <Deals@northwind.example>' });
    try {
      const s = await submitted();
      const out = await deliver({ to: s.replyTo, subject: 'Re: file', text: REPLY });
      expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
      expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('approved');
      const before = await stored();
      const untagged = await deliver({ to: 'deals@northwind.example', subject: 'hello', text: 'Any news?' });
      expect(untagged).toMatchObject({ ok: false, responseCode: 550 });
      expect(await stored()).toBe(before);
      expect(await stored({ location_id: squatter.locationId })).toBe(0);
    } finally {
      await h.knex('mailboxes').where({ location_id: squatter.locationId }).delete();
    }
    // Nothing is remembered from one message to the next: with the copy gone, the address is one location's again.
    const before = await stored();
    expect(await deliver({ to: 'deals@northwind.example', subject: 'hello', text: 'Any news?' })).toMatchObject({ ok: true });
    expect(await stored({ location_id: t.locationId })).toBeGreaterThan(0);
    expect(await stored()).toBe(before + 1);
  });

  it('logs neither the text of a message nor its addresses', async () => {
    const logs = h.logs.slice(logsFrom).join('\n');
    expect(logs).toContain('inbound smtp: message received'); // it does log: ids, sizes, outcomes
    for (const secret of ['Approved for', '75,000', 'factor rate', 'Any news', 'northwind.example', 'atlas.example', 'elsewhere.example', 'other.example', 'dana', 'Dana Reyes', 'deals+', 'nobody']) {
      expect(logs, secret).not.toContain(secret);
    }
    // A trace code standing alone (a tag, a subject), not three letters inside a random id
    // (`inb_01…svccjzv1x5z…` once made this fail by chance).
    expect(logs.toLowerCase()).not.toMatch(/(?<![0-9a-z])svc[0-9a-z]{8}(?![0-9a-z])/);
  });
});

/** A reply to `to`, From dana@atlas.example, optionally DKIM-signed for `sign.domain` (at the injected clock's time). */
async function reply(to: string, opts: { sign?: { domain: string; key: string }; headers?: string; text?: string } = {}): Promise<Buffer> {
  h.clock.advance(1000); // each reply its own second: emailOf reads the latest
  const raw = await new MailComposer({
    from: 'Dana Reyes <dana@atlas.example>', to, subject: 'RE: your file', text: opts.text ?? REPLY, messageId: `<${Math.random().toString(36).slice(2)}@atlas.example>`,
  }).compile().build();
  let out = raw;
  if (opts.sign) {
    const signed = await dkimSign(raw, { signatureData: [{ signingDomain: opts.sign.domain, selector: 'sel', privateKey: opts.sign.key }], signTime: h.clock.now() } as unknown as Parameters<typeof dkimSign>[1]);
    expect(signed.errors).toEqual([]);
    expect(signed.signatures).toMatch(/^DKIM-Signature: /);
    out = Buffer.concat([Buffer.from(signed.signatures), raw]);
  }
  return opts.headers ? Buffer.concat([Buffer.from(opts.headers), out]) : out;
}
const emailOf = async (submissionId: string) => (await h.knex('inbound_emails').where({ submission_id: submissionId }).orderBy('created_at', 'desc').first('status', 'review_reason', 'offer_ids')) as { status: string; review_reason: string | null };

describe(`M5: sender authentication on the listener (${ENGINE})`, () => {
  it('a DKIM signature of the From domain is applied, even with an envelope sender SPF knows nothing about', async () => {
    const s = await submitted();
    const out = await deliver({ envelope: { from: 'bounces@esp-mailer.example', to: [s.replyTo] }, raw: await reply(s.replyTo, { sign: { domain: 'atlas.example', key: ATLAS_KEY.privateKey } }) });
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
    expect(await emailOf(s.id)).toMatchObject({ status: 'processed', review_reason: null });
    expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('approved');
    expect(dnsQueries).toContain('TXT sel._domainkey.atlas.example');
  });

  it('an unsigned forged From of the lender\'s domain (SPF passes only for the forger\'s own domain) waits for review', async () => {
    const s = await submitted();
    const out = await deliver({ envelope: { from: 'forger@evil.example', to: [s.replyTo] }, raw: await reply(s.replyTo) });
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true }); // stored, for a person
    expect(await emailOf(s.id)).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated' });
    expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('sent');
    expect(Number(((await h.knex('offers').where({ submission_id: s.id }).count('* as c')) as { c: string }[])[0].c)).toBe(0);
  });

  it('a valid signature of another domain, or one that no longer matches the bytes, is not applied', async () => {
    const s = await submitted();
    const other = await deliver({ envelope: { from: 'bounce@esp-mailer.example', to: [s.replyTo] }, raw: await reply(s.replyTo, { sign: { domain: 'evil.example', key: EVIL_KEY.privateKey } }) });
    expect(other).toMatchObject({ ok: true });
    expect(await emailOf(s.id)).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated' });
    // Signed by atlas.example, then altered on the way.
    const signed = (await reply(s.replyTo, { sign: { domain: 'atlas.example', key: ATLAS_KEY.privateKey } })).toString('latin1').replace('$75,000', '$95,000');
    expect(await deliver({ envelope: { from: 'bounce@esp-mailer.example', to: [s.replyTo] }, raw: signed })).toMatchObject({ ok: true });
    expect(await emailOf(s.id)).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated' });
    expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('sent');
  });

  it('an Authentication-Results header written by the sender is ignored; a trusted relay\'s is honoured', async () => {
    const s = await submitted();
    const forged = 'Authentication-Results: mx.relay.test; dkim=pass header.d=atlas.example; spf=pass smtp.mailfrom=dana@atlas.example\r\n';
    expect(await deliver({ envelope: { from: 'forger@evil.example', to: [s.replyTo] }, raw: await reply(s.replyTo, { headers: forged }) })).toMatchObject({ ok: true });
    expect(await emailOf(s.id)).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated' });
    // A listener behind a relay on 127.0.0.1: that relay's header is the verdict (the first one, with the trusted id).
    const behind = await startInboundSmtp(h.deps, { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, resolver, trustedRelays: ['127.0.0.1'] });
    try {
      const none = await deliver({ envelope: { from: 'dana@atlas.example', to: [s.replyTo] }, raw: await reply(s.replyTo, { headers: `Authentication-Results: mx.relay.test; dkim=none; spf=fail smtp.mailfrom=dana@atlas.example\r\n${forged}` }) }, { port: behind.port });
      expect(none).toMatchObject({ ok: true });
      expect(await emailOf(s.id)).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated' }); // SPF would pass, but the relay's word counts here
      const good = await deliver({ envelope: { from: 'relay@mx.relay.test', to: [s.replyTo] }, raw: await reply(s.replyTo, { headers: forged }) }, { port: behind.port });
      expect(good).toMatchObject({ ok: true });
      expect(await emailOf(s.id)).toMatchObject({ status: 'processed', review_reason: null });
      expect((await get(`/v1/submissions/${s.id}`)).body.data.status).toBe('approved');
    } finally {
      await behind.close();
    }
  });
});

describe(`M6: volume limits on the listener (${ENGINE})`, () => {
  let n = 0;
  /** A new location with its own mailbox domain, and a listener with `limits`. */
  async function limited(limits: Partial<InboundSmtpLimits>) {
    const domain = `limits${++n}-${Math.random().toString(36).slice(2, 6)}.example`;
    const tenant = await h.tenant(`Limits ${n}`);
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: tenant.locationId, smtpUrl: sink.url, from: `in@${domain}` });
    const listener = await startInboundSmtp(h.deps, { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, resolver, limits: { clientMessages: 1000, clientBytes: 1e9, locationMessages: 1000, locationBytes: 1e9, locationDailyBytes: 1e9, windowMs: 60_000, ...limits } });
    const to = `in@${domain}`;
    const l = {
      listener, tenant,
      send: (opts: { bytes?: number; from?: string } = {}) =>
        deliver(opts.bytes ? { envelope: { from: 'dana@atlas.example', to: [to] }, raw: rawOfSize(opts.bytes) } : { to, subject: 'hello', text: `Any news? ${Math.random()}` }, { port: l.listener.port, localAddress: opts.from }),
      count: () => stored({ location_id: tenant.locationId }),
    };
    return l;
  }

  it('per client address: messages beyond the window\'s count get 421; another address still gets through; the next window opens', async () => {
    const l = await limited({ clientMessages: 3 });
    try {
      for (let i = 0; i < 3; i++) expect(await l.send(), `message ${i}`).toMatchObject({ ok: true });
      const fourth = await l.send();
      expect(fourth, JSON.stringify(fourth)).toMatchObject({ ok: false, responseCode: 421 });
      expect((fourth as { response: string }).response).toMatch(/^421 4\.7\.0 /);
      expect(await l.count()).toBe(3);
      expect(await l.send({ from: '127.0.0.2' })).toMatchObject({ ok: true });
      h.clock.advance(60_000);
      expect(await l.send()).toMatchObject({ ok: true });
      expect(await l.count()).toBe(5);
    } finally {
      await l.listener.close();
    }
  });

  it('per client address: bytes beyond the window\'s budget get 421 after DATA and are not stored', async () => {
    const l = await limited({ clientBytes: 25_000 });
    try {
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
      const third = await l.send({ bytes: 10_000 });
      expect(third, JSON.stringify(third)).toMatchObject({ ok: false, responseCode: 421 });
      expect(await l.count()).toBe(2);
      h.clock.advance(60_000);
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
      expect(await l.count()).toBe(3);
    } finally {
      await l.listener.close();
    }
  });

  it('per location: messages beyond the window\'s count get 452 at RCPT, from any client address', async () => {
    const l = await limited({ locationMessages: 2 });
    try {
      expect(await l.send()).toMatchObject({ ok: true });
      expect(await l.send({ from: '127.0.0.2' })).toMatchObject({ ok: true });
      const third = await l.send({ from: '127.0.0.3' });
      expect(third, JSON.stringify(third)).toMatchObject({ ok: false, responseCode: 452, command: 'RCPT TO' });
      expect(await l.count()).toBe(2);
      h.clock.advance(60_000);
      expect(await l.send({ from: '127.0.0.3' })).toMatchObject({ ok: true });
    } finally {
      await l.listener.close();
    }
  });

  it('per location: bytes beyond the window\'s budget get 452 after DATA, nothing stored', async () => {
    const l = await limited({ locationBytes: 25_000 });
    try {
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
      expect(await l.send({ bytes: 10_000, from: '127.0.0.2' })).toMatchObject({ ok: true });
      const third = await l.send({ bytes: 10_000, from: '127.0.0.3' });
      expect(third, JSON.stringify(third)).toMatchObject({ ok: false, responseCode: 452 });
      expect((third as { response: string }).response).toMatch(/^452 4\.2\.2 /);
      expect(await l.count()).toBe(2);
      h.clock.advance(60_000);
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
    } finally {
      await l.listener.close();
    }
  });

  it('per location and UTC day: a byte cap read from what was stored (452 until the next day)', async () => {
    const l = await limited({ locationDailyBytes: 35_000 });
    try {
      for (let i = 0; i < 3; i++) {
        expect(await l.send({ bytes: 10_000, from: `127.0.0.${i + 1}` }), `message ${i}`).toMatchObject({ ok: true });
        h.clock.advance(60_000); // past every window: only the day counts
      }
      const over = await l.send({ bytes: 10_000 });
      expect(over, JSON.stringify(over)).toMatchObject({ ok: false, responseCode: 452 });
      expect((over as { response: string }).response).toContain('daily');
      // A restarted listener (no counters in memory) still knows: the day's bytes are in the database.
      await l.listener.close();
      l.listener = await startInboundSmtp(h.deps, { host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, resolver, limits: { locationDailyBytes: 35_000 } });
      const again = await l.send({ bytes: 10_000 });
      expect(again, JSON.stringify(again)).toMatchObject({ ok: false, responseCode: 452 });
      expect(await l.count()).toBe(3);
      const t0 = h.clock.now();
      h.clock.set(new Date(Date.UTC(t0.getUTCFullYear(), t0.getUTCMonth(), t0.getUTCDate() + 1, 0, 0, 1)));
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
    } finally {
      await l.listener.close();
    }
  });

  it('retention: an unmatched reply\'s raw message is emptied by the maintenance sweep after INBOUND_UNMATCHED_RAW_DAYS; matched ones keep theirs', async () => {
    const s = await submitted();
    const l = await limited({});
    const days = h.deps.config.inboundUnmatchedRawDays;
    h.deps.config.inboundUnmatchedRawDays = 2;
    try {
      expect(await l.send({ bytes: 10_000 })).toMatchObject({ ok: true });
      expect(await deliver({ to: s.replyTo, subject: 'RE', text: REPLY })).toMatchObject({ ok: true });
      const raw = async (where: Record<string, unknown>) => ((await h.knex('inbound_emails').where(where).first('raw', 'status', 'text_body')) as { raw: Buffer; status: string; text_body: string });
      expect((await raw({ location_id: l.tenant.locationId })).raw.length).toBeGreaterThan(9_000);
      h.clock.advance(2 * 24 * 3600_000 - 60_000);
      await runSweeps(h.deps);
      expect((await raw({ location_id: l.tenant.locationId })).raw.length).toBeGreaterThan(9_000); // not yet
      h.clock.advance(120_000);
      await runSweeps(h.deps);
      const swept = await raw({ location_id: l.tenant.locationId });
      expect(swept).toMatchObject({ status: 'unmatched' });
      expect(swept.raw.length).toBe(0);
      expect((await raw({ submission_id: s.id })).raw.length).toBeGreaterThan(100); // processed: kept
      const listed = await get('/v1/inbound-emails', l.tenant, { status: 'unmatched' });
      expect(listed.body.data).toHaveLength(1); // the record stays in the review queue
    } finally {
      h.deps.config.inboundUnmatchedRawDays = days;
      await l.listener.close();
    }
  });
});
