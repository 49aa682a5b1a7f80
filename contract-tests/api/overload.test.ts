import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';

// Every YAML parse in this process is counted (the contract must be parsed at most once).
vi.mock('yaml', async (importOriginal) => {
  const original = await importOriginal<typeof import('yaml')>();
  return { ...original, parse: vi.fn(original.parse) };
});
import supertest from 'supertest';
import { createApp } from '../../src/app';
import { handlers as realHandlers } from '../../src/features/handlers';
import type { Admission } from '../../src/http/overload';
import { lifecycleCounts } from '../../src/http/lifecycle';
import { listOperations, loadSpec, specLoads } from '../../src/http/spec';
import type { Handlers } from '../../src/http/types';
import { ENGINE, startHarness, type Harness } from '../support/harness';
import { countSchemaCompilations } from '../support/schema-compilations';
import { startServedHarness } from '../support/served';

// Overload: a bound on the requests one process works on, 503 `overloaded` with Retry-After beyond
// it (before authentication, before any write), no work for clients that have gone, statement
// timeouts, exactly one log line per request, and validators compiled before the port opens.

/** A door the test opens: handlers wait at it; `entered` resolves once `n` of them are waiting. */
const doors: Array<() => void> = [];
function gate(n: number) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  doors.push(open);
  let count = 0;
  let reached!: () => void;
  const entered = new Promise<void>((r) => (reached = r));
  return {
    open,
    entered,
    async wait() {
      if (++count === n) reached();
      await opened;
    },
  };
}

/** listBusinesses that first waits at the door. */
const behind = (door: ReturnType<typeof gate>, onEnter = () => {}) =>
  (async (ctx) => (onEnter(), await door.wait(), realHandlers.listBusinesses(ctx))) as Handlers['listBusinesses'];

interface Sent {
  req: ClientRequest;
  response: Promise<{ status: number; headers: IncomingMessage['headers']; body: unknown }>;
}

/** A raw HTTP request on its own connection, so the test can hang up on it. */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Sent {
  const url = new URL(path, base);
  const data = body === undefined ? undefined : JSON.stringify(body);
  const req = httpRequest(url, { method, agent: false, headers: { ...headers, ...(data ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) } : {}) } });
  const response = new Promise<{ status: number; headers: IncomingMessage['headers']; body: unknown }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text && /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined); // a request the test hangs up on rejects; that is the point
  req.end(data);
  return { req, response };
}

function requestLines(h: Harness): Array<Record<string, unknown>> {
  return h.logs.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
}
const linesOf = (h: Harness, id: string) => requestLines(h).filter((l) => l.request_id === id);
const admissionOf = (h: Harness) => h.app.locals.admission as Admission;

let closeAll: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const open of doors.splice(0)) open(); // a failed test must not leave a handler waiting
  for (const c of closeAll.splice(0)) await c();
});

async function served(opts: Parameters<typeof startServedHarness>[0]) {
  const s = await startServedHarness(opts);
  closeAll.push(() => s.close());
  const t = await s.h.tenant();
  return { ...s, t };
}

describe(`overload (${ENGINE})`, () => {
  it('beyond the bound and its queue: 503 overloaded with Retry-After at once, probes still answer, one log line each', async () => {
    const door = gate(2);
    const { h, base, t } = await served({
      overload: { maxConcurrent: 2, maxQueue: 1, queueTimeoutMs: 60_000 },
      handlers: { listBusinesses: behind(door) },
    });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    const slow = [0, 1].map((i) => send(base, 'GET', '/v1/businesses', { ...auth, 'x-request-id': `slow-request-${i}` }));
    await door.entered;
    const queued = send(base, 'GET', '/v1/businesses', { ...auth, 'x-request-id': 'queued-request' });
    await vi.waitFor(() => expect(admissionOf(h).stats().queued).toBe(1));

    // Full: answered at once, in the envelope, before authentication (a bad key is shed the same way)
    // and before its body is read or anything is written.
    const shed = await send(base, 'POST', '/v1/businesses', { ...auth, 'x-request-id': 'shed-request' }, { legal_name: 'Shed LLC' }).response;
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.body).toEqual({ error: { type: 'api_error', code: 'overloaded', message: expect.stringMatching(/at capacity.*retry after 1 second/), request_id: 'shed-request' } });
    const anonymous = await send(base, 'GET', '/v1/businesses', { authorization: 'Bearer svc_live_not_a_real_key_at_all_00000' }).response;
    expect(anonymous.status).toBe(503);

    // Probes are never shed; readiness says to steer away while saturated, without a database trip.
    expect((await send(base, 'GET', '/healthz', {}).response).status).toBe(200);
    const notReady = await send(base, 'GET', '/readyz', {}).response;
    expect(notReady).toMatchObject({ status: 503, body: { status: 'overloaded', in_flight: 2, queued: 1 } });

    door.open();
    for (const r of [...slow, queued]) expect((await r.response).status).toBe(200);
    expect((await send(base, 'GET', '/readyz', {}).response)).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(Number((await h.knex('businesses').where({ legal_name: 'Shed LLC' }).count({ n: '*' }).first())!.n)).toBe(0);

    await vi.waitFor(() => expect(linesOf(h, 'queued-request')).toHaveLength(1));
    expect(linesOf(h, 'shed-request')).toEqual([expect.objectContaining({ status: 503, outcome: 'shed', reason: 'queue_full' })]);
    expect(linesOf(h, 'queued-request')).toEqual([expect.objectContaining({ status: 200, outcome: 'completed' })]);
    for (const i of [0, 1]) expect(linesOf(h, `slow-request-${i}`)).toEqual([expect.objectContaining({ status: 200, outcome: 'completed' })]);
    // The counted slots are all free again.
    expect(admissionOf(h).stats()).toMatchObject({ in_flight: 0, queued: 0 });
  });

  it('a request that waited past its budget (on the injected clock) is answered 503 and never runs', async () => {
    const door = gate(1);
    let runs = 0;
    const { h, base, t } = await served({
      overload: { maxConcurrent: 1, maxQueue: 10, queueTimeoutMs: 1000 },
      handlers: { listBusinesses: behind(door, () => runs++) },
    });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    const first = send(base, 'GET', '/v1/businesses', auth);
    await door.entered;
    const waiting = send(base, 'GET', '/v1/businesses', { ...auth, 'x-request-id': 'waited-too-long' });
    await vi.waitFor(() => expect(admissionOf(h).stats().queued).toBe(1));
    h.clock.advance(900);
    expect(admissionOf(h).stats().queued).toBe(1); // within its budget: still waiting
    h.clock.advance(200);
    const answer = await waiting.response;
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { error: { code: 'overloaded' } } });
    door.open();
    expect((await first.response).status).toBe(200);
    expect(runs).toBe(1);
    expect(linesOf(h, 'waited-too-long')).toEqual([expect.objectContaining({ status: 503, outcome: 'shed', reason: 'queue_timeout' })]);
  });

  it('a client that hangs up before its turn: nothing runs, no row, the key is free, one log line', async () => {
    const door = gate(1);
    const { h, base, t } = await served({
      overload: { maxConcurrent: 1, maxQueue: 10, queueTimeoutMs: 60_000 },
      handlers: { listBusinesses: behind(door) },
    });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    const first = send(base, 'GET', '/v1/businesses', auth);
    await door.entered;
    const gone = send(base, 'POST', '/v1/businesses', { ...auth, 'x-request-id': 'gone-before-turn', 'idempotency-key': 'gone-key-1' }, { legal_name: 'Gone Bakery LLC' });
    await vi.waitFor(() => expect(admissionOf(h).stats().queued).toBe(1));
    gone.req.destroy();
    await vi.waitFor(() => expect(admissionOf(h).stats().queued).toBe(0));
    door.open();
    expect((await first.response).status).toBe(200);

    await vi.waitFor(() => expect(linesOf(h, 'gone-before-turn')).toHaveLength(1));
    expect(linesOf(h, 'gone-before-turn')[0]).toMatchObject({ outcome: 'dropped', reason: 'client_gone' });
    expect(admissionOf(h).counts.dropped).toBe(1);
    expect(Number((await h.knex('businesses').where({ legal_name: 'Gone Bakery LLC' }).count({ n: '*' }).first())!.n)).toBe(0);
    expect(await h.knex('idempotency_keys').where({ key: 'gone-key-1' }).first()).toBeUndefined();
    // The same request sent again runs normally.
    const again = await send(base, 'POST', '/v1/businesses', { ...auth, 'idempotency-key': 'gone-key-1' }, { legal_name: 'Gone Bakery LLC' }).response;
    expect(again.status).toBe(201);
    expect(admissionOf(h).stats()).toMatchObject({ in_flight: 0, queued: 0 });
  });

  // A table lock keeps the request in authentication (api_keys): a lock only PostgreSQL can hold
  // apart from the server's own connections.
  it.skipIf(ENGINE === 'pglite').each([
    ['authenticated', 'api_keys'],
  ])('a client that hangs up while its request is %s: the operation never starts, the key is released', async (_what, table) => {
    const { h, base, t } = await served({});
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    expect((await send(base, 'GET', '/v1/businesses', auth).response).status).toBe(200);
    // That GET left its key in this process's credential cache (src/http/credential-cache.ts), which
    // answers without reading api_keys: the request held in authentication carries a key never used
    // yet, so it is looked up in the database and waits on the lock there.
    const fresh = { authorization: `Bearer ${(await t.key({ role: 'admin', user: 'admin' })).key}` };
    const lock = await h.knex.transaction();
    closeAll.unshift(async () => void (await lock.rollback().catch(() => undefined)));
    await lock.raw(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const droppedBefore = lifecycleCounts.droppedBeforeRun;
    const id = `gone-in-${table.replace('_', '-')}`;
    const gone = send(base, 'POST', '/v1/businesses', { ...fresh, 'x-request-id': id, 'idempotency-key': `key-${id}` }, { legal_name: `Half Way ${table} LLC` });
    await vi.waitFor(async () => {
      // (Not through the locking transaction: pg_stat_activity is a snapshot per transaction.)
      const { rows } = await h.knex.raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
      expect(rows[0].n).toBe(1);
    }, { timeout: 5000 });
    gone.req.destroy();
    await vi.waitFor(() => expect(linesOf(h, id)).toEqual([expect.objectContaining({ outcome: 'dropped', reason: 'client_gone' })]));
    await lock.commit();
    await vi.waitFor(() => expect(lifecycleCounts.droppedBeforeRun).toBe(droppedBefore + 1));
    expect(Number((await h.knex('businesses').where({ legal_name: `Half Way ${table} LLC` }).count({ n: '*' }).first())!.n)).toBe(0);
    await vi.waitFor(async () => expect(await h.knex('idempotency_keys').where({ key: `key-${id}` }).first()).toBeUndefined());
    expect(linesOf(h, id)).toHaveLength(1);
  });

  // The Idempotency-Key is claimed inside the operation's transaction (src/http/idempotency.ts): a
  // request waiting to claim it has started its operation, so a client that leaves then is like one
  // that leaves while its write runs. (A table lock is taken before the claim's lock_timeout is set,
  // so the claim waits for the lock to go, however long.)
  it.skipIf(ENGINE === 'pglite')('a client that hangs up while its request waits to claim its Idempotency-Key: the claim is part of the operation, which commits whole with its key once the lock goes; a retry replays it', async () => {
    const { h, base, t } = await served({});
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    expect((await send(base, 'GET', '/v1/businesses', auth).response).status).toBe(200);
    const lock = await h.knex.transaction();
    closeAll.unshift(async () => void (await lock.rollback().catch(() => undefined)));
    await lock.raw('LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE');
    const id = 'gone-in-claim';
    const body = { legal_name: 'Half Way Claim LLC' };
    const gone = send(base, 'POST', '/v1/businesses', { ...auth, 'x-request-id': id, 'idempotency-key': `key-${id}` }, body);
    await vi.waitFor(async () => {
      const { rows } = await h.knex.raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
      expect(rows[0].n).toBe(1);
    }, { timeout: 5000 });
    gone.req.destroy();
    await new Promise((r) => setImmediate(r));
    expect(linesOf(h, id)).toEqual([]); // still running: nothing logged yet
    await lock.commit();
    await vi.waitFor(() => expect(linesOf(h, id)).toEqual([expect.objectContaining({ outcome: 'completed_after_disconnect', status: 201 })]));
    const retry = await send(base, 'POST', '/v1/businesses', { ...auth, 'idempotency-key': `key-${id}` }, body).response;
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(Number((await h.knex('businesses').where(body).count({ n: '*' }).first())!.n)).toBe(1);
    expect(admissionOf(h).stats()).toMatchObject({ in_flight: 0, queued: 0 });
  });

  it('a client that hangs up while its write runs: it commits whole with its idempotency record, a retry replays it', async () => {
    const door = gate(1);
    let running: { socket: { destroyed: boolean } } | undefined;
    const { h, base, t } = await served({
      handlers: { createBusiness: (async (ctx) => ((running = ctx.req), await door.wait(), realHandlers.createBusiness(ctx))) as Handlers['createBusiness'] },
    });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    const body = { legal_name: 'Abandoned Pantry LLC' };
    const abandoned = send(base, 'POST', '/v1/businesses', { ...auth, 'x-request-id': 'gone-while-running', 'idempotency-key': 'gone-key-2' }, body);
    await door.entered;
    abandoned.req.destroy();
    await vi.waitFor(() => expect(running?.socket.destroyed).toBe(true)); // the server has seen the hang-up
    // (On the embedded engine the running transaction holds its one connection: a retry would wait for it.)
    if (ENGINE === 'pg') {
      // Still running: the key stays locked (a retry now is told to wait, it does not run the write twice).
      const early = await send(base, 'POST', '/v1/businesses', { ...auth, 'idempotency-key': 'gone-key-2' }, body).response;
      expect(early).toMatchObject({ status: 409, body: { error: { code: 'idempotency_key_in_use' } } });
      // The claim is uncommitted (the key's lock is the running transaction, not a time): nothing is
      // visible outside it, and ten minutes later on the injected clock a retry is still told to wait.
      expect(await h.knex('idempotency_keys').where({ key: 'gone-key-2' }).first()).toBeUndefined();
      h.clock.advance(10 * 60_000);
      expect((await send(base, 'POST', '/v1/businesses', { ...auth, 'idempotency-key': 'gone-key-2' }, body).response).status).toBe(409);
    }
    door.open();

    await vi.waitFor(() => expect(linesOf(h, 'gone-while-running')).toHaveLength(1));
    expect(linesOf(h, 'gone-while-running')[0]).toMatchObject({ outcome: 'completed_after_disconnect', status: 201 });
    const retry = await send(base, 'POST', '/v1/businesses', { ...auth, 'idempotency-key': 'gone-key-2' }, body).response;
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(Number((await h.knex('businesses').where(body).count({ n: '*' }).first())!.n)).toBe(1);
    expect(admissionOf(h).stats()).toMatchObject({ in_flight: 0, queued: 0 });
  });

  // The embedded engine runs each statement to its end on the main thread (PGlite has no timers and
  // no cancel): a statement timeout cannot exist there, and its pool is one connection by design.
  it.skipIf(ENGINE === 'pglite')('a statement over the timeout ends in the 500 envelope without driver text, and the pool recovers', async () => {
    const slowQuery = (async ({ deps }) => {
      await deps.db.knex.raw('select pg_sleep(3)');
      return { status: 200, body: { data: [], meta: { has_more: false, next_cursor: null } } };
    }) as Handlers['listBusinesses'];
    const { h, base, t } = await served({ dbLimits: { poolMax: 2, statementTimeoutMs: 200 }, handlers: { listBusinesses: slowQuery } });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    // More slow requests than connections: each is cancelled after 200 ms and gives its connection back.
    const answers = await Promise.all([0, 1, 2, 3].map((i) => send(base, 'GET', '/v1/businesses', { ...auth, 'x-request-id': `slow-query-${i}` }).response));
    for (const a of answers) {
      expect(a).toMatchObject({ status: 500, body: { error: { type: 'api_error', code: 'internal_error' } } });
      expect(JSON.stringify(a.body)).not.toMatch(/cancel|timeout|statement|pg_sleep/i);
    }
    const logged = h.logs.join('');
    expect(logged).toContain('"code":"57014"');
    expect(logged).not.toMatch(/canceling statement/);
    // Recovered: a normal operation is served at once on the same pool.
    expect((await send(base, 'GET', '/v1/people', auth).response).status).toBe(200);
  });

  it.skipIf(ENGINE === 'pglite')('no connection frees up within the acquire timeout: 503 overloaded, not a 500', async () => {
    const door = gate(1);
    const holdConnection = (async ({ deps }) => {
      await deps.db.knex.transaction(async (trx) => {
        await trx.raw('select 1');
        await door.wait();
      });
      return { status: 200, body: { data: [], meta: { has_more: false, next_cursor: null } } };
    }) as Handlers['listPeople'];
    const { h, base, t } = await served({ dbLimits: { poolMax: 1, acquireTimeoutMs: 300 }, handlers: { listPeople: holdConnection } });
    const auth = { authorization: `Bearer ${t.keys.admin}` };
    const holder = send(base, 'GET', '/v1/people', auth);
    await door.entered;
    const starved = await send(base, 'GET', '/v1/businesses', { ...auth, 'x-request-id': 'starved-request' }).response;
    expect(starved).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { error: { type: 'api_error', code: 'overloaded' } } });
    door.open();
    expect((await holder.response).status).toBe(200);
    expect((await send(base, 'GET', '/v1/businesses', auth).response).status).toBe(200);
    expect(linesOf(h, 'starved-request')).toEqual([expect.objectContaining({ status: 503, outcome: 'completed' })]);
  });
});

// On PostgreSQL only: compiling the validators and reading the contract run before and apart from
// any query, so the engine cannot change either count.
describe.skipIf(ENGINE !== 'pg')(`ready means ready (${ENGINE})`, () => {
  it('validators are compiled by warmUp: afterwards no request compiles a schema; without it the first one does', async () => {
    const h = await startHarness();
    closeAll.push(() => h.close());
    const t = await h.tenant();
    const compiled = countSchemaCompilations();
    try {
      const deps = { ...h.deps, validateResponses: false };
      const probe = async (app: ReturnType<typeof createApp>) => {
        const before = compiled.count();
        const r = await supertest(app).post('/v1/deals').set(t.auth()).send({});
        expect(r.status).toBe(400);
        const p = await supertest(app).get('/v1/people').set(t.auth());
        expect(p.status).toBe(200);
        return compiled.count() - before;
      };
      const cold = createApp(deps, realHandlers);
      expect(await probe(cold)).toBeGreaterThan(0);

      const warm = createApp(deps, realHandlers);
      const warmed = await (warm.locals.warmUp as () => Promise<number>)();
      expect(warmed).toBe(listOperations(loadSpec()).filter((o) => !o.rawBody).length);
      expect(await probe(warm)).toBe(0);
    } finally {
      compiled.restore();
    }
  });

  it('the contract is read from disk once per process, whatever serves it', async () => {
    const { h, base } = await served({});
    for (const path of ['/openapi.json', '/openapi.yaml', '/openapi.json']) expect((await send(base, 'GET', path, {}).response).status).toBe(200);
    createApp(h.deps, realHandlers);
    expect(specLoads.yaml + specLoads.json).toBe(1);
    // Nothing else parsed the YAML again (no cached JSON: one parse; with it: none).
    expect(vi.mocked(parseYaml).mock.calls.length).toBe(specLoads.yaml);
  });
});
