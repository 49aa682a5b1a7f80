import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/engine';
import { createApiKey, createLocation, createUser } from '../../src/features/accounts/accounts.service';
import { systemClock } from '../../src/lib/clock';
import { EXCHANGE_EVERY_REQUESTS, RATE_LIMIT } from '../../src/http/rate-limit';
import { ENGINE, clonePostgresUrl } from '../support/harness';

// Two API processes on one PostgreSQL, as production scales out: they share one rate-limit budget
// (each counts in memory and exchanges its counts with the shared table) and one idempotency record
// per key, because both live in the database. (PGlite is one process per
// data folder by design, so this runs on PostgreSQL only.) The processes run the compiled bundle,
// exactly what `npm start` serves.

const ROOT = new URL('../..', import.meta.url).pathname;
const run = ENGINE === 'pg';

interface Server {
  child: ChildProcess;
  url: string;
}

let drop: (() => Promise<void>) | undefined;
let servers: Server[] = [];
let key = '';
/** A second credential of the same location: the rate-limit test spends the first one's budget. */
let key2 = '';

async function start(env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, ['dist/server.mjs'], { cwd: ROOT, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited ${code}: ${out}`));
    });
  });
  return { child, url };
}

beforeAll(async () => {
  if (!run) return;
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  const db = await clonePostgresUrl();
  drop = db.drop;
  const knex = openPostgres(db.url, { poolMax: 1 });
  const loc = await createLocation(knex.knex, systemClock, { name: 'Scale-out' });
  const user = await createUser(knex.knex, systemClock, { locationId: loc.id, name: 'Ops', email: 'ops@scale.example', role: 'admin' });
  key = (await createApiKey(knex.knex, systemClock, { locationId: loc.id, name: 'shared', role: 'admin', userId: user.id })).key;
  key2 = (await createApiKey(knex.knex, systemClock, { locationId: loc.id, name: 'second', role: 'admin', userId: user.id })).key;
  await knex.close();
  const env = { ...process.env, NODE_ENV: 'production', DATABASE_URL: db.url, SECRET_KEY: 'scale-out-secret-key-0123456789-abcdefgh', LOG_LEVEL: 'silent' };
  servers = await Promise.all([start(env), start(env)]);
}, 120_000);

afterAll(async () => {
  for (const s of servers) {
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await exited;
  }
  await drop?.();
});

const auth = () => ({ Authorization: `Bearer ${key}` });
const auth2 = () => ({ Authorization: `Bearer ${key2}` });

describe.skipIf(!run)('two API processes on one database', () => {
  it('share one rate-limit budget: about 300 requests across both (within one exchange of counts), then both refuse', { timeout: 120_000 }, async () => {
    // Each process counts in memory and exchanges with the shared table every 250 ms or 100 requests,
    // and before every verdict once near the limit: together they accept the limit, plus at most what
    // the other process counted since its last exchange, never a budget each.
    let accepted = 0;
    const refusedBy = new Set<number>();
    for (let i = 0; i < 2 * RATE_LIMIT && refusedBy.size < 2; i++) {
      const res = await fetch(`${servers[i % 2].url}/v1/pipeline/stages`, { headers: auth() });
      if (res.status === 200) {
        accepted++;
        expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(RATE_LIMIT);
      } else {
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        refusedBy.add(i % 2);
      }
    }
    expect(refusedBy.size).toBe(2);
    expect(accepted).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(accepted).toBeLessThanOrEqual(RATE_LIMIT + EXCHANGE_EVERY_REQUESTS);
    for (const s of servers) {
      const over = await fetch(`${s.url}/v1/pipeline/stages`, { headers: auth() });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('share one idempotency record: a key used on one process replays on the other, and a race makes one object', { timeout: 60_000 }, async () => {
    const post = (s: Server, idemKey: string, name: string) =>
      fetch(`${s.url}/v1/businesses`, { method: 'POST', headers: { ...auth2(), 'Content-Type': 'application/json', 'Idempotency-Key': idemKey }, body: JSON.stringify({ legal_name: name }) });
    const first = await post(servers[0], 'scale-1', 'Scale One LLC');
    expect(first.status).toBe(201);
    const again = await post(servers[1], 'scale-1', 'Scale One LLC');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());

    const race = await Promise.all(Array.from({ length: 20 }, (_, i) => post(servers[i % 2], 'scale-2', 'Scale Two LLC')));
    const bodies = await Promise.all(race.map(async (r) => ({ status: r.status, body: (await r.json()) as any })));
    expect(bodies.filter((b) => !(b.status === 201 || (b.status === 409 && b.body.error.code === 'idempotency_key_in_use')))).toEqual([]);
    const ids = new Set(bodies.filter((b) => b.status === 201).map((b) => b.body.data.id));
    expect(ids.size).toBe(1);
    const list = await fetch(`${servers[0].url}/v1/businesses?limit=100`, { headers: auth2() });
    expect(((await list.json()) as any).data.filter((b: { legal_name: string }) => b.legal_name === 'Scale Two LLC')).toHaveLength(1);
  });
});
