import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerHttpIntegration, unregisterFunderIntegration } from '../../src/features/lenders/funder-specs';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { closedPort, FUNDER_STATUSES, funderIntegration, startFunder, type LoopbackFunder } from '../support/funder-server';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// The generic HTTP JSON adapter (src/features/funders/http.adapter.ts) against a real funder on
// loopback (../support/funder-server.ts): the mapped request and its credentials, the life cycle on
// the poll schedule, each error class on submit and on poll, redaction of credentials the funder
// echoes, the address policy of non-test locations, required fields, and the retry guard. The mock
// funder (no network) is in funder-api.test.ts.
//
// Everything scheduled runs on the injected clock (h.clock.advance + worker.drain()); the only real
// wait is the one slow answer past the integration's 300 ms timeout. Scripts and assertions are
// per application (the submission id is the funder's `reference`), so work left over by one test
// (a pending retry, a live application) never disturbs another.

const MIN = 60_000;
const HOUR = 60 * MIN;
const SPEC = 'loopback_funder';
const SPEC_DOWN = 'loopback_funder_down'; // a closed port: connection refused
const SPEC_EIN = 'loopback_funder_ein'; // requires the EIN
const KEY = 'key_live_1234567890abcdef';
const CODE = 'P7Q4Z9';

let h: Harness;
let t: Tenant;
let worker: Worker;
let funder: LoopbackFunder;

beforeAll(async () => {
  registerAllJobs();
  funder = await startFunder();
  registerHttpIntegration(funderIntegration(funder.base, { id: SPEC }));
  registerHttpIntegration(funderIntegration(`http://127.0.0.1:${await closedPort()}`, { id: SPEC_DOWN }));
  registerHttpIntegration(funderIntegration(funder.base, { id: SPEC_EIN, requiredFields: ['business_name', 'ein', 'requested_amount'] }));
  h = await startHarness();
  t = await h.tenant('Loopback Funder Brokers');
  worker = new Worker(h.deps, { concurrency: 4 });
});
afterAll(async () => {
  for (const id of [SPEC, SPEC_DOWN, SPEC_EIN]) unregisterFunderIntegration(id);
  await worker?.close();
  await h?.close();
  await funder?.close();
});

type Json = Record<string, any>;
type Res = { status: number; headers: Record<string, string>; body: { data: Json; meta: Json; error: Json } };
const rnd = () => Math.random().toString(36).slice(2, 8);

async function post(path: string, body?: object, tenant: Tenant = t): Promise<Res> {
  const req = h.api.post(path).set(tenant.auth()).set('Idempotency-Key', `k-${Math.random()}`);
  return (body === undefined ? await req : await req.send(body)) as unknown as Res;
}
async function get(path: string, tenant: Tenant = t): Promise<Res> {
  return (await h.api.get(path).set(tenant.auth())) as unknown as Res;
}
/** A new lender on an integration, with both credentials. */
async function apiLender(spec = SPEC, tenant: Tenant = t): Promise<string> {
  const l = await post('/v1/lenders', { name: `Loopback Lender ${rnd()}` }, tenant);
  expect(l.status, JSON.stringify(l.body)).toBe(201);
  const cfg = await h.api.put(`/v1/lenders/${l.body.data.id}/api-config`).set(tenant.auth()).send({ submission_method: 'api', funder_api_spec_id: spec, api_credentials: `${KEY},${CODE}` });
  expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
  return l.body.data.id;
}
/** A deal submitted to `lenderId`; the submission as created (queued, attempt 1). */
async function submitted(lenderId: string, o: { amount?: number; ein?: string; tenant?: Tenant } = {}) {
  const tenant = o.tenant ?? t;
  const legalName = `Loopback Merchant ${rnd()} LLC`;
  const biz = await post('/v1/businesses', { legal_name: legalName, ...(o.ein ? { ein: o.ein } : {}) }, tenant);
  expect(biz.status, JSON.stringify(biz.body)).toBe(201);
  const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: o.amount ?? 50000 }, tenant);
  expect(deal.status, JSON.stringify(deal.body)).toBe(201);
  const res = await post(`/v1/deals/${deal.body.data.id}/submissions`, { lender_ids: [lenderId] }, tenant);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const sub = res.body.data[0] as Json;
  expect(sub).toMatchObject({ status: 'queued', submission_method: 'api', api: { attempt_number: 1, internal_status: 'queued', funder_api_spec_id: expect.any(String) } });
  return { sub, dealId: deal.body.data.id as string, businessId: biz.body.data.id as string, legalName };
}
const read = async (id: string, tenant: Tenant = t) => (await get(`/v1/submissions/${id}`, tenant)).body.data;
const attempts = (submissionId: string) => h.knex('api_submissions').where({ submission_id: submissionId }).orderBy('attempt_number');
const jobOf = (attemptId: string) => h.knex('jobs').where({ queue: 'funder.submit' }).whereRaw(`payload->>'attempt_id' = ?`, [attemptId]).first();
const eventsOf = (type: string, key: string, value: string) => h.knex('events').where({ location_id: t.locationId, type }).whereRaw(`data->>'${key}' = ?`, [value]);
const iso = (ms: number) => new Date(ms).toISOString();
const now = () => h.clock.now().getTime();
/** Runs every backoff step of the submit job (1 m, 5 m, 30 m, 2 h, 6 h), draining after each. */
async function pastEveryBackoff() {
  for (const step of [MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR]) {
    h.clock.advance(step);
    await worker.drain();
  }
}

describe(`the HTTP funder adapter against a loopback funder (${ENGINE})`, () => {
  it('life cycle: the mapped application with credentials and the attempt id as Idempotency-Key; sent; polled through in review, approved with offers (logged once), funded; then left alone', async () => {
    const lender = await apiLender();
    const { sub: created, dealId, legalName } = await submitted(lender, { amount: 50000 });
    expect(funder.requestsFor(created.id)).toEqual([]); // nothing goes out before the worker runs

    await worker.drain();
    const [submit] = funder.requestsFor(created.id);
    expect(funder.requestsFor(created.id)).toHaveLength(1);
    expect(submit).toMatchObject({ method: 'POST', path: '/v1/applications', kind: 'submit' });
    expect(submit.body).toEqual({
      reference: created.id,
      merchant: { legal_name: legalName, ein: null, state: null },
      funding: { amount: 50000, purpose: null },
      owners: [],
      channel: 'iso-api',
    });
    expect(submit.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'x-partner-code': CODE,
      'idempotency-key': created.api.id,
      'content-type': 'application/json',
      accept: 'application/json',
    });

    const submittedAt = now();
    const externalId = funder.externalIdOf(created.id)!;
    expect(externalId).toMatch(/^LF-\d{5}$/);
    let s = await read(created.id);
    expect(s).toMatchObject({ status: 'sent', submitted_at: iso(submittedAt) });
    expect(s.api).toMatchObject({
      external_id: externalId, funder_status: FUNDER_STATUSES.received, internal_status: 'sent',
      deep_link_url: `https://portal.loopback-funder.example/applications/${externalId}`,
      error_code: null, error_message: null, submitted_at: iso(submittedAt), last_polled_at: null,
      next_poll_at: iso(submittedAt + 15 * MIN), can_retry: false, retry_after_seconds: null,
    });
    expect(await eventsOf('submission.sent', 'submission_id', created.id)).toHaveLength(1);
    expect((await jobOf(created.api.id)).status).toBe('succeeded');

    // Not due one second early; at 15 minutes one status request, with the credentials, no idempotency key.
    h.clock.advance(15 * MIN - 1000);
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(1);
    h.clock.advance(1000);
    await worker.drain();
    const polls = () => funder.requestsFor(created.id).filter((r) => r.kind === 'status');
    expect(polls()).toHaveLength(1);
    expect(polls()[0]).toMatchObject({ method: 'GET', path: `/v1/applications/${externalId}` });
    expect(polls()[0].headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-partner-code': CODE });
    expect(polls()[0].headers['idempotency-key']).toBeUndefined();
    s = await read(created.id);
    expect(s.status).toBe('sent');
    expect(s.api).toMatchObject({ internal_status: 'pending', funder_status: FUNDER_STATUSES.in_review, last_polled_at: iso(now()), next_poll_at: iso(submittedAt + 30 * MIN) });

    // Approved with three offers, two identical: the submission responds, two offers are logged.
    h.clock.advance(15 * MIN);
    await worker.drain();
    s = await read(created.id);
    expect(s.status).toBe('approved');
    expect(s.api).toMatchObject({ internal_status: 'approved', funder_status: FUNDER_STATUSES.approved, next_poll_at: iso(submittedAt + 45 * MIN) });
    expect((await eventsOf('submission.responded', 'submission_id', created.id)).map((e) => e.data.status)).toEqual(['approved']);
    const offersNow = async () => (await get(`/v1/deals/${dealId}/offers`)).body.data as Json[];
    let offers = await offersNow();
    expect(offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit, o.payment_frequency, o.payment_amount]).sort()).toEqual([
      [40000, 1.28, 26, 'weeks', 'weekly', 1969.23],
      [50000, 1.32, 120, 'days', 'daily', 550],
    ]);
    for (const o of offers) expect(o).toMatchObject({ source: 'funder_api', is_primary: false, status: 'pending', lender_id: lender, submission_id: created.id });
    expect(await eventsOf('offer.received', 'deal_id', dealId)).toHaveLength(2);
    expect((await get(`/v1/deals/${dealId}`)).body.data.primary_offer).toBeNull();

    // Approved again with the same offers: nothing new is logged.
    h.clock.advance(15 * MIN);
    await worker.drain();
    expect(polls()).toHaveLength(3);
    offers = await offersNow();
    expect(offers).toHaveLength(2);
    expect(await eventsOf('offer.received', 'deal_id', dealId)).toHaveLength(2);
    expect(await eventsOf('submission.responded', 'submission_id', created.id)).toHaveLength(1);

    // Funded: final, polling ends, and the funder is never asked again.
    h.clock.advance(15 * MIN);
    await worker.drain();
    s = await read(created.id);
    expect(s.status).toBe('funded');
    expect(s.api).toMatchObject({ internal_status: 'funded', funder_status: FUNDER_STATUSES.funded, next_poll_at: null, error_code: null });
    expect((await offersNow())).toHaveLength(2);
    const asked = funder.requestsFor(created.id).length;
    expect(asked).toBe(5);
    for (let i = 0; i < 4; i++) {
      h.clock.advance(6 * HOUR);
      await worker.drain();
    }
    expect(funder.requestsFor(created.id)).toHaveLength(asked);
    const [a] = await attempts(created.id);
    expect(Number(a.poll_count)).toBe(4);
  });

  it('401 on submit: errored auth_failed, the lender shows the error, the job is dead and the funder is never called again', async () => {
    const lender = await apiLender();
    const { sub: created } = await submitted(lender);
    funder.onSubmit(created.id, { status: 401, json: { error: { message: 'Invalid API key' } } });
    await worker.drain();
    const s = await read(created.id);
    expect(s.status).toBe('queued');
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'auth_failed', error_message: 'HTTP 401: Invalid API key', external_id: null, can_retry: false, retry_after_seconds: 120 });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'dead', attempts: 1 });
    expect((await get(`/v1/lenders/${lender}/api-config`)).body.data.api_last_error).toBe('HTTP 401: Invalid API key');
    await pastEveryBackoff();
    expect(funder.requestsFor(created.id)).toHaveLength(1);
    expect(await attempts(created.id)).toHaveLength(1);
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'auth_failed' });
  });

  it('403 on submit is auth_failed too', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { status: 403, json: { message: 'Partner code not enabled' } });
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ error_code: 'auth_failed', error_message: 'HTTP 403: Partner code not enabled' });
    expect((await jobOf(created.api.id)).status).toBe('dead');
  });

  it('422 with field errors: validation with the fields in error_message, not retried, the lender not blamed', async () => {
    const lender = await apiLender();
    const { sub: created } = await submitted(lender);
    funder.onSubmit(created.id, {
      status: 422,
      json: { message: 'Application rejected', errors: [{ field: 'merchant.ein', message: 'is required' }, { field: 'funding.amount', message: 'must be at least 60000' }] },
    });
    await worker.drain();
    const s = await read(created.id);
    expect(s.status).toBe('queued');
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'validation' });
    expect(s.api.error_message).toBe('HTTP 422: Application rejected - merchant.ein: is required; funding.amount: must be at least 60000');
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'dead', attempts: 1 });
    expect((await get(`/v1/lenders/${lender}/api-config`)).body.data.api_last_error).toBeNull();
    await pastEveryBackoff();
    expect(funder.requestsFor(created.id)).toHaveLength(1);
  });

  it('an answer slower than timeout_ms: timeout, retried on the backoff with the same Idempotency-Key; the funder then answers and the error is cleared', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { delayMs: 2000, status: 201, json: { data: { application: { id: 'TOO-LATE' }, status: 'Received' } } });
    const started = performance.now();
    await worker.drain();
    expect(performance.now() - started, 'ms the worker waited for the slow funder').toBeLessThan(1800); // gave up at the timeout, did not wait for the answer
    let s = await read(created.id);
    expect(s.status).toBe('queued');
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'timeout', error_message: 'The funder did not answer within 300 ms', external_id: null });
    const sentAt = now();
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(new Date((await jobOf(created.api.id)).run_at).toISOString()).toBe(iso(sentAt + MIN));

    h.clock.advance(MIN - 1000);
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(1);
    h.clock.advance(1000);
    await worker.drain();
    const sends = funder.requestsFor(created.id);
    expect(sends.map((r) => r.kind)).toEqual(['submit', 'submit']);
    expect(sends.map((r) => r.headers['idempotency-key'])).toEqual([created.api.id, created.api.id]); // one attempt: one key
    s = await read(created.id);
    expect(s.status).toBe('sent');
    expect(s.api).toMatchObject({ attempt_number: 1, internal_status: 'sent', external_id: funder.externalIdOf(created.id), error_code: null, error_message: null, submitted_at: iso(now()), next_poll_at: iso(now() + 15 * MIN) });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await eventsOf('submission.sent', 'submission_id', created.id)).toHaveLength(1);
  });

  it('5xx: funder_error (JSON or not), retried at 1 m then 5 m, then sent', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { status: 503, json: { error: 'Service unavailable' } }, { status: 500, raw: 'Internal Server Error' });
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'funder_error', error_message: 'HTTP 503: Service unavailable' });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 1 });
    h.clock.advance(MIN);
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'funder_error', error_message: 'Receiver answered HTTP 500' });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 2 });
    h.clock.advance(5 * MIN - 1000);
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(2);
    h.clock.advance(1000);
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(3);
    expect(await read(created.id)).toMatchObject({ status: 'sent', api: { internal_status: 'sent', error_code: null, error_message: null } });
  });

  it('429 and 408 are funder_error (retried), not validation', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { status: 429, json: { message: 'Slow down' } }, { status: 408, json: { message: 'Request timeout' } });
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ error_code: 'funder_error', error_message: 'HTTP 429: Slow down' });
    h.clock.advance(MIN);
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ error_code: 'funder_error', error_message: 'HTTP 408: Request timeout' });
    h.clock.advance(5 * MIN);
    await worker.drain();
    expect((await read(created.id)).status).toBe('sent');
  });

  it('connection refused (nothing listens on the port): network, retried on the backoff', async () => {
    const { sub: created } = await submitted(await apiLender(SPEC_DOWN));
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'network', error_message: 'Connection refused by 127.0.0.1', external_id: null });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 1 });
    h.clock.advance(MIN);
    await worker.drain();
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 2 });
    expect((await read(created.id)).api.error_code).toBe('network');
  });

  it('a reset connection on submit is network too', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { destroy: true });
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(1);
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'network', error_message: expect.stringContaining('closed before a complete answer') });
    expect((await jobOf(created.api.id)).status).toBe('queued');
  });

  it('a 2xx that is not JSON, or JSON without the application id: funder_error, retried', async () => {
    const { sub: created } = await submitted(await apiLender());
    funder.onSubmit(created.id, { status: 200, raw: '<html><body>Thanks!</body></html>', contentType: 'text/html' }, { status: 201, json: { data: { status: 'Received' } } });
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'funder_error', error_message: 'The funder answered HTTP 200 with malformed JSON', external_id: null });
    expect(await jobOf(created.api.id)).toMatchObject({ status: 'queued', attempts: 1 });
    h.clock.advance(MIN);
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'errored', error_code: 'funder_error', error_message: "The funder's answer has no application id at 'data.application.id'", external_id: null });
    h.clock.advance(5 * MIN);
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ internal_status: 'sent', error_code: null });
    expect(funder.requestsFor(created.id)).toHaveLength(3);
  });

  it('a transport error during a poll or a check-status is recorded; the status stays and the schedule goes on; check-status answers 200', async () => {
    const { sub: created } = await submitted(await apiLender());
    await worker.drain();
    const submittedAt = now();
    funder.onStatus(created.id, { destroy: true });
    h.clock.advance(15 * MIN);
    await worker.drain();
    let s = await read(created.id);
    expect(s.status).toBe('sent');
    expect(s.api).toMatchObject({
      internal_status: 'sent', funder_status: FUNDER_STATUSES.received, error_code: 'network', error_message: expect.stringContaining('closed before a complete answer'),
      last_polled_at: iso(now()), next_poll_at: iso(submittedAt + 30 * MIN),
    });

    // check-status: a 502 (not JSON) and a 401 are recorded and answered as the submission, with 200.
    funder.onStatus(created.id, { status: 502, raw: 'Bad Gateway' }, { status: 401, json: { message: 'Token expired' } });
    let res = await post(`/v1/submissions/${created.id}/check-status`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'sent', api: { internal_status: 'sent', error_code: 'funder_error', error_message: 'Receiver answered HTTP 502', next_poll_at: iso(submittedAt + 30 * MIN) } });
    res = await post(`/v1/submissions/${created.id}/check-status`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'sent', api: { error_code: 'auth_failed', error_message: 'HTTP 401: Token expired', next_poll_at: iso(submittedAt + 30 * MIN) } });
    const lenderOf = () => h.knex('lenders').where({ id: created.lender_id }).first('api_last_error', 'api_last_verified_at');
    expect((await lenderOf()).api_last_error).toBe('HTTP 401: Token expired'); // the lender's configuration shows it
    // The funder answers again: the next scheduled poll records it and clears the error.
    h.clock.advance(15 * MIN);
    await worker.drain();
    s = await read(created.id);
    expect(s.api).toMatchObject({ internal_status: 'pending', funder_status: FUNDER_STATUSES.in_review, error_code: null, error_message: null, next_poll_at: iso(submittedAt + 45 * MIN) });
    expect(await lenderOf()).toMatchObject({ api_last_error: null, api_last_verified_at: new Date(now()) });
    expect(funder.requestsFor(created.id).map((r) => r.kind)).toEqual(['submit', 'status', 'status', 'status', 'status']);
  });

  it('credentials with CR, LF or another control character are refused with 400 naming api_credentials; the stored ones stay', async () => {
    const lender = await apiLender();
    const before = (await h.knex('lenders').where({ id: lender }).first('api_credentials_encrypted')).api_credentials_encrypted;
    for (const bad of [`${KEY}\r\nX-Injected: 1,${CODE}`, `${KEY}\n,${CODE}`, `${KEY},${CODE}\r`, `${KEY}\t,${CODE}`, `${KEY}\u007f,${CODE}`, `${KEY}\u001b,${CODE}`]) {
      const res = await h.api.put(`/v1/lenders/${lender}/api-config`).set(t.auth()).send({ submission_method: 'api', funder_api_spec_id: SPEC, api_credentials: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error, JSON.stringify(bad)).toMatchObject({ type: 'validation_error', param: 'api_credentials' });
      expect(JSON.stringify(res.body)).not.toContain(KEY);
    }
    expect((await h.knex('lenders').where({ id: lender }).first('api_credentials_encrypted')).api_credentials_encrypted).toBe(before);
  });

  it('a secret echoed JSON-escaped, URL-encoded or base64-encoded (not only as is) is stored and shown as ****', async () => {
    const ODD = 'sk"live\\/ 7+=?Q9&x';
    const l = await post('/v1/lenders', { name: `Odd Lender ${rnd()}` });
    const cfg = await h.api.put(`/v1/lenders/${l.body.data.id}/api-config`).set(t.auth()).send({ submission_method: 'api', funder_api_spec_id: SPEC, api_credentials: `${ODD},${CODE}` });
    expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
    const forms: Record<string, string> = {
      raw: ODD,
      json: JSON.stringify(ODD).slice(1, -1),
      json_slash: JSON.stringify(ODD).slice(1, -1).replace(/\//g, '\\/'),
      url: encodeURIComponent(ODD),
      url_lower: encodeURIComponent(ODD).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      form: new URLSearchParams({ k: ODD }).toString().slice(2),
      base64: Buffer.from(ODD).toString('base64'),
      base64url: Buffer.from(ODD).toString('base64url'),
    };
    for (const [name, form] of Object.entries(forms)) {
      expect(form === ODD || !form.includes(ODD), name).toBe(true);
      const { sub } = await submitted(l.body.data.id);
      funder.onSubmit(sub.id, () => ({ status: 401, json: { error: { message: `echo [${form}]` } } }));
      await worker.drain();
      const expected = 'HTTP 401: echo [****]';
      expect((await read(sub.id)).api, name).toMatchObject({ error_code: 'auth_failed', error_message: expected });
      expect((await attempts(sub.id))[0].error_message, name).toBe(expected);
      expect(JSON.stringify(await h.knex('api_submissions').select('*')), name).not.toContain(form);
    }
  });

  it('credentials a funder echoes are stored and shown as ****, on submit and on poll; never in the database in the clear or in the logs', async () => {
    const lender = await apiLender();
    const { sub: created } = await submitted(lender);
    funder.onSubmit(created.id, (req) => ({
      status: 401,
      json: { error: { message: `Rejected Authorization "${req.headers.authorization}" for partner ${req.headers['x-partner-code']} (key ${KEY})` } },
    }));
    await worker.drain();
    expect(funder.requestsFor(created.id)[0].headers.authorization).toBe(`Bearer ${KEY}`); // it was sent...
    const expected = 'HTTP 401: Rejected Authorization "Bearer ****" for partner **** (key ****)';
    expect((await read(created.id)).api).toMatchObject({ error_code: 'auth_failed', error_message: expected }); // ...and is never shown
    expect((await attempts(created.id))[0].error_message).toBe(expected);
    const cfg = (await get(`/v1/lenders/${lender}/api-config`)).body.data;
    expect(cfg).toMatchObject({ api_last_error: expected, credentials_masked: '****cdef, ****' });

    // On a poll: the status, the message and the requested items the funder echoes are redacted too.
    const other = await submitted(lender);
    await worker.drain();
    funder.onStatus(other.sub.id, {
      status: 200,
      json: { data: { status: FUNDER_STATUSES.needs_info, note: `Please confirm key ${KEY}`, stips: [`Partner code ${CODE} on letterhead`, 'Voided check'], portal_url: `https://portal.loopback-funder.example/x?k=${KEY}` } },
    });
    const res = await post(`/v1/submissions/${other.sub.id}/check-status`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'needs_info', requested_items: ['Partner code **** on letterhead', 'Voided check'], api: { internal_status: 'pending', deep_link_url: 'https://portal.loopback-funder.example/x?k=****' } });
    expect(JSON.stringify(res.body)).not.toContain(KEY);

    // Nothing stored holds a credential in the clear (the sealed column aside), and no log line does.
    const tables = ['api_submissions', 'submissions', 'events', 'activities', 'jobs', 'offers'];
    for (const table of tables) {
      const text = JSON.stringify(await h.knex(table).select('*'));
      expect(text, table).not.toContain(KEY);
      expect(text, table).not.toContain(CODE);
    }
    const lenders = JSON.stringify(await h.knex('lenders').select('*'));
    expect(lenders).not.toContain(KEY);
    expect(lenders).not.toContain(CODE);
    const logs = h.logs.join('\n');
    expect(logs).toContain('funder submission failed'); // the failure was logged...
    expect(logs).not.toContain(KEY); // ...without a credential
    expect(logs).not.toContain(CODE);
  });

  it('a non-test location cannot reach a loopback funder: errored config, nothing sent, not retried', async () => {
    const prod = await h.tenant('Prod', { isTest: false });
    const lender = await apiLender(SPEC, prod);
    const { sub: created } = await submitted(lender, { tenant: prod });
    await worker.drain();
    const s = await read(created.id, prod);
    expect(s.status).toBe('queued');
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'config', error_message: 'Blocked: 127.0.0.1 is not a public HTTPS endpoint', external_id: null });
    expect(funder.requestsFor(created.id)).toEqual([]);
    expect(funder.requests.filter((r) => r.raw.includes(created.id))).toEqual([]);
    expect((await jobOf(created.api.id)).status).toBe('dead');
    expect((await get(`/v1/lenders/${lender}/api-config`, prod)).body.data.api_last_error).toBe('Blocked: 127.0.0.1 is not a public HTTPS endpoint');
    await pastEveryBackoff();
    expect(funder.requests.filter((r) => r.raw.includes(created.id))).toEqual([]);
  });

  it("a deal without a field the integration requires: validation naming it, nothing sent; fixed and retried, it goes out", async () => {
    const lender = await apiLender(SPEC_EIN);
    const { sub: created, businessId } = await submitted(lender);
    await worker.drain();
    let s = await read(created.id);
    expect(s.api).toMatchObject({ internal_status: 'errored', error_code: 'validation', error_message: 'The deal lacks fields Loopback Funder (contract tests) requires: ein', submitted_at: null });
    expect(funder.requestsFor(created.id)).toEqual([]);
    expect((await jobOf(created.api.id)).status).toBe('dead');

    const ein = `${10 + Math.floor(Math.random() * 89)}-${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const patched = await h.api.patch(`/v1/businesses/${businessId}`).set(t.auth()).send({ ein });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    h.clock.advance(2 * MIN);
    expect((await post(`/v1/submissions/${created.id}/retry`)).status).toBe(200);
    await worker.drain();
    const [send] = funder.requestsFor(created.id);
    expect(send.body.merchant.ein).toBe(ein);
    s = await read(created.id);
    expect(s).toMatchObject({ status: 'sent', api: { attempt_number: 2, internal_status: 'sent' } });
  });

  it('retry after auth_failed: 409 retry_too_soon with Retry-After inside 2 minutes; then attempt 2 is queued and sent with its own Idempotency-Key', async () => {
    const lender = await apiLender();
    const { sub: created } = await submitted(lender);
    funder.onSubmit(created.id, { status: 401, json: { message: 'Invalid API key' } });
    await worker.drain();
    expect((await read(created.id)).api).toMatchObject({ error_code: 'auth_failed', can_retry: false, retry_after_seconds: 120 });

    h.clock.advance(50_000);
    const early = await post(`/v1/submissions/${created.id}/retry`);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'retry_too_soon', message: expect.stringContaining('70 seconds') });
    expect(early.headers['retry-after']).toBe('70');
    expect(await attempts(created.id)).toHaveLength(1);
    await worker.drain();
    expect(funder.requestsFor(created.id)).toHaveLength(1);

    h.clock.advance(70_000);
    const res = await post(`/v1/submissions/${created.id}/retry`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'queued', api: { attempt_number: 2, internal_status: 'queued', error_code: null, error_message: null, can_retry: false } });
    const second = res.body.data.api.id as string;
    expect(second).not.toBe(created.api.id);
    await worker.drain();
    const sends = funder.requestsFor(created.id);
    expect(sends.map((r) => r.headers['idempotency-key'])).toEqual([created.api.id, second]);
    expect(await read(created.id)).toMatchObject({ status: 'sent', api: { id: second, attempt_number: 2, internal_status: 'sent', external_id: funder.externalIdOf(created.id), error_code: null } });
    expect((await attempts(created.id)).map((a) => [Number(a.attempt_number), a.internal_status, a.error_code])).toEqual([[1, 'errored', 'auth_failed'], [2, 'sent', null]]);
    expect((await get(`/v1/lenders/${lender}/api-config`)).body.data.api_last_error).toBeNull(); // the funder accepted the credentials again
  });

  it('no credential in any log line of the whole file', () => {
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(KEY);
    expect(logs).not.toContain(CODE);
  });
});
