import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Worker } from '../../src/jobs/worker';
import { buildSubmissionPackage } from '../../src/features/submissions/package';
import { registerAttachmentSource, type AttachmentSourceContext } from '../../src/mail/attachments';
import { OutgoingEmailError, queueEmail, type OutgoingEmail } from '../../src/mail/mail.outbox';
import { registerMailJobs, setMailTimeouts } from '../../src/mail/mail.sender';
import { setMailbox } from '../../src/mail/mailbox';
import { refusedDials, startHarness, type Harness, type Tenant } from '../support/harness';

// The parts of a message beyond plain text (issue 10, submission emails): an HTML alternative, Cc,
// a Reply-To, and attachments produced at send time by a registered source. A real SMTP server
// (smtp-server on 127.0.0.1, login required) receives everything and mailparser reads it; the PDF is
// a real submission package (pdf-lib), built by a source this file registers. Time is the harness's
// ManualClock: retries are due only when the clock is advanced.

const USER = 'mailer@northwind.example';
const PASS = 'pa:ss/w@rd-7Hq9#Zx';
const TO = 'underwriting@lender.example';
const CC = ['deals-desk@northwind.example', 'dana.whitfield@client.example'];
const REPLY_TO = 'reply+sub_01hx4k9m@inbound.northwind.example';
const TRACE = 'SVC-7K3M-Q9TZ';
const GENERATED_AT = new Date('2025-03-14T15:09:26.000Z');
const MIN = 60_000;

type Mode = 'accept' | 'defer451AfterData';
interface Arrived {
  mail: ParsedMail;
  /** The message as it came over the wire. */
  raw: string;
  rcpt: string[];
}

let h: Harness;
let lab: Tenant;
let worker: Worker;
let smtp: SMTPServer;
let smtpPort: number;
let mode: Mode = 'accept';
let connections = 0;
let inbox: Arrived[] = [];
let deferred: Arrived[] = []; // received in full, then answered 451
const restores: (() => void)[] = [];

// ---------------------------------------------------------------- attachment sources of this file

/** The submission package for a trace code: deterministic, rebuilt identically from the same input. */
const packageFor = (traceCode: string) =>
  buildSubmissionPackage({
    traceCode,
    generatedAt: GENERATED_AT,
    location: { name: 'Northwind Capital Partners' },
    lender: { name: 'Harbor Funding' },
    business: { legal_name: 'Acme Bakery LLC', dba: 'Acme Bakery', industry: 'Food service', state: 'NY' },
    deal: { requested_amount: 75_000, product_type: 'mca', use_of_funds: 'A second oven', annual_revenue: 1_200_000 },
    owners: [{ full_name: 'Dana Whitfield', role: 'Owner', ownership_percent: 100 }],
    documents: [],
  });

const packageCalls: { ref: string; ctx: AttachmentSourceContext }[] = [];
let flakyFailures = 0; // how many more calls of `test_flaky` throw
let flakyCalls = 0;
const FLAKY_TEXT = 'ECONNRESET reading s3://bucket/private/key?X-Amz-Signature=deadbeef';

beforeAll(async () => {
  registerMailJobs();
  restores.push(
    registerAttachmentSource('test_package', async (_deps, ref, ctx) => {
      packageCalls.push({ ref, ctx });
      return packageFor(ref);
    }),
    registerAttachmentSource('test_flaky', async (_deps, ref) => {
      flakyCalls++;
      if (flakyFailures > 0) {
        flakyFailures--;
        throw Object.assign(new Error(FLAKY_TEXT), { code: 'ECONNRESET' });
      }
      return new TextEncoder().encode(`csv for ${ref}\n1,2,3\n`);
    }),
    registerAttachmentSource('test_hangs', (_deps, _ref, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))),
    registerAttachmentSource('test_empty', async () => new Uint8Array(0)),
  );
  h = await startHarness();
  lab = await h.tenant('Northwind Capital Partners', { isTest: true });
  worker = new Worker(h.deps);

  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true, // plain loopback only
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 30 * 1024 * 1024,
    onConnect(_session, cb) {
      connections++;
      cb();
    },
    onAuth(auth, _session, cb) {
      if (auth.username === USER && auth.password === PASS) return cb(null, { user: 'mailer' });
      cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      const whole = new Promise<Buffer>((resolve) => stream.on('end', () => resolve(Buffer.concat(chunks))));
      whole.then(async (raw) => ({ raw: raw.toString('latin1'), mail: await simpleParser(raw) })).then(
        ({ raw, mail }) => {
          const arrived = { mail, raw, rcpt: session.envelope.rcptTo.map((r) => r.address) };
          if (mode === 'defer451AfterData') {
            deferred.push(arrived);
            return cb(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          }
          inbox.push(arrived);
          cb();
        },
        (err: Error) => cb(err),
      );
    },
  });
  smtpPort = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)));
  smtp.on('error', () => undefined);
  await setMailbox(h.knex, h.deps.secrets, h.clock, {
    locationId: lab.locationId,
    smtpUrl: `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(PASS)}@127.0.0.1:${smtpPort}`,
    from: 'Northwind Capital <deals@northwind.example>',
  });
});

afterAll(async () => {
  // No source's own text (nor the password) ever reached a stored error or a log line.
  const errors = [
    ...(await h.knex('outgoing_emails').whereNotNull('last_error').pluck('last_error')),
    ...(await h.knex('jobs').whereNotNull('last_error').pluck('last_error')),
  ].join('\n');
  expect(errors).not.toContain('s3://');
  expect(errors).not.toContain('X-Amz-Signature');
  expect(h.logs.join('\n')).not.toContain('X-Amz-Signature');
  expect(h.logs.join('\n')).not.toContain(PASS);
  expect(refusedDials).toEqual([]); // nothing ever tried to leave this machine
  for (const restore of restores.reverse()) restore();
  await worker?.close();
  await new Promise((resolve) => (smtp ? smtp.close(() => resolve(undefined)) : resolve(undefined)));
  await h?.close();
});

beforeEach(() => {
  mode = 'accept';
  inbox = [];
  deferred = [];
  packageCalls.length = 0;
  flakyCalls = 0;
  flakyFailures = 0;
});
afterEach(async () => {
  await h.knex('jobs').where({ status: 'queued' }).update({ status: 'dead' });
});

// ---------------------------------------------------------------- helpers

const HTML = '<p>Hello Harbor Funding,</p><p>Please find <b>Acme Bakery &amp; Co</b> attached. Ref <code>SVC-7K3M-Q9TZ</code>.</p>';
const TEXT = 'Hello Harbor Funding,\n\nPlease find Acme Bakery & Co attached. Ref SVC-7K3M-Q9TZ.';

const submissionEmail = (extra: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
  locationId: lab.locationId,
  kind: 'submission_package',
  to: [TO],
  subject: `New submission: Acme Bakery LLC [${TRACE}]`,
  text: TEXT,
  html: HTML,
  cc: CC,
  replyTo: REPLY_TO,
  attachments: [{ filename: `Acme Bakery LLC - ${TRACE}.pdf`, contentType: 'application/pdf', source: { kind: 'test_package', ref: TRACE } }],
  ...extra,
});

const queue = (msg: OutgoingEmail) => h.knex.transaction((trx) => queueEmail(trx, h.clock, msg));
const emailRow = (id: string) => h.knex('outgoing_emails').where({ id }).first();
const jobOf = async (id: string) => (await h.knex('jobs').where({ queue: 'email.send' }).select()).find((j) => (typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload).email_id === id);
const drain = () => worker.drain();
const addresses = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address));
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

// ---------------------------------------------------------------- delivery

describe('html, cc, reply-to and an attachment', () => {
  it('arrive intact: html and text alternatives, Cc, Reply-To, the PDF bytes with their type and name', async () => {
    const expected = await packageFor(TRACE);
    const id = await queue(submissionEmail());

    // Stored: the parts, and the attachment as a reference (no bytes in the table).
    const stored = await emailRow(id);
    expect(stored).toMatchObject({ status: 'queued', html_body: HTML, reply_to: REPLY_TO });
    expect(json(stored.cc_addresses)).toEqual(CC);
    expect(json(stored.attachments)).toEqual([{ filename: `Acme Bakery LLC - ${TRACE}.pdf`, content_type: 'application/pdf', source: { kind: 'test_package', ref: TRACE } }]);
    expect(packageCalls).toHaveLength(0); // produced at send time, not at queue time

    await drain();

    const row = await emailRow(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(inbox).toHaveLength(1);
    const { mail, rcpt } = inbox[0];
    expect(rcpt).toEqual([TO, ...CC]); // Cc recipients are in the envelope too
    expect(addresses(mail.to)).toEqual([TO]);
    expect(addresses(mail.cc)).toEqual(CC);
    expect(mail.replyTo?.value).toEqual([{ name: '', address: REPLY_TO }]);
    expect(mail.messageId).toBe(row.message_id);
    expect(mail.subject).toBe(`New submission: Acme Bakery LLC [${TRACE}]`);
    expect(mail.html).toBe(HTML);
    expect(mail.text?.trim()).toBe(TEXT);
    expect(String(mail.headers.get('content-type') && (mail.headers.get('content-type') as { value: string }).value)).toBe('multipart/mixed');

    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.filename).toBe(`Acme Bakery LLC - ${TRACE}.pdf`);
    expect(pdf.contentDisposition).toBe('attachment');
    expect(Buffer.compare(pdf.content, Buffer.from(expected))).toBe(0);
    const doc = await PDFDocument.load(pdf.content);
    expect(doc.getKeywords()).toContain(TRACE);

    // The source was asked once, with the message's scope.
    expect(packageCalls).toHaveLength(1);
    expect(packageCalls[0].ref).toBe(TRACE);
    expect(packageCalls[0].ctx).toMatchObject({ locationId: lab.locationId, emailId: id });
  });

  it('the html alternative sits beside the text in multipart/alternative (raw MIME)', async () => {
    const id = await queue(submissionEmail());
    await drain();
    expect((await emailRow(id)).status).toBe('sent');
    const { raw } = inbox[0];
    expect(raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8/m);
    expect(raw).toMatch(/^Content-Type: text\/html; charset=utf-8/m);
    expect(raw).toMatch(/^Content-Type: application\/pdf; name=/m);
    expect(raw).toMatch(/^Reply-To: reply\+sub_01hx4k9m@inbound\.northwind\.example\r$/m);
    expect(raw).toMatch(/^Cc: deals-desk@northwind\.example, dana\.whitfield@client\.example\r$/m);
  });

  it('several attachments in order, a Unicode file name, any content type; a message without parts has none', async () => {
    const id = await queue(
      submissionEmail({
        html: null,
        cc: [],
        replyTo: null,
        attachments: [
          { filename: 'Résumé — Café Zoë.pdf', contentType: 'application/pdf', source: { kind: 'test_package', ref: 'SVC-0000-0001' } },
          { filename: 'ledger.csv', contentType: 'text/csv', source: { kind: 'test_flaky', ref: 'ledger-7' } },
        ],
      }),
    );
    const plain = await queue({ locationId: lab.locationId, kind: 'test_message', to: [TO], subject: 'plain', text: 'just text' });
    expect(await emailRow(plain)).toMatchObject({ html_body: null, reply_to: null });
    expect(json((await emailRow(plain)).cc_addresses)).toEqual([]);
    expect(json((await emailRow(plain)).attachments)).toEqual([]);
    await drain();
    expect((await emailRow(id)).status).toBe('sent');
    expect((await emailRow(plain)).status).toBe('sent');
    const withParts = inbox.find((m) => m.mail.subject !== 'plain')!.mail;
    expect(withParts.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['Résumé — Café Zoë.pdf', 'application/pdf'],
      ['ledger.csv', 'text/csv'],
    ]);
    expect(Buffer.compare(withParts.attachments[0].content, Buffer.from(await packageFor('SVC-0000-0001')))).toBe(0);
    expect(withParts.attachments[1].content.toString('utf8')).toBe('csv for ledger-7\n1,2,3\n');
    expect(withParts.html).toBe(false);
    expect(withParts.cc).toBeUndefined();
    expect(withParts.replyTo).toBeUndefined();
    const bare = inbox.find((m) => m.mail.subject === 'plain')!.mail;
    expect(bare.attachments).toEqual([]);
    expect(bare.html).toBe(false);
    expect(bare.cc).toBeUndefined();
    expect(bare.replyTo).toBeUndefined();
  });
});

// ---------------------------------------------------------------- retries and failures

describe('attachments at send time', () => {
  it('a 4xx after the whole message was received: the retry carries identical bytes and the same Message-ID', async () => {
    mode = 'defer451AfterData';
    const id = await queue(submissionEmail());
    await drain();
    let row = await emailRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'SMTP server 127.0.0.1 deferred the message (SMTP 451)' });
    expect(deferred).toHaveLength(1);
    const job = await jobOf(id);
    expect(new Date(job.run_at).getTime()).toBe(h.clock.now().getTime() + MIN);

    mode = 'accept';
    h.clock.advance(MIN);
    await drain();
    row = await emailRow(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(inbox).toHaveLength(1);
    // Produced again by the source (nothing was kept), and byte for byte the same.
    expect(packageCalls).toHaveLength(2);
    const [first, second] = [deferred[0].mail, inbox[0].mail];
    expect(second.messageId).toBe(first.messageId);
    expect(second.messageId).toBe(row.message_id);
    expect(first.attachments[0].content.length).toBeGreaterThan(1000);
    expect(Buffer.compare(second.attachments[0].content, first.attachments[0].content)).toBe(0);
    expect(second.attachments[0].checksum).toBe(first.attachments[0].checksum);
  });

  it('an attachment from a source kind this server does not have: dead at once with the sentence, nothing dialled', async () => {
    const seen = connections;
    const id = await queue(submissionEmail({ attachments: [{ filename: 'package.pdf', contentType: 'application/pdf', source: { kind: 'no_such_source', ref: TRACE } }] }));
    await drain();
    const sentence = 'Attachment 1 of 1 comes from the source "no_such_source", which this server does not have: the message can not be sent';
    expect(await emailRow(id)).toMatchObject({ status: 'dead', attempts: 1, last_error: sentence });
    expect(await jobOf(id)).toMatchObject({ status: 'dead', attempts: 1, last_error: sentence });
    expect(connections).toBe(seen);
    expect(inbox).toHaveLength(0);
    h.clock.advance(24 * 60 * MIN);
    await drain();
    expect((await emailRow(id)).attempts).toBe(1);
  });

  it('an unknown kind anywhere in the list ends the message before any source runs', async () => {
    flakyFailures = 1;
    const id = await queue(
      submissionEmail({
        attachments: [
          { filename: 'ledger.csv', contentType: 'text/csv', source: { kind: 'test_flaky', ref: 'x' } },
          { filename: 'package.pdf', contentType: 'application/pdf', source: { kind: 'retired_kind', ref: TRACE } },
        ],
      }),
    );
    await drain();
    expect(await emailRow(id)).toMatchObject({ status: 'dead', last_error: 'Attachment 2 of 2 comes from the source "retired_kind", which this server does not have: the message can not be sent' });
    expect(flakyCalls).toBe(0);
  });

  it('a source that throws fails the attempt with a fixed sentence; the retry on the clock sends it', async () => {
    flakyFailures = 1;
    const seen = connections;
    const from = h.logs.length;
    const id = await queue(submissionEmail({ attachments: [{ filename: 'ledger.csv', contentType: 'text/csv', source: { kind: 'test_flaky', ref: 'ledger-9' } }] }));
    await drain();
    const sentence = 'Attachment 1 of 1 could not be produced by its source "test_flaky"';
    expect(await emailRow(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: sentence });
    const job = await jobOf(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: sentence });
    expect(new Date(job.run_at).getTime()).toBe(h.clock.now().getTime() + MIN);
    expect(connections).toBe(seen); // no SMTP session for a message that is not complete
    const warn = h.logs.slice(from).map((l) => JSON.parse(l)).find((l) => l.email_id === id && l.source_error);
    expect(warn).toMatchObject({ error_code: 'attachment_failed', source_error: { name: 'Error', code: 'ECONNRESET' } });

    h.clock.advance(MIN - 1);
    await drain();
    expect(flakyCalls).toBe(1); // not due yet

    h.clock.advance(1);
    await drain();
    expect(flakyCalls).toBe(2);
    expect(await emailRow(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(inbox[0].mail.attachments[0].content.toString('utf8')).toBe('csv for ledger-9\n1,2,3\n');
  });

  it('a source that keeps throwing: dead after the last attempt, with the same sentence', async () => {
    flakyFailures = 99;
    const id = await queue(submissionEmail({ attachments: [{ filename: 'ledger.csv', contentType: 'text/csv', source: { kind: 'test_flaky', ref: 'ledger-9' } }] }));
    await drain();
    for (const wait of [MIN, 5 * MIN, 30 * MIN, 120 * MIN]) {
      h.clock.advance(wait);
      await drain();
    }
    expect(flakyCalls).toBe(5);
    expect(await emailRow(id)).toMatchObject({ status: 'dead', attempts: 5, last_error: 'Attachment 1 of 1 could not be produced by its source "test_flaky"' });
    expect(inbox).toHaveLength(0);
  });

  it('a source that never answers is abandoned (its signal aborted) and the attempt fails; one that returns no bytes fails too', async () => {
    const restore = setMailTimeouts({ attachmentsMs: 150 });
    try {
      const slow = await queue(submissionEmail({ attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', source: { kind: 'test_hangs', ref: 'r' } }] }));
      await drain();
      expect(await emailRow(slow)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Attachment 1 of 1 took too long to produce (source "test_hangs")' });
      expect((await jobOf(slow)).status).toBe('queued');
    } finally {
      restore();
    }
    const empty = await queue(submissionEmail({ attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', source: { kind: 'test_empty', ref: 'r' } }] }));
    await drain();
    expect(await emailRow(empty)).toMatchObject({ status: 'failed', last_error: 'Attachment 1 of 1 was not produced: its source "test_empty" returned no bytes' });
    expect(inbox).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- validation at queue time

describe('queueEmail refuses malformed parts, and writes nothing', () => {
  const pdf = (filename: string, extra: Partial<{ contentType: string; kind: string; ref: string }> = {}) => ({
    filename,
    contentType: extra.contentType ?? 'application/pdf',
    source: { kind: extra.kind ?? 'test_package', ref: extra.ref ?? TRACE },
  });

  it('bad cc, reply-to, file names, content types, sources and counts: a clear error naming the field', async () => {
    const count = async () => [
      (await h.knex('outgoing_emails').count<{ c: number }[]>('* as c'))[0].c,
      (await h.knex('jobs').count<{ c: number }[]>('* as c'))[0].c,
    ];
    const before = await count();
    const cases: [Partial<OutgoingEmail>, string, RegExp][] = [
      [{ cc: ['not an address'] }, 'cc[0]', /cc\[0\] must be an email address/],
      [{ cc: [CC[0], 'ops@localhost'] }, 'cc[1]', /cc\[1\] must be an email address/],
      [{ cc: ['a@b.example\r\nBcc: victim@evil.example'] }, 'cc[0]', /cc\[0\] must be an email address/],
      [{ cc: 'a@b.example' as unknown as string[] }, 'cc', /cc must be a list/],
      [{ cc: Array.from({ length: 51 }, (_, i) => `cc${i}@lender.example`) }, 'cc', /cc must hold at most 50/],
      [{ replyTo: 'Submissions <reply@inbound.northwind.example>' }, 'replyTo', /replyTo must be an email address/],
      [{ replyTo: 'reply@inbound.northwind.example\nX-Evil: 1' }, 'replyTo', /replyTo must be an email address/],
      [{ attachments: [pdf('../../etc/passwd')] }, 'attachments[0]', /attachments\[0\]\.filename must not contain a path separator/],
      [{ attachments: [pdf('C:\\docs\\package.pdf')] }, 'attachments[0]', /attachments\[0\]\.filename must not contain a path separator/],
      [{ attachments: [pdf('ok.pdf'), pdf('package.pdf\r\nContent-Type: text/html')] }, 'attachments[1]', /attachments\[1\]\.filename must not contain line breaks/],
      [{ attachments: [pdf('tab\there.pdf')] }, 'attachments[0]', /must not contain line breaks or control characters/],
      [{ attachments: [pdf(`${'a'.repeat(197)}.pdf`)] }, 'attachments[0]', /filename must be at most 200 characters/],
      [{ attachments: [pdf('')] }, 'attachments[0]', /filename must be a non-empty string/],
      [{ attachments: [pdf('..')] }, 'attachments[0]', /filename must be a file name/],
      [{ attachments: [pdf('a.pdf', { contentType: 'application/pdf\r\nX-Evil: 1' })] }, 'attachments[0]', /contentType must be a MIME type/],
      [{ attachments: [pdf('a.pdf', { contentType: 'application/pdf; name=x' })] }, 'attachments[0]', /contentType must be a MIME type/],
      [{ attachments: [pdf('a.pdf', { kind: 'Not A Kind' })] }, 'attachments[0]', /source\.kind must be a source kind/],
      [{ attachments: [pdf('a.pdf', { ref: '' })] }, 'attachments[0]', /source\.ref must be a non-empty string/],
      [{ attachments: Array.from({ length: 11 }, (_, i) => pdf(`p${i}.pdf`)) }, 'attachments', /attachments must hold at most 10/],
    ];
    for (const [extra, field, reason] of cases) {
      const err = await queue(submissionEmail(extra)).catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(OutgoingEmailError);
      expect((err as OutgoingEmailError).field, String(reason)).toBe(field);
      expect((err as Error).message, field).toMatch(reason);
      expect((err as Error).message).toMatch(/^Cannot queue the email: /);
      expect((err as Error).message).not.toContain('evil'); // the value is never repeated
    }
    expect(await count()).toEqual(before);
    // The limits themselves are allowed.
    const ok = await queue(submissionEmail({ attachments: Array.from({ length: 10 }, (_, i) => pdf(`${String(i).padStart(196, 'a')}.pdf`)) }));
    expect(json((await emailRow(ok)).attachments)).toHaveLength(10);
  });
});
