import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDuePolls, leaseForRequest, nextPollAt, pollAttempt } from '../../src/features/funders/attempts';
import { MOCK_OUTCOMES, mockOutcome } from '../../src/features/funders/mock.adapter';
import { DEFAULT_BACKOFF_MS } from '../../src/jobs/queue';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Submitting through funder APIs with the mock funder (test locations only): every outcome of the
// documented table, the poll schedule to `stale` on the injected clock, the retry guard, check-status,
// withdrawal, and two workers polling at once. The generic HTTP adapter against a real loopback funder
// is in funder-http.test.ts.

const MIN = 60_000;
const HOUR = 60 * MIN;

let h: Harness;
let t: Tenant;
let worker: Worker;
let mockLender: string;

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  t = await h.tenant('Mock Funder Brokers');
  worker = new Worker(h.deps, { concurrency: 4 });
  mockLender = await apiLender('Mock Capital');
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
});

type Json = Record<string, any>;
async function post(path: string, body?: object, role: 'admin' | 'manager' | 'user' = 'admin', tenant: Tenant = t) {
  const req = h.api.post(path).set(tenant.auth(role)).set('Idempotency-Key', `k-${Math.random()}`);
  const res = body === undefined ? await req : await req.send(body);
  return res as unknown as { status: number; headers: Record<string, string>; body: { data: Json; meta: Json; error: Json } };
}
async function get(path: string, role: 'admin' | 'manager' | 'user' = 'admin') {
  return (await h.api.get(path).set(t.auth(role))) as unknown as { status: number; body: { data: Json; meta: Json; error: Json } };
}
async function apiLender(name: string): Promise<string> {
  const l = await post('/v1/lenders', { name: `${name} ${Math.random().toString(36).slice(2, 6)}` });
  const cfg = await h.api.put(`/v1/lenders/${l.body.data.id}/api-config`).set(t.auth()).send({ submission_method: 'api', funder_api_spec_id: 'mock', api_credentials: 'mock-key-0123456789' });
  expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
  return l.body.data.id;
}
/** A deal of `amount` submitted to the mock lender; returns the submission as created. */
async function submitted(amount: number, role: 'admin' | 'user' = 'admin', lenderId = mockLender) {
  const biz = await post('/v1/businesses', { legal_name: `Mock Outcome ${amount} ${Math.random().toString(36).slice(2, 6)} LLC` }, role);
  const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: amount }, role);
  expect(deal.status, JSON.stringify(deal.body)).toBe(201);
  const res = await post(`/v1/deals/${deal.body.data.id}/submissions`, { lender_ids: [lenderId] }, role);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { sub: res.body.data[0] as Json, dealId: deal.body.data.id as string };
}
const sub = async (id: string) => (await get(`/v1/submissions/${id}`)).body.data;
const attempts = (submissionId: string) => h.knex('api_submissions').where({ submission_id: submissionId }).orderBy('attempt_number');
const check = (id: string) => post(`/v1/submissions/${id}/check-status`);

describe(`the mock funder (${ENGINE})`, () => {
  it('a new API submission is queued with attempt 1; the submit job sends it; the submission becomes sent with submission.sent', async () => {
    const { sub: created, dealId } = await submitted(25000);
    expect(created).toMatchObject({ status: 'queued', submission_method: 'api', submitted_at: null });
    expect(created.api).toMatchObject({
      submission_id: created.id, deal_id: dealId, lender_id: mockLender, funder_api_spec_id: 'mock', environment: 'development', attempt_number: 1,
      internal_status: 'queued', external_id: null, submitted_at: null, next_poll_at: null, can_retry: false, retry_after_seconds: null,
    });
    await worker.drain();
    const s = await sub(created.id);
    const now = h.clock.now().getTime();
    expect(s.status).toBe('sent');
    expect(s.submitted_at).toBe(new Date(now).toISOString());
    expect(s.api).toMatchObject({ internal_status: 'sent', funder_status: 'Received', external_id: expect.stringMatching(/^MOCK-/), deep_link_url: expect.stringMatching(/^https:\/\//), error_code: null, error_message: null });
    expect(s.api.next_poll_at).toBe(new Date(now + 15 * MIN).toISOString());
    const sent = await h.knex('events').where({ location_id: t.locationId, type: 'submission.sent' }).whereRaw(`data->>'submission_id' = ?`, [created.id]);
    expect(sent).toHaveLength(1);
    // The list and the by-id read carry the same `api`.
    const list = await get(`/v1/deals/${dealId}/submissions`);
    expect(list.body.data[0].api).toEqual(s.api);
  });

  it('the reference documents exactly the outcomes the mock implements', () => {
    const yaml = readFileSync('openapi.yaml', 'utf8');
    const guide = yaml.slice(yaml.indexOf('    ## The mock funder'), yaml.indexOf('    # Versioning'));
    const rows = [...guide.matchAll(/^\s*\| `(\d{3})`[^|]*\| ([^|]+)\|([^|]*)\|([^|]*)\|([^|]*)\|/gm)].map((m) => ({ tail: Number(m[1]), cells: m.slice(2).join('|') }));
    expect(rows.map((r) => r.tail).sort()).toEqual(Object.keys(MOCK_OUTCOMES).map(Number).sort());
    for (const r of rows) {
      const outcome = MOCK_OUTCOMES[r.tail as keyof typeof MOCK_OUTCOMES];
      expect(r.cells, `row ${r.tail}`).toContain(outcome === 'needs_info' || outcome === 'declined' || outcome === 'funded' || outcome === 'expired' ? `\`${outcome}\`` : outcome);
    }
    expect(mockOutcome(25000)).toBe('approved');
    expect(mockOutcome(25001.99)).toBe('declined');
  });

  const lifeCycles: [number, string, { status: string; internal: string; funder: string }[]][] = [
    [25000, 'approved', [
      { status: 'sent', internal: 'pending', funder: 'In Review' },
      { status: 'approved', internal: 'approved', funder: 'Approved' },
      { status: 'approved', internal: 'approved', funder: 'Approved' },
    ]],
    [25001, 'declined', [
      { status: 'sent', internal: 'pending', funder: 'In Review' },
      { status: 'declined', internal: 'declined', funder: 'Declined' },
    ]],
    [25002, 'needs_info', [
      { status: 'sent', internal: 'pending', funder: 'In Review' },
      { status: 'needs_info', internal: 'pending', funder: 'Stips Requested' },
    ]],
    [25003, 'funded', [
      { status: 'sent', internal: 'pending', funder: 'In Review' },
      { status: 'approved', internal: 'approved', funder: 'Approved' },
      { status: 'funded', internal: 'funded', funder: 'Funded' },
    ]],
    [25008, 'expired', [
      { status: 'sent', internal: 'pending', funder: 'In Review' },
      { status: 'approved', internal: 'approved', funder: 'Approved' },
      { status: 'expired', internal: 'expired', funder: 'Offer Expired' },
    ]],
  ];
  for (const [amount, name, steps] of lifeCycles) {
    it(`${amount}: ${name}, one step per status request`, async () => {
      const { sub: created } = await submitted(amount);
      await worker.drain();
      for (const [i, step] of steps.entries()) {
        const res = await check(created.id);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect({ status: res.body.data.status, internal: res.body.data.api.internal_status, funder: res.body.data.api.funder_status }, `step ${i + 1}`).toEqual(step);
      }
      const s = await sub(created.id);
      if (name === 'declined') expect(s).toMatchObject({ response_type: 'declined', decline_reason: expect.stringContaining('12 month'), responded_at: expect.any(String) });
      if (name === 'needs_info') expect(s).toMatchObject({ response_type: 'more_info', requested_items: ['Last 3 months of bank statements', 'Voided business check'] });
      if (['declined', 'funded', 'expired'].includes(name)) expect(s.api.next_poll_at).toBeNull(); // a final answer ends polling
      else expect(s.api.next_poll_at).not.toBeNull();
      const responded = await h.knex('events').where({ location_id: t.locationId, type: 'submission.responded' }).whereRaw(`data->>'submission_id' = ?`, [created.id]);
      expect(responded.map((e) => e.data.status)).toEqual(name === 'approved' || name === 'funded' || name === 'expired' ? ['approved'] : [name]);
    });
  }

  it('offers the funder returns are logged once: identical options collapsed, none primary, again-returned ones not logged twice', async () => {
    const { sub: created, dealId } = await submitted(40000);
    await worker.drain();
    await check(created.id);
    await check(created.id); // Approved: three offers, two identical
    await check(created.id); // Approved again, the same offers
    const offers = (await get(`/v1/deals/${dealId}/offers`)).body.data as Json[];
    expect(offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit, o.payment_frequency]).sort()).toEqual([
      [32000, 1.29, 26, 'weeks', 'weekly'],
      [40000, 1.35, 180, 'days', 'daily'],
    ]);
    for (const o of offers) expect(o).toMatchObject({ source: 'funder_api', is_primary: false, status: 'pending', lender_id: mockLender, submission_id: created.id });
    const received = await h.knex('events').where({ location_id: t.locationId, type: 'offer.received' }).whereRaw(`data->>'deal_id' = ?`, [dealId]);
    expect(received).toHaveLength(2);
    expect((await get(`/v1/deals/${dealId}`)).body.data.primary_offer).toBeNull();
  });

  it('the guide: from submission to funded through the mock and the API alone', async () => {
    const { sub: created, dealId } = await submitted(25003);
    await worker.drain();
    expect((await sub(created.id)).status).toBe('sent');
    expect((await check(created.id)).body.data.api.funder_status).toBe('In Review');
    expect((await check(created.id)).body.data.status).toBe('approved');
    const offers = (await get(`/v1/deals/${dealId}/offers`)).body.data as Json[];
    expect(offers).toHaveLength(2);
    expect((await check(created.id)).body.data.status).toBe('funded');
    const offer = offers.find((o) => o.amount === 25003)!;
    const accepted = await h.api.patch(`/v1/offers/${offer.id}`).set(t.auth()).send({ status: 'accepted' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const funded = await post(`/v1/deals/${dealId}/fund`, { offer_id: offer.id });
    expect(funded.status, JSON.stringify(funded.body)).toBe(201);
    expect((await get(`/v1/deals/${dealId}`)).body.data.status).toBe('funded');
    expect((await sub(created.id)).status).toBe('funded');
  });
});

describe(`the poll schedule (${ENGINE})`, () => {
  it('nextPollAt: 15 minutes to 2 hours, hourly to 24 hours, 6-hourly to 7 days, then null', () => {
    const s = new Date('2026-11-01T00:00:00Z');
    const at = (ms: number) => nextPollAt(s, new Date(s.getTime() + ms))?.getTime() ?? null;
    const t0 = s.getTime();
    expect(at(0)).toBe(t0 + 15 * MIN);
    expect(at(15 * MIN - 1)).toBe(t0 + 15 * MIN);
    expect(at(15 * MIN)).toBe(t0 + 30 * MIN);
    expect(at(105 * MIN)).toBe(t0 + 2 * HOUR);
    expect(at(2 * HOUR)).toBe(t0 + 3 * HOUR);
    expect(at(23 * HOUR + 59 * MIN)).toBe(t0 + 24 * HOUR);
    expect(at(24 * HOUR)).toBe(t0 + 30 * HOUR);
    expect(at(162 * HOUR)).toBe(t0 + 168 * HOUR);
    expect(at(167 * HOUR)).toBe(t0 + 168 * HOUR);
    expect(at(168 * HOUR)).toBeNull();
  });

  it('the worker polls on that schedule until 7 days have passed, then the attempt is stale with next_poll_at null and can be retried', async () => {
    const { sub: created } = await submitted(26000); // approved, and polled on (funded may follow)
    await worker.drain();
    const start = new Date((await sub(created.id)).submitted_at).getTime();
    const polledAt: number[] = [];
    // A second before a poll is due nothing happens: checked on the first and last poll of each step
    // (15 minutes, hourly, 6-hourly), the same query at every other; at the time, one poll, every time.
    const beforeDue = new Set([0, 7, 8, 29, 30, 53]);
    for (let i = 0; i < 100; i++) {
      const next = (await sub(created.id)).api.next_poll_at as string | null;
      if (!next) break;
      if (beforeDue.has(i)) {
        h.clock.set(new Date(new Date(next).getTime() - 1000));
        await worker.drain();
        expect((await sub(created.id)).api.last_polled_at).toBe(polledAt.length ? new Date(polledAt[polledAt.length - 1]).toISOString() : null);
      }
      h.clock.set(next);
      await worker.drain();
      polledAt.push(new Date(next).getTime());
    }
    const offsets = polledAt.map((p) => (p - start) / MIN);
    const expected = [
      ...Array.from({ length: 8 }, (_, i) => (i + 1) * 15),
      ...Array.from({ length: 22 }, (_, i) => (i + 3) * 60),
      ...Array.from({ length: 24 }, (_, i) => (30 + i * 6) * 60),
    ];
    expect(offsets).toEqual(expected);
    const s = await sub(created.id);
    expect(s.status).toBe('approved');
    expect(s.api).toMatchObject({ internal_status: 'stale', next_poll_at: null, last_polled_at: new Date(start + 7 * 24 * HOUR).toISOString(), can_retry: true, retry_after_seconds: null });
    expect((await attempts(created.id))[0].poll_count).toBe(54);
    // A stale attempt can be retried: attempt 2 goes to the funder again.
    const retried = await post(`/v1/submissions/${created.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'queued', api: { attempt_number: 2, internal_status: 'queued', can_retry: false } });
    await worker.drain();
    expect((await sub(created.id)).api).toMatchObject({ attempt_number: 2, internal_status: 'sent' });
    expect((await attempts(created.id)).map((a) => [a.attempt_number, a.internal_status])).toEqual([[1, 'stale'], [2, 'sent']]);
  }, 120_000); // ~100 polls through the worker: minutes of work on a loaded machine, not a wait

  it('a withdrawn submission is not polled any more', async () => {
    const { sub: created } = await submitted(27000);
    await worker.drain();
    expect((await post(`/v1/submissions/${created.id}/withdraw`, {})).status).toBe(200);
    expect((await attempts(created.id))[0].next_poll_at).toBeNull(); // at once, not at the next poll
    h.clock.advance(HOUR);
    await worker.drain();
    const [a] = await attempts(created.id);
    expect(a.next_poll_at).toBeNull();
    expect(a.poll_count).toBe(0);
    expect((await sub(created.id)).status).toBe('withdrawn');
  });

  it('a submission withdrawn while its poll was already claimed: the funder is not asked, polling ends', async () => {
    const { sub: created } = await submitted(27500);
    await worker.drain();
    h.clock.advance(15 * MIN);
    const claimed = (await claimDuePolls(h.knex, { now: h.clock.now(), limit: 100, workerId: 'wrk_dddddddddddddddd', checkLiveness: false })).find((a) => a.submission_id === created.id)!;
    await h.knex('submissions').where({ id: created.id }).update({ status: 'withdrawn' }); // as a withdrawal racing the poll
    expect(await pollAttempt(h.deps, claimed, { reschedule: true })).toBe(true);
    const [a] = await attempts(created.id);
    expect(a).toMatchObject({ poll_count: 0, next_poll_at: null, funder_status: 'Received', locked_by: null });
  });

  it('two workers at once never poll the same submission: each due attempt is polled exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await submitted(28000 + i * 1000)).sub.id);
    await worker.drain();
    h.clock.advance(15 * MIN);
    // Two claims at once take disjoint attempts under their leases.
    const [a, b] = await Promise.all([
      claimDuePolls(h.knex, { now: h.clock.now(), limit: 8, workerId: 'wrk_aaaaaaaaaaaaaaaa', checkLiveness: false }),
      claimDuePolls(h.knex, { now: h.clock.now(), limit: 8, workerId: 'wrk_bbbbbbbbbbbbbbbb', checkLiveness: false }),
    ]);
    const mine = (rows: { submission_id: string }[]) => rows.map((r) => r.submission_id).filter((id) => ids.includes(id));
    expect(mine(a).filter((id) => mine(b).includes(id))).toEqual([]);
    // Those leases run out; then two real workers drain together.
    h.clock.advance(2 * MIN);
    const other = new Worker(h.deps, { concurrency: 4 });
    try {
      await Promise.all([worker.drain(), other.drain()]);
    } finally {
      await other.close();
    }
    const rows = await h.knex('api_submissions').whereIn('submission_id', ids);
    expect(rows.map((r) => Number(r.poll_count))).toEqual(ids.map(() => 1));
  }, 90_000); // 12 submissions sent and polled through two workers: work (1.5 s quiet, over 30 s on a loaded machine), not a wait
});

describe(`retry and check-status (${ENGINE})`, () => {
  it('auth_failed is never retried automatically; the 2 minute guard answers 409 with the seconds left; then attempt 2 goes through', async () => {
    const { sub: created } = await submitted(25004);
    await worker.drain();
    let s = await sub(created.id);
    expect(s.status).toBe('queued');
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'auth_failed', error_message: expect.stringContaining('invalid API key'), can_retry: false, retry_after_seconds: 120 });
    const job = await h.knex('jobs').where({ queue: 'funder.submit' }).whereRaw(`payload->>'attempt_id' = ?`, [s.api.id]).first();
    expect(job.status).toBe('dead');
    expect((await h.knex('lenders').where({ id: mockLender }).first('api_last_error')).api_last_error).toContain('invalid API key');

    h.clock.advance(50_000);
    expect((await sub(created.id)).api.retry_after_seconds).toBe(70);
    const early = await post(`/v1/submissions/${created.id}/retry`);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ type: 'conflict', code: 'retry_too_soon', message: expect.stringContaining('70 seconds') });
    expect(early.headers['retry-after']).toBe('70');
    expect(await attempts(created.id)).toHaveLength(1);

    h.clock.advance(70_000);
    s = await sub(created.id);
    expect(s.api).toMatchObject({ can_retry: true, retry_after_seconds: null });
    const res = await post(`/v1/submissions/${created.id}/retry`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'queued', api: { attempt_number: 2, internal_status: 'queued', error_code: null, can_retry: false, retry_after_seconds: null } });
    await worker.drain();
    s = await sub(created.id);
    expect(s).toMatchObject({ status: 'sent', api: { attempt_number: 2, internal_status: 'sent' } });
    const all = await attempts(created.id);
    expect(all.map((a) => [a.attempt_number, a.internal_status, a.error_code])).toEqual([[1, 'errored', 'auth_failed'], [2, 'sent', null]]);
    // Once sent the funder has it: no retry.
    const again = await post(`/v1/submissions/${created.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('not_retryable');
  });

  it('funder_error and timeout are retried on the job queue backoff; a manual retry cancels the pending automatic one', async () => {
    const { sub: created } = await submitted(25007);
    await worker.drain();
    const [first] = await attempts(created.id);
    expect(first).toMatchObject({ internal_status: 'errored', error_code: 'funder_error' });
    const jobOf = () => h.knex('jobs').where({ queue: 'funder.submit' }).whereRaw(`payload->>'attempt_id' = ?`, [first.id]).first();
    expect(await jobOf()).toMatchObject({ status: 'queued', attempts: 1 });
    h.clock.advance(DEFAULT_BACKOFF_MS[0]);
    await worker.drain();
    expect(await jobOf()).toMatchObject({ status: 'queued', attempts: 2 }); // tried again, failed again (attempt 1 of 25007 always does)
    h.clock.advance(2 * MIN);
    const res = await post(`/v1/submissions/${created.id}/retry`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await jobOf()).toMatchObject({ status: 'dead', last_error: 'Superseded by attempt 2' });
    await worker.drain();
    expect((await sub(created.id)).api).toMatchObject({ attempt_number: 2, internal_status: 'sent' });

    const timeout = await submitted(25006);
    await worker.drain();
    expect((await sub(timeout.sub.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'timeout' });
  });

  it('retry refusals: not errored (409 not_retryable), a withdrawn submission (409), an email submission (404 no_api_submission)', async () => {
    const { sub: pending } = await submitted(29000);
    await worker.drain();
    h.clock.advance(5 * MIN);
    const r1 = await post(`/v1/submissions/${pending.id}/retry`);
    expect(r1.status).toBe(409);
    expect(r1.body.error).toMatchObject({ code: 'not_retryable', message: expect.stringContaining('sent') });

    const { sub: failed } = await submitted(30004);
    await worker.drain();
    h.clock.advance(5 * MIN);
    expect((await post(`/v1/submissions/${failed.id}/withdraw`, {})).status).toBe(200);
    const r2 = await post(`/v1/submissions/${failed.id}/retry`);
    expect(r2.status).toBe(409);
    expect(r2.body.error.code).toBe('not_retryable');
    expect((await sub(failed.id)).api.can_retry).toBe(false);

    const emailLender = (await post('/v1/lenders', { name: 'Email Only', submission_email: 'subs@email-only.example' })).body.data.id;
    const biz = await post('/v1/businesses', { legal_name: 'Email Path LLC' });
    const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 30000 });
    const emailSub = (await post(`/v1/deals/${deal.body.data.id}/submissions`, { lender_ids: [emailLender], send: false })).body.data[0];
    for (const op of ['retry', 'check-status']) {
      const r = await post(`/v1/submissions/${emailSub.id}/${op}`);
      expect(r.status, op).toBe(404);
      expect(r.body.error, op).toMatchObject({ type: 'not_found', code: 'no_api_submission' });
    }
    const unknown = await post('/v1/submissions/sub_01JD1C5F8H0K2M4P6R8T0V2X4Z/retry');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('resource_missing');
  });

  it('check-status: 400 before the funder acknowledged; 409 while a poll holds the attempt; otherwise refreshes without moving the schedule', async () => {
    const { sub: created } = await submitted(31000);
    const early = await check(created.id);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({ type: 'validation_error', code: 'no_api_application' });
    await worker.drain();
    const before = await sub(created.id);

    // A worker's poll holds the attempt right now.
    h.clock.set(before.api.next_poll_at);
    const claimed = await claimDuePolls(h.knex, { now: h.clock.now(), limit: 100, workerId: 'wrk_cccccccccccccccc', checkLiveness: false });
    expect(claimed.map((a) => a.submission_id)).toContain(created.id);
    const busy = await check(created.id);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ type: 'conflict', code: 'status_check_in_progress' });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    // The lease runs out (the worker died): check-status goes ahead.
    h.clock.advance(2 * MIN);
    const ok = await check(created.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.api).toMatchObject({ funder_status: 'In Review', last_polled_at: h.clock.now().toISOString(), next_poll_at: before.api.next_poll_at });
  });

  it('an attempt a request holds for check-status is not taken for a dead worker\'s by the poller', async () => {
    const { sub: created } = await submitted(34000);
    await worker.drain();
    h.clock.advance(15 * MIN);
    const [a] = await attempts(created.id);
    expect(await leaseForRequest(h.knex, a.id, h.clock.now(), 'req_01JD2G9N4P6R8T0V2X4Z6B8D0F')).not.toBeNull();
    const claimed = await claimDuePolls(h.knex, { now: h.clock.now(), limit: 100, workerId: 'wrk_eeeeeeeeeeeeeeee', checkLiveness: ENGINE === 'pg' });
    expect(claimed.map((c) => c.id)).not.toContain(a.id);
    h.clock.advance(2 * MIN); // the request's lease ran out
    const later = await claimDuePolls(h.knex, { now: h.clock.now(), limit: 100, workerId: 'wrk_eeeeeeeeeeeeeeee', checkLiveness: ENGINE === 'pg' });
    expect(later.map((c) => c.id)).toContain(a.id);
  });

  it('role user: only on deals it created; others answer 404', async () => {
    const { sub: mine } = await submitted(32000, 'user');
    const { sub: theirs } = await submitted(33000, 'admin');
    await worker.drain();
    expect((await post(`/v1/submissions/${mine.id}/check-status`, undefined, 'user')).status).toBe(200);
    for (const op of ['check-status', 'retry']) {
      const r = await post(`/v1/submissions/${theirs.id}/${op}`, undefined, 'user');
      expect(r.status, op).toBe(404);
      expect(r.body.error.code).toBe('resource_missing');
    }
  });

  it('a location that is no longer a test location cannot use the mock: the attempt ends errored with config, not retried', async () => {
    const loc = await h.tenant('Was A Test');
    const l = await post('/v1/lenders', { name: 'Mock Then Prod' }, 'admin', loc);
    await h.api.put(`/v1/lenders/${l.body.data.id}/api-config`).set(loc.auth()).send({ submission_method: 'api', funder_api_spec_id: 'mock', api_credentials: 'x' }).expect(200);
    const biz = await post('/v1/businesses', { legal_name: 'Flip LLC' }, 'admin', loc);
    const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 25000 }, 'admin', loc);
    const created = (await post(`/v1/deals/${deal.body.data.id}/submissions`, { lender_ids: [l.body.data.id] }, 'admin', loc)).body.data[0];
    await h.knex('locations').where({ id: loc.locationId }).update({ is_test: false });
    await worker.drain();
    const [a] = await attempts(created.id);
    expect(a).toMatchObject({ internal_status: 'errored', error_code: 'config', external_id: null, submitted_at: null });
    expect(a.error_message).toContain('test locations');
    const job = await h.knex('jobs').where({ queue: 'funder.submit' }).whereRaw(`payload->>'attempt_id' = ?`, [a.id]).first();
    expect(job.status).toBe('dead');
  });

  it('the mock exists only in test locations', async () => {
    const prod = await h.tenant('Real Brokers', { isTest: false });
    const l = await post('/v1/lenders', { name: 'Prod Lender' }, 'admin', prod);
    const cfg = await h.api.put(`/v1/lenders/${l.body.data.id}/api-config`).set(prod.auth()).send({ submission_method: 'api', funder_api_spec_id: 'mock', api_credentials: 'x' });
    expect(cfg.status).toBe(400);
    expect(cfg.body.error.code).toBe('invalid_api_config');
  });
});

describe('operator integrations (FUNDER_INTEGRATIONS_FILE)', () => {
  it('a valid file adds its integrations to GET /v1/lenders/api-specs; a bad one names every problem', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadFunderIntegrationsFile, unregisterFunderIntegration } = await import('../../src/features/lenders/funder-specs');
    const dir = mkdtempSync(join(tmpdir(), 'funders-'));
    const good = {
      id: 'acme_funding', display_name: 'Acme Funding API', tier: 'B',
      capabilities: { polls: true, returns_offers: true, uploads_docs: false, sandbox: true, max_owners: 2 },
      credential_spec: [{ key: 'api_key', label: 'API key', secret: true, hint: null }],
      required_fields: ['business_name'],
      http: {
        base_url: { production: 'https://api.acme.example/v1' }, headers: { Authorization: 'Bearer {{api_key}}' },
        submit: { path: '/applications', body: { name: '$business_name' }, external_id: 'id' },
        status: { path: '/applications/{{external_id}}', status: 'status' }, status_map: { new: 'received' },
      },
    };
    writeFileSync(join(dir, 'good.json'), JSON.stringify([good]));
    try {
      expect(loadFunderIntegrationsFile(join(dir, 'good.json'))).toEqual(['acme_funding']);
      const specs = await h.api.get('/v1/lenders/api-specs').set(t.auth());
      expect(specs.body.data.map((s: Json) => s.id)).toContain('acme_funding');
      expect(specs.body.data.find((s: Json) => s.id === 'acme_funding')).toEqual({
        id: 'acme_funding', display_name: 'Acme Funding API', tier: 'B', capabilities: good.capabilities, credential_spec: good.credential_spec, required_fields: ['business_name'], active: true,
      });
      const bad = { ...good, id: 'Bad Id', http: { ...good.http, base_url: { production: 'not a url' }, headers: { 'X-Key': '{{secret}}' }, status_map: { new: 'accepted' } } };
      writeFileSync(join(dir, 'bad.json'), JSON.stringify([bad]));
      expect(() => loadFunderIntegrationsFile(join(dir, 'bad.json'))).toThrow(/id must be.*base_url.production is not a URL.*status_map.new must be one of.*credential 'secret' is used but not in credential_spec/);
    } finally {
      unregisterFunderIntegration('acme_funding');
    }
  });
});
