/**
 * The partner sandbox: what `npm run mock` starts (Prism serving openapi.yaml behind mocks/sandbox.ts), on a free port,
 * called through the typed client of src/client.ts. Covers at least one operation of every tag,
 * authentication, request validation and the `Prefer` header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../src/client';
import { startSandbox, type Sandbox } from '../../mocks/sandbox';
import { loadSpec, operations } from './helpers';

const KEY = 'svc_test_4eC39HqLyjWDarjtT1zdp7dcSVCxY7Qm';
const DEAL = 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X';
const BUSINESS = 'biz_01JD1A2B3C4D5E6F7G8H9J0K1M';
const ATLAS = 'lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0';
const BRIGHTLINE = 'lnd_01JCZ9A2C3D4E5F6G7H8J9K0M1';

let sandbox: Sandbox;
let api: ApiClient;
/** Every request the client sent (to find the operations, hence the tags, that were reached). */
const called: Array<{ method: string; url: URL }> = [];

beforeAll(async () => {
  // What `npm run mock` starts: Prism behind the front that checks requests as production does.
  sandbox = await startSandbox(0);
  api = createClient({
    baseUrl: sandbox.url,
    apiKey: KEY,
    retry: false, // the documented 429 and 503 answers themselves (`Prefer: code=429`) are what is checked here
    fetch: (request) => {
      called.push({ method: request.method, url: new URL(request.url) });
      return fetch(request);
    },
  });
});

afterAll(async () => {
  await sandbox?.close();
});

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** A success: the status, the X-Request-Id and X-RateLimit-* headers and the `{ data, meta }` envelope. */
function expectEnvelope(answer: Answer, status: number, kind: 'list' | 'batch' | 'object') {
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  expect(answer.response.status).toBe(status);
  expect(answer.response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(answer.response.headers.get('x-ratelimit-limit')).toBe('300');
  const body = answer.data as { data: unknown; meta: Record<string, unknown> };
  expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
  expect(typeof body.meta).toBe('object');
  if (kind === 'list' || kind === 'batch') expect(Array.isArray(body.data)).toBe(true);
  if (kind === 'list') {
    expect(body.meta).toMatchObject({ has_more: expect.any(Boolean) });
    expect(body.meta).toHaveProperty('next_cursor');
  }
  if (kind === 'object') {
    expect(body.data).toBeTypeOf('object');
    expect(Array.isArray(body.data)).toBe(false);
  }
  return body;
}

/** An error: the status and the `{ error: { type, message, request_id } }` envelope. */
function expectError(answer: Answer, status: number, type: string) {
  expect(answer.data).toBeUndefined();
  expect(answer.response.status).toBe(status);
  const error = (answer.error as { error: Record<string, unknown> }).error;
  expect(error).toMatchObject({ type, message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
  return error;
}

describe('sandbox (Prism over openapi.yaml)', () => {
  it('answers one operation of every tag with the { data, meta } envelope', async () => {
    const idem = { 'Idempotency-Key': '7f3c9d2e-5b1a-4c8e-9f0d-2a6b8c4e1f37' };

    // Businesses
    const business = expectEnvelope(await api.GET('/v1/businesses/{id}', { params: { path: { id: BUSINESS } } }), 200, 'object');
    expect(business.data).toMatchObject({ id: BUSINESS, legal_name: 'Sunrise Bakery LLC' });
    // People
    expectEnvelope(await api.GET('/v1/people', { params: { query: { business_id: BUSINESS } } }), 200, 'list');
    // Deals
    const deal = expectEnvelope(await api.GET('/v1/deals/{id}', { params: { path: { id: DEAL } } }), 200, 'object');
    expect(deal.data).toMatchObject({ id: DEAL, business_id: BUSINESS });
    // Pipeline
    expectEnvelope(await api.GET('/v1/pipeline/stages'), 200, 'list');
    // Tasks (a POST: the request body is validated too)
    expectEnvelope(
      await api.POST('/v1/deals/{id}/tasks', {
        params: { path: { id: DEAL }, header: idem },
        body: { title: 'Call Maria about the October statement', due_date: '2026-11-06' },
      }),
      201,
      'object',
    );
    // Notes
    expectEnvelope(await api.GET('/v1/deals/{id}/notes', { params: { path: { id: DEAL } } }), 200, 'list');
    // Submissions
    const submissions = expectEnvelope(
      await api.GET('/v1/deals/{dealId}/submissions', { params: { path: { dealId: DEAL }, query: { limit: 25 } } }),
      200,
      'list',
    );
    expect((submissions.data as Array<{ deal_id: string; lender_id: string }>).map((s) => [s.deal_id, s.lender_id])).toEqual([
      [DEAL, BRIGHTLINE],
      [DEAL, ATLAS],
    ]);
    // Submissions across deals (not taken for /v1/submissions/{id})
    const across = expectEnvelope(await api.GET('/v1/submissions', { params: { query: { status: 'approved', created_after: '2026-11-01T00:00:00Z' } } }), 200, 'list');
    expect((across.data as Array<{ status: string }>).map((s) => s.status)).toEqual(['approved']);
    // Lenders
    expectEnvelope(await api.GET('/v1/lenders/api-specs'), 200, 'list');
    // Lender matches
    expectEnvelope(await api.GET('/v1/deals/{id}/lender-matches', { params: { path: { id: DEAL } } }), 200, 'list');
    // Offers
    expectEnvelope(await api.GET('/v1/deals/{id}/offers', { params: { path: { id: DEAL } } }), 200, 'list');
    expectEnvelope(await api.GET('/v1/offers', { params: { query: { lender_id: ATLAS } } }), 200, 'list');
    expectEnvelope(await api.GET('/v1/deals', { params: { query: { search: 'sunrise', updated_after: '2026-11-01T00:00:00Z' } } }), 200, 'list');
    // Advances
    expectEnvelope(await api.GET('/v1/advances', { params: { query: { renewal_ready: true } } }), 200, 'list');
    // Documents
    expectEnvelope(await api.GET('/v1/deals/{id}/statement-analysis', { params: { path: { id: DEAL } } }), 200, 'object');
    // Merchant portal
    expectEnvelope(
      await api.POST('/v1/deals/{id}/portal-links', {
        params: { path: { id: DEAL }, header: idem },
        body: { purpose: 'documents', expires_in_hours: 72 },
      }),
      201,
      'object',
    );
    // Webhooks
    const webhook = expectEnvelope(
      await api.POST('/v1/webhooks', {
        params: { header: idem },
        body: { url: 'https://hooks.example.com/svc', events: ['submission.responded', 'offer.received'] },
      }),
      201,
      'object',
    );
    expect(webhook.data).toHaveProperty('secret');
    // Events (beyond the source: the event log webhooks deliver from)
    expectEnvelope(await api.GET('/v1/events', { params: { query: { type: ['deal.created'] } } }), 200, 'list');
    // Inbound email (beyond the source: lender replies read from email)
    expectEnvelope(await api.GET('/v1/inbound-emails', { params: { query: { status: 'unmatched' } } }), 200, 'list');

    // Exports (beyond the source: the location's NDJSON export; issue 29)
    const exportUrl = new URL('/v1/exports/location', sandbox.url);
    called.push({ method: 'GET', url: exportUrl });
    const exported = await fetch(exportUrl, { headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/x-ndjson' } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(JSON.parse((await exported.text()).split('\n')[0])).toHaveProperty('object');

    // Every tag of the contract was reached (matched from the requests actually sent).
    const ops = operations(loadSpec()).filter((o) => o.section === 'paths');
    const matchers = ops.map((o) => ({
      o,
      re: new RegExp(`^${o.key.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const tagsReached = new Set(
      called.flatMap(({ method, url }) =>
        matchers
          .filter(({ o, re }) => o.method === method.toLowerCase() && re.test(url.pathname))
          .flatMap(({ o }) => o.op.tags as string[]),
      ),
    );
    const allTags = (loadSpec().tags as Array<{ name: string }>).map((t) => t.name);
    expect(allTags).toHaveLength(17);
    expect(allTags.filter((t) => !tagsReached.has(t))).toEqual([]);
  });

  it('serves a list as CSV on Accept: text/csv (its documented example), and 406 in the envelope for an Accept nothing answers', async () => {
    const url = new URL(`/v1/deals/${DEAL}/submissions`, sandbox.url);
    const csv = await fetch(url, { headers: { Authorization: `Bearer ${KEY}`, Accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n')[0].split(',').slice(0, 3)).toEqual(['id', 'deal_id', 'lender_id']);
    for (const [path, accept] of [[`/v1/deals/${DEAL}/submissions`, 'application/xml'], [`/v1/deals/${DEAL}`, 'text/csv'], ['/v1/exports/location', 'application/json']]) {
      const res = await fetch(new URL(path, sandbox.url), { headers: { Authorization: `Bearer ${KEY}`, Accept: accept } });
      expect(res.status, `${path} ${accept}`).toBe(406);
      expect(((await res.json()) as { error: unknown }).error).toMatchObject({ type: 'validation_error', code: 'not_acceptable', param: 'Accept' });
    }
  });

  it('answers 401 with the error envelope when Authorization is missing', async () => {
    const answer = await api.GET('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } },
      headers: { Authorization: null },
    });
    expect(expectError(answer, 401, 'authentication_error')).toMatchObject({ code: 'missing_credential' });
  });

  it('validates requests: limit=500 and an empty lender_ids answer 400 validation_error', async () => {
    const tooBig = await api.GET('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL }, query: { limit: 500 } },
    });
    // The real fault, named as production names it (not Prism's one static example).
    expect(expectError(tooBig, 400, 'validation_error')).toMatchObject({ code: 'invalid_request', param: 'limit', message: 'limit must be at most 100' });

    const noLenders = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } },
      body: { lender_ids: [] },
    });
    expect(expectError(noLenders, 400, 'validation_error')).toMatchObject({ param: 'lender_ids' });

    // Time filters and search are checked as production checks them.
    const badDate = await api.GET('/v1/offers', { params: { query: { created_before: '2026-11-01' } } });
    expect(expectError(badDate, 400, 'validation_error')).toMatchObject({ param: 'created_before' });
    const shortSearch = await api.GET('/v1/deals', { params: { query: { search: 'ab' } } });
    expect(expectError(shortSearch, 400, 'validation_error')).toMatchObject({ param: 'search' });
  });

  it('serves a named example or another documented status on `Prefer`', async () => {
    const pending = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } },
      body: { lender_ids: [ATLAS, BRIGHTLINE], send: false },
      headers: { Prefer: 'example=pending' },
    });
    const body = expectEnvelope(pending, 201, 'batch');
    expect((body.data as Array<{ status: string }>).map((s) => s.status)).toEqual(['pending', 'pending']);
    expect(body.meta).toEqual({ already_submitted: [], not_sent: [], warnings: [] });

    // Where money is at stake: the 409 a partner must handle, and the answer to force: true.
    const refused = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } },
      body: { lender_ids: [ATLAS, BRIGHTLINE] },
      headers: { Prefer: 'code=409, example=lender_hard_rules_failed' },
    });
    expect(expectError(refused, 409, 'conflict')).toMatchObject({ code: 'lender_hard_rules_failed', param: 'lender_ids', message: expect.stringContaining('force: true') });
    const funded = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } }, body: { lender_ids: [ATLAS] }, headers: { Prefer: 'code=409, example=deal_funded' },
    });
    expect(expectError(funded, 409, 'conflict')).toMatchObject({ code: 'deal_funded', param: 'dealId' });
    const forced = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } },
      body: { lender_ids: [ATLAS], force: true },
      headers: { Prefer: 'example=forced_with_warnings' },
    });
    const forcedBody = expectEnvelope(forced, 201, 'batch');
    expect((forcedBody.data as Array<{ forced: boolean }>)[0].forced).toBe(true);
    expect((forcedBody.meta as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual(['hard_rule_forced', 'soft_criterion_failed']);
    // A non-boolean force is refused as production refuses it.
    const badForce = await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: DEAL } }, body: { lender_ids: [ATLAS], force: 'yes' as unknown as boolean },
    });
    expect(expectError(badForce, 400, 'validation_error')).toMatchObject({ param: 'force' });

    // A lender and its criteria in one call; a criterion out of bounds is refused before Prism.
    const withCriteria = await api.POST('/v1/lenders', {
      body: { name: 'Harbor Funding Group', criteria: { max_amount: 150000, hard_gates: ['max_amount'] } },
    });
    expect(withCriteria.response.status).toBe(201);
    const badCriteria = await api.POST('/v1/lenders', { body: { name: 'Harbor', criteria: { min_credit_score: 900 } } });
    expect(expectError(badCriteria, 400, 'validation_error')).toMatchObject({ param: 'criteria.min_credit_score' });

    const missing = await api.GET('/v1/deals/{id}', { params: { path: { id: DEAL } }, headers: { Prefer: 'code=404' } });
    expect(expectError(missing, 404, 'not_found')).toMatchObject({ code: 'resource_missing' });

    const limited = await api.GET('/v1/pipeline/stages', { headers: { Prefer: 'code=429' } });
    expectError(limited, 429, 'rate_limit_error');
    expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
