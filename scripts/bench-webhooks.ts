/**
 * `npm run bench:webhooks [-- --engine pglite] [--events 5000] [--subscriptions 2] [--rate 50] [--duration 10]
 *   [--rounds 3] [--workers K] [--source bulk|api] [--latency-source api|bulk] [--only throughput|latency]
 *   [--pg-sample] [--cpu-prof DIR] [--worker-concurrency N] [--poll-ms MS]`
 *
 * A benchmark, never a test: webhook delivery end to end, outbox event -> worker -> receiver.
 *
 * Setup: a scratch database (PostgreSQL by default: a database created and dropped on the local
 * server; `--engine pglite`: a data folder in a temporary directory), migrated and seeded in-process
 * with one *test* location (loopback receivers are allowed only for test locations), an admin user
 * and `--keys` admin API keys (the rate limit is per key). Then the real server as `npm start` runs
 * it (dist/server.mjs, built first; NODE_ENV=development, LOG_LEVEL=info, its output discarded) with
 * its in-process worker, or with START_WORKER=false plus `--workers K` worker processes
 * (dist/worker.mjs). `--subscriptions S` subscriptions are created through POST /v1/webhooks, each
 * to http://127.0.0.1:<port>/hooks/<n> on a receiver (node:http in a worker thread of this process,
 * so load generation never delays its clock) that answers 200 at once and notes the arrival time,
 * X-SVC-Delivery and the body's `id`, `created_at` and `data.business_id`.
 *
 * Scenarios, each `--rounds` times:
 *   throughput  `--events N` business.created events fanned out to S subscriptions (N x S
 *               deliveries). `--source bulk` (default) writes them through recordEvent in
 *               transactions of `--batch` events from this process, as fast as possible, so the
 *               API's request path is not measured (isolates the delivery path); `--source api`
 *               POSTs /v1/businesses with `--connections` concurrent clients instead. Reports
 *               deliveries/s from the first arrival to the last (and from the first commit).
 *   latency     `--rate` events per second for `--duration` seconds (open loop, one event per write),
 *               by POST /v1/businesses (`--latency-source api`, default) or one-event transactions
 *               (`bulk`). Reports the delay from commit to the first attempt's arrival.
 *
 * Commit time is bracketed two ways. `created_at` (in the delivered body) is the clock read when the
 * event row was built, *before* the commit: arrival - created_at over-states the delay by the rest of
 * the write transaction. The client-side commit is when the write's HTTP response (or this process's
 * COMMIT) came back, *after* the commit: arrival - that under-states it by the response's way back.
 * The true commit->arrival delay lies between the two (same machine, same clock).
 *
 * After each scenario every delivery row of its events is read back and compared with what arrived:
 * missing, unexpected and duplicate deliveries are reported (all should be 0; a duplicate is a
 * second arrival of one X-SVC-Delivery), and CPU time is split between the server, the worker
 * processes, this process (mostly the receiver), the bench database's PostgreSQL backends and
 * everything else on the machine (other programs too: the figures are only as quiet as the machine),
 * with PostgreSQL transactions per delivery.
 *
 * Other options: `--batch` events per bulk transaction (100), `--connections` concurrent API
 * clients (16), `--keys` API keys (200), `--timeout` seconds without a new arrival before a
 * scenario is declared stalled (120), `--pg-sample` (PostgreSQL) samples pg_stat_activity every
 * 20 ms during the throughput scenario and prints what the backends were doing (lock waits,
 * idle in transaction, WAL sync), `--cpu-prof DIR` writes the server's (and workers') CPU profiles
 * to DIR at the end (`npx tsx scripts/profile-top.ts DIR/<file>.cpuprofile`),
 * `--worker-concurrency N` / `--poll-ms MS` are passed as WORKER_CONCURRENCY / WORKER_POLL_MS (they
 * take effect only once the server and worker read them; the bench says so when they do not).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker as Thread } from 'node:worker_threads';
import knexFactory, { type Knex } from 'knex';
import { openOperatorDatabase, openPgliteDir, openPostgres, type Database } from '../src/db/engine';
import { recordEvent } from '../src/events/outbox';
import { createApiKey, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { systemClock } from '../src/lib/clock';
import { ADMIN_URL, log, sleep, startProc, stopProc, type Proc } from './bench-kit';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pg' },
    events: { type: 'string', default: '5000' },
    subscriptions: { type: 'string', default: '2' },
    rate: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '0' },
    source: { type: 'string', default: 'bulk' },
    'latency-source': { type: 'string', default: 'api' },
    batch: { type: 'string', default: '100' },
    connections: { type: 'string', default: '16' },
    keys: { type: 'string', default: '200' },
    timeout: { type: 'string', default: '120' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'worker-concurrency': { type: 'string' },
    'poll-ms': { type: 'string' },
    'pg-sample': { type: 'boolean', default: false },
  },
});
const ENGINE = args.engine === 'pglite' ? 'pglite' : 'pg';
const EVENTS = Number(args.events);
const SUBS = Number(args.subscriptions);
const RATE = Number(args.rate);
const DURATION = Number(args.duration);
const ROUNDS = Number(args.rounds);
const WORKERS = Number(args.workers);
const SOURCE = args.source === 'api' ? 'api' : 'bulk';
const LATENCY_SOURCE = args['latency-source'] === 'bulk' ? 'bulk' : 'api';
const BATCH = Number(args.batch);
const CONNECTIONS = Number(args.connections);
const KEYS = Number(args.keys);
/** A scenario ends when every expected delivery arrived, or after this long without a new arrival. */
const STALL_MS = Number(args.timeout) * 1000;
const SECRET_KEY = 'bench-secret-key-0123456789-abcdefghijklmnop';
const CORES = (readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm) ?? []).length;



// ------------------------------------------------------------------ the receiver (a worker thread)

interface Arrival {
  /** X-SVC-Delivery */
  delivery: string;
  /** The body's event id, created_at (ms) and data.business_id. */
  event: string;
  createdAt: number;
  business: string;
  /** Date.now() when the request's headers arrived. */
  at: number;
  path: string;
}

// Plain JavaScript (an eval'd CommonJS thread): answers 200 as soon as the body is read, notes the
// arrival when the headers came in, and hands the arrivals over on request.
const RECEIVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
let arrivals = [];
let bad = 0;
const server = http.createServer((req, res) => {
  const at = Date.now();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ delivery: String(req.headers['x-svc-delivery'] || ''), event: body.id, createdAt: Date.parse(body.created_at), business: (body.data && body.data.business_id) || '', at, path: req.url });
    } catch { bad++; }
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'take') { parentPort.postMessage({ arrivals, bad }); arrivals = []; }
  if (m === 'close') server.close(() => parentPort.close());
});
`;

class Receiver {
  private thread!: Thread;
  port = 0;
  /** Every arrival so far, in order; `seen` counts each delivery id. */
  readonly all: Arrival[] = [];
  readonly seen = new Map<string, number>();
  bad = 0;

  async start(): Promise<void> {
    this.thread = new Thread(RECEIVER, { eval: true, execArgv: [] });
    this.port = await new Promise<number>((resolve, reject) => {
      this.thread.once('message', (m: { port: number }) => resolve(m.port));
      this.thread.once('error', reject);
    });
  }

  /** Collects what arrived since the last call. */
  async take(): Promise<Arrival[]> {
    const got = await new Promise<{ arrivals: Arrival[]; bad: number }>((resolve) => {
      this.thread.once('message', resolve);
      this.thread.postMessage('take');
    });
    this.bad = got.bad;
    for (const a of got.arrivals) {
      this.all.push(a);
      this.seen.set(a.delivery, (this.seen.get(a.delivery) ?? 0) + 1);
    }
    return got.arrivals;
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.thread.once('exit', r));
    this.thread.postMessage('close');
    await Promise.race([exited, sleep(2000)]);
    await this.thread.terminate();
  }
}

// ------------------------------------------------------------------ processes




/** CPU seconds (user + system) a process used so far. */
function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return 0;
  }
}

/** Busy CPU seconds of the whole machine so far (all cores). */
function machineCpu(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return (f.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / 100;
}

interface CpuMark {
  wall: number;
  machine: number;
  server: number;
  workers: number;
  bench: number;
  /** CPU seconds of each PostgreSQL backend serving the bench database (empty on PGlite: it runs in the server). */
  backends: Map<number, number>;
  /** Transactions the bench database committed or rolled back so far (PostgreSQL; its statistics lag up to a second). */
  xacts: number;
}

interface PgProbe {
  pids(): Promise<number[]>;
  xacts(): Promise<number>;
}

async function cpuMark(server: Proc, workers: Proc[], probe: PgProbe): Promise<CpuMark> {
  const backends = new Map<number, number>();
  for (const pid of await probe.pids()) backends.set(pid, cpuOf(pid));
  const xacts = await probe.xacts();
  const u = process.cpuUsage();
  return {
    wall: performance.now() / 1000,
    machine: machineCpu(),
    server: cpuOf(server.child.pid!),
    workers: workers.reduce((a, w) => a + cpuOf(w.child.pid!), 0),
    bench: (u.user + u.system) / 1e6,
    backends,
    xacts,
  };
}

/**
 * CPU use between two marks, in % of one core: the server, the workers, this process, the bench
 * database's PostgreSQL backends (those alive at the end; a backend that ended between is missed),
 * and everything else on the machine (other PostgreSQL work such as WAL writing, other programs).
 */
function cpuSplit(a: CpuMark, b: CpuMark, deliveries: number): string {
  const wall = b.wall - a.wall;
  const pct = (x: number) => `${((100 * x) / wall).toFixed(0)}%`;
  const server = b.server - a.server;
  const workers = b.workers - a.workers;
  const bench = b.bench - a.bench;
  let pg = 0;
  for (const [pid, t] of b.backends) pg += t - (a.backends.get(pid) ?? 0);
  const other = Math.max(0, b.machine - a.machine - server - workers - bench - pg);
  return `server ${pct(server)}${WORKERS ? `, workers ${pct(workers)}` : ''}${ENGINE === 'pg' ? `, postgres backends ${pct(pg)}` : ''}, bench ${pct(bench)}, other ${pct(other)} (% of one core over ${wall.toFixed(1)} s; machine busy ${pct(b.machine - a.machine)} of ${pct(CORES * wall)})` +
    (ENGINE === 'pg' ? `; ~${((b.xacts - a.xacts) / Math.max(1, deliveries)).toFixed(1)} PostgreSQL transactions per delivery (autocommit statements count one each)` : '');
}

/**
 * `--pg-sample`: what the bench database's backends are doing, sampled every 20 ms on a connection of
 * its own (PostgreSQL only): the share of samples per (state, wait event, statement), busiest first.
 */
class PgSampler {
  private counts = new Map<string, number>();
  private samples = 0;
  private running = false;
  private loop?: Promise<void>;
  constructor(private readonly knex: Knex) {}

  start(): void {
    this.counts.clear();
    this.samples = 0;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const rows = (await this.knex.raw(
          `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'cpu') AS wait, regexp_replace(left(query, 90), '\\s+', ' ', 'g') AS query
             FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        )).rows as { state: string; wait: string; query: string }[];
        this.samples++;
        for (const r of rows) {
          const k = r.state === 'idle' ? 'idle' : `${r.state} | ${r.wait} | ${r.query}`;
          this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
        }
        await sleep(20);
      }
    })();
  }

  async stop(): Promise<string> {
    this.running = false;
    await this.loop;
    const top = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, 14);
    return top.map(([k, v]) => `  ${(v / this.samples).toFixed(2).padStart(6)}  ${k}`).join('\n');
  }
}

// ------------------------------------------------------------------ writing events

interface Written {
  /** business id -> client-side commit time (ms, Date.now()). */
  commits: Map<string, number>;
  firstCommit: number;
  lastCommit: number;
  errors: number;
  /** Wall time of the writing, ms. */
  writeMs: number;
}

class ApiWriter {
  private n = 0;
  constructor(
    private readonly base: string,
    private readonly keys: string[],
  ) {}

  /** One POST /v1/businesses (one business.created event); returns the business id and when the answer came. */
  async one(tag: string): Promise<{ id: string; at: number } | null> {
    const i = this.n++;
    const res = await fetch(`${this.base}/v1/businesses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.keys[i % this.keys.length]}` },
      body: JSON.stringify({ legal_name: `Bench ${tag} ${i} LLC` }),
    });
    const text = await res.text();
    const at = Date.now();
    if (res.status !== 201 && res.status !== 200) {
      if (i < 3 || i % 500 === 0) log(`  POST /v1/businesses answered ${res.status}: ${text.slice(0, 200)}`);
      return null;
    }
    const body = JSON.parse(text) as { id?: string; data?: { id: string } };
    return { id: body.data?.id ?? body.id!, at };
  }
}

class BulkWriter {
  private n = 0;
  constructor(
    private readonly knex: Knex,
    private readonly locationId: string,
  ) {}

  /** `count` business.created events through recordEvent in one transaction; their ids and when COMMIT came back. */
  async batch(tag: string, count: number): Promise<{ ids: string[]; at: number }> {
    const ids: string[] = [];
    await this.knex.transaction(async (trx) => {
      for (let k = 0; k < count; k++) {
        const id = `biz_bench_${tag}_${this.n++}`;
        ids.push(id);
        // The data of a real business.created event is larger; the delivery path does not read it.
        await recordEvent(trx, systemClock, this.locationId, 'business.created', { business_id: id, business: { id, legal_name: `Bench ${id} LLC` } } as never);
      }
    });
    return { ids, at: Date.now() };
  }
}

function newWritten(): Written {
  return { commits: new Map(), firstCommit: Infinity, lastCommit: 0, errors: 0, writeMs: 0 };
}

function note(w: Written, id: string, at: number): void {
  w.commits.set(id, at);
  w.firstCommit = Math.min(w.firstCommit, at);
  w.lastCommit = Math.max(w.lastCommit, at);
}

/** As fast as possible: N events, bulk transactions or `CONNECTIONS` concurrent API clients. */
async function writeBurst(tag: string, n: number, api: ApiWriter, bulk: BulkWriter | undefined): Promise<Written> {
  const w = newWritten();
  const t0 = performance.now();
  let next = 0;
  if (SOURCE === 'bulk') {
    while (next < n) {
      const count = Math.min(BATCH, n - next);
      next += count;
      const r = await bulk!.batch(tag, count);
      for (const id of r.ids) note(w, id, r.at);
    }
  } else {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < n) {
          next++;
          const r = await api.one(tag).catch(() => null);
          if (r) note(w, r.id, r.at);
          else w.errors++;
        }
      }),
    );
  }
  w.writeMs = performance.now() - t0;
  return w;
}

/** Open loop: one event every 1/rate s for `duration` s (never waiting for earlier writes). */
async function writeSteady(tag: string, api: ApiWriter, bulk: BulkWriter | undefined): Promise<Written> {
  const w = newWritten();
  const total = Math.round(RATE * DURATION);
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      (async () => {
        if (LATENCY_SOURCE === 'api') {
          const r = await api.one(tag).catch(() => null);
          if (r) note(w, r.id, r.at);
          else w.errors++;
        } else {
          const r = await bulk!.batch(tag, 1);
          note(w, r.ids[0], r.at);
        }
      })(),
    );
  }
  await Promise.all(pending);
  w.writeMs = performance.now() - t0;
  return w;
}

// ------------------------------------------------------------------ results

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function dist(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(1)}s` : `${x.toFixed(0)}`);
  return `${f(pct(s, 50))} / ${f(pct(s, 95))} / ${f(pct(s, 99))} / ${f(s[s.length - 1])}`;
}

interface Outcome {
  expected: number;
  arrivals: Arrival[];
  /** Delivery rows of these events not received / received but not in the table. */
  missing: number;
  unexpected: number;
  duplicates: number;
  undispatched: number;
  statuses: string;
  cpu: string;
}

/** Waits until the deliveries of `written` all arrived (or stalled), then checks them against the table. */
async function collect(receiver: Receiver, written: Written, db: Knex, cpu: (deliveries: number) => Promise<string>): Promise<Outcome> {
  const expected = written.commits.size * SUBS;
  const mine = (a: Arrival) => written.commits.has(a.business);
  const arrivals: Arrival[] = receiver.all.filter(mine);
  let lastProgress = Date.now();
  let lastReport = Date.now();
  for (;;) {
    const uniq = new Set(arrivals.map((a) => a.delivery)).size;
    if (uniq >= expected) break;
    if (Date.now() - lastProgress > STALL_MS) {
      log(`  stalled: ${uniq}/${expected} deliveries after ${STALL_MS / 1000} s without a new one`);
      break;
    }
    if (Date.now() - lastReport > 5000) {
      log(`  ${uniq}/${expected} deliveries arrived`);
      lastReport = Date.now();
    }
    await sleep(50);
    const got = (await receiver.take()).filter(mine);
    if (got.length) lastProgress = Date.now();
    arrivals.push(...got);
  }
  await sleep(300); // late duplicates
  arrivals.push(...(await receiver.take()).filter(mine));
  const cpuText = await cpu(new Set(arrivals.map((a) => a.delivery)).size);

  // The table's view: every delivery of these events (found by business id) and its status.
  const businesses = [...written.commits.keys()];
  const rows: { id: string; status: string; event_id: string; dispatched: boolean }[] = [];
  for (let i = 0; i < businesses.length; i += 2000) {
    const chunk = businesses.slice(i, i + 2000);
    const r = await db.raw(
      `SELECT d.id, d.status, e.id AS event_id, e.dispatched_at IS NOT NULL AS dispatched
         FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.type = 'business.created' AND e.data->>'business_id' = ANY(?::text[])`,
      [chunk],
    );
    rows.push(...(r.rows as typeof rows));
  }
  const inTable = new Set(rows.filter((r) => r.id).map((r) => r.id));
  const received = new Set(arrivals.map((a) => a.delivery));
  const statuses = new Map<string, number>();
  for (const r of rows) if (r.id) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  return {
    expected,
    arrivals,
    missing: [...inTable].filter((id) => !received.has(id)).length + Math.max(0, expected - inTable.size),
    unexpected: [...received].filter((id) => !inTable.has(id)).length,
    duplicates: arrivals.length - received.size,
    undispatched: new Set(rows.filter((r) => !r.dispatched).map((r) => r.event_id)).size,
    statuses: [...statuses].map(([k, v]) => `${k} ${v}`).join(', '),
    cpu: cpuText,
  };
}

/** Delays of each delivery's first arrival: from created_at, and from the client-side commit. */
function delays(o: Outcome, written: Written): { fromCreated: number[]; fromCommit: number[] } {
  const first = new Map<string, Arrival>();
  for (const a of o.arrivals) if (!first.has(a.delivery) || first.get(a.delivery)!.at > a.at) first.set(a.delivery, a);
  const fromCreated: number[] = [];
  const fromCommit: number[] = [];
  for (const a of first.values()) {
    fromCreated.push(a.at - a.createdAt);
    fromCommit.push(a.at - written.commits.get(a.business)!);
  }
  return { fromCreated, fromCommit };
}

/** Set when a scenario lost, invented or failed to write anything (the bench then exits 1, after its report). */
let checksFailed = false;

function checks(o: Outcome, w: Written): string {
  const bad = o.missing + o.unexpected + o.duplicates + o.undispatched + w.errors;
  if (o.missing + o.unexpected + o.undispatched + w.errors) checksFailed = true;
  const parts = [`${new Set(o.arrivals.map((a) => a.delivery)).size}/${o.expected} delivered`];
  if (o.missing) parts.push(`MISSING ${o.missing}`);
  if (o.unexpected) parts.push(`UNEXPECTED ${o.unexpected}`);
  if (o.duplicates) parts.push(`duplicates ${o.duplicates}`);
  if (o.undispatched) parts.push(`UNDISPATCHED events ${o.undispatched}`);
  if (w.errors) parts.push(`WRITE ERRORS ${w.errors}`);
  return `${parts.join(', ')}${bad ? '' : ' (all checks passed)'}; table: ${o.statuses}`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

// ------------------------------------------------------------------ main

/** Undone at the end, and on any failure on the way (processes, the receiver, databases, the folder). */
const cleanups: (() => unknown)[] = [];
async function cleanUp(): Promise<void> {
  for (const undo of cleanups.reverse()) {
    try {
      await undo();
    } catch {
      // keep undoing the rest
    }
  }
  cleanups.length = 0;
}

async function seedAccounts(knex: Knex): Promise<{ locationId: string; keys: string[] }> {
  const loc = await createLocation(knex, systemClock, { name: 'Webhook bench', isTest: true });
  const admin = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) keys.push((await createApiKey(knex, systemClock, { locationId: loc.id, name: `bench ${i}`, role: 'admin', userId: admin.id })).key);
  return { locationId: loc.id, keys };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'svc-bench-webhooks-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  const { migrateLatest } = await import('../src/db/migrate');

  let dbEnv: Record<string, string>;
  let seeded: { locationId: string; keys: string[] };
  log(`seeding (${ENGINE}) ...`);
  if (ENGINE === 'pg') {
    const admin = knexFactory({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
    const name = `svc_bench_webhooks_${process.pid}`;
    cleanups.push(async () => {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    });
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.raw(`CREATE DATABASE ${name}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    const db = openPostgres(u.toString(), { poolMax: 4 });
    await migrateLatest(db.knex);
    seeded = await seedAccounts(db.knex);
    await db.close();
    dbEnv = { DATABASE_URL: u.toString() };
  } else {
    const dataDir = join(work, 'data');
    const db = await openPgliteDir(dataDir);
    await migrateLatest(db.knex);
    seeded = await seedAccounts(db.knex);
    await db.close();
    dbEnv = { DATA_DIR: dataDir };
  }

  const receiver = new Receiver();
  await receiver.start();
  cleanups.push(() => receiver.stop());

  log('building dist/ and starting the server ...');
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const profArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  const tuning: Record<string, string> = {
    ...(args['worker-concurrency'] ? { WORKER_CONCURRENCY: args['worker-concurrency'] } : {}),
    ...(args['poll-ms'] ? { WORKER_POLL_MS: args['poll-ms'] } : {}),
  };
  const tuningRead = /WORKER_CONCURRENCY|WORKER_POLL_MS/.test(['src/worker.ts', 'src/server.ts', 'src/config.ts'].map((f) => readFileSync(f, 'utf8')).join(''));
  if (Object.keys(tuning).length && !tuningRead) {
    log(`note: ${Object.keys(tuning).join(', ')} passed, but src/server.ts and src/worker.ts do not read them yet: no effect`);
  }
  const env = { ...dbEnv, ...tuning, NODE_ENV: 'development', SECRET_KEY, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', HOST: '127.0.0.1' };
  const server = await startProc('dist/server.mjs', { ...env, START_WORKER: WORKERS > 0 ? 'false' : 'true' }, /listening on (http:\/\/\S+)/, profArgs);
  cleanups.push(() => stopProc(server));
  const workers: Proc[] = [];
  for (let i = 0; i < WORKERS; i++) {
    const w = await startProc('dist/worker.mjs', env, /worker (\S+) running/, profArgs);
    workers.push(w);
    cleanups.push(() => stopProc(w));
  }
  const base = server.url;

  // The bench's own connection: bulk writes and the read-back (PGlite: through the server's operator socket).
  const db: Database = ENGINE === 'pg' ? openPostgres(dbEnv.DATABASE_URL, { poolMax: 2 }) : await openOperatorDatabase({ dataDir: dbEnv.DATA_DIR });
  cleanups.push(() => db.close());

  for (let s = 0; s < SUBS; s++) {
    const res = await fetch(`${base}/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.keys[0]}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hooks/${s}`, events: [], description: `bench ${s}` }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/webhooks: ${res.status} ${await res.text()}`);
  }
  const probe: PgProbe = {
    pids: async () => (ENGINE === 'pg' ? ((await db.knex.raw(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)).rows as { pid: number }[]).map((r) => r.pid) : []),
    xacts: async () => {
      if (ENGINE !== 'pg') return 0;
      await db.knex.raw('SELECT pg_stat_clear_snapshot()');
      return Number((await db.knex.raw(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`)).rows[0].n);
    },
  };
  let sampler: PgSampler | undefined;
  if (args['pg-sample'] && ENGINE === 'pg') {
    const sdb = openPostgres(dbEnv.DATABASE_URL, { poolMax: 1 });
    cleanups.push(() => sdb.close());
    sampler = new PgSampler(sdb.knex);
  }
  const api = new ApiWriter(base, seeded.keys);
  const bulk = new BulkWriter(db.knex, seeded.locationId);

  // Warm-up: a few events through both paths so the first measured delivery is not a cold start.
  log('warming up ...');
  {
    const w = newWritten();
    for (let i = 0; i < 20; i++) {
      const r = await api.one('warm');
      if (r) note(w, r.id, r.at);
    }
    const b = await bulk.batch('warm', 20);
    for (const id of b.ids) note(w, id, b.at);
    await collect(receiver, w, db.knex, async () => '');
  }

  const tRows: string[][] = [];
  const lRows: string[][] = [];
  const notes: string[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    if (args.only !== 'latency') {
      log(`throughput: round ${r}/${ROUNDS}: ${EVENTS} events (${SOURCE}) x ${SUBS} subscriptions`);
      const m0 = await cpuMark(server, workers, probe);
      sampler?.start();
      const w = await writeBurst(`t${r}`, EVENTS, api, bulk);
      const o = await collect(receiver, w, db.knex, async (n) => cpuSplit(m0, await cpuMark(server, workers, probe), n));
      if (sampler) notes.push(`throughput round ${r}: backends per sample (state | wait | statement), average count:\n${await sampler.stop()}`);
      const ats = o.arrivals.map((a) => a.at).sort((a, b) => a - b);
      const first = ats[0];
      const last = ats[ats.length - 1];
      const d = delays(o, w);
      tRows.push([
        String(r),
        `${((1000 * w.commits.size) / w.writeMs).toFixed(0)}/s in ${(w.writeMs / 1000).toFixed(2)} s`,
        ((1000 * (ats.length - 1)) / Math.max(1, last - first)).toFixed(0),
        ((1000 * ats.length) / Math.max(1, last - w.firstCommit)).toFixed(0),
        `${((last - w.lastCommit) / 1000).toFixed(2)} s`,
        dist(d.fromCommit),
      ]);
      notes.push(`throughput round ${r}: ${checks(o, w)}; CPU ${o.cpu}`);
    }
    if (args.only !== 'throughput') {
      log(`latency: round ${r}/${ROUNDS}: ${RATE}/s for ${DURATION} s (${LATENCY_SOURCE})`);
      const m0 = await cpuMark(server, workers, probe);
      const w = await writeSteady(`l${r}`, api, bulk);
      const o = await collect(receiver, w, db.knex, async (n) => cpuSplit(m0, await cpuMark(server, workers, probe), n));
      const d = delays(o, w);
      lRows.push([String(r), `${((1000 * w.commits.size) / w.writeMs).toFixed(1)}/s`, String(d.fromCommit.length), dist(d.fromCreated), dist(d.fromCommit)]);
      notes.push(`latency round ${r}: ${checks(o, w)}; CPU ${o.cpu}`);
    }
  }

  const out = [
    `engine: ${ENGINE}; ${SUBS} subscriptions; ${WORKERS ? `API with START_WORKER=false + ${WORKERS} worker process(es)` : 'in-process worker'}` +
      (Object.keys(tuning).length ? `; ${Object.entries(tuning).map(([k, v]) => `${k}=${v}`).join(' ')}${tuningRead ? '' : ' (NOT read by this server: no effect)'}` : '') +
      `; ${ROUNDS} round(s); ${CORES} cores`,
  ];
  if (tRows.length) {
    out.push(
      '',
      `throughput: ${EVENTS} business.created events x ${SUBS} subscriptions = ${EVENTS * SUBS} deliveries; events written ${SOURCE === 'bulk' ? `by recordEvent in transactions of ${BATCH} from the bench process (the API's request path not measured)` : `by POST /v1/businesses, ${CONNECTIONS} concurrent clients`}`,
      table(['round', 'events written', 'deliveries/s (first->last arrival)', 'deliveries/s (first commit->last arrival)', 'last commit->last arrival', 'commit->arrival ms p50/p95/p99/max'], tRows),
    );
  }
  if (lRows.length) {
    out.push(
      '',
      `latency: ${RATE} events/s for ${DURATION} s, ${LATENCY_SOURCE === 'api' ? 'POST /v1/businesses (client commit = HTTP response received)' : 'one-event transactions from the bench process (client commit = COMMIT answered)'}; first attempt's arrival`,
      table(['round', 'write rate', 'deliveries', 'from created_at ms p50/p95/p99/max (upper bound)', 'from client-side commit ms p50/p95/p99/max (lower bound)'], lRows),
      'created_at is read before the commit (so that column over-states the delay); the client sees the commit after it happened (so that column under-states it).',
    );
  }
  out.push('', ...notes, `receiver: ${receiver.all.length} requests in all, ${receiver.bad} unreadable bodies`);
  process.stdout.write(`${out.join('\n')}\n`);
  await cleanUp();
  if (checksFailed) {
    log('some deliveries were missing or unexpected, or writes failed: see the notes above');
    process.exitCode = 1;
  }
  if (args['cpu-prof']) log(`CPU profiles in ${args['cpu-prof']}: npx tsx scripts/profile-top.ts ${args['cpu-prof']}/<file>.cpuprofile`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up ...`);
    void cleanUp().then(() => process.exit(130));
  });
}

main().catch(async (err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await cleanUp();
  process.exit(1);
});
