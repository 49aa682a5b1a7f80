import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/features/inbound/sender-auth';
import { startInboundSmtp, type InboundSmtp } from '../../src/features/inbound/smtp-listener';
import { reserveKeys, STALE_INTENT_MS, sweepStorageIntents } from '../../src/features/inbound/email-documents';
import { runSweeps } from '../../src/jobs/maintenance';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { composeReply, termSheet, type MailAttachment } from '../support/offer-pdfs';
import { startReceiver, type LoopbackReceiver, type Received } from '../support/receiver';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { SPECS, statementFixture } from '../support/statement-fixtures';

// Files attached to lender replies become documents of the deal (issue 27, item 2), end to end: a
// submission goes out through a real SMTP server, the reply (MailComposer) is posted raw to
// POST /v1/inbound-emails as the provider's hook does, the statement is analysed by the worker, and
// `document.uploaded` is delivered to a real HTTP receiver on loopback. What is checked: a statement
// and an offer letter become two documents (`source: email`, the sender in `received_from`), the
// statement is analysed; the same message posted twice, or the same file in another message, is not
// stored twice; files outside the upload rules are skipped with the reason on the email's attachment
// (`filing`); an unmatched reply, a sender outside the lender's domain, an unauthenticated one and an
// automatic reply file nothing (until a person assigns the email); a merchant's reply to a document
// request files from the address it went to; the SMTP listener files as the hook does; a failed
// transaction leaves no file, a crashed one is swept; concurrent replies never store a file twice.

let h: Harness;
let t: Tenant;
let sink: SmtpSink;
let worker: Worker;
let receiver: LoopbackReceiver;
let smtp: InboundSmtp;
let secret: string;
// The SMTP listener's own SPF check, without real DNS: atlas.example allows 127.0.0.1.
const resolver: DnsResolver = async (domain, rrtype) => {
  if (rrtype === 'TXT' && domain.toLowerCase() === 'atlas.example') return [['v=spf1 ip4:127.0.0.1 -all']];
  throw Object.assign(new Error(`${domain} ${rrtype}: no such record (test table)`), { code: 'ENOTFOUND' });
};
const delivered: Received[] = [];
const RELAY = 'mx.relay.test';

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  h.deps.config.inboundTrustedAuthservIds = [RELAY];
  t = await h.tenant('Meridian Funding Partners');
  sink = await startSmtpSink();
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Meridian Deals <deals@meridian.example>' });
  worker = new Worker(h.deps, { concurrency: 2 });
  receiver = await startReceiver((got, _req, res) => {
    delivered.push(got);
    res.end();
  });
  secret = (await post('/v1/inbound-emails/rotate-secret', undefined)).body.data.secret;
  smtp = await startInboundSmtp(h.deps, { host: '127.0.0.1', port: 0, resolver, limits: { clientMessages: 1000, clientBytes: 1e9, locationMessages: 1000, locationBytes: 1e9 } });
  expect((await post('/v1/webhooks', { url: `${receiver.base}/hooks`, events: ['document.uploaded'] })).status).toBe(201);
});
afterAll(async () => {
  await smtp?.close();
  await worker?.close();
  await receiver?.close();
  await sink?.close();
  await h?.close();
});
afterEach(() => {
  delete h.deps.config.inboundDocumentLimits;
});

type Json = Record<string, any>;
type Body = { data: any; meta: Record<string, any>; error?: Record<string, any> };
async function post(path: string, body: unknown) {
  const req = h.api.post(path).set(t.auth('admin')).set('Idempotency-Key', `k-${Math.random()}`);
  return (await (body === undefined ? req : req.send(body as object))) as unknown as { status: number; body: Body };
}
const get = async (path: string) => {
  const res = (await h.api.get(path).set(t.auth())) as unknown as { status: number; body: Body };
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
/** Posts a raw reply as the inbound provider does; `auth` false leaves out the relay's DKIM verdict. */
async function receive(raw: Buffer, o: { auth?: boolean } = {}) {
  const from = /^From:[^\r\n]*?@([^\s<>"]+?)>?\s*$/im.exec(raw.toString('latin1'))![1];
  const verdict = Buffer.from(`Authentication-Results: ${RELAY}; dkim=pass header.d=${from.toLowerCase()}; spf=none\r\n`, 'latin1');
  const res = (await h.api
    .post('/v1/inbound-emails')
    .set('Content-Type', 'message/rfc822')
    .set('Authorization', `Basic ${Buffer.from(`inbound:${secret}`).toString('base64')}`)
    .send(o.auth === false ? raw : Buffer.concat([verdict, raw]))) as unknown as { status: number; body: Body };
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res;
}
const documents = async (dealId: string): Promise<Json[]> => get(`/v1/deals/${dealId}/documents?limit=100`);
const storedDocuments = async () => Number(((await h.knex('documents').where({ location_id: t.locationId }).count('* as c')) as { c: number | string }[])[0].c);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function submitted() {
  const biz = await post('/v1/businesses', { legal_name: `Lopez Trucking ${Math.random().toString(36).slice(2, 6)} LLC` });
  const d = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 60000 });
  const l = await post('/v1/lenders', { name: `Atlas ${Math.random().toString(36).slice(2, 6)}`, submission_email: 'submissions@atlas.example' });
  const res = await post(`/v1/deals/${d.body.data.id}/submissions`, { lender_ids: [l.body.data.id] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await worker.drain();
  const mail = sink.inbox.at(-1)!.mail;
  const sub = (await h.api.get(`/v1/submissions/${res.body.data[0].id}`).set(t.auth())).body.data;
  return { dealId: d.body.data.id as string, sub, mail, replyTo: mail.replyTo!.value[0].address!, messageId: mail.messageId! };
}
type Sent = Awaited<ReturnType<typeof submitted>>;
const reply = (s: Sent, text: string, attachments: MailAttachment[], o: { from?: string; headers?: Record<string, string> } = {}) =>
  composeReply({ from: o.from, to: s.replyTo, subject: `RE: ${s.mail.subject}`, inReplyTo: s.messageId, text, attachments, headers: o.headers });
const offerLetter = () => termSheet({ amount: '$60,000.00', factor: '1.32', term: '160 days', payment: '$495.00' });

/** A deal whose merchant (Maria) was sent a document request by email; that email. */
async function requested() {
  const biz = await post('/v1/businesses', { legal_name: `Sunrise ${Math.random().toString(36).slice(2, 6)} LLC` });
  const email = `maria.${Math.random().toString(36).slice(2, 7)}@sunrise.example`;
  expect((await post('/v1/people', { first_name: 'Maria', last_name: 'Lopez', email, business_id: biz.body.data.id })).status).toBe(201);
  const dealId = (await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 60000 })).body.data.id as string;
  expect((await post(`/v1/deals/${dealId}/document-requests`, { items: ['bank_statement'], message: 'Three months please.' })).status).toBe(201);
  h.clock.advance(2000);
  await worker.drain();
  return { dealId, email, sent: sink.inbox.find((m) => m.rcpt.includes(email))!.mail };
}

describe(`attachments of a lender reply become documents (${ENGINE})`, () => {
  it('a statement and an offer letter: two documents from email with the sender, the statement analysed, document.uploaded delivered', async () => {
    const s = await submitted();
    const statement = await statementFixture(SPECS[0]);
    const letter = await offerLetter();
    const res = await receive(await reply(s, 'Approved, offer attached. Also attaching the October statement we pulled.\n\nDana', [
      { filename: 'October 2026.pdf', content: statement.bytes },
      { filename: 'Atlas offer - Lopez.pdf', content: letter },
    ]));
    expect(res.status).toBe(201);
    const email = res.body.data;
    expect(email).toMatchObject({ status: 'processed', submission_id: s.sub.id, deal_id: s.dealId });
    expect(email.attachments.map((a: Json) => a.filing.outcome)).toEqual(['filed', 'filed']);
    const [stmtId, letterId] = email.attachments.map((a: Json) => a.filing.document_id as string);

    const docs = await documents(s.dealId);
    expect(docs).toHaveLength(2);
    const sender = { address: 'dana@atlas.example', name: 'Dana Reyes', inbound_email_id: email.id, message_id: email.message_id };
    const stmt = await get(`/v1/documents/${stmtId}`);
    expect(stmt).toMatchObject({ source: 'email', category: 'bank_statement', filename: 'October 2026.pdf', content_type: 'application/pdf', size_bytes: statement.bytes.length, sha256: sha(statement.bytes), received_from: sender });
    const offer = await get(`/v1/documents/${letterId}`);
    expect(offer).toMatchObject({ source: 'email', category: 'other', filename: 'Atlas offer - Lopez.pdf', status: 'uploaded', sha256: sha(letter), received_from: sender });
    // The stored bytes are the attachment's, served by the document's own download link.
    const url = new URL(offer.download_url);
    const file = await h.api.get(url.pathname + url.search).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(sha(file.body as Buffer)).toBe(sha(letter));

    // The statement goes to analysis as an uploaded one does.
    h.clock.advance(5000);
    await worker.drain();
    expect(await get(`/v1/documents/${stmtId}`)).toMatchObject({ status: 'processed', failure_code: null });
    expect(await get(`/v1/documents/${letterId}`)).toMatchObject({ status: 'uploaded' }); // not a statement: never analysed
    const analysis = await get(`/v1/deals/${s.dealId}/statement-analysis`);
    expect(analysis.status).toBe('completed');
    expect(analysis.statements).toEqual([expect.objectContaining({ document_id: stmtId, parsed: true, true_revenue: statement.expected.true_revenue })]);

    // document.uploaded, delivered to the subscriber, with the payload every upload has.
    const events = delivered.map((d) => JSON.parse(d.body.toString('utf8')) as Json).filter((e) => e.type === 'document.uploaded' && e.data.deal_id === s.dealId);
    expect(events.map((e) => e.data.document_id).sort()).toEqual([stmtId, letterId].sort());
    const uploaded = events.find((e) => e.data.document_id === stmtId)!;
    expect(uploaded.data).toEqual({
      document_id: stmtId, deal_id: s.dealId,
      document: { id: stmtId, deal_id: s.dealId, filename: 'October 2026.pdf', category: 'bank_statement', content_type: 'application/pdf', size_bytes: statement.bytes.length, source: 'email', created_at: stmt.created_at },
    });
    // The history line says where it came from.
    const activity = await h.knex('activities').where({ location_id: t.locationId, entity_id: stmtId, action: 'document.uploaded' });
    expect(activity.map((a: Json) => a.description)).toEqual(['Document October 2026.pdf uploaded from an email']);
  });

  it('the same message posted twice, and the same file in another reply, are stored once', async () => {
    const s = await submitted();
    const statement = await statementFixture(SPECS[1]);
    const raw = await reply(s, 'Approved, see attached. Statement attached too.', [{ filename: 'sept-statement.pdf', content: statement.bytes }, { filename: 'offer.pdf', content: await offerLetter() }]);
    const first = await receive(raw);
    expect(first.status).toBe(201);
    const before = await storedDocuments();
    const files = (await h.knex('documents').where({ deal_id: s.dealId }).select('storage_key')).map((r: Json) => r.storage_key as string);
    expect(files).toHaveLength(2);
    const again = await receive(raw);
    expect(again.status).toBe(200);
    expect(again.body.data.attachments).toEqual(first.body.data.attachments);
    expect(await storedDocuments()).toBe(before);

    // Another message (the lender resends the statement): the deal's document is reused, nothing stored.
    const resent = await receive(await reply(s, 'Resending the statement, approved as discussed.', [{ filename: 'statement (1).pdf', content: statement.bytes }]));
    expect(resent.status).toBe(201);
    expect(resent.body.data.attachments[0].filing).toEqual({ outcome: 'duplicate', document_id: first.body.data.attachments[0].filing.document_id, skip_reason: null });
    expect(await storedDocuments()).toBe(before);
    expect(await documents(s.dealId)).toHaveLength(2);
    // ... and so is a file uploaded through the API before.
    const check = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF\n');
    const slot = (await post(`/v1/deals/${s.dealId}/documents`, { filename: 'voided-check.pdf', content_type: 'application/pdf', size_bytes: check.length, category: 'voided_check' })).body.data;
    const u = new URL(slot.upload_url);
    expect((await h.api.put(u.pathname + u.search).set(slot.upload_headers).send(check)).status).toBe(200);
    expect((await post(`/v1/documents/${slot.document.id}/finalize`, undefined)).status).toBe(200);
    const mailed = await receive(await reply(s, 'Approved. The voided check you sent, for reference.', [{ filename: 'check.pdf', content: check }]));
    expect(mailed.body.data.attachments[0].filing).toEqual({ outcome: 'duplicate', document_id: slot.document.id, skip_reason: null });
    expect(await documents(s.dealId)).toHaveLength(3);
  });

  it('files outside the upload rules are skipped, the reason on the email attachment', async () => {
    const s = await submitted();
    h.deps.config.inboundDocumentLimits = { maxFiles: 2, maxBytes: 4096 };
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
    const small = (n: number) => Buffer.from(`%PDF-1.4\n% file ${n}\n%%EOF\n`);
    const res = await receive(await reply(s, 'Approved, files attached.', [
      { filename: 'setup.exe', content: Buffer.from('MZ\x90\x00 not a document'), contentType: 'application/x-msdownload' },
      { filename: 'photo.pdf', content: png, contentType: 'application/pdf' },
      { filename: 'big.pdf', content: Buffer.concat([small(0), Buffer.alloc(5000, 32)]) },
      { filename: 'logo.png', content: png, contentType: 'image/png', contentDisposition: 'inline' },
      { filename: 'empty.pdf', content: Buffer.alloc(0) },
      { filename: 'one.pdf', content: small(1) },
      { filename: 'two.bin.pdf', content: small(2), contentType: 'application/octet-stream' },
      { filename: 'three.pdf', content: small(3) },
    ]));
    const filings = res.body.data.attachments.map((a: Json) => [a.filename, a.filing.outcome, a.filing.skip_reason]);
    expect(filings).toEqual([
      ['setup.exe', 'skipped', 'type_not_accepted'],
      ['photo.pdf', 'skipped', 'content_mismatch'],
      ['big.pdf', 'skipped', 'too_large'],
      ['logo.png', 'skipped', 'inline_image'],
      ['empty.pdf', 'skipped', 'empty'],
      ['one.pdf', 'filed', null],
      ['two.bin.pdf', 'filed', null], // application/octet-stream: the type is read from the name
      ['three.pdf', 'skipped', 'over_count'],
    ]);
    const docs = await documents(s.dealId);
    expect(docs.map((d) => [d.filename, d.content_type, d.category]).sort()).toEqual([['one.pdf', 'application/pdf', 'other'], ['two.bin.pdf', 'application/pdf', 'other']]);
    // The same reasons on a read of the email.
    expect((await get(`/v1/inbound-emails/${res.body.data.id}`)).attachments).toEqual(res.body.data.attachments);
  });

  it('a PDF that is not read (a scan) is a statement only when its name says so', async () => {
    const s = await submitted();
    const scan = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n'); // no text: the reader skips it
    const res = await receive(await reply(s, 'Approved. Statements attached.', [{ filename: 'Chase stmt Oct.pdf', content: scan }, { filename: 'scan-0001.pdf', content: Buffer.concat([scan, Buffer.from(' ')]) }]));
    const [a, b] = res.body.data.attachments.map((x: Json) => x.filing.document_id);
    expect((await get(`/v1/documents/${a}`)).category).toBe('bank_statement');
    expect((await get(`/v1/documents/${b}`)).category).toBe('other');
  });

  it('nothing is filed from an unmatched reply, another domain, an unauthenticated sender or an automatic reply', async () => {
    const s = await submitted();
    const before = await storedDocuments();
    const file = [{ filename: 'october-statement.pdf', content: (await statementFixture(SPECS[0])).bytes }];
    const unmatched = await receive(await composeReply({ from: 'uw@atlas.example', to: 'deals@meridian.example', subject: 'Statements', text: 'Here you go.', attachments: file }));
    expect(unmatched.body.data).toMatchObject({ status: 'unmatched', deal_id: null });
    const stranger = await receive(await reply(s, 'Approved, statement attached.', file, { from: 'Mallory <mallory@elsewhere.example>' }));
    expect(stranger.body.data).toMatchObject({ review_reason: 'unknown_sender', deal_id: s.dealId });
    const forged = await receive(await reply(s, 'Approved, statement attached.', file), { auth: false });
    expect(forged.body.data).toMatchObject({ review_reason: 'sender_unauthenticated', deal_id: s.dealId });
    const bounce = await receive(await reply(s, 'I am out of the office until Monday.', file, { headers: { 'Auto-Submitted': 'auto-replied' } }));
    expect(bounce.body.data).toMatchObject({ review_reason: 'auto_reply' });
    for (const r of [unmatched, stranger, forged, bounce]) expect(r.body.data.attachments).toEqual([expect.objectContaining({ filename: 'october-statement.pdf', filing: null })]);
    expect(await storedDocuments()).toBe(before);
    expect(await documents(s.dealId)).toEqual([]);
  });

  it('a failure after the files were stored leaves neither rows nor files', async () => {
    const s = await submitted();
    const before = await storedDocuments();
    const put = h.deps.storage.put.bind(h.deps.storage);
    const keys: string[] = [];
    // The second file's storage write fails: the transaction rolls back, the first file is deleted.
    let n = 0;
    h.deps.storage.put = async (key, bytes, type) => {
      keys.push(key);
      if (++n === 2) throw new Error('disk full');
      return put(key, bytes, type);
    };
    try {
      const res = (await h.api
        .post('/v1/inbound-emails')
        .set('Content-Type', 'message/rfc822')
        .set('Authorization', `Basic ${Buffer.from(`inbound:${secret}`).toString('base64')}`)
        .send(Buffer.concat([Buffer.from(`Authentication-Results: ${RELAY}; dkim=pass header.d=atlas.example\r\n`), await reply(s, 'Approved, see attached.', [{ filename: 'a.pdf', content: Buffer.from('%PDF-1.4\n%a\n') }, { filename: 'b.pdf', content: Buffer.from('%PDF-1.4\n%b\n') }])]))) as unknown as { status: number };
      expect(res.status).toBe(500);
    } finally {
      h.deps.storage.put = put;
    }
    expect(keys).toHaveLength(2);
    expect(await storedDocuments()).toBe(before);
    expect(await h.deps.storage.describe(keys[0])).toBeNull();
    expect(await h.knex('inbound_emails').where({ location_id: t.locationId, deal_id: s.dealId })).toEqual([]);
    expect(await h.knex('storage_intents').where({ location_id: t.locationId })).toEqual([]);
  });

  it('a process that died between the storage write and the commit leaves a reservation: the maintenance sweep deletes its file', async () => {
    const s = await submitted();
    // As receiveInboundEmail does before its transaction; then the process "dies": nothing releases them.
    const pool = await reserveKeys(h.deps, t.locationId, 2);
    await h.deps.storage.put(pool.keys[0].key, Buffer.from('%PDF-1.4\n%orphan\n'), 'application/pdf');
    // A filed reply in the meantime releases its own reservations in its transaction.
    await receive(await reply(s, 'Approved, offer attached.', [{ filename: 'offer.pdf', content: await offerLetter() }]));
    expect((await h.knex('storage_intents').where({ location_id: t.locationId })).map((r: Json) => r.key).sort()).toEqual(pool.keys.map((k) => k.key).sort());
    // (Were a reservation ever left on a key a document names, the sweep would keep the file.)
    const [filed] = await documents(s.dealId);
    const filedKey = ((await h.knex('documents').where({ id: filed.id }).first('storage_key')) as { storage_key: string }).storage_key;
    await h.knex('storage_intents').insert({ key: filedKey, location_id: t.locationId, created_at: h.clock.now() });
    expect(await sweepStorageIntents(h.deps)).toBe(0); // not before an hour: a transaction may still be running
    h.clock.advance(STALE_INTENT_MS + 1000);
    await runSweeps(h.deps);
    expect(await h.deps.storage.describe(pool.keys[0].key)).toBeNull();
    expect(await h.knex('storage_intents').where({ location_id: t.locationId })).toEqual([]);
    // The filed document's file is untouched.
    expect(await h.deps.storage.describe(filedKey)).not.toBeNull();
  });

  it("a merchant's reply to a document request: its statement filed on the deal from the merchant's address, analysed; another sender files nothing", async () => {
    const { dealId, email, sent } = await requested();
    const statement = await statementFixture(SPECS[2]);
    const answer = (from: string, text: string) => composeReply({
      from, to: 'deals@meridian.example', subject: `Re: ${sent.subject}`, inReplyTo: sent.messageId!, text, attachments: [{ filename: 'harborview oct.pdf', content: statement.bytes }],
    });

    // Someone else answering the thread: matched to the deal, nothing filed, waits for review.
    const other = await receive(await answer('Bob <bob@sunrise.example>', 'Here is the statement Maria asked about.'));
    expect(other.body.data).toMatchObject({ status: 'unclassified', review_reason: 'unknown_sender', matched_by: 'merchant_reply', deal_id: dealId, submission_id: null, lender_id: null });
    expect(other.body.data.attachments[0].filing).toBeNull();
    // The merchant, unauthenticated: nothing filed either.
    const forged = await receive(await answer(`Maria Lopez <${email}>`, 'Statement attached (forged).'), { auth: false });
    expect(forged.body.data).toMatchObject({ status: 'unclassified', review_reason: 'sender_unauthenticated', deal_id: dealId });
    expect(await documents(dealId)).toEqual([]);

    const res = await receive(await answer(`Maria Lopez <${email}>`, 'Hi, October statement attached. Maria'));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'processed', review_reason: null, matched_by: 'merchant_reply', deal_id: dealId, submission_id: null, offer_ids: [], classification: { type: 'unclassified', offers: [] } });
    const docId = res.body.data.attachments[0].filing.document_id;
    expect(await get(`/v1/documents/${docId}`)).toMatchObject({
      source: 'email', category: 'bank_statement', filename: 'harborview oct.pdf', received_from: { address: email, name: 'Maria Lopez', inbound_email_id: res.body.data.id },
    });
    h.clock.advance(5000);
    await worker.drain();
    expect(await get(`/v1/documents/${docId}`)).toMatchObject({ status: 'processed' });
    expect((await get(`/v1/deals/${dealId}/statement-analysis`)).statements).toEqual([expect.objectContaining({ document_id: docId, parsed: true, true_revenue: statement.expected.true_revenue })]);
    expect(delivered.map((d) => JSON.parse(d.body.toString('utf8')) as Json).filter((e) => e.type === 'document.uploaded' && e.data.document_id === docId)).toHaveLength(1);
  });

  it('through the SMTP listener: a reply delivered to the Reply-To address files its statement (SPF checked by the listener)', async () => {
    const s = await submitted();
    const statement = await statementFixture(SPECS[3]);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    try {
      const info = await transport.sendMail({
        from: 'Dana Reyes <dana@atlas.example>', to: s.replyTo, subject: `RE: ${s.mail.subject}`, inReplyTo: s.messageId, text: 'Approved, November statement attached for your file.',
        attachments: [{ filename: 'nov-statement.pdf', content: Buffer.from(statement.bytes), contentType: 'application/pdf' }],
      });
      expect(info.accepted).toEqual([s.replyTo]);
    } finally {
      transport.close();
    }
    const docs = await documents(s.dealId);
    expect(docs).toEqual([expect.objectContaining({ source: 'email', category: 'bank_statement', filename: 'nov-statement.pdf', sha256: sha(statement.bytes), received_from: expect.objectContaining({ address: 'dana@atlas.example' }) })]);
    h.clock.advance(5000);
    await worker.drain();
    expect(await get(`/v1/documents/${docs[0].id}`)).toMatchObject({ status: 'processed' });
  });

  it('assigning an email whose sender the gate stopped files its attachments then, once', async () => {
    const s = await submitted();
    const letter = await offerLetter();
    const res = await receive(await reply(s, 'Approved, offer attached.', [{ filename: 'offer.pdf', content: letter }], { from: 'Dana <dana@atlas-funding.example>' }));
    expect(res.body.data).toMatchObject({ review_reason: 'unknown_sender', attachments: [{ filing: null }] });
    expect(await documents(s.dealId)).toEqual([]);
    const assigned = await post(`/v1/inbound-emails/${res.body.data.id}/assign`, { submission_id: s.sub.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const filing = assigned.body.data.attachments[0].filing;
    expect(filing).toMatchObject({ outcome: 'filed', skip_reason: null });
    expect(await get(`/v1/documents/${filing.document_id}`)).toMatchObject({
      source: 'email', category: 'other', sha256: sha(letter), received_from: { address: 'dana@atlas-funding.example', name: 'Dana', inbound_email_id: res.body.data.id },
    });
    expect(await documents(s.dealId)).toHaveLength(1);
  });

  it('two replies carrying the same file, posted at once: one document, the other reply names it', async () => {
    // The merchant's replies: no submission row serializes them, only the deal's lock in the filing.
    // Three rounds, three files: a race, if there were one, has three chances to show.
    const { dealId, email, sent } = await requested();
    for (const [round, spec] of [SPECS[4], SPECS[5], SPECS[6]].entries()) {
      const statement = await statementFixture(spec);
      const raws = await Promise.all(['Statement attached.', 'Sending it again, statement attached.'].map((text) => composeReply({
        from: `Maria Lopez <${email}>`, to: 'deals@meridian.example', subject: `Re: ${sent.subject}`, inReplyTo: sent.messageId!, text, attachments: [{ filename: `${spec.name}.pdf`, content: statement.bytes }],
      })));
      const [a, b] = await Promise.all(raws.map((raw) => receive(raw)));
      const filings = [a, b].map((r) => r.body.data.attachments[0].filing);
      expect(filings.map((f) => f.outcome).sort(), `round ${round}`).toEqual(['duplicate', 'filed']);
      expect(filings[0].document_id).toBe(filings[1].document_id);
      expect(await documents(dealId)).toHaveLength(round + 1);
    }
  });

  it('hostile file names are filed as printable names of at most 255 characters; the key is the document id', async () => {
    const s = await submitted();
    const pdf = (n: number) => Buffer.from(`%PDF-1.4\n% hostile ${n}\n%%EOF\n`);
    const res = await receive(await reply(s, 'Approved, files attached.', [
      { filename: '../../etc/passwd.pdf', content: pdf(1) },
      { filename: `${'x'.repeat(400)}.pdf`, content: pdf(2) },
      { filename: 'tab\there\u202e.pdf', content: pdf(3) },
    ]));
    const ids = res.body.data.attachments.map((a: Json) => a.filing.document_id as string);
    expect(ids.every(Boolean)).toBe(true);
    const names = await Promise.all(ids.map(async (id: string) => (await get(`/v1/documents/${id}`)).filename as string));
    expect(names[0]).toBe('.._.._etc_passwd.pdf');
    expect(names[1]).toHaveLength(255);
    expect(names[2]).toBe('tabhere.pdf');
    const keys = (await h.knex('documents').whereIn('id', ids).pluck('storage_key')) as string[];
    for (const key of keys) expect(key).toMatch(new RegExp(`^${t.locationId}/email/doc_[0-9A-Z]{26}$`));
  });
});
