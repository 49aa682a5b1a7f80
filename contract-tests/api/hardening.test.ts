import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_WAIT_MS, LOCK_MS } from '../../src/http/idempotency';
import { Worker } from '../../src/jobs/worker';
import { RATE_LIMIT } from '../../src/http/rate-limit';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { countSchemaCompilations } from '../support/schema-compilations';

// Bad input is a 4xx naming the field and never reaches the database; idempotency as Stripe defines
// it; a sliding rate limit; and the small truths (readiness, WWW-Authenticate, HEAD).

let h: Harness;
let t: Tenant;
/** Requests held in the handler ('hold' notes), all let go by release(). */
const holds: (() => void)[] = [];
const release = () => {
  for (const go of holds.splice(0)) go();
};
let started: (() => void) | undefined;
let seenLockTimeout: string | undefined;

beforeAll(async () => {
  h = await startHarness({
    handlers: {
      // A real driver error carrying a submitted value in its message (22P02 names the text).
      // 'Hold Co' is held after its rows are written (uncommitted); 'Fails after writing ...' throws there.
      createBusiness: async (ctx) => {
        const name = (ctx.body as { legal_name: string }).legal_name;
        const { handlers } = await import('../../src/features/handlers');
        const reply = await handlers.createBusiness(ctx);
        if (name === 'Hold Co') {
          started?.();
          await new Promise<void>((resolve) => holds.push(resolve));
        }
        if (name.startsWith('Fails after writing')) throw new Error('the operation fails after its writes');
        return reply;
      },
      createBusinessNote: async (ctx) => {
        const body = ctx.body as { body: string };
        if (body.body === 'driver-data-error') await ctx.deps.db.knex.raw('select ?::int', ['1985-07-14']);
        if (body.body === 'driver-unique-error') {
          await ctx.deps.db.knex.raw(`create temporary table if not exists t_unique (v text primary key)`);
          await ctx.deps.db.knex.raw(`insert into t_unique values ('123-45-6789'), ('123-45-6789')`);
        }
        if (body.body === 'show lock_timeout') seenLockTimeout = (await ctx.deps.db.knex.raw(`select current_setting('lock_timeout') as v`)).rows[0].v;
        if (body.body === 'hold') {
          started?.();
          await new Promise<void>((resolve) => holds.push(resolve));
        }
        const { handlers } = await import('../../src/features/handlers');
        const reply = await handlers.createBusinessNote(ctx);
        // An answer that cannot be remembered (JSON has no BigInt): as if the process died right there.
        if (body.body === 'unrememberable') return { ...reply, body: { ...reply.body, meta: { n: 1n } } } as never;
        return reply;
      },
    },
  });
  t = await h.tenant('Hardening');
});
afterAll(() => {
  release?.(); // a failed hold test must not leave its request (and the close) waiting
  return h?.close();
});

const err = (res: { body: { error?: { type: string; code?: string; param?: string; message: string } } }) => res.body.error!;

async function businessId(): Promise<string> {
  const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: `Acme ${Math.random()}` });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('dates are calendar-exact', () => {
  it.each(['2019-02-30', '2019-13-01', '0000-00-00', '0000-01-01', '2023-02-29', '2019-2-3', '20190203'])('business_start_date %s is a 400 naming the field', async (d) => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Dated LLC', business_start_date: d });
    expect(res.status).toBe(400);
    expect(err(res)).toMatchObject({ type: 'validation_error', code: 'invalid_request', param: 'business_start_date' });
  });

  it('a real leap day is stored unchanged', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Leap LLC', business_start_date: '2024-02-29' });
    expect(res.status).toBe(201);
    expect(res.body.data.business_start_date).toBe('2024-02-29');
  });

  async function dealAndLender(): Promise<{ deal: string; lender: string }> {
    const deal = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: await businessId() });
    const lender = await h.api.post('/v1/lenders').set(t.auth()).send({ name: `Lender ${Math.random()}` });
    expect([deal.status, lender.status]).toEqual([201, 201]);
    return { deal: deal.body.data.id, lender: lender.body.data.id };
  }

  it.each(['2026-02-30T10:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T23:60:00Z', '2016-12-31T23:59:60Z', '2026-01-01T10:00:00+24:00', '2026-01-01 10:00:00Z', '0000-01-01T00:00:00Z'])(
    'date-time %s is a 400, never rolled over',
    async (dt) => {
      const { deal, lender } = await dealAndLender();
      const res = await h.api.post(`/v1/deals/${deal}/offers`).set(t.auth()).send({ lender_id: lender, amount: 50000, factor_rate: 1.3, term: 6, expires_at: dt });
      expect(res.status).toBe(400);
      expect(err(res).param).toBe('expires_at');
    },
  );

  it('a valid date-time with an offset is accepted and means the same instant', async () => {
    const { deal, lender } = await dealAndLender();
    const res = await h.api.post(`/v1/deals/${deal}/offers`).set(t.auth()).send({ lender_id: lender, amount: 50000, factor_rate: 1.3, term: 6, expires_at: '2026-02-28T23:30:00-05:00' });
    expect(res.status).toBe(201);
    expect(new Date(res.body.data.expires_at).toISOString()).toBe('2026-03-01T04:30:00.000Z');
  });
});

describe('strings the database cannot store', () => {
  it.each([
    ['NUL in a value', { legal_name: 'Acme\u0000 LLC' }, 'legal_name'],
    ['a lone high surrogate', { legal_name: 'Acme \ud800' }, 'legal_name'],
    ['a lone low surrogate', { legal_name: '\udc00Acme' }, 'legal_name'],
    ['NUL nested in custom_data', { legal_name: 'Acme', custom_data: { a: { b: 'x\u0000' } } }, 'custom_data.a.b'],
    ['a surrogate in a custom_data key', { legal_name: 'Acme', custom_data: { 'k\ud800': 1 } }, 'custom_data'],
    ['NUL in an array item', { legal_name: 'Acme', tags: ['ok', 'b\u0000d'] }, 'tags.1'],
  ])('%s is a 400 naming the field', async (_name, body, param) => {
    const before = await h.knex('businesses').count<{ c: number }[]>('* as c');
    const res = await h.api.post('/v1/businesses').set(t.auth()).send(body);
    expect(res.status).toBe(400);
    expect(err(res)).toMatchObject({ type: 'validation_error', param });
    expect(JSON.stringify(res.body)).not.toContain('\u0000');
    expect(await h.knex('businesses').count<{ c: number }[]>('* as c')).toEqual(before);
  });

  it('a valid surrogate pair (an emoji) is stored unchanged', async () => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Taco 🌮 LLC', custom_data: { '🌮': '🌯' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ legal_name: 'Taco 🌮 LLC', custom_data: { '🌮': '🌯' } });
  });

  it('NUL in a query value or a path parameter is a 400 naming it', async () => {
    const q = await h.api.get('/v1/people?search=ab%00cd').set(t.auth());
    expect(q.status).toBe(400);
    expect(err(q).param).toBe('search');
    const p = await h.api.get('/v1/businesses/biz_%00').set(t.auth());
    expect(p.status).toBe(400);
    expect(err(p).param).toBe('id');
  });

  it('a malformed %-escape in the path is a 400 in the envelope', async () => {
    const res = await h.api.get('/v1/businesses/%E0%A4%A').set(t.auth());
    expect(res.status).toBe(400);
    expect(err(res).type).toBe('validation_error');
  });
});

describe('free-form JSON is bounded as openapi.yaml says', () => {
  const nest = (levels: number): unknown => (levels === 0 ? 'leaf' : { k: nest(levels - 1) });
  it('5 levels of custom_data are accepted, 6 are not', async () => {
    const ok = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Deep LLC', custom_data: nest(5) });
    expect(ok.status).toBe(201);
    const deep = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Deeper LLC', custom_data: nest(6) });
    expect(deep.status).toBe(400);
    expect(err(deep).param).toBe('custom_data');
  });
  it('5,000 levels anywhere in a body are a 400, not a crash', async () => {
    const raw = `{"legal_name":"X","custom_data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(400);
    expect(err(res).param).toMatch(/^custom_data/);
  });
  it('too many keys at the top or nested, too many items, or too many bytes are 400s', async () => {
    const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    for (const custom_data of [wide, { nested: wide }, { list: Array.from({ length: 101 }, () => 1) }, { big: 'x'.repeat(16_400) }]) {
      const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Wide LLC', custom_data });
      expect(res.status).toBe(400);
      expect(err(res).param).toBe('custom_data');
    }
    const biz = await businessId();
    const deal = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: biz, form_data: { answers: { nested: wide } } });
    expect(deal.status).toBe(400);
    expect(err(deal).param).toBe('form_data');
  });
});

describe('bodies are never coerced; numbers are finite', () => {
  it.each([
    [{ legal_name: 123 }, 'legal_name'],
    [{ legal_name: true }, 'legal_name'],
    [{ legal_name: 'Acme', dba: null }, 'dba'],
  ])('%j is a 400', async (body, param) => {
    const res = await h.api.post('/v1/businesses').set(t.auth()).send(body);
    expect(res.status).toBe(400);
    expect(err(res).param).toBe(param);
  });
  it('"75000" is not a number, and neither is 1e400', async () => {
    const biz = await businessId();
    const str = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: biz, requested_amount: '75000' });
    expect(str.status).toBe(400);
    expect(err(str).param).toBe('requested_amount');
    const inf = await h.api.post('/v1/deals').set(t.auth()).set('Content-Type', 'application/json').send(`{"business_id":"${biz}","requested_amount":1e400}`);
    expect(inf.status).toBe(400);
    expect(err(inf).param).toBe('requested_amount');
  });
  it.each(['1e309', 'Infinity', '-1', '0', '101', '2.5', 'abc'])('limit=%s is a 400 naming limit', async (limit) => {
    const res = await h.api.get(`/v1/businesses?limit=${limit}`).set(t.auth());
    expect(res.status).toBe(400);
    expect(err(res).param).toBe('limit');
  });
  it('limit=100 is served (query values are coerced by their schema)', async () => {
    const res = await h.api.get('/v1/businesses?limit=100').set(t.auth());
    expect(res.status).toBe(200);
  });
});

describe('the body itself', () => {
  it('a corrupt gzip body is a 400 in the envelope', async () => {
    const good = gzipSync(Buffer.from(JSON.stringify({ legal_name: 'Zipped LLC' })));
    const ok = await h.api.post('/v1/businesses').set(t.auth()).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize((b: Buffer) => b as never).send(good as never);
    expect(ok.status).toBe(201);
    const corrupt = Buffer.concat([good.subarray(0, 12), Buffer.from('garbage-garbage')]);
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize((b: Buffer) => b as never).send(corrupt as never);
    expect(res.status).toBe(400);
    expect(err(res)).toMatchObject({ type: 'validation_error', code: 'invalid_request' });
  });

  it('operations without a body still answer 415 to a non-JSON body and 413 to one over 1 MB (documented on every operation)', async () => {
    const biz = await businessId();
    const targets = [
      { method: 'post' as const, path: '/v1/webhooks/whk_01JD1A2B3C4D5E6F7G8H9J0K1M/test' }, // a body-less POST
      { method: 'get' as const, path: `/v1/businesses/${biz}` },
    ];
    for (const { method, path } of targets) {
      const text = await h.api[method](path).set(t.auth()).set('Content-Type', 'text/plain').send('hello');
      expect(text.status, path).toBe(415);
      expect(err(text)).toMatchObject({ type: 'validation_error', code: 'unsupported_media_type' });
      const big = await h.api[method](path).set(t.auth()).set('Content-Type', 'application/json').send(JSON.stringify({ pad: 'x'.repeat(1_100_000) }));
      expect(big.status, path).toBe(413);
      expect(err(big)).toMatchObject({ type: 'validation_error', code: 'body_too_large' });
    }
  });

  it('Content-Type parameters cannot make the validator compile or grow: each shape answers alike, no schema is added', async () => {
    const compiled = countSchemaCompilations();
    try {
      const auth = { Authorization: `Bearer ${(await t.key({ role: 'admin', name: 'content types' })).key}` };
      const shapes = (i: number) => [
        { status: 200, send: () => h.api.get('/v1/people').set(auth).set('Content-Type', `application/json; x=${i}`) },
        { status: 200, send: () => h.api.get('/v1/people').set(auth).set('Content-Type', `text/x-${i}`) },
        { status: 201, send: () => h.api.post('/v1/businesses').set(auth).set('Content-Type', `Application/JSON; charset=utf-8; x=${i}`).send(JSON.stringify({ legal_name: `Typed ${i} LLC` })) },
        { status: 415, send: () => h.api.post('/v1/businesses').set(auth).set('Content-Type', `text/x-${i}`) },
      ];
      // Once each: the operations' validators exist (compiled now or by an earlier test).
      for (const shape of shapes(0)) expect((await shape.send()).status).toBe(shape.status);
      const before = compiled.count();
      for (let i = 1; i <= 25; i++) {
        for (const shape of shapes(i)) {
          const res = await shape.send();
          expect(res.status, `shape ${shapes(i).indexOf(shape)} #${i}`).toBe(shape.status);
          if (res.status === 415) expect(err(res)).toMatchObject({ type: 'validation_error', code: 'unsupported_media_type' });
        }
      }
      expect(compiled.count() - before).toBe(0);
    } finally {
      compiled.restore();
    }
  });
});

describe('database errors', () => {
  it('a data error from the driver is a 400, and neither the answer nor the log carries the value', async () => {
    const biz = await businessId();
    h.logs.length = 0;
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).send({ body: 'driver-data-error' });
    expect(res.status).toBe(400);
    expect(err(res)).toMatchObject({ type: 'validation_error', code: 'invalid_request' });
    expect(JSON.stringify(res.body)).not.toContain('1985-07-14');
    expect(h.logs.join('')).not.toContain('1985-07-14');
  });
  it('an unexpected database error is a 500 whose log names the SQLSTATE and constraint, not the values', async () => {
    const biz = await businessId();
    h.logs.length = 0;
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).send({ body: 'driver-unique-error' });
    expect(res.status).toBe(500);
    expect(err(res).code).toBe('internal_error');
    const log = h.logs.join('');
    expect(log).toContain('23505');
    expect(log).not.toContain('123-45-6789');
  });
});

describe('idempotency as Stripe defines it', () => {
  it('a 404 is not remembered: the corrected request succeeds with the same key', async () => {
    const key = `fix-${Math.random()}`;
    const missing = await h.api.post('/v1/businesses/biz_01JD1A2B3C4D5E6F7G8H9J0K1M/notes').set(t.auth()).set('Idempotency-Key', key).send({ body: 'hello' });
    expect(missing.status).toBe(404);
    const biz = await businessId();
    const fixed = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hello' });
    expect(fixed.status).toBe(201);
    const replay = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hello' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(fixed.body);
  });

  it('a 403 and a 400 are not remembered; a 409 is', async () => {
    const key = `role-${Math.random()}`;
    const denied = await h.api.post('/v1/pipeline/stages').set(t.auth('user')).set('Idempotency-Key', key).send({ label: 'Docs in', phase: 'submitted' });
    expect(denied.status).toBe(403);
    const ein = `${Math.floor(10 + Math.random() * 89)}-${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Twin A', ein }).expect(201);
    const k409 = `dup-${Math.random()}`;
    const first = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', k409).send({ legal_name: 'Twin B', ein });
    expect(first.status).toBe(409);
    const again = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', k409).send({ legal_name: 'Twin B', ein });
    expect(again.status).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await h.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
    // The replay is the stored answer, as documented (Idempotency, Request ids): its error.request_id
    // names the request that ran the operation; the X-Request-Id header is the retry's own.
    expect(again.body).toEqual(first.body);
    expect(again.body.error.request_id).toBe(first.headers['x-request-id']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const named = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', k409).set('X-Request-Id', 'retry-of-twin-b').send({ legal_name: 'Twin B', ein });
    expect(named.headers['x-request-id']).toBe('retry-of-twin-b');
    expect(named.body.error.request_id).toBe(first.headers['x-request-id']);
  });

  it.skipIf(ENGINE !== 'pg')('a key held by a running request answers 409 with Retry-After for as long as it runs; nothing of it is visible until it commits', async () => {
    const biz = await businessId();
    const key = `hold-${Math.random()}`;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    await isStarted;
    // The claim is a row of the running request's open transaction: no one else sees it, or a half of the operation.
    expect(await h.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
    const busy = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' });
    expect(busy.status).toBe(409);
    expect(err(busy)).toMatchObject({ code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
    expect(busy.headers['retry-after']).toBe('1');
    // The lock is the transaction's, not a clock's: well past any lock period the key is still held.
    h.clock.advance(3 * LOCK_MS);
    const still = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' });
    expect(still.status).toBe(409);
    expect(await h.knex('notes').where({ body: 'hold' }).count<{ c: number }[]>('* as c')).toEqual([{ c: 0 }]);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' });
    expect(replay.body).toEqual(done.body);
    expect(await h.knex('notes').where({ body: 'hold' }).count<{ c: number }[]>('* as c')).toEqual([{ c: 1 }]);
  });

  it.skipIf(ENGINE !== 'pg')(`a request waiting on a held key (up to ${CLAIM_WAIT_MS} ms) replays the holder's answer when it commits meanwhile`, async () => {
    const biz = await businessId();
    const key = `wait-${Math.random()}`;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    await isStarted;
    const second = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    // The second request's claim is waiting on the first one's uncommitted row: let the first commit now.
    const waiting = async () => Number((await h.knex.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n);
    for (let i = 0; i < 400 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 1));
    expect(await waiting()).toBe(1);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toEqual(a.body);
  });

  it.skipIf(ENGINE !== 'pg')('a request whose connection dies mid-operation leaves nothing: the key is free at once, no clock to wait for', async () => {
    const biz = await businessId();
    const key = `killed-${Math.random()}`;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    await isStarted;
    // What a process dying mid-request does to its transaction: PostgreSQL rolls it back.
    await h.knex.raw(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and pid <> pg_backend_pid()`);
    // The retry claims the key and reaches the operation while the dead request is still held in its handler.
    const retryStarted = new Promise<void>((resolve) => (started = resolve));
    const retry = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    await retryStarted;
    release();
    const dead = await first;
    expect(dead.status).toBe(500);
    const done = await retry;
    expect(done.status).toBe(201);
    expect(await h.knex('notes').where({ body: 'hold', entity_id: biz }).count<{ c: number }[]>('* as c')).toEqual([{ c: 1 }]);
  });

  it.skipIf(ENGINE !== 'pglite')('on the embedded engine a second request with a held key waits for the first and replays it', async () => {
    const biz = await businessId();
    const key = `hold-${Math.random()}`;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    await isStarted;
    // One connection: the second request queues behind the first one's transaction.
    const second = h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'hold' }).then((r) => r);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toEqual(a.body);
  });

  it(`the claim's lock_timeout (${CLAIM_WAIT_MS} ms) is its own: the operation after it waits for locks as any statement does`, async () => {
    const biz = await businessId();
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', `lt-${Math.random()}`).send({ body: 'show lock_timeout' });
    expect(res.status).toBe(201);
    expect(seenLockTimeout).toBe((await h.knex.raw(`select current_setting('lock_timeout') as v`)).rows[0].v);
    expect(seenLockTimeout).not.toBe(`${CLAIM_WAIT_MS}ms`);
  });

  const written = async (name: string) => {
    const biz = await h.knex('businesses').where({ legal_name: name }).select('id');
    const ids = biz.map((b) => b.id as string);
    return {
      businesses: ids.length,
      events: ids.length ? (await h.knex('events').where({ type: 'business.created' }).whereRaw(`data->>'business_id' = any(?)`, [ids])).length : 0,
      activities: ids.length ? (await h.knex('activities').whereIn('business_id', ids)).length : 0,
    };
  };

  it('two creates with one key at once: one runs, the other is 409 in use (PostgreSQL) and nothing is visible half-written', async () => {
    const key = `twin-create-${Math.random()}`;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const first = h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: 'Hold Co' }).then((r) => r);
    await isStarted; // its business, event and activity line are written, not committed
    if (ENGINE === 'pg') {
      const busy = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: 'Hold Co' });
      expect(busy.status).toBe(409);
      expect(err(busy)).toMatchObject({ code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
      expect(busy.headers['retry-after']).toBe('1');
      expect(await written('Hold Co')).toEqual({ businesses: 0, events: 0, activities: 0 });
      expect(await h.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
      release();
      const done = await first;
      expect(done.status).toBe(201);
    } else {
      // One connection: the second request waits for the first one's transaction, then replays its answer.
      const second = h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: 'Hold Co' }).then((r) => r);
      release();
      const [a, b] = await Promise.all([first, second]);
      expect(a.status).toBe(201);
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(b.body).toEqual(a.body);
    }
    expect(await written('Hold Co')).toEqual({ businesses: 1, events: 1, activities: 1 });
    expect((await h.knex('idempotency_keys').where({ key }).first()).state).toBe('done');
  });

  it('an idempotent create that fails after its writes leaves nothing: no claim on the key, no business, event or activity line', async () => {
    const key = `fails-${Math.random()}`;
    const name = `Fails after writing ${Math.random()}`;
    const res = await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', key).send({ legal_name: name });
    expect(res.status).toBe(500);
    expect(await h.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
    expect(await written(name)).toEqual({ businesses: 0, events: 0, activities: 0 });
    // A state conflict is remembered, and wrote nothing either.
    const ein = `${Math.floor(10 + Math.random() * 89)}-${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'EIN holder', ein }).expect(201);
    const k409 = `dup-create-${Math.random()}`;
    const twin = `Twin ${Math.random()}`;
    expect((await h.api.post('/v1/businesses').set(t.auth()).set('Idempotency-Key', k409).send({ legal_name: twin, ein })).status).toBe(409);
    expect(await h.knex('idempotency_keys').where({ key: k409 }).first('state', 'response_status')).toEqual({ state: 'done', response_status: 409 });
    expect(await written(twin)).toEqual({ businesses: 0, events: 0, activities: 0 });
  });

  it('the answer is remembered in the operation\'s transaction: when it cannot be, the operation is undone too', async () => {
    const biz = await businessId();
    const key = `atomic-${Math.random()}`;
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'unrememberable' });
    expect(res.status).toBe(500);
    expect(await h.knex('notes').where({ body: 'unrememberable' }).count<{ c: number }[]>('* as c')).toEqual([{ c: 0 }]);
    expect(await h.knex('idempotency_keys').where({ key }).first()).toBeUndefined();
    // Without a key the same handler commits (the rollback above came from the remembering).
    const plain = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).send({ body: 'unrememberable' });
    expect(plain.status).toBe(500); // the reply still cannot be sent as JSON
    expect(await h.knex('notes').where({ body: 'unrememberable' }).count<{ c: number }[]>('* as c')).toEqual([{ c: 1 }]);
  });

  it(`a key whose request died is taken over ${LOCK_MS / 1000} seconds after its last renewal`, async () => {
    const biz = await businessId();
    const key = `dead-${Math.random()}`;
    const credential = await h.knex('api_keys').where({ location_id: t.locationId, role: 'admin' }).first('id');
    const now = h.clock.now();
    // What a process that crashed mid-request leaves behind.
    await h.knex('idempotency_keys').insert({ credential_id: credential.id, key, request_hash: 'x', state: 'in_progress', created_at: now, locked_until: new Date(now.getTime() + LOCK_MS) });
    h.clock.advance(LOCK_MS - 1);
    const early = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'after crash' });
    expect(early.status).toBe(409);
    h.clock.advance(1);
    const taken = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).set('Idempotency-Key', key).send({ body: 'after crash' });
    expect(taken.status).toBe(201);
  });

  it('50 concurrent POSTs with one key make exactly one object', async () => {
    const key = `burst-${Math.random()}`;
    const name = `Burst ${Math.random()}`;
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.api.post('/v1/businesses').set(t.auth('manager')).set('Idempotency-Key', key).send({ legal_name: name })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    for (const busy of answers.filter((a) => a.status === 409)) expect(busy.headers['retry-after']).toBe('1');
    expect(await h.knex('businesses').where({ legal_name: name }).count<{ c: number }[]>('* as c')).toEqual([{ c: 1 }]);
  });
});

describe('rate limit: a sliding 60-second window', () => {
  it('600 requests across a minute boundary get at most 300 through; Retry-After and headers are truthful', async () => {
    const key = (await t.key({ role: 'manager', name: 'rate' })).key;
    const auth = { Authorization: `Bearer ${key}` };
    h.clock.set('2026-11-24T10:00:59.500Z');
    let ok = 0;
    for (let i = 0; i < 300; i++) if ((await h.api.get('/v1/pipeline/stages').set(auth)).status === 200) ok++;
    expect(ok).toBe(RATE_LIMIT);
    h.clock.set('2026-11-24T10:01:00.500Z'); // a fixed window would have reset here
    let refused = 0;
    let last: Awaited<ReturnType<typeof h.api.get>> | undefined;
    for (let i = 0; i < 300; i++) {
      last = await h.api.get('/v1/pipeline/stages').set(auth);
      if (last.status === 429) refused++;
    }
    expect(refused).toBe(300);
    expect(err(last!)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    // The 300 were counted in second :59, which leaves a 61-bucket window at 10:02:00.
    expect(last!.headers['retry-after']).toBe('60');
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    expect(last!.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-24T10:02:00Z') / 1000));
    h.clock.set('2026-11-24T10:01:59.900Z');
    expect((await h.api.get('/v1/pipeline/stages').set(auth)).status).toBe(429);
    h.clock.set('2026-11-24T10:02:00.000Z');
    const back = await h.api.get('/v1/pipeline/stages').set(auth);
    expect(back.status).toBe(200);
    expect(back.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMIT - 1));
  });

  it('repeated failed authentication from one address is throttled, valid keys from it too, until the window allows', async () => {
    const h2 = await startHarness();
    try {
      const t2 = await h2.tenant('Throttle');
      const bad = { Authorization: `Bearer svc_live_${'x'.repeat(32)}` };
      for (let i = 0; i < 30; i++) expect((await h2.api.get('/v1/businesses').set(bad)).status).toBe(401);
      const blocked = await h2.api.get('/v1/businesses').set(bad);
      expect(blocked.status).toBe(429);
      expect(err(blocked)).toMatchObject({ type: 'rate_limit_error', code: 'too_many_failed_authentications' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await h2.api.get('/v1/businesses').set(t2.auth())).status).toBe(429);
      h2.clock.advance(61_000);
      expect((await h2.api.get('/v1/businesses').set(t2.auth())).status).toBe(200);
    } finally {
      await h2.close();
    }
  });

  it('behind a trusted proxy the client address comes from X-Forwarded-For, so one client cannot lock out others', async () => {
    const { createApp } = await import('../../src/app');
    const { handlers } = await import('../../src/features/handlers');
    const supertest = (await import('supertest')).default;
    const h3 = await startHarness();
    try {
      const api = supertest(createApp({ ...h3.deps, config: { ...h3.deps.config, trustProxy: 'loopback' } }, handlers));
      const bad = { Authorization: `Bearer svc_live_${'z'.repeat(32)}` };
      for (let i = 0; i < 30; i++) await api.get('/v1/businesses').set(bad).set('X-Forwarded-For', '203.0.113.7');
      expect((await api.get('/v1/businesses').set(bad).set('X-Forwarded-For', '203.0.113.7')).status).toBe(429);
      expect((await api.get('/v1/businesses').set(bad).set('X-Forwarded-For', '203.0.113.8')).status).toBe(401);
    } finally {
      await h3.close();
    }
  });
});

describe('small truths', () => {
  it('401s carry WWW-Authenticate: Bearer, with an error code when a credential was presented, and the resource metadata (RFC 9728)', async () => {
    const none = await h.api.get('/v1/businesses');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="svc", resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource"');
    const bad = await h.api.get('/v1/businesses').set({ Authorization: `Bearer svc_live_${'y'.repeat(32)}` });
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer realm="svc", error="invalid_token", error_description="[^"]+", resource_metadata="http:\/\/127\.0\.0\.1:3000\/\.well-known\/oauth-protected-resource"$/);
  });

  it('HEAD works on every read: same status and headers as GET, no body', async () => {
    const biz = await businessId();
    for (const path of ['/v1/businesses', `/v1/businesses/${biz}`, '/v1/pipeline/stages']) {
      const head = await h.api.head(path).set(t.auth());
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toMatch(/application\/json/);
      expect(head.text ?? '').toBe('');
    }
    const missing = await h.api.head('/v1/businesses/biz_01JD1A2B3C4D5E6F7G8H9J0K1M').set(t.auth());
    expect(missing.status).toBe(404);
  });

  it('/readyz says worker: not_seen (still 200) when no worker wrote a heartbeat in the last 2 minutes of the clock', async () => {
    expect((await h.api.get('/readyz')).body).toEqual({ status: 'ready', worker: 'not_seen' });
    const worker = new Worker(h.deps, { concurrency: 1 });
    try {
      await worker.drain(); // a poll writes the heartbeat
      expect((await h.api.get('/readyz')).body).toEqual({ status: 'ready', worker: 'seen' });
      const beat = await h.knex('worker_heartbeats').where({ worker_id: worker.id }).first();
      expect(new Date(beat.seen_at).getTime()).toBe(h.clock.now().getTime());
      h.clock.advance(2 * 60_000);
      expect((await h.api.get('/readyz')).body.worker).toBe('seen'); // exactly 2 minutes: still seen
      h.clock.advance(1000);
      const late = await h.api.get('/readyz');
      expect(late.status).toBe(200);
      expect(late.body).toEqual({ status: 'ready', worker: 'not_seen' });
      // A poll writes a new heartbeat (one every 30 s of the clock at most).
      await worker.drain();
      expect((await h.api.get('/readyz')).body.worker).toBe('seen');
      h.clock.advance(10_000);
      await worker.drain();
      expect(new Date((await h.knex('worker_heartbeats').where({ worker_id: worker.id }).first()).seen_at).getTime()).toBe(h.clock.now().getTime() - 10_000);
    } finally {
      await worker.close();
    }
    // A clean stop removes its heartbeat: not seen at once.
    expect(await h.knex('worker_heartbeats').where({ worker_id: worker.id }).first()).toBeUndefined();
    expect((await h.api.get('/readyz')).body).toEqual({ status: 'ready', worker: 'not_seen' });
  });

  it('/readyz reports not ready while a migration is pending', async () => {
    expect((await h.api.get('/readyz')).status).toBe(200);
    const last = await h.knex('knex_migrations').orderBy('id', 'desc').first();
    await h.knex('knex_migrations').where({ id: last.id }).delete();
    try {
      const res = await h.api.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'migrations_pending', pending: [last.name] });
    } finally {
      await h.knex('knex_migrations').insert(last);
    }
    expect((await h.api.get('/readyz')).status).toBe(200);
  });
});
