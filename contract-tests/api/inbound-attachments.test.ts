import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { composeReply, offerPdf, termSheet, type MailAttachment } from '../support/offer-pdfs';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { passwordPdf } from '../support/statement-fixtures';

// Lender replies whose answer is (partly) in an attached PDF, end to end: a submission goes out
// through a real SMTP server, the reply (MailComposer, PDFs built with pdf-lib) is posted raw to
// POST /v1/inbound-emails, its PDFs are read by the statement reader's child process. What is
// checked: offer terms found only in an attached offer letter are logged; an attachment never turns
// the body's decision into another; a trace code only in a PDF matches as one in the body does; a
// PDF that cannot be read leaves the reply processed from its body, with the reason noted; only the
// first 5 PDFs of a message are read. Units of the reading itself: contract-tests/unit/reply-attachments.test.ts.

let h: Harness;
let t: Tenant;
let sink: SmtpSink;
let worker: Worker;
let secret: string;
const RELAY = 'mx.relay.test';

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  h.deps.config.inboundTrustedAuthservIds = [RELAY];
  t = await h.tenant('Northwind Capital');
  sink = await startSmtpSink();
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Northwind Deals <deals@northwind.example>' });
  worker = new Worker(h.deps, { concurrency: 4 });
  secret = (await post('/v1/inbound-emails/rotate-secret', undefined)).body.data.secret;
});
afterAll(async () => {
  await worker?.close();
  await sink?.close();
  await h?.close();
});
afterEach(() => {
  delete h.deps.config.inboundAttachmentLimits;
});

type Body = { data: any; meta: Record<string, any>; error?: Record<string, any> };
async function post(path: string, body: unknown) {
  const req = h.api.post(path).set(t.auth('admin')).set('Idempotency-Key', `k-${Math.random()}`);
  return (await (body === undefined ? req : req.send(body as object))) as unknown as { status: number; body: Body };
}
/** Posts a raw reply as the inbound provider does, with its relay's DKIM pass for the From domain. */
async function receive(raw: Buffer) {
  const from = /^From:[^\r\n]*?@([^\s<>"]+?)>?\s*$/im.exec(raw.toString('latin1'))![1];
  const verdict = Buffer.from(`Authentication-Results: ${RELAY}; dkim=pass header.d=${from.toLowerCase()}; spf=none\r\n`, 'latin1');
  return (await h.api
    .post('/v1/inbound-emails')
    .set('Content-Type', 'message/rfc822')
    .set('Authorization', `Basic ${Buffer.from(`inbound:${secret}`).toString('base64')}`)
    .send(Buffer.concat([verdict, raw]))) as unknown as { status: number; body: Body };
}
const count = async (table: string, where: Record<string, unknown>) => Number(((await h.knex(table).where(where).count('* as c')) as { c: number | string }[])[0].c);
const submission = async (id: string) => (await h.api.get(`/v1/submissions/${id}`).set(t.auth())).body.data;

/** A deal submitted by email to a new lender (requested $60,000: the term sheets offer the full ask, so an approval is an approval, not a counter). */
async function submitted() {
  const biz = await post('/v1/businesses', { legal_name: 'Sunrise Bakery LLC' });
  const d = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 60000 });
  const l = await post('/v1/lenders', { name: `Atlas ${Math.random().toString(36).slice(2, 6)}`, submission_email: 'submissions@atlas.example' });
  const res = await post(`/v1/deals/${d.body.data.id}/submissions`, { lender_ids: [l.body.data.id] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await worker.drain();
  const mail = sink.inbox.at(-1)!.mail;
  const sub = await submission(res.body.data[0].id);
  return { dealId: d.body.data.id as string, sub, mail, replyTo: mail.replyTo!.value[0].address!, messageId: mail.messageId! };
}
type Sent = Awaited<ReturnType<typeof submitted>>;
/** A reply to the submission's Reply-To address (matched before any body rule). */
const replyTo = (s: Sent, text: string, attachments: MailAttachment[]) =>
  composeReply({ to: s.replyTo, subject: `RE: ${s.mail.subject}`, inReplyTo: s.messageId, text, attachments });
const sheet = (o: { trace?: string; amount?: string } = {}) => termSheet({ amount: o.amount ?? '$60,000.00', factor: '1.32', term: '160 days', payment: '$495.00', trace: o.trace });

describe(`terms in an attached PDF (${ENGINE})`, () => {
  it('an approval whose terms are only in the attached offer letter logs that offer', async () => {
    const s = await submitted();
    const res = await receive(await replyTo(s, 'Approved, see attached offer.\n\nThanks, Dana', [{ filename: 'Atlas offer - Sunrise.pdf', content: await sheet() }]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const email = res.body.data;
    expect(email).toMatchObject({
      status: 'processed', review_reason: null, matched_by: 'reply_to', submission_id: s.sub.id,
      classification: { type: 'approved', offers: [{ amount: 60000, factor_rate: 1.32, term: 160, term_unit: 'days', payment_amount: 495, missing: [] }] },
      attachments: [{ filename: 'Atlas offer - Sunrise.pdf', content_type: 'application/pdf' }],
    });
    expect(email.classification.reasons).toEqual(expect.arrayContaining(['1 offer(s) with terms in the attached PDF', 'attachment "Atlas offer - Sunrise.pdf" read (1 page)']));
    expect(email.offer_ids).toHaveLength(1);
    const offer = (await h.api.get(`/v1/offers/${email.offer_ids[0]}`).set(t.auth())).body.data;
    expect(offer).toMatchObject({ source: 'email_classifier', submission_id: s.sub.id, amount: 60000, factor_rate: 1.32, term: 160, payment_amount: 495 });
    expect(await submission(s.sub.id)).toMatchObject({ status: 'approved', response_type: 'approved' });
    expect(email.text).not.toContain('Funding Amount'); // the stored text is the body's
    const logs = JSON.stringify(h.logs);
    expect(logs).not.toContain('Funding Amount');
    expect(logs).not.toContain('60,000.00');
  });

  it('a reply that only points at the attached offer letter is read as its approval', async () => {
    const s = await submitted();
    const res = await receive(await replyTo(s, 'Please see the attached offer letter.', [{ filename: 'offer.pdf', content: await sheet() }]));
    expect(res.body.data).toMatchObject({ status: 'processed', classification: { type: 'approved', offers: [{ amount: 60000, factor_rate: 1.32, term: 160 }] } });
    expect(res.body.data.offer_ids).toHaveLength(1);
  });

  it('a decline in the body stays a decline with a stale term sheet attached: no offer logged', async () => {
    const s = await submitted();
    const res = await receive(await replyTo(s, 'Unfortunately we have to decline this one, too many negative days. Attached is the term sheet from the first look.', [{ filename: 'term-sheet.pdf', content: await sheet() }]));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'processed', offer_ids: [], classification: { type: 'declined', decline_category: 'negative_days', offers: [] } });
    expect(res.body.data.classification.reasons).toContain('offer terms in the attachment not used: the reply itself is not an approval');
    expect(await submission(s.sub.id)).toMatchObject({ status: 'declined', response_type: 'declined', decline_category: 'negative_days' });
    expect(await count('offers', { submission_id: s.sub.id })).toBe(0);
  });
});

describe(`trace codes in an attached PDF (${ENGINE})`, () => {
  it('a trace code only in the PDF matches its submission; a different code in the body makes it ambiguous', async () => {
    const s = await submitted();
    const mail = async (text: string, code: string | null, subject = 'Offer - Sunrise Bakery') =>
      composeReply({ from: 'uw@atlas.example', to: 'deals@northwind.example', subject, text, attachments: code === null ? [] : [{ filename: 'offer.pdf', content: await sheet({ trace: code }) }] });
    // Control: without the PDF nothing names the submission.
    const bare = await receive(await mail('Approved, terms attached.', null));
    expect(bare.body.data).toMatchObject({ status: 'unmatched', review_reason: 'no_match' });

    const res = await receive(await mail('Approved, terms attached.', s.sub.trace_code));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'processed', matched_by: 'trace_code', submission_id: s.sub.id, classification: { type: 'approved', offers: [{ amount: 60000 }] } });
    expect(res.body.data.offer_ids).toHaveLength(1);
    expect(JSON.stringify(h.logs)).not.toContain(s.sub.trace_code);

    const other = await submitted();
    const two = await receive(await mail(`Approved for ${other.sub.trace_code}, terms attached.`, s.sub.trace_code, 'Offer'));
    expect(two.body.data).toMatchObject({ status: 'unmatched', review_reason: 'ambiguous_match', submission_id: null, offer_ids: [] });
    expect(await count('offers', { submission_id: other.sub.id })).toBe(0);
  });

  it('an automatic reply\'s attachments are not read (a bounce carries our own submission package)', async () => {
    const s = await submitted();
    const raw = await composeReply({
      from: 'uw@atlas.example', to: 'deals@northwind.example', subject: 'Automatic reply: Offer', text: 'I am out of the office until Monday.',
      headers: { 'Auto-Submitted': 'auto-replied' }, attachments: [{ filename: 'offer.pdf', content: await sheet({ trace: s.sub.trace_code }) }],
    });
    const res = await receive(raw);
    expect(res.body.data).toMatchObject({ status: 'unmatched', review_reason: 'no_match', offer_ids: [] });
    expect(res.body.data.classification.reasons.some((r: string) => r.startsWith('attachment'))).toBe(false);
  });

  it('our own submission package attached back: matched by its trace code, no offer read from it', async () => {
    const s = await submitted();
    const pkg = s.mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pkg, 'the submission email carries its package').toBeTruthy();
    const raw = await composeReply({
      from: 'uw@atlas.example', to: 'deals@northwind.example', subject: 'Sunrise', text: 'Approved, see attached.',
      attachments: [{ filename: pkg!.filename!, content: pkg!.content }],
    });
    const res = await receive(raw);
    expect(res.body.data).toMatchObject({ matched_by: 'trace_code', submission_id: s.sub.id, classification: { type: 'approved', offers: [] }, offer_ids: [] });
    expect(res.body.data.classification.reasons).toContain(`attachment "${pkg!.filename}" read (1 page): our own submission package, read for its trace code only`);
  });

  it('the same code in body and PDF matches', async () => {
    const s = await submitted();
    const raw = await composeReply({
      from: 'uw@atlas.example', to: 'deals@northwind.example', subject: `Approved ${s.sub.trace_code}`, text: 'Approved, see attached.',
      attachments: [{ filename: 'offer.pdf', content: await sheet({ trace: s.sub.trace_code }) }],
    });
    expect((await receive(raw)).body.data).toMatchObject({ status: 'processed', matched_by: 'trace_code', submission_id: s.sub.id });
  });
});

describe(`attachments that cannot be read (${ENGINE})`, () => {
  it('an encrypted, a garbage and an over-limit PDF: the reply is processed from its body, each reason noted', async () => {
    const s = await submitted();
    const ok = await sheet({ amount: '$99,000.00' });
    h.deps.config.inboundAttachmentLimits = { maxBytes: 50_000 };
    const big = await offerPdf([`Funding Amount $99,000 Factor 1.4 Term 200 days ${'x'.repeat(100)}`], { pages: 1 });
    const padded = Buffer.concat([Buffer.from(big), Buffer.from(`\n%${'0'.repeat(60_000)}\n`)]); // still a PDF, over the limit
    const res = await receive(await replyTo(s, 'Approved! $60,000 at a 1.32 factor, 160 days, daily payments of $495.00.', [
      { filename: 'locked.pdf', content: passwordPdf() },
      { filename: 'garbage.pdf', content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256))]) },
      { filename: 'big.pdf', content: padded },
    ]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'processed', classification: { type: 'approved', offers: [{ amount: 60000, factor_rate: 1.32, term: 160 }] } });
    expect(res.body.data.classification.reasons).toEqual(expect.arrayContaining([
      'attachment "locked.pdf" not read: password protected',
      'attachment "garbage.pdf" not read: damaged or unreadable',
      'attachment "big.pdf" not read: larger than the inbound size limit',
    ]));
    expect(res.body.data.offer_ids).toHaveLength(1);
    expect(ok.length).toBeLessThan(50_000);
  });

  it('an approval whose only attachment cannot be read is answered from its body: no offer invented, the reason noted, never a 5xx', async () => {
    const s = await submitted();
    const res = await receive(await replyTo(s, 'Approved, see attached offer.', [{ filename: 'offer.pdf', content: passwordPdf() }]));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ submission_id: s.sub.id, offer_ids: [], classification: { type: 'approved' } });
    expect(res.body.data.classification.reasons).toContain('attachment "offer.pdf" not read: password protected');
    expect(res.body.data.classification.offers).toEqual([]);
    expect(await count('offers', { submission_id: s.sub.id })).toBe(0);
    expect(await count('inbound_emails', { id: res.body.data.id })).toBe(1);
  });

  it('only the first 5 PDFs of a message are read: a code only in the 6th does not match', async () => {
    const s = await submitted();
    const filler = await offerPdf(['Atlas Funding', 'Program guidelines', 'Minimum 6 months in business']);
    const coded = await sheet({ trace: s.sub.trace_code });
    const mail = (sixth: Uint8Array, first: Uint8Array = filler) =>
      composeReply({
        from: 'uw@atlas.example', to: 'deals@northwind.example', subject: 'Offer', text: 'Approved, see attached.',
        attachments: [first, filler, filler, filler, filler, sixth].map((content, i) => ({ filename: `doc-${i + 1}.pdf`, content })),
      });
    const late = await receive(await mail(coded));
    expect(late.status).toBe(201);
    expect(late.body.data).toMatchObject({ status: 'unmatched', review_reason: 'no_match', offer_ids: [] });
    expect(late.body.data.classification.reasons).toContain('1 more PDF attachment(s) not read: only the first 5 of a message are');
    expect(late.body.data.classification.reasons.filter((r: string) => / read \(1 page\)$/.test(r))).toHaveLength(5);
    // The same PDF first is read and matches.
    const early = await receive(await mail(filler, coded));
    expect(early.body.data).toMatchObject({ status: 'processed', matched_by: 'trace_code', submission_id: s.sub.id });
  });
});
