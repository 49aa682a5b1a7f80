import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccessToken, revokeApiKey, setUserActive } from '../../src/features/accounts/accounts.service';
import { localRateLimiter } from '../../src/http/rate-limit';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  h = await startHarness({
    handlers: {
      // An unexpected failure, with internals in its message, to prove none of it leaks.
      listBusinessActivity: async () => {
        throw new Error('relation "secret_table" does not exist: SELECT ssn FROM people WHERE id = 42');
      },
      // Replies that break the contract: a wrong shape, and an undeclared status.
      listBusinessNotes: async () => ({ status: 200, body: { data: [{ id: 42 }], meta: {} } }) as never,
      listDealNotes: async () => ({ status: 202, body: { data: [], meta: { has_more: false, next_cursor: null } } }) as never,
    },
  });
  t = await h.tenant('Northwind');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
function expectEnvelope(res: { body: any; headers: Record<string, string> }, status: number, type: string, code?: string) {
  expect(res.body.error.type).toBe(type);
  if (code) expect(res.body.error.code).toBe(code);
  expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  expect(typeof res.body.error.message).toBe('string');
  void status;
}

describe(`authentication (${ENGINE})`, () => {
  it('401 without a credential', async () => {
    const res = await h.api.get('/v1/businesses');
    expect(res.status).toBe(401);
    expectEnvelope(res, 401, 'authentication_error', 'missing_credential');
  });
  it('401 for an unknown key', async () => {
    const res = await h.api.get('/v1/businesses').set(bearer('svc_live_' + 'A'.repeat(32)));
    expect(res.status).toBe(401);
    expectEnvelope(res, 401, 'authentication_error', 'invalid_api_key');
  });
  it('401 "API key has been revoked", effective on the very next request', async () => {
    const k = await t.key({ name: 'to revoke' });
    expect((await h.api.get('/v1/businesses').set(bearer(k.key))).status).toBe(200);
    await revokeApiKey(h.knex, h.clock, k.id);
    const res = await h.api.get('/v1/businesses').set(bearer(k.key));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('API key has been revoked');
  });
  it('401 "API key has expired" once the clock passes expires_at', async () => {
    const k = await t.key({ expiresAt: new Date(h.clock.now().getTime() + 60_000) });
    expect((await h.api.get('/v1/businesses').set(bearer(k.key))).status).toBe(200);
    h.clock.advance(60_000);
    const res = await h.api.get('/v1/businesses').set(bearer(k.key));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('API key has expired');
  });
  it('a deactivated user\'s key answers api_key_owner_deactivated (not revoked), and works again on reactivation', async () => {
    const k = await t.key({ user: 'user', name: 'owner deactivated' });
    expect((await h.api.get('/v1/businesses').set(bearer(k.key))).status).toBe(200);
    await setUserActive(h.knex, h.clock, t.users.user.id, false);
    const res = await h.api.get('/v1/businesses').set(bearer(k.key));
    expectEnvelope(res, 401, 'authentication_error', 'api_key_owner_deactivated');
    expect(res.body.error.message).toBe('The user this API key belongs to is deactivated');
    await setUserActive(h.knex, h.clock, t.users.user.id, true);
    expect((await h.api.get('/v1/businesses').set(bearer(k.key))).status).toBe(200);
  });
  it('validator messages read as sentences: "legal_name is required", unknown fields, enums', async () => {
    const missing = await h.api.post('/v1/businesses').set(t.auth()).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_request', param: 'legal_name', message: 'legal_name is required' });
    const extra = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'X', colour: 'red' });
    expect(extra.body.error.message).toBe('colour is not a known field');
    const type = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 5 });
    expect(type.body.error.message).toBe('legal_name must be a JSON string');
    const limit = await h.api.get('/v1/businesses?limit=0').set(t.auth());
    expect(limit.body.error.message).toBe('limit must be at least 1');
    for (const r of [missing, extra, type, limit]) expect(r.body.error.message).not.toMatch(/required property|must NOT|must be equal to/);
  });
  it('keys are refused outside /v1', async () => {
    const res = await h.api.get('/app/settings').set(t.auth());
    expect(res.status).toBe(401);
    expectEnvelope(res, 401, 'authentication_error', 'api_key_not_allowed');
  });
  it('OAuth access tokens act as their user, and stop working when the user is deactivated', async () => {
    const tok = await createAccessToken(h.knex, h.clock, { userId: t.users.manager.id, scopes: ['businesses:read'] });
    expect((await h.api.get('/v1/businesses').set(bearer(tok.token))).status).toBe(200);
    const denied = await h.api.post('/v1/businesses').set(bearer(tok.token)).send({ legal_name: 'X' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'missing_scope', param: 'businesses:write' });
    await setUserActive(h.knex, h.clock, t.users.manager.id, false);
    expect((await h.api.get('/v1/businesses').set(bearer(tok.token))).status).toBe(401);
    await setUserActive(h.knex, h.clock, t.users.manager.id, true);
  });
});

describe(`access (${ENGINE})`, () => {
  it('403 missing_scope names the scope in param', async () => {
    const k = await t.key({ scopes: ['people:read'] });
    const res = await h.api.get('/v1/businesses').set(bearer(k.key));
    expect(res.status).toBe(403);
    expectEnvelope(res, 403, 'permission_error', 'missing_scope');
    expect(res.body.error.param).toBe('businesses:read');
  });
  it('a key with no scopes has all of them', async () => {
    const k = await t.key({ scopes: [] });
    expect((await h.api.get('/v1/businesses').set(bearer(k.key))).status).toBe(200);
  });
  it('403 role_not_allowed for a role the operation does not admit (user on advances)', async () => {
    const res = await h.api.get('/v1/advances').set(t.auth('user'));
    expect(res.status).toBe(403);
    expectEnvelope(res, 403, 'permission_error', 'role_not_allowed');
  });
  it("another location's object is 404, never 403", async () => {
    const created = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Tenant One Bakery' });
    expect(created.status).toBe(201);
    const res = await h.api.get(`/v1/businesses/${created.body.data.id}`).set(other.auth());
    expect(res.status).toBe(404);
    expectEnvelope(res, 404, 'not_found', 'resource_missing');
    const patch = await h.api.patch(`/v1/businesses/${created.body.data.id}`).set(other.auth()).send({ dba: 'Hijack' });
    expect(patch.status).toBe(404);
  });
});

describe(`errors and request ids (${ENGINE})`, () => {
  it('validation errors name every offending field, param is the first', async () => {
    const res = await h.api.get('/v1/businesses?limit=500&status=closed').set(t.auth());
    expect(res.status).toBe(400);
    expectEnvelope(res, 400, 'validation_error', 'invalid_request');
    expect(['limit', 'status']).toContain(res.body.error.param);
    expect(res.body.error.message).toMatch(/limit/);
    expect(res.body.error.message).toMatch(/status/);
  });
  it('a body field error has a dotted param', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'X', email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('email');
  });
  it('malformed JSON is a validation_error', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Content-Type', 'application/json').send('{"legal_name": ');
    expect(res.status).toBe(400);
    expectEnvelope(res, 400, 'validation_error', 'malformed_json');
  });
  it('a non-JSON body is 415', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Content-Type', 'text/plain').send('legal_name=X');
    expect(res.status).toBe(415);
    expectEnvelope(res, 415, 'validation_error', 'unsupported_media_type');
  });
  it('a body over 1 MB is 413', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'X', custom_data: { blob: 'x'.repeat(1_100_000) } });
    expect(res.status).toBe(413);
    expectEnvelope(res, 413, 'validation_error', 'body_too_large');
  });
  it('an unknown route is 404 and a wrong method 405, in the envelope', async () => {
    const a = await h.api.get('/v1/nothing-here').set(t.auth());
    expect(a.status).toBe(404);
    expectEnvelope(a, 404, 'not_found', 'route_not_found');
    const b = await h.api.delete('/v1/businesses').set(t.auth());
    expect(b.status).toBe(405);
    expectEnvelope(b, 405, 'validation_error', 'method_not_allowed');
  });
  it('a 500 is api_error with no internals; the detail goes to the log with the request id', async () => {
    const res = await h.api.get(`/v1/businesses/biz_01JD1A2B3C4D5E6F7G8H9J0K1M/activity`).set(t.auth()).set('X-Request-Id', 'trace-500-check');
    expect(res.status).toBe(500);
    expectEnvelope(res, 500, 'api_error', 'internal_error');
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/secret_table|SELECT|ssn|stack|\.ts/);
    expect(res.body.error.request_id).toBe('trace-500-check');
    const line = h.logs.find((l) => l.includes('trace-500-check') && l.includes('unhandled error'));
    expect(line).toMatch(/secret_table/);
  });
  it('X-Request-Id is on every response: honoured when sane, minted otherwise', async () => {
    const ok = await h.api.get('/v1/businesses').set(t.auth()).set('X-Request-Id', 'partner-req-12345');
    expect(ok.headers['x-request-id']).toBe('partner-req-12345');
    const insane = await h.api.get('/v1/businesses').set(t.auth()).set('X-Request-Id', 'bad id with spaces and <html>');
    expect(insane.headers['x-request-id']).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    const unauth = await h.api.get('/v1/businesses');
    expect(unauth.headers['x-request-id']).toMatch(/^req_/);
    expect((await h.api.get('/healthz')).headers['x-request-id']).toMatch(/^req_/);
  });
  it('the Authorization header and SSNs never reach the logs', async () => {
    await h.api.get('/v1/businesses').set(t.auth());
    expect(h.logs.join('\n')).not.toContain(t.keys.admin);
  });
});

describe(`response validation in tests (${ENGINE})`, () => {
  it('a reply of the wrong shape or an undeclared status fails as a 500, never reaching the caller', async () => {
    const wrong = await h.api.get('/v1/businesses/biz_01JD1A2B3C4D5E6F7G8H9J0K1M/notes').set(t.auth());
    expect(wrong.status).toBe(500);
    expect(wrong.body.error.type).toBe('api_error');
    const undeclared = await h.api.get('/v1/deals/deal_01JD1B4D6F8H0K2M4P6R8T0V2X/notes').set(t.auth());
    expect(undeclared.status).toBe(500);
    expect(h.logs.some((l) => l.includes('response does not match openapi.yaml'))).toBe(true);
  });
});

describe(`routing from the contract (${ENGINE})`, () => {
  it('every operation of openapi.yaml has a handler; the not-yet-built ones are exactly those listed as pending', async () => {
    const { listOperations } = await import('../../src/http/spec');
    const { implemented } = await import('../../src/features/handlers');
    const { PENDING } = await import('../../src/features/pending');
    const ids = listOperations().map((o) => o.operationId);
    for (const id of ids) expect(id in implemented || (PENDING as readonly string[]).includes(id), id).toBe(true);
    expect(PENDING.filter((id) => id in implemented)).toEqual([]);
  });
});

describe(`rate limit (${ENGINE})`, () => {
  it('300 requests in any 60 seconds per credential, then 429 with Retry-After until the oldest leave the window', async () => {
    const k = await t.key({ name: 'rate' });
    h.clock.set('2026-11-23T13:00:10.000Z');
    let last;
    for (let i = 1; i <= 300; i++) {
      last = await h.api.get('/v1/businesses?limit=1').set(bearer(k.key));
      expect(last.status).toBe(200);
    }
    expect(last!.headers['x-ratelimit-limit']).toBe('300');
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    // Counted in second :10, they stop counting when a 61-second bucket window has passed (13:01:11).
    expect(last!.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-23T13:01:11Z') / 1000));
    const over = await h.api.get('/v1/businesses?limit=1').set(bearer(k.key));
    expect(over.status).toBe(429);
    expectEnvelope(over, 429, 'rate_limit_error', 'rate_limited');
    expect(over.headers['retry-after']).toBe('61');
    // Another credential has its own budget.
    expect((await h.api.get('/v1/businesses?limit=1').set(t.auth('manager'))).status).toBe(200);
    // A new minute is no reset: the window slides.
    h.clock.set('2026-11-23T13:01:00.000Z');
    expect((await h.api.get('/v1/businesses?limit=1').set(bearer(k.key))).status).toBe(429);
    h.clock.set('2026-11-23T13:01:11.000Z');
    const fresh = await h.api.get('/v1/businesses?limit=1').set(bearer(k.key));
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('299');
  });
});

describe(`idempotency (${ENGINE})`, () => {
  it('a repeat with the same key and body replays the first response and does nothing again', async () => {
    const key = 'idem-create-1';
    const first = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: 'Replay Bakery', ein: '11-1111111' });
    expect(first.status).toBe(201);
    const again = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: 'Replay Bakery', ein: '11-1111111' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const count = await h.knex('businesses').where({ legal_name: 'Replay Bakery' }).count<{ count: number }[]>('* as count');
    expect(Number(count[0].count)).toBe(1);
    // The remembered response is sealed at rest (a first response may hold a secret shown once).
    const stored = await h.knex('idempotency_keys').where({ key }).first();
    expect(JSON.stringify(stored.response_body)).not.toContain('Replay Bakery');
  });
  it('the same key with another body is 400 idempotency_key_reused', async () => {
    await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-2').send({ legal_name: 'First' });
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-2').send({ legal_name: 'Second' });
    expect(res.status).toBe(400);
    expectEnvelope(res, 400, 'validation_error', 'idempotency_key_reused');
  });
  it('keys are scoped to the credential', async () => {
    const a = await h.api.post('/v1/businesses').set(t.auth('admin')).set('Idempotency-Key', 'idem-3').send({ legal_name: 'Scoped A' });
    const b = await h.api.post('/v1/businesses').set(t.auth('manager')).set('Idempotency-Key', 'idem-3').send({ legal_name: 'Scoped A' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });
  it('two concurrent requests with one key create one object', async () => {
    const send = () => h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-concurrent').send({ legal_name: 'Concurrent Bakery' });
    const [r1, r2] = await Promise.all([send(), send()]);
    const statuses = [r1.status, r2.status].sort();
    // Either the second arrived while the first ran (409 in use) or after it (replay).
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    if (statuses[1] === 409) expect([r1, r2].find((r) => r.status === 409)!.body.error.code).toBe('idempotency_key_in_use');
    const count = await h.knex('businesses').where({ legal_name: 'Concurrent Bakery' }).count<{ count: number }[]>('* as count');
    expect(Number(count[0].count)).toBe(1);
  });
  it('a request still in progress blocks its key with 409 idempotency_key_in_use', async () => {
    const k = await t.key({ name: 'inflight' });
    await h.knex('idempotency_keys').insert({
      credential_id: k.id, key: 'held', request_hash: 'x', state: 'in_progress', created_at: h.clock.now(), locked_until: new Date(h.clock.now().getTime() + 60_000),
    });
    const res = await h.api.post('/v1/businesses').set(bearer(k.key)).set('Idempotency-Key', 'held').send({ legal_name: 'Blocked' });
    expect(res.status).toBe(409);
    expectEnvelope(res, 409, 'conflict', 'idempotency_key_in_use');
  });
  it('an idempotent create is one transaction of four statements: BEGIN, the claim, one statement writing the business, its event, its activity line and the answer, COMMIT', async () => {
    // The credential answers from this process's cache: its listener proven, and no credential write
    // of an earlier test still awaiting its notification (until then every lookup asks the database).
    const watch = h.deps.db.credentialWatch!;
    await vi.waitFor(() => expect(watch.live).toBe(true));
    await h.api.get('/v1/businesses?limit=1').set(t.auth()).expect(200); // the credential is known: no lookup below
    // What earlier requests counted goes out now: this one request brings no exchange due (fewer than
    // EXCHANGE_EVERY_REQUESTS counted, and the injected clock stands still).
    await localRateLimiter(h.deps.db, h.clock).exchange(true);
    // Only this request's queries: those issued in its async context (the server supertest starts for
    // it listens inside `request.run`), not what other work of this process sends meanwhile. Each is
    // followed to its answer, so a query of the request still running when the response arrived is
    // waited for, not cut off or caught half the time.
    const request = new AsyncLocalStorage<true>();
    const seen: { sql: string; tx?: string }[] = [];
    const running = new Set<string>();
    let settled: (() => void) | undefined;
    const listen = (q: { sql: string; __knexTxId?: string; __knexQueryUid?: string }) => {
      if (!request.getStore()) return;
      seen.push({ sql: q.sql, tx: q.__knexTxId });
      if (q.__knexQueryUid && !q.__knexTxId) running.add(q.__knexQueryUid); // BEGIN and COMMIT have no answer event
    };
    const answered = (_: unknown, q: { __knexQueryUid?: string }) => {
      if (q.__knexQueryUid && running.delete(q.__knexQueryUid) && running.size === 0) settled?.();
    };
    h.knex.on('query', listen);
    h.knex.on('query-response', answered);
    h.knex.on('query-error', answered);
    let res: Awaited<ReturnType<typeof h.api.post>>;
    try {
      res = await request.run(true, async () => await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-trips').send({ legal_name: 'Round Trip Bakery' }));
      if (running.size) await new Promise<void>((resolve) => (settled = resolve));
    } finally {
      h.knex.off('query', listen);
      h.knex.off('query-response', answered);
      h.knex.off('query-error', answered);
    }
    expect(res.status).toBe(201);
    const claim = seen.find((q) => /INSERT INTO idempotency_keys/i.test(q.sql));
    expect(claim?.tx).toBeDefined();
    const trx = seen.filter((q) => q.tx === claim!.tx).map((q) => q.sql);
    expect(trx).toHaveLength(4);
    expect(trx[0]).toMatch(/^BEGIN/i);
    expect(trx[1]).toBe(claim!.sql);
    for (const table of ['"businesses"', '"events"', '"activities"']) expect(trx[2]).toContain(`insert into ${table}`);
    expect(trx[2]).toMatch(/UPDATE idempotency_keys SET state = 'done'/);
    expect(trx[3]).toMatch(/^COMMIT/i);
    // Nothing else went to the database for it (the credential and the rate limit answer in memory).
    expect(seen.filter((q) => q.tx !== claim!.tx)).toEqual([]);
    const stored = await h.knex('idempotency_keys').where({ key: 'idem-trips' }).first('state', 'response_status');
    expect(stored).toEqual({ state: 'done', response_status: 201 });
    const again = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-trips').send({ legal_name: 'Round Trip Bakery' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(res.body);
  });
  it('failed validation is not stored, and keys expire after 24 hours', async () => {
    const bad = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-4').send({ legal_name: '' });
    expect(bad.status).toBe(400);
    const ok = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-4').send({ legal_name: 'Fixed' });
    expect(ok.status).toBe(201);
    h.clock.advance(24 * 3600 * 1000 + 1000);
    const later = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', 'idem-4').send({ legal_name: 'Fixed' });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.data.id).not.toBe(ok.body.data.id);
  });
});

describe(`pagination (${ENGINE})`, () => {
  it('newest first; inserts between pages neither repeat nor skip an item', async () => {
    const p = await h.tenant('Pager');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      h.clock.advance(1000);
      made.push((await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: `Pager ${i}` })).body.data.id);
    }
    const page1 = await h.api.get('/v1/businesses?limit=3').set(p.auth());
    expect(page1.body.data.map((b: { id: string }) => b.id)).toEqual(made.slice(4).reverse());
    expect(page1.body.meta.has_more).toBe(true);
    // Two new businesses arrive between the reads.
    for (let i = 0; i < 2; i++) {
      h.clock.advance(1000);
      await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: `Late ${i}` });
    }
    const page2 = await h.api.get(`/v1/businesses?limit=3&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`).set(p.auth());
    expect(page2.body.data.map((b: { id: string }) => b.id)).toEqual(made.slice(1, 4).reverse());
    const page3 = await h.api.get(`/v1/businesses?limit=3&cursor=${encodeURIComponent(page2.body.meta.next_cursor)}`).set(p.auth());
    expect(page3.body.data.map((b: { id: string }) => b.id)).toEqual([made[0]]);
    expect(page3.body.meta).toEqual({ has_more: false, next_cursor: null });
  });
  it('items created in the same millisecond page by id', async () => {
    const p = await h.tenant('Same ms');
    for (let i = 0; i < 5; i++) await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: `Tie ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await h.api.get(`/v1/businesses?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).set(p.auth());
      seen.push(...res.body.data.map((b: { id: string }) => b.id));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });
  it('a tampered or foreign cursor is 400 with param cursor', async () => {
    const page = await h.api.get('/v1/businesses?limit=1').set(t.auth());
    const cursor: string = page.body.meta.next_cursor;
    const [payload, sig] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 'biz_0' })).toString('base64url');
    for (const bad of [`${forged}.${sig}`, 'not-a-cursor', `${payload}.${'0'.repeat(32)}`]) {
      const res = await h.api.get(`/v1/businesses?cursor=${encodeURIComponent(bad)}`).set(t.auth());
      expect(res.status).toBe(400);
      expectEnvelope(res, 400, 'validation_error', 'invalid_cursor');
      expect(res.body.error.param).toBe('cursor');
    }
  });
});
