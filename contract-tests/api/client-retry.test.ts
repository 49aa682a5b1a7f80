import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, ApiResponseError } from '../../src/client';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';

// Issue 30 point 5: the typed client retries 429/503 and network errors with Retry-After plus
// exponential backoff with full jitter, gives every POST one Idempotency-Key kept across its
// retries, never repeats a PATCH whose fate is unknown, and pages through lists. Against the real
// server, behind a loopback proxy that induces the failures; waits go to a recorder (no sleeping).

type Step = 'pass' | '503' | '429' | 'drop-after' | 'drop-before';
let served: Awaited<ReturnType<typeof startServedHarness>>;
let h: Harness;
let t: Tenant;
let proxy: Server;
let proxyBase: string;
let plan: Step[] = [];
let seen: { method: string; url: string; idempotencyKey?: string }[] = [];
let waits: number[] = [];

function forward(req: IncomingMessage, res: ServerResponse, upstream: URL, after?: () => void) {
  const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
    if (after) {
      up.resume();
      up.on('end', after); // the server did the work; its answer never reaches the client
      return;
    }
    res.writeHead(up.statusCode!, up.headers);
    up.pipe(res);
  });
  req.pipe(out);
}

beforeAll(async () => {
  served = await startServedHarness();
  ({ h } = served);
  t = await h.tenant('Retrying Partners');
  const upstream = new URL(served.base);
  proxy = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
    const step = plan.shift() ?? 'pass';
    if (step === '503' || step === '429') {
      req.resume();
      const body = step === '503'
        ? { error: { type: 'api_error', code: 'overloaded', message: 'The server is at capacity; retry after 2 seconds', request_id: 'req_proxy' } }
        : { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Rate limit exceeded', request_id: 'req_proxy' } };
      res.writeHead(Number(step), { 'Content-Type': 'application/json', 'Retry-After': '2' }).end(JSON.stringify(body));
    } else if (step === 'drop-before') {
      req.socket.destroy();
    } else if (step === 'drop-after') {
      forward(req, res, upstream, () => req.socket.destroy());
    } else {
      forward(req, res, upstream);
    }
  });
  proxy.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  proxy?.closeAllConnections();
  await served?.close();
});
beforeEach(() => {
  plan = [];
  seen = [];
  waits = [];
});

const client = (retry: Parameters<typeof createClient>[0]['retry'] = {}) =>
  createClient({
    baseUrl: proxyBase,
    apiKey: t.keys.admin,
    retry: retry === false ? false : { random: () => 0.5, sleep: async (ms) => void waits.push(ms), ...retry },
  });

describe(`the client retries with backoff, one Idempotency-Key per POST, and pages (${ENGINE})`, () => {
  it('a GET answered 503 twice is retried after Retry-After plus jittered exponential backoff, then succeeds', async () => {
    plan = ['503', '503'];
    const { data, response } = await client().GET('/v1/businesses', { params: { query: { limit: 1 } } });
    expect(response.status).toBe(200);
    expect(data?.data).toBeInstanceOf(Array);
    expect(seen).toHaveLength(3);
    // Retry-After 2 s, then half (random 0.5) of min(30 s, 0.5 s × 2^n): 0.5 s, then 1 s.
    expect(waits).toEqual([2000 + 500, 2000 + 1000]);
  });

  it('a POST without a key gets one, sends the SAME key on every retry, and creates once', async () => {
    plan = ['503', '429'];
    const { data, response } = await client().POST('/v1/businesses', { body: { legal_name: 'Retry Once LLC' } });
    expect(response.status).toBe(201);
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
    const keys = new Set(seen.map((s) => s.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await h.knex('businesses').where({ location_id: t.locationId, legal_name: 'Retry Once LLC' });
    expect(rows.map((r) => r.id)).toEqual([data!.data.id]);
  });

  it('a POST whose answer was lost after the server ran it is retried with its key and answered from the first run: one business', async () => {
    plan = ['drop-after'];
    const { data, response } = await client().POST('/v1/businesses', { body: { legal_name: 'Lost Answer LLC' }, params: { header: { 'Idempotency-Key': 'partner-key-1' } } });
    expect(response.status).toBe(201);
    expect(seen.map((s) => s.idempotencyKey)).toEqual(['partner-key-1', 'partner-key-1']);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const rows = await h.knex('businesses').where({ location_id: t.locationId, legal_name: 'Lost Answer LLC' });
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(data!.data.id);
    expect(waits).toEqual([500]); // a network error: no Retry-After, only the backoff
  });

  it('a PATCH whose connection failed is not repeated (its fate is unknown); on a 503 it is', async () => {
    const created = await client().POST('/v1/businesses', { body: { legal_name: 'Patch Me LLC' } });
    const id = created.data!.data.id;
    seen = [];
    plan = ['drop-before'];
    await expect(client().PATCH('/v1/businesses/{id}', { params: { path: { id } }, body: { dba: 'Patched' } })).rejects.toThrow();
    expect(seen).toHaveLength(1);
    seen = [];
    plan = ['503'];
    const ok = await client().PATCH('/v1/businesses/{id}', { params: { path: { id } }, body: { dba: 'Patched' } });
    expect(ok.response.status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('gives up after maxRetries and returns the last answer; retry: false sends once', async () => {
    plan = ['503', '503', '503', '503'];
    const r = await client({ maxRetries: 2 }).GET('/v1/businesses');
    expect(r.response.status).toBe(503);
    expect(r.error?.error.code).toBe('overloaded');
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([2500, 3000]);
    seen = [];
    plan = ['503'];
    expect((await client(false).GET('/v1/businesses')).response.status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('a Retry-After beyond maxRetryAfterMs is not waited for', async () => {
    plan = ['503'];
    const r = await client({ maxRetryAfterMs: 1000 }).GET('/v1/businesses');
    expect(r.response.status).toBe(503);
    expect(waits).toEqual([]);
  });

  it('paginate follows meta.next_cursor through every page, in the list order', async () => {
    const other = await h.tenant('Paged Partners');
    const api = createClient({ baseUrl: proxyBase, apiKey: other.keys.admin, retry: { sleep: async () => undefined } });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await api.POST('/v1/businesses', { body: { legal_name: `Paged ${i} LLC` } })).data!.data.id);
    seen = [];
    plan = ['pass', '503']; // a 503 mid-way is retried inside paginate too
    const ids: string[] = [];
    for await (const business of api.paginate('/v1/businesses', { params: { query: { limit: 2 } } })) ids.push(business.id);
    expect(ids.sort()).toEqual([...made].sort());
    expect(new Set(ids).size).toBe(5);
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(4); // 3 pages + 1 retried
    expect(seen[1].url).toContain('cursor=');
  });

  it('paginate throws ApiResponseError on an error page', async () => {
    const api = createClient({ baseUrl: proxyBase, apiKey: t.keys.admin, retry: false });
    const pages = api.paginate('/v1/businesses', { params: { query: { limit: 0 } } });
    const err = await pages.next().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiResponseError);
    expect((err as ApiResponseError).status).toBe(400);
    expect((err as ApiResponseError).error?.type).toBe('validation_error');
    expect((err as ApiResponseError).message).toMatch(/^400 validation_error/);
  });
});
