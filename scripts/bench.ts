/**
 * `npm run bench [-- --engine pglite] [--duration 8] [--rounds 2] [--connections 10]`
 *
 * A benchmark, never a test. Seeds a database in SQL, starts the real API server (`npm start`'s
 * entry, LOG_LEVEL=info as in production, its output discarded) and, as the reference, a bare
 * Express route per scenario running exactly the SQL the API's handler ran for it (captured from the
 * real code) on a pool of the same size. Rounds alternate bare / API so both see the same machine
 * state. Load is spread over enough API keys that the rate limit never answers. Prints, per
 * scenario, requests per second, p50 and p99 latency, the ratio to the bare route, each server's CPU
 * time per request (steadier than requests per second on a shared machine), and the API
 * server's peak RSS; plus the API's start-up time to listening. `--cpu-prof DIR` writes the API
 * server's CPU profile there (open it in Chrome DevTools, or summarise it with
 * `npx tsx scripts/profile-top.ts DIR/*.cpuprofile`); `--only NAME` runs one scenario;
 * `--before REV` also runs the API as of git revision REV (a worktree, its own migrations, an
 * identically seeded database) in the same rounds, for before/after figures from one run (pg only).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { createApp } from '../src/app';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { openPgliteDir, openPostgres, type Database } from '../src/db/engine';
import { createApiKey, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { handlers } from '../src/features/handlers';
import { encodeCursor } from '../src/http/pagination';
import { hmacHex, SecretBox } from '../src/lib/crypto';
import type { Deps } from '../src/deps';
import { createStorage } from '../src/storage';
import { systemClock } from '../src/lib/clock';
import { ADMIN_URL, cpuMs, log, migrateCheckout, rssMb, startFlags, startProc, stopProc, table, type Proc } from './bench-kit';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pg' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    keys: { type: 'string', default: '400' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    before: { type: 'string' },
    'api-only': { type: 'boolean', default: false },
  },
});
const ENGINE = args.engine === 'pglite' ? 'pglite' : 'pg';
const DURATION = Number(args.duration);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const KEYS = Number(args.keys);
const SECRET_KEY = 'bench-secret-key-0123456789-abcdefghijklmnop';
const DEEP_ROWS = 100_000;



// ------------------------------------------------------------------ database and seed

interface Seeded {
  locationId: string;
  deepLocationId: string;
  keys: string[];
  deepKeys: string[];
  dealId: string;
  deepCursor: string;
}

async function seed(knex: Knex): Promise<Seeded> {
  const clock = systemClock;
  const loc = await createLocation(knex, clock, { name: 'Bench books' });
  const deep = await createLocation(knex, clock, { name: 'Bench deep list' });
  const admin = await createUser(knex, clock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
  const deepAdmin = await createUser(knex, clock, { locationId: deep.id, name: 'Deep Admin', email: 'admin@deep.example', role: 'admin' });
  const keys: string[] = [];
  const deepKeys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    keys.push((await createApiKey(knex, clock, { locationId: loc.id, name: `bench ${i}`, role: 'admin', userId: admin.id })).key);
    if (i < KEYS / 4) deepKeys.push((await createApiKey(knex, clock, { locationId: deep.id, name: `deep ${i}`, role: 'admin', userId: deepAdmin.id })).key);
  }
  const id = (prefix: string, n: string) => `'${prefix}_0000' || upper(lpad(to_hex(${n}), 22, '0'))`;
  // 1,000 people and 1,000 businesses in the book; 100,000 businesses in the deep list.
  await knex.raw(`INSERT INTO people (id, location_id, first_name, last_name, email, phone, city, state, status, created_at, updated_at)
    SELECT ${id('per', 'i')}, ?, 'First' || i, 'Last' || i, 'p' || i || '@bench.example', '1303555' || lpad(i::text, 4, '0'), 'Denver', 'CO', 'active',
           now() - (i || ' seconds')::interval, now() FROM generate_series(1, 1000) AS i`, [loc.id]);
  await knex.raw(`INSERT INTO businesses (id, location_id, legal_name, dba, city, state, status, created_at, updated_at)
    SELECT ${id('biz', 'i')}, ?, 'Business ' || i || ' LLC', 'Biz ' || i, 'Denver', 'CO', 'active', now() - (i || ' seconds')::interval, now()
      FROM generate_series(1, 1000) AS i`, [loc.id]);
  await knex.raw(`INSERT INTO businesses (id, location_id, legal_name, status, created_at, updated_at)
    SELECT ${id('biz', `i + 1000000`)}, ?, 'Deep ' || i || ' LLC', 'active', now() - (i || ' seconds')::interval, now()
      FROM generate_series(1, ${DEEP_ROWS}) AS i`, [deep.id]);
  await knex.raw('ANALYZE');
  // One realistic deal through the real code (stage, events, activity).
  // Deps by hand, not buildDeps: that would migrate, and a --before database keeps its own migrations.
  const deps: Deps = {
    db: { knex, engine: ENGINE, close: async () => {} } as Database,
    clock,
    logger: pino({ level: 'silent' }),
    config: { ...loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'x', SECRET_KEY }), databaseUrl: undefined },
    secrets: new SecretBox(hmacHex(SECRET_KEY, 'secrets-at-rest')),
    cursorKey: hmacHex(SECRET_KEY, 'pagination-cursors'),
    storage: createStorage({ dataDir: '.data-bench', publicBaseUrl: 'http://127.0.0.1:3000', signingKey: hmacHex(SECRET_KEY, 'storage-urls') }),
    publicBaseUrl: 'http://127.0.0.1:3000',
    portalKey: hmacHex(SECRET_KEY, 'merchant-portal'),
  };
  const scope = { locationId: loc.id, role: 'admin' as const, userId: admin.id, scopes: [] };
  const { createDeal } = await import('../src/features/deals/deals.service');
  const someBiz = (await knex('businesses').where({ location_id: loc.id }).first('id')).id as string;
  const deal = await createDeal(deps, scope, { business_id: someBiz, requested_amount: 75000 } as never);
  // A cursor 90,000 rows into the deep list (what a client paging that far would hold).
  const at = await knex('businesses').where({ location_id: deep.id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(90_000).first('id', 'created_at');
  const deepCursor = encodeCursor(hmacHex(SECRET_KEY, 'pagination-cursors'), { l: 'businesses', t: new Date(at.created_at).toISOString(), i: at.id });
  return { locationId: loc.id, deepLocationId: deep.id, keys, deepKeys, dealId: deal.id, deepCursor };
}

// ------------------------------------------------------------------ scenarios

interface Scenario {
  name: string;
  api: { method: 'GET' | 'POST'; path: string; keys: 'book' | 'deep'; body?: boolean };
  bare: { method: 'GET' | 'POST'; path: string };
}

function scenarios(s: Seeded): Scenario[] {
  return [
    { name: 'list 25 people', api: { method: 'GET', path: '/v1/people?limit=25', keys: 'book' }, bare: { method: 'GET', path: '/people' } },
    { name: 'get one deal', api: { method: 'GET', path: `/v1/deals/${s.dealId}`, keys: 'book' }, bare: { method: 'GET', path: '/deal' } },
    { name: 'create business (Idempotency-Key)', api: { method: 'POST', path: '/v1/businesses', keys: 'book', body: true }, bare: { method: 'POST', path: '/create' } },
    { name: 'page 3,601 of 100,000 rows', api: { method: 'GET', path: `/v1/businesses?limit=25&cursor=${s.deepCursor}`, keys: 'deep' }, bare: { method: 'GET', path: '/deep' } },
  ];
}

/** The SQL the real handler runs for each read scenario (auth, rate limit and idempotency excluded). */
async function captureSql(db: Database, s: Seeded): Promise<Record<string, { sql: string; bindings: unknown[] }[]>> {
  const config = { ...loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'x', SECRET_KEY }), databaseUrl: undefined };
  const deps = await buildDeps(config, pino({ level: 'silent' }), { db });
  const app = createApp(deps, handlers);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const out: Record<string, { sql: string; bindings: unknown[] }[]> = {};
  const pipelineTables = /\b(api_keys|oauth_access_tokens|rate_limit_buckets|idempotency_keys|knex_migrations)\b/;
  for (const [name, path, key] of [['people', '/v1/people?limit=25', s.keys[0]], ['deal', `/v1/deals/${s.dealId}`, s.keys[0]], ['deep', `/v1/businesses?limit=25&cursor=${s.deepCursor}`, s.deepKeys[0]]] as const) {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listener = (q: { sql: string; bindings?: unknown[] }) => {
      if (!pipelineTables.test(q.sql)) seen.push({ sql: q.sql, bindings: (q.bindings ?? []).map((b) => (b instanceof Date ? b.toISOString() : b)) });
    };
    db.knex.on('query', listener);
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    db.knex.off('query', listener);
    if (res.status !== 200) throw new Error(`capture ${name}: ${res.status} ${await res.text()}`);
    // knex placeholders are `?`; raw() takes them as they are.
    out[name] = seen.map((q) => ({ sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings }));
  }
  await new Promise((r) => server.close(r));
  return out;
}

// ------------------------------------------------------------------ processes





interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The server's CPU time per request answered, ms. */
  cpu: number;
}

async function load(port: number, sc: Scenario['api'] | Scenario['bare'], keys: string[] | null, duration = DURATION, pid?: number): Promise<Round> {
  let n = 0;
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: sc.method,
        path: sc.path,
        setupRequest: (req: { headers?: Record<string, string>; body?: string }) => {
          const i = n++;
          req.headers = { ...(req.headers ?? {}), 'content-type': 'application/json' };
          if (keys) req.headers.authorization = `Bearer ${keys[i % keys.length]}`;
          if (sc.method === 'POST') {
            req.body = JSON.stringify({ legal_name: `Bench ${process.pid} ${i} LLC` });
            if (keys) req.headers['idempotency-key'] = `bench-${process.pid}-${Date.now()}-${i}`;
          }
          return req;
        },
      },
    ],
  } as autocannon.Options);
  const cpu = pid && result.requests.total ? (cpuMs(pid) - cpuBefore) / result.requests.total : 0;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpu };
}

// ------------------------------------------------------------------ main

/** Undone at the end, and on any failure on the way (processes, databases, the worktree, the folder). */
const cleanups: (() => unknown)[] = [];
async function cleanUp(): Promise<void> {
  for (const undo of cleanups.reverse()) {
    try {
      await undo();
    } catch {
      // keep undoing the rest
    }
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  let dbUrl: string | undefined;
  let dataDir: string | undefined;
  let bareDir: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  let beforeApi: Proc | undefined;
  let seeded: Seeded;
  let plan: Record<string, { sql: string; bindings: unknown[] }[]>;
  const { migrateLatest } = await import('../src/db/migrate');

  const admin = knexFactory({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
  const dbs: string[] = [];
  const newPgDb = async (suffix: string) => {
    const name = `svc_bench_${process.pid}_${suffix}`;
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.raw(`CREATE DATABASE ${name}`);
    dbs.push(name);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    return u.toString();
  };
  dropDb = async () => {
    for (const name of dbs) await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  };
  cleanups.push(dropDb);

  log(`seeding (${ENGINE}) ...`);
  if (ENGINE === 'pg') {
    dbUrl = await newPgDb('now');
    const db = openPostgres(dbUrl, { poolMax: 10 });
    await migrateLatest(db.knex);
    seeded = await seed(db.knex);
    plan = await captureSql(db, seeded);
    await db.close();
  } else {
    dataDir = join(work, 'api');
    const db = await openPgliteDir(dataDir);
    await migrateLatest(db.knex);
    seeded = await seed(db.knex);
    plan = await captureSql(db, seeded);
    await db.close();
    bareDir = join(work, 'bare');
    cpSync(dataDir, bareDir, { recursive: true });
  }

  // The API as of another revision, on its own identically seeded database (its own migrations).
  let before: { dir: string; url: string; seeded: Seeded } | undefined;
  if (args.before) {
    if (ENGINE !== 'pg') throw new Error('--before runs on PostgreSQL only');
    const dir = join(work, 'before');
    execFileSync('git', ['worktree', 'add', '--detach', dir, args.before], { stdio: 'ignore' });
    cleanups.push(() => execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' }));
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
    const url = await newPgDb('before');
    migrateCheckout(dir, url, SECRET_KEY);
    const db = openPostgres(url, { poolMax: 10 });
    before = { dir, url, seeded: await seed(db.knex) };
    await db.close();
  }
  const planFile = join(work, 'plan.json');
  writeFileSync(planFile, JSON.stringify({ reads: plan, locationId: seeded.locationId }));

  const dbEnv: Record<string, string> = dbUrl ? { DATABASE_URL: dbUrl } : { DATA_DIR: dataDir! };
  const bareEnv: Record<string, string> = dbUrl ? { DATABASE_URL: dbUrl } : { DATA_DIR: bareDir! };
  log('starting the API and the bare reference ...');
  // What `npm start` runs: the compiled bundle, with its node flags.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const api = await startProc('dist/server.mjs', { ...dbEnv, NODE_ENV: ENGINE === 'pg' ? 'production' : 'development', SECRET_KEY, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', HOST: '127.0.0.1', START_WORKER: 'false' }, /listening on/,
    [...startFlags(), ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [])]);
  cleanups.push(() => stopProc(api));
  const bare = await startProc('scripts/bench-bare.ts', { ...bareEnv, BENCH_PLAN: planFile }, /bare listening/);
  cleanups.push(() => stopProc(bare));
  if (before) {
    // Started exactly as the API above is: its own compiled bundle, no worker in the process (a
    // worker's polls would be counted in its CPU per request), the same log level.
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: before.dir, stdio: 'inherit' });
    beforeApi = await startProc('dist/server.mjs', { DATABASE_URL: before.url, NODE_ENV: 'production', SECRET_KEY, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', HOST: '127.0.0.1', START_WORKER: 'false' }, /listening on/, startFlags(before.dir), before.dir);
    const started = beforeApi;
    cleanups.push(() => stopProc(started));
  }

  const rows: string[][] = [];
  try {
    for (const sc of scenarios(seeded)) {
      if (args.only && !sc.name.includes(args.only)) continue;
      const keys = sc.api.keys === 'book' ? seeded.keys : seeded.deepKeys;
      const apiRounds: Round[] = [];
      const bareRounds: Round[] = [];
      const beforeRounds: Round[] = [];
      const beforeSc = before && scenarios(before.seeded).find((b) => b.name === sc.name)!.api;
      for (let r = 0; r < ROUNDS; r++) {
        log(`${sc.name}: round ${r + 1}/${ROUNDS}`);
        if (!args['api-only'] || r === 0) bareRounds.push(await load(bare.port, sc.bare, null, args['api-only'] ? 1 : DURATION, bare.child.pid));
        if (beforeApi && beforeSc) beforeRounds.push(await load(beforeApi.port, beforeSc, beforeSc.keys === 'book' ? before!.seeded.keys : before!.seeded.deepKeys, DURATION, beforeApi.child.pid));
        apiRounds.push(await load(api.port, sc.api, keys, DURATION, api.child.pid));
      }
      const avg = (xs: Round[], k: keyof Round) => xs.reduce((a, x) => a + x[k], 0) / xs.length;
      const bad = apiRounds.reduce((a, x) => a + x.non2xx, 0) + bareRounds.reduce((a, x) => a + x.non2xx, 0);
      rows.push([
        sc.name,
        avg(bareRounds, 'rps').toFixed(0),
        avg(apiRounds, 'rps').toFixed(0),
        (avg(apiRounds, 'rps') / avg(bareRounds, 'rps')).toFixed(2),
        `${avg(bareRounds, 'p50').toFixed(1)} / ${avg(bareRounds, 'p99').toFixed(1)}`,
        `${avg(apiRounds, 'p50').toFixed(1)} / ${avg(apiRounds, 'p99').toFixed(1)}`,
        (avg(apiRounds, 'p99') / Math.max(0.1, avg(bareRounds, 'p99'))).toFixed(2),
        String(bad),
        `${avg(bareRounds, 'cpu').toFixed(2)} / ${avg(apiRounds, 'cpu').toFixed(2)}`,
        ...(beforeRounds.length ? [`${avg(beforeRounds, 'rps').toFixed(0)} (${(avg(beforeRounds, 'rps') / avg(bareRounds, 'rps')).toFixed(2)}) ${avg(beforeRounds, 'p50').toFixed(1)} / ${avg(beforeRounds, 'p99').toFixed(1)}; CPU ${avg(beforeRounds, 'cpu').toFixed(2)}`] : []),
      ]);
    }
    const rss = rssMb(api.child.pid!);
    const header = ['scenario', 'bare rps', 'API rps', 'ratio', 'bare p50/p99 ms', 'API p50/p99 ms', 'p99 ratio', 'non-2xx', 'CPU ms/req bare / API', ...(before ? [`before (${args.before}): rps (ratio) p50 / p99; CPU ms/req`] : [])];
    const out = [
      `engine: ${ENGINE}; ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds each, alternating bare/API; ${KEYS} keys`,
      ...table(header, rows),
      `API start to listening: ${api.startMs.toFixed(0)} ms; API peak RSS: ${rss.toFixed(0)} MB` +
        (beforeApi ? `; before: start ${beforeApi.startMs.toFixed(0)} ms, peak RSS ${rssMb(beforeApi.child.pid!).toFixed(0)} MB` : ''),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await cleanUp();
  }
}

main().catch(async (err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await cleanUp();
  process.exit(1);
});
