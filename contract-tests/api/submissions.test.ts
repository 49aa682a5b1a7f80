import { PDFDocument } from 'pdf-lib';
import { MAX_ATTACHMENTS } from '../../src/mail/attachments';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF_MS } from '../../src/jobs/queue';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { SPECS, statementFixture } from '../support/statement-fixtures';

// Submitting a deal to lenders by email, end to end: POST /v1/deals/{dealId}/submissions records one
// submission per lender and queues one email each on the mail path; the worker sends it through the
// location's mailbox to a real SMTP server on loopback (parsed with mailparser; the package opened
// with pdf-lib); the submission becomes `sent` only once the server accepted the message.

let h: Harness;
let t: Tenant;
let bare: Tenant; // no mailbox
let other: Tenant;
let sink: SmtpSink;
let worker: Worker;

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  t = await h.tenant('Northwind Capital');
  bare = await h.tenant('No Mailbox Brokers');
  other = await h.tenant('Elsewhere');
  sink = await startSmtpSink();
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Northwind Deals <deals@northwind.example>' });
  worker = new Worker(h.deps, { concurrency: 4 });
});
afterAll(async () => {
  await worker?.close();
  await sink?.close();
  await h?.close();
});
beforeEach(() => {
  sink.inbox.length = 0;
  sink.refuse = false;
});

async function post<T = Record<string, any>>(path: string, body: unknown, tenant: Tenant = t, role: 'admin' | 'manager' | 'user' = 'admin') {
  const res = await h.api.post(path).set(tenant.auth(role)).set('Idempotency-Key', `k-${Math.random()}`).send(body as object);
  return res as unknown as { status: number; body: { data: T; meta: Record<string, any>; error?: Record<string, any> } };
}
async function lender(body: Record<string, unknown>, tenant: Tenant = t) {
  const res = await post('/v1/lenders', { name: `Lender ${Math.random().toString(36).slice(2, 7)}`, ...body }, tenant);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string };
}
async function deal(tenant: Tenant = t, name = 'Sunrise Bakery LLC') {
  const biz = await post('/v1/businesses', { legal_name: name, dba: 'Sunrise <Bakery>' }, tenant);
  const d = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 75000 }, tenant);
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  return { id: d.body.data.id as string, businessId: biz.body.data.id as string };
}

describe(`submitting a deal by email (${ENGINE})`, () => {
  it('one email per lender with the package attached; sent only once the SMTP server accepted it; submission.sent fires', async () => {
    const atlas = await lender({ submission_email: 'submissions@atlas.example', cc_emails: ['uw@atlas.example'] });
    const noEmail = await lender({});
    const inactive = await lender({ submission_email: 'x@inactive.example' });
    await h.api.patch(`/v1/lenders/${inactive.id}`).set(t.auth('admin')).send({ active: false }).expect(200);
    const d = await deal();

    const res = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id, noEmail.id, inactive.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toHaveLength(1);
    const sub = res.body.data[0] as Record<string, any>;
    expect(sub).toMatchObject({ deal_id: d.id, lender_id: atlas.id, lender_name: atlas.name, status: 'queued', submission_method: 'email', api: null, submitted_at: null, trace_code: null, match_score: expect.any(Number), match_eligible: expect.any(Boolean), forced: false });
    expect(res.body.meta).toEqual({
      already_submitted: [],
      not_sent: [
        { lender_id: noEmail.id, lender_name: noEmail.name, reason: 'no_submission_email' },
        { lender_id: inactive.id, lender_name: inactive.name, reason: 'lender_inactive' },
      ],
      warnings: [],
    });
    const events = await h.knex('events').where({ location_id: t.locationId, type: 'submission.sent' });

    // The SMTP server defers: the submission stays queued, never sent; the retry goes through.
    sink.refuse = true;
    await worker.drain();
    expect(sink.inbox).toEqual([]);
    expect((await h.api.get(`/v1/submissions/${sub.id}`).set(t.auth())).body.data.status).toBe('queued');
    sink.refuse = false;
    h.clock.advance(DEFAULT_BACKOFF_MS[0]);
    await worker.drain();
    expect(sink.inbox).toHaveLength(1);

    const { mail, rcpt } = sink.inbox[0];
    const row = await h.knex('submissions').where({ id: sub.id }).first();
    expect(row.trace_code).toMatch(/^SVC-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(rcpt.sort()).toEqual(['submissions@atlas.example', 'uw@atlas.example']);
    expect(mail.subject).toBe('New submission: Sunrise Bakery LLC ($75,000.00)');
    expect((mail.replyTo?.value ?? [])[0]?.address).toBe(`deals+${row.trace_code.replace(/-/g, '').toLowerCase()}@northwind.example`);
    expect(mail.text).toContain(`Reference ${row.trace_code}`);
    expect(mail.attachments).toHaveLength(1);
    const pdf = await PDFDocument.load(mail.attachments[0].content);
    expect(pdf.getKeywords()).toContain(row.trace_code);
    expect(mail.attachments[0].filename).toBe(`submission-${row.trace_code}.pdf`);

    const after = (await h.api.get(`/v1/submissions/${sub.id}`).set(t.auth())).body.data;
    expect(after).toMatchObject({ status: 'sent', submitted_at: h.clock.now().toISOString(), trace_code: row.trace_code });
    const sent = await h.knex('events').where({ location_id: t.locationId, type: 'submission.sent' });
    expect(sent.length).toBe(events.length + 1);
    expect(sent.at(-1).data).toMatchObject({ submission_id: sub.id, deal_id: d.id, lender_id: atlas.id, lender_name: atlas.name, submission: { id: sub.id, status: 'sent' } });

    // By reference, typed by a human from the printed page.
    const typed = row.trace_code.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    const byRef = await h.api.get(`/v1/submissions/by-reference/${encodeURIComponent(typed)}`).set(t.auth());
    expect(byRef.status, JSON.stringify(byRef.body)).toBe(200);
    expect(byRef.body.data.id).toBe(sub.id);
    expect((await h.api.get(`/v1/submissions/by-reference/${row.trace_code}`).set(other.auth())).status).toBe(404);

    // A second request leaves it alone and says so.
    const again = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id] });
    expect(again.body.data).toEqual([]);
    expect(again.body.meta.already_submitted).toEqual([{ lender_id: atlas.id, lender_name: atlas.name, submission_id: sub.id }]);
    await worker.drain();
    expect(sink.inbox).toHaveLength(1);
  });

  it('send: false records pending; no mailbox records `recorded` with meta.warning no_email_sender; nothing is emailed', async () => {
    const a = await lender({ submission_email: 'a@lender.example' });
    const d = await deal();
    const pending = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], send: false });
    expect(pending.status).toBe(201);
    expect(pending.body.data[0].status).toBe('pending');
    expect(pending.body.meta.warning).toBeUndefined();

    const b = await lender({ submission_email: 'b@lender.example' }, bare);
    const d2 = await deal(bare);
    const recorded = await post(`/v1/deals/${d2.id}/submissions`, { lender_ids: [b.id] }, bare);
    expect(recorded.body.data[0].status).toBe('recorded');
    expect(recorded.body.meta.warning).toBe('no_email_sender');
    await worker.drain();
    expect(sink.inbox).toEqual([]);
    expect(await h.knex('outgoing_emails').where({ location_id: bare.locationId })).toEqual([]);

    const list = await h.api.get(`/v1/deals/${d.id}/submissions`).set(t.auth()).query({ status: 'pending' });
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([pending.body.data[0].id]);
    expect((await h.api.get(`/v1/deals/${d.id}/submissions`).set(t.auth()).query({ status: 'sent' })).body.data).toEqual([]);
  });

  it('overrides are rendered, HTML-escaped; an unknown variable is a 400 naming it, and nothing is recorded', async () => {
    const a = await lender({ submission_email: 'html@lender.example' });
    const d = await deal(t, 'Tom & Jerry <Diner>');
    const bad = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], message_override: 'Hi {{lendr_name}}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'validation_error', param: 'message_override' });
    expect(bad.body.error!.message).toContain('{{lendr_name}}');
    expect(await h.knex('submissions').where({ deal_id: d.id })).toEqual([]);
    const res = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], subject_override: 'File: {{business_name}}', message_override: '<p>For {{lender_name}}: {{business_name}}</p>' });
    expect(res.status).toBe(201);
    await worker.drain();
    const { mail } = sink.inbox[0];
    expect(mail.subject).toBe('File: Tom & Jerry <Diner>');
    expect(mail.html).toContain(`<p>For ${a.name}: Tom &amp; Jerry &lt;Diner&gt;</p>`);
    expect(mail.text).toContain('Tom & Jerry <Diner>');
  });

  it('document_ids holds at most MAX_ATTACHMENTS (10) ids: 11 is a 400 validation_error on document_ids, nothing created', async () => {
    const atlas = await lender({ submission_email: 'bound@atlas.example' });
    const d = await deal(t, 'Bounded Bakery LLC');
    const ids = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => `doc_01JD1B9K3M5N7P9R1T3V5X7Z${String(i).padStart(2, '0')}`);
    const res = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id], document_ids: ids });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'document_ids' });
    expect(await h.knex('submissions').where({ deal_id: d.id })).toHaveLength(0);
    // Exactly the bound passes validation (and then fails on the unknown documents, 404).
    const atBound = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id], document_ids: ids.slice(0, MAX_ATTACHMENTS) });
    expect(atBound.status).toBe(404);
    expect(atBound.body.error).toMatchObject({ param: 'document_ids' });
  });

  it('document_ids: the chosen documents of the deal are stamped into the emailed package; a document of another deal is 404, one still uploading 409', async () => {
    const atlas = await lender({ submission_email: 'docs@atlas.example' });
    const d = await deal(t, 'Document Bakery LLC');
    const other = await deal(t, 'Other Bakery LLC');
    const statement = await statementFixture(SPECS[0]);
    const upload = async (dealId: string, finalize = true) => {
      const slot = (await post(`/v1/deals/${dealId}/documents`, { filename: 'oct-statement.pdf', content_type: 'application/pdf', size_bytes: statement.bytes.length, category: 'bank_statement' })).body.data as Record<string, any>;
      const u = new URL(slot.upload_url);
      await h.api.put(u.pathname + u.search).set(slot.upload_headers).send(Buffer.from(statement.bytes));
      if (finalize) expect((await post(`/v1/documents/${slot.document.id}/finalize`, undefined)).status).toBe(200);
      return slot.document.id as string;
    };
    const mine = await upload(d.id);
    const theirs = await upload(other.id);
    const waiting = await upload(d.id, false);
    const foreign = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id], document_ids: [mine, theirs] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ param: 'document_ids' });
    expect(foreign.body.error!.message).toContain(theirs);
    const early = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id], document_ids: [waiting] });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'invalid_state_transition', param: 'document_ids' });

    const res = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [atlas.id], document_ids: [mine] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await worker.drain();
    const mail = sink.inbox.find((m) => m.rcpt.includes('docs@atlas.example'))!.mail;
    const pkg = await PDFDocument.load(mail.attachments[0].content);
    // The summary page(s) plus the statement's pages.
    const without = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [(await lender({ submission_email: 'nodocs@atlas.example' })).id] });
    expect(without.status).toBe(201);
    await worker.drain();
    const bare = await PDFDocument.load(sink.inbox.find((m) => m.rcpt.includes('nodocs@atlas.example'))!.mail.attachments[0].content);
    expect(pkg.getPageCount()).toBe(bare.getPageCount() + statement.pages);
  });

  it('404 for another location\'s deal or lender, a document or template that is not there; 400 for 0, 51 or repeated lenders', async () => {
    const a = await lender({ submission_email: 'a@x.example' });
    const foreignLender = await lender({ submission_email: 'f@x.example' }, other);
    const d = await deal();
    const foreignDeal = await deal(other);
    const cases: [string, unknown, number, string][] = [
      [`/v1/deals/${foreignDeal.id}/submissions`, { lender_ids: [a.id] }, 404, 'dealId'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [foreignLender.id] }, 404, 'lender_ids'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], document_ids: ['doc_01JD1B9K3M5N7P9R1T3V5X7Z9B'] }, 404, 'document_ids'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], template_id: 'tpl_01JCZ8K5A1B2C3D4E5F6G7H8J9' }, 404, 'template_id'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [] }, 400, 'lender_ids'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id, a.id] }, 400, 'lender_ids'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: Array.from({ length: 51 }, () => a.id) }, 400, 'lender_ids'],
      [`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], subject_override: 'x'.repeat(501) }, 400, 'subject_override'],
    ];
    for (const [path, body, status, param] of cases) {
      const res = await post(path, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.error!.param, JSON.stringify(body).slice(0, 80)).toBe(param);
    }
    expect(await h.knex('submissions').where({ deal_id: d.id })).toEqual([]);
    expect((await h.api.get(`/v1/deals/${foreignDeal.id}/submissions`).set(t.auth())).status).toBe(404);
    // Role user: only deals it created.
    const created = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], send: false });
    expect(created.status).toBe(201);
    expect((await h.api.get(`/v1/deals/${d.id}/submissions`).set(t.auth('user'))).status).toBe(404);
    expect((await h.api.get(`/v1/submissions/${created.body.data[0].id}`).set(t.auth('user'))).status).toBe(404);
    expect((await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id] }, t, 'user')).status).toBe(404);
    expect((await h.api.get(`/v1/submissions/${created.body.data[0].id}`).set(other.auth())).status).toBe(404);
  });
});

describe(`lender answers and withdrawal (${ENGINE})`, () => {
  async function pendingSubmission(tenantRole: 'admin' | 'user' = 'admin') {
    const a = await lender({ submission_email: 'answers@lender.example' });
    const biz = await post('/v1/businesses', { legal_name: `Answer ${Math.random()}` }, t, tenantRole);
    const d = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 50000 }, t, tenantRole);
    const res = await post(`/v1/deals/${d.body.data.id}/submissions`, { lender_ids: [a.id], send: false }, t, tenantRole);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data[0] as { id: string; deal_id: string; lender_id: string };
  }

  it('each response type sets the status the table says; submission.responded fires for approved, declined and needs_info', async () => {
    const cases: [Record<string, unknown>, string, boolean][] = [
      [{ response_type: 'approved', response_notes: 'Approved at 1.35' }, 'approved', true],
      [{ response_type: 'counter' }, 'approved', true],
      [{ response_type: 'declined', decline_reason: 'Too many NSFs', decline_category: 'nsf' }, 'declined', true],
      [{ response_type: 'more_info', requested_items: ['October statement', 'Voided check'] }, 'needs_info', true],
      [{ response_type: 'withdrawn' }, 'withdrawn', false],
    ];
    for (const [body, status, fires] of cases) {
      const sub = await pendingSubmission();
      const before = (await h.knex('events').where({ location_id: t.locationId, type: 'submission.responded' })).length;
      h.clock.advance(1000);
      const res = await post(`/v1/submissions/${sub.id}/responses`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({
        status, response_type: body.response_type, responded_at: h.clock.now().toISOString(),
        response_notes: body.response_notes ?? null, decline_reason: body.decline_reason ?? null, decline_category: body.decline_category ?? null,
        requested_items: body.requested_items ?? [],
      });
      const events = await h.knex('events').where({ location_id: t.locationId, type: 'submission.responded' }).orderBy('created_at');
      expect(events.length, String(body.response_type)).toBe(before + (fires ? 1 : 0));
      if (fires) expect(events.at(-1).data).toMatchObject({ submission_id: sub.id, status, submission: { id: sub.id, status } });
    }
  });

  it('400 for fields that do not fit the response type; 409 once funded; 404 across locations and for role user on others\' deals', async () => {
    const sub = await pendingSubmission();
    for (const [body, param] of [
      [{ response_type: 'approved', decline_reason: 'x' }, 'decline_reason'],
      [{ response_type: 'more_info', decline_category: 'nsf' }, 'decline_category'],
      [{ response_type: 'declined', requested_items: ['x'] }, 'requested_items'],
      [{ response_type: 'maybe' }, 'response_type'],
    ] as const) {
      const res = await post(`/v1/submissions/${sub.id}/responses`, body);
      expect(res.status, param).toBe(400);
      expect(res.body.error!.param).toBe(param);
    }
    expect((await post(`/v1/submissions/${sub.id}/responses`, { response_type: 'approved' }, other)).status).toBe(404);
    expect((await post(`/v1/submissions/${sub.id}/responses`, { response_type: 'approved' }, t, 'user')).status).toBe(404);
    const own = await pendingSubmission('user');
    expect((await post(`/v1/submissions/${own.id}/responses`, { response_type: 'approved' }, t, 'user')).status).toBe(200);
    await h.knex('submissions').where({ id: sub.id }).update({ status: 'funded' });
    const funded = await post(`/v1/submissions/${sub.id}/responses`, { response_type: 'declined' });
    expect(funded.status).toBe(409);
    expect(funded.body.error).toMatchObject({ type: 'conflict', code: 'invalid_state_transition' });
  });

  it('withdrawing a queued submission cancels its email: nothing reaches the lender; declined ones cannot be withdrawn; role user may not', async () => {
    const a = await lender({ submission_email: 'withdraw@lender.example' });
    const d = await deal();
    const queued = (await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id] })).body.data[0] as { id: string; status: string };
    expect(queued.status).toBe('queued');
    expect((await post(`/v1/submissions/${queued.id}/withdraw`, {}, t, 'user')).status).toBe(403);
    const res = await post(`/v1/submissions/${queued.id}/withdraw`, { reason: 'Merchant took another offer' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('withdrawn');
    await worker.drain();
    expect(sink.inbox).toEqual([]);
    const email = await h.knex('outgoing_emails').whereRaw('attachments @> ?::jsonb', [JSON.stringify([{ source: { ref: queued.id } }])]).first();
    expect(email).toMatchObject({ status: 'dead', last_error: 'Cancelled: the submission was withdrawn' });
    const activity = await h.knex('activities').where({ entity_id: queued.id, action: 'submission.withdrawn' }).first();
    expect(activity.description).toContain('Merchant took another offer');
    const again = await post(`/v1/submissions/${queued.id}/withdraw`, {});
    expect(again.status).toBe(409);
    const declined = await pendingSubmission();
    await post(`/v1/submissions/${declined.id}/responses`, { response_type: 'declined' });
    expect((await post(`/v1/submissions/${declined.id}/withdraw`, {})).status).toBe(409);
  });
});

describe(`the reference's guide "From submission to offer" (${ENGINE})`, () => {
  it('drives a deal from submission to a funded offer through the API alone', async () => {
    const biz = await post('/v1/businesses', { legal_name: 'Guide Bakery LLC' });
    const d = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 75000 });
    const atlas = await post('/v1/lenders', { name: 'Guide Atlas Capital', submission_email: 'submissions@atlas.example' });
    const other1 = await post('/v1/lenders', { name: 'Guide Brightline', submission_email: 'deals@brightline.example' });
    const matches = await h.api.get(`/v1/deals/${d.body.data.id}/lender-matches`).set(t.auth());
    expect(matches.status).toBe(200);
    const submitted = await post(`/v1/deals/${d.body.data.id}/submissions`, { lender_ids: [atlas.body.data.id, other1.body.data.id] });
    expect(submitted.status).toBe(201);
    expect(submitted.body.data.map((s: { status: string }) => s.status)).toEqual(['queued', 'queued']);
    await worker.drain();
    expect(sink.inbox).toHaveLength(2);
    const [sub, otherSub] = submitted.body.data as { id: string }[];
    const sent = (await h.api.get(`/v1/submissions/${sub.id}`).set(t.auth())).body.data;
    expect(sent.status).toBe('sent');
    expect((await h.api.get(`/v1/submissions/by-reference/${sent.trace_code}`).set(t.auth())).body.data.id).toBe(sub.id);
    expect((await post(`/v1/submissions/${sub.id}/responses`, { response_type: 'approved', response_notes: '75k at 1.35, 180 days' })).status).toBe(200);
    const offer = await post(`/v1/deals/${d.body.data.id}/offers`, {
      lender_id: atlas.body.data.id, submission_id: sub.id, amount: 75000, factor_rate: 1.35, term: 180, term_unit: 'days', payment_frequency: 'daily',
    });
    expect(offer.status, JSON.stringify(offer.body)).toBe(201);
    expect((await post(`/v1/offers/${offer.body.data.id}/primary`, {})).status).toBe(200);
    expect((await h.api.patch(`/v1/offers/${offer.body.data.id}`).set(t.auth()).send({ status: 'accepted' })).status).toBe(200);
    const funded = await post(`/v1/deals/${d.body.data.id}/fund`, { offer_id: offer.body.data.id });
    expect(funded.status, JSON.stringify(funded.body)).toBe(201);
    expect((await h.api.get(`/v1/submissions/${sub.id}`).set(t.auth())).body.data.status).toBe('funded');
    expect((await post(`/v1/submissions/${otherSub.id}/withdraw`, {})).body.data.status).toBe('withdrawn');
    const types = (await h.knex('events').where({ location_id: t.locationId }).whereIn('type', ['submission.sent', 'submission.responded', 'offer.received', 'deal.funded']).whereRaw("data->>'deal_id' = ?", [d.body.data.id])).map((e: { type: string }) => e.type);
    expect(new Set(types)).toEqual(new Set(['submission.sent', 'submission.responded', 'offer.received', 'deal.funded']));
  });
});

describe(`trace codes (${ENGINE})`, () => {
  it('a code already taken (or drawn twice in one request) is drawn again before the insert', async () => {
    const { reissueTakenTraceCodes } = await import('../../src/features/submissions/submissions.service');
    const taken = (await h.knex('submissions').whereNotNull('trace_code').first('trace_code'))?.trace_code as string;
    expect(taken).toBeTruthy();
    const rows = [{ trace_code: taken }, { trace_code: 'SVC-AAAA-BBBB' }, { trace_code: 'SVC-AAAA-BBBB' }, { trace_code: null }];
    await h.knex.transaction((trx) => reissueTakenTraceCodes(trx, rows));
    expect(rows[0].trace_code).not.toBe(taken);
    expect(rows[0].trace_code).toMatch(/^SVC-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(rows[1].trace_code).toBe('SVC-AAAA-BBBB');
    expect(rows[2].trace_code).not.toBe('SVC-AAAA-BBBB');
    expect(rows[3].trace_code).toBeNull();
  });
});

describe(`where money is at stake: force (${ENGINE})`, () => {
  // Everything a submission could leave behind in this location: its rows, the email outbox, the
  // job queue (mail and funder attempts), funder attempts, webhook events.
  async function footprint(tenant: Tenant = t) {
    const n = async (table: string) => Number((await h.knex(table).where({ location_id: tenant.locationId }).count<{ n: string }[]>('* as n'))[0].n);
    const jobs = Number((await h.knex('jobs').count<{ n: string }[]>('* as n'))[0].n);
    return { submissions: await n('submissions'), emails: await n('outgoing_emails'), attempts: await n('api_submissions'), events: await n('events'), jobs };
  }
  async function refused(dealId: string, body: Record<string, unknown>, code: string) {
    await worker.drain(); // earlier work of the test settled first
    sink.inbox.length = 0;
    const before = await footprint();
    // No Idempotency-Key: the service's own transaction is the only thing between a refusal and a
    // write (with a key, the request's transaction would roll it back as well).
    const res = await h.api.post(`/v1/deals/${dealId}/submissions`).set(t.auth('admin')).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict', code });
    await worker.drain();
    expect(await footprint()).toEqual(before);
    expect(sink.inbox).toHaveLength(0);
    return res.body.error!;
  }
  async function fundedDeal() {
    const d = await deal(t, 'Funded Florist LLC');
    const backer = await lender({ submission_email: 'backer@funded.example' });
    const o = await post(`/v1/deals/${d.id}/offers`, { lender_id: backer.id, amount: 75000, factor_rate: 1.35, term: 180, status: 'accepted' });
    expect(o.status, JSON.stringify(o.body)).toBe(201);
    expect((await post(`/v1/deals/${d.id}/fund`, { offer_id: o.body.data.id })).status).toBe(201);
    return d;
  }

  it('a funded deal: 409 deal_funded, nothing written or sent; force: true sends it and the submission says forced', async () => {
    const d = await fundedDeal();
    const a = await lender({ submission_email: 'late@atlas.example' });
    const err = await refused(d.id, { lender_ids: [a.id] }, 'deal_funded');
    expect(err).toMatchObject({ param: 'dealId', message: expect.stringContaining('force: true') });
    // force: false is the default, said out loud
    await refused(d.id, { lender_ids: [a.id], force: false }, 'deal_funded');

    const forced = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(201);
    expect(forced.body.data[0]).toMatchObject({ status: 'queued', forced: true });
    expect(forced.body.meta.warnings).toEqual([]);
    await worker.drain();
    expect(sink.inbox.map((m) => m.rcpt)).toEqual([['late@atlas.example']]);
    expect((await h.api.get(`/v1/submissions/${forced.body.data[0].id}`).set(t.auth())).body.data).toMatchObject({ status: 'sent', forced: true });
  });

  it('a dead deal: 409 deal_dead; force: true proceeds', async () => {
    const d = await deal(t, 'Dead Diner LLC');
    expect((await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'Went quiet' })).status).toBe(200);
    const a = await lender({ submission_email: 'dead@atlas.example' });
    await refused(d.id, { lender_ids: [a.id], send: false }, 'deal_dead');
    const forced = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [a.id], send: false, force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.data[0]).toMatchObject({ status: 'pending', forced: true });
  });

  it('a lender whose hard gates fail: 409 lender_hard_rules_failed naming each such lender and gate, no figures; nothing for the good lender either', async () => {
    const d = await deal(t, 'Gated Garage LLC'); // requests $75,000, no owner (credit score unknown), no state
    const strict = await lender({ submission_email: 'strict@gate.example', criteria: { max_amount: 50000, allowed_states: ['CO'], min_credit_score: 700, hard_gates: ['max_amount', 'allowed_states'] } });
    const picky = await lender({ submission_email: 'picky@gate.example', criteria: { min_amount: 100000, hard_gates: ['min_amount'] } });
    const fine = await lender({ submission_email: 'fine@gate.example' });
    const err = await refused(d.id, { lender_ids: [fine.id, strict.id, picky.id] }, 'lender_hard_rules_failed');
    expect(err.param).toBe('lender_ids');
    expect(err.message).toBe(
      `The deal fails the hard gates of 2 lenders: ${strict.name} (${strict.id}): max_amount, allowed_states; ${picky.name} (${picky.id}): min_amount. Leave them out, or send force: true to submit anyway`,
    );
    expect(err.message).not.toMatch(/75,?000|Gated Garage/);

    // Leaving them out goes through; a lender already submitted to, or inactive, is not checked.
    const good = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [fine.id] });
    expect(good.status).toBe(201);
    expect(good.body.data[0].forced).toBe(false);
    await h.api.patch(`/v1/lenders/${picky.id}`).set(t.auth()).send({ active: false }).expect(200);
    await refused(d.id, { lender_ids: [fine.id, strict.id, picky.id] }, 'lender_hard_rules_failed');

    const forced = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [fine.id, strict.id, picky.id], force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(201);
    expect(forced.body.data).toHaveLength(1);
    expect(forced.body.data[0]).toMatchObject({ lender_id: strict.id, forced: true, match_eligible: false, status: 'queued' });
    expect(forced.body.meta.already_submitted.map((x: { lender_id: string }) => x.lender_id)).toEqual([fine.id]);
    expect(forced.body.meta.not_sent).toEqual([{ lender_id: picky.id, lender_name: picky.name, reason: 'lender_inactive' }]);
    expect(forced.body.meta.warnings).toEqual([
      { code: 'soft_criterion_failed', lender_id: strict.id, lender_name: strict.name, criterion: 'min_credit_score', message: `${strict.name}: min_credit_score is not met (a soft criterion; it lowers the match score)` },
      { code: 'hard_rule_forced', lender_id: strict.id, lender_name: strict.name, criterion: 'max_amount', message: `${strict.name}: max_amount is not met (a hard gate, overridden with force: true)` },
      { code: 'hard_rule_forced', lender_id: strict.id, lender_name: strict.name, criterion: 'allowed_states', message: `${strict.name}: allowed_states is not met (a hard gate, overridden with force: true)` },
    ]);
    await worker.drain();
    expect(sink.inbox.map((m) => m.rcpt)).toEqual([['strict@gate.example']]); // fine's went out before the second refusal
  });

  it('soft mismatches only: 201 without force, each listed in meta.warnings; a deal meeting everything has none', async () => {
    const d = await deal(t, 'Soft Soap LLC');
    const soft = await lender({ submission_email: 'soft@lender.example', criteria: { max_amount: 50000, max_positions: 0, min_time_in_business_months: 24 } });
    const easy = await lender({ submission_email: 'easy@lender.example', criteria: { max_amount: 100000, hard_gates: ['max_amount'] } });
    const res = await post(`/v1/deals/${d.id}/submissions`, { lender_ids: [soft.id, easy.id], send: false });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.map((s: { forced: boolean; match_eligible: boolean }) => [s.forced, s.match_eligible])).toEqual([[false, true], [false, true]]);
    expect(res.body.meta.warnings.map((w: { code: string; lender_id: string; criterion: string }) => [w.code, w.lender_id, w.criterion])).toEqual([
      ['soft_criterion_failed', soft.id, 'min_time_in_business_months'],
      ['soft_criterion_failed', soft.id, 'max_amount'],
    ]);
    // force: true where nothing needed forcing records nothing as forced
    const d2 = await deal(t, 'Soft Soap Two LLC');
    const again = await post(`/v1/deals/${d2.id}/submissions`, { lender_ids: [easy.id], send: false, force: true });
    expect(again.body.data[0].forced).toBe(false);
    expect(again.body.meta.warnings).toEqual([]);
  });

  it('the 409 is kept under its Idempotency-Key: a replay answers it again, force needs a new key', async () => {
    const d = await deal(t, 'Replay Rentals LLC');
    const gated = await lender({ submission_email: 'gated@replay.example', criteria: { max_amount: 1000, hard_gates: ['max_amount'] } });
    const send = (body: object, key: string) => h.api.post(`/v1/deals/${d.id}/submissions`).set(t.auth()).set('Idempotency-Key', key).send(body);
    expect((await send({ lender_ids: [gated.id], send: false }, 'force-k1')).status).toBe(409);
    const replay = await send({ lender_ids: [gated.id], send: false }, 'force-k1');
    expect(replay.status).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await send({ lender_ids: [gated.id], send: false, force: true }, 'force-k1')).body.error.code).toBe('idempotency_key_reused');
    expect((await send({ lender_ids: [gated.id], send: false, force: true }, 'force-k2')).status).toBe(201);
  });
});
