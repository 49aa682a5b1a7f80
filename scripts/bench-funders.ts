/**
 * `npx tsx scripts/bench-funders.ts [--deals 50] [--lenders 40] [--concurrency 32,64] [--latency 200] [--pool 10] [--refill-at n] [--engine pg|pglite]`:
 * a benchmark, not a test.
 *
 * How many funder-API submissions per minute the worker's poller sustains on PostgreSQL when the
 * funder answers in `latency` ms. A loopback HTTP funder (an HTTP JSON integration registered for
 * this run, on 127.0.0.1, which test locations may call) answers every request after `latency` ms:
 * the submit with an id and `received`, every status poll with `in_review` (so polling never ends).
 * deals x lenders submissions (one per lender per deal) are created through the service, then:
 *
 *   submit: the worker runs the N `funder.submit` jobs (first poll 15 minutes later);
 *   rounds: the injected clock jumps to the next poll, so all N attempts are due at once, and a
 *           worker (one per concurrency level, then two workers on separate pools) polls them all.
 *
 * Each phase reports wall time, rate (per second and per minute) against the ceiling
 * workers x concurrency / latency, the funder's average and peak requests in flight, the adapter
 * call latency (p50/p95), and where the rest of each slot's time goes: SQL statements per item and
 * their round trip, the wait for a pooled connection per item, and this process's CPU. On PostgreSQL each worker has its own connection pool of `pool`
 * (10, as a server or worker process opens it; the worker's presence session holds one of them);
 * the bench's own progress queries use another. Every round checks that each attempt was polled exactly once
 * (poll_count, one status request per external id, nothing errored).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { openPostgres, type Database } from '../src/db/engine';
import type { Deps } from '../src/deps';
import { createLocation, createUser } from '../src/features/accounts/accounts.service';
import { createBusiness } from '../src/features/businesses/businesses.service';
import { createDeal } from '../src/features/deals/deals.service';
import { registerHttpIntegration, unregisterFunderIntegration } from '../src/features/lenders/funder-specs';
import { createLender, updateLenderApiConfig } from '../src/features/lenders/lenders.service';
import { createDealSubmissions } from '../src/features/submissions/submissions.service';
import { registerAllJobs } from '../src/background';
import { Worker } from '../src/jobs/worker';
import { ManualClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { ADMIN_URL, log, scratchDatabase, sleep } from './bench-kit';

const { values: args } = parseArgs({
  options: {
    deals: { type: 'string', default: '50' },
    lenders: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '32,64' },
    latency: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'pg' },
    pool: { type: 'string', default: '10' },
    'refill-at': { type: 'string' },
  },
});
const DEALS = Number(args.deals);
const LENDERS = Number(args.lenders);
const N = DEALS * LENDERS;
const LEVELS = args.concurrency!.split(',').map(Number);
const LATENCY_MS = Number(args.latency);
const POOL = Number(args.pool);
/** The worker's refillAt (default: a quarter of its concurrency). */
const REFILL_AT = args['refill-at'] ? Number(args['refill-at']) : undefined;
const SPEC_ID = 'bench_loopback';
const PHASE_TIMEOUT_MS = 15 * 60_000;

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

// ------------------------------------------------------------------ the loopback funder

/** What the funder saw during one phase. */
class FunderStats {
  submits = new Map<string, number>(); // Idempotency-Key (the attempt id) -> requests
  polls = new Map<string, number>(); // external id -> status requests
  inFlight = 0;
  peak = 0;
  private area = 0; // integral of inFlight over time (ms)
  private last = performance.now();
  private readonly started = performance.now();
  change(delta: number): void {
    const t = performance.now();
    this.area += this.inFlight * (t - this.last);
    this.last = t;
    this.inFlight += delta;
    this.peak = Math.max(this.peak, this.inFlight);
  }
  /** Average requests in flight at the funder since the phase began. */
  average(until: number): number {
    return (this.area + this.inFlight * (until - this.last)) / (until - this.started);
  }
}

let stats = new FunderStats();
let nextExternal = 0;

function funderHandler(req: IncomingMessage, res: ServerResponse): void {
  const s = stats;
  s.change(+1);
  req.resume();
  req.on('end', () => {
    setTimeout(() => {
      let body: unknown;
      if (req.method === 'POST' && req.url === '/applications') {
        const key = String(req.headers['idempotency-key'] ?? '');
        s.submits.set(key, (s.submits.get(key) ?? 0) + 1);
        body = { id: `ext_${++nextExternal}`, status: 'received' };
      } else if (req.method === 'GET' && req.url?.startsWith('/applications/')) {
        const id = decodeURIComponent(req.url.slice('/applications/'.length));
        s.polls.set(id, (s.polls.get(id) ?? 0) + 1);
        body = { id, status: 'in_review' };
      }
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body ?? { message: 'not found' }));
      s.change(-1);
    }, LATENCY_MS);
  });
}

// ------------------------------------------------------------------ helpers

/** Adapter call latency as the worker sees it (guarded HTTP client included). */
const adapterMs = { submit: [] as number[], status: [] as number[] };

async function count(deps: Deps, sql: string, bindings: unknown[] = []): Promise<number> {
  const r = await deps.db.knex.raw(sql, bindings as never);
  return Number((r.rows[0] as { c: number }).c);
}

/** Waits until `done()` resolves true (checked every 25 ms), or fails after PHASE_TIMEOUT_MS. */
async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + PHASE_TIMEOUT_MS;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface Result {
  phase: string;
  workers: number;
  concurrency: number;
  seconds: number;
  perSecond: number;
  avgInFlight: number;
  peakInFlight: number;
  p50: number;
  p95: number;
  queriesPerItem: number;
  sqlMs: number;
  poolWaitMs: number;
  cpuPercent: number;
}

/** SQL statements the workers' pools ran (knex `query` events), to put a number on the per-item database work. */
let queries = 0;
let sqlMs = 0; // summed time from sending a statement to its answer (pool wait excluded)
const sent = new Map<string, number>();
let poolWaitMs = 0; // summed wait for a pooled connection
const waiting = new Map<number, number>();
const counted = new WeakSet<object>();
function countQueries(d: Deps): void {
  if (counted.has(d.db.knex)) return;
  counted.add(d.db.knex);
  const done = (_: unknown, q: { __knexQueryUid?: string }) => {
    const t = q.__knexQueryUid ? sent.get(q.__knexQueryUid) : undefined;
    if (t === undefined) return;
    sent.delete(q.__knexQueryUid!);
    sqlMs += performance.now() - t;
  };
  d.db.knex.on('query', (q: { __knexQueryUid?: string }) => {
    queries++;
    if (q.__knexQueryUid) sent.set(q.__knexQueryUid, performance.now());
  });
  d.db.knex.on('query-response', done);
  const pool = (d.db.knex.client as { pool?: { on(e: string, f: (id: number) => void): void } }).pool;
  pool?.on('acquireRequest', (id) => waiting.set(id, performance.now()));
  pool?.on('acquireSuccess', (id) => {
    const t = waiting.get(id);
    waiting.delete(id);
    if (t !== undefined) poolWaitMs += performance.now() - t;
  });
  d.db.knex.on('query-error', done);
}

async function runPhase(phase: string, pool: Deps[], concurrency: number, kind: 'submit' | 'status', done: () => Promise<boolean>): Promise<Result> {
  stats = new FunderStats();
  adapterMs[kind] = [];
  pool.forEach(countQueries);
  const workers = pool.map((d) => new Worker(d, { concurrency, refillAt: REFILL_AT }));
  const q0 = queries;
  const s0 = sqlMs;
  const w0 = poolWaitMs;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(workers.map((w) => w.start()));
  await until(phase, done);
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const q1 = queries;
  const s1 = sqlMs;
  const w1 = poolWaitMs;
  await Promise.all(workers.map((w) => w.stop()));
  const lat = [...adapterMs[kind]].sort((a, b) => a - b);
  const seconds = (t1 - t0) / 1000;
  return {
    phase, workers: pool.length, concurrency, seconds, perSecond: N / seconds,
    avgInFlight: stats.average(t1), peakInFlight: stats.peak, p50: pct(lat, 50), p95: pct(lat, 95),
    queriesPerItem: (q1 - q0) / N, sqlMs: (s1 - s0) / Math.max(1, q1 - q0), poolWaitMs: (w1 - w0) / N, cpuPercent: (100 * (cpu.user + cpu.system)) / 1000 / (t1 - t0),
  };
}

function report(r: Result): void {
  const ceiling = (r.workers * r.concurrency * 1000) / LATENCY_MS;
  log(
    `${r.phase.padEnd(22)} ${String(r.workers).padStart(2)} x ${String(r.concurrency).padStart(3)}  ${r.seconds.toFixed(2).padStart(7)} s  ` +
      `${r.perSecond.toFixed(1).padStart(6)}/s  ${Math.round(r.perSecond * 60).toString().padStart(6)}/min  ` +
      `(ceiling ${Math.round(ceiling * 60)}/min, ${((100 * r.perSecond) / ceiling).toFixed(0)}%)  ` +
      `funder in flight avg ${r.avgInFlight.toFixed(1)} peak ${r.peakInFlight}  adapter p50 ${r.p50.toFixed(0)} ms p95 ${r.p95.toFixed(0)} ms  ` +
      `${r.queriesPerItem.toFixed(1)} SQL/item of ${r.sqlMs.toFixed(1)} ms, pool wait ${r.poolWaitMs.toFixed(0)} ms/item  bench CPU ${r.cpuPercent.toFixed(0)}%`,
  );
}

// ------------------------------------------------------------------ the run

async function main(): Promise<void> {
  const { db, drop } = await scratchDatabase(args.engine!, 'svc_bench_fund');
  const extra: Database[] = [];
  const server = createServer(funderHandler);
  server.keepAliveTimeout = 60_000;
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  try {
    const spec = registerHttpIntegration({
      id: SPEC_ID,
      display_name: 'Bench loopback funder',
      tier: 'A',
      capabilities: { polls: true, returns_offers: false, uploads_docs: false, sandbox: false, max_owners: 1 },
      credential_spec: [{ key: 'api_key', label: 'API key', secret: true, hint: 'Any value' }],
      required_fields: ['business_name', 'requested_amount'],
      testOnly: true,
      http: {
        base_url: { production: `http://127.0.0.1:${port}` },
        headers: { Authorization: 'Bearer {{api_key}}' },
        submit: { path: '/applications', body: { reference: '$reference', business: '$business_name', amount: '$requested_amount' }, external_id: 'id', status: 'status' },
        status: { path: '/applications/{{external_id}}', status: 'status' },
        status_map: { received: 'received', in_review: 'in_review' },
      },
    });
    const inner = spec.adapter;
    spec.adapter = {
      submit: async (ctx) => {
        const s = performance.now();
        const r = await inner.submit(ctx);
        adapterMs.submit.push(performance.now() - s);
        return r;
      },
      status: async (ctx, id) => {
        const s = performance.now();
        const r = await inner.status(ctx, id);
        adapterMs.status.push(performance.now() - s);
        return r;
      },
    };

    registerAllJobs();
    const clock = new ManualClock();
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-funders-secret-key-0123456789abcd' };
    const logger = createLogger('warn');
    const deps = await buildDeps(config, logger, { db, clock });
    const knex = deps.db.knex;

    // Setup: LENDERS lenders on the loopback integration, DEALS deals, each sent to every lender.
    const tSetup = performance.now();
    const loc = await createLocation(knex, clock, { name: 'Bench Brokers', isTest: true });
    const user = await createUser(knex, clock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const scope = { locationId: loc.id, locationIsTest: true, role: 'admin' as const, userId: user.id, scopes: [] };
    const lenderIds: string[] = [];
    for (let i = 0; i < LENDERS; i++) {
      const l = await createLender(deps, scope, { name: `API Lender ${i}` } as never);
      await updateLenderApiConfig(deps, scope, l.id, { submission_method: 'api', funder_api_spec_id: SPEC_ID, api_credentials: `bench-key-${i}-0123456789`, api_environment: 'production' } as never);
      lenderIds.push(l.id);
    }
    for (let d = 0; d < DEALS; d++) {
      const biz = await createBusiness(deps, scope, { legal_name: `Bakery ${d} LLC`, state: 'CO' } as never);
      const deal = await createDeal(deps, scope, { business_id: biz.id, requested_amount: 75000 } as never);
      await createDealSubmissions(deps, scope, deal.id, { lender_ids: lenderIds });
    }
    const attempts = await count(deps, `SELECT count(*) AS c FROM api_submissions WHERE location_id = ? AND internal_status = 'queued'`, [loc.id]);
    if (attempts !== N) throw new Error(`expected ${N} queued attempts, found ${attempts}`);
    log(`engine ${args.engine}: ${N} API submissions (${DEALS} deals x ${LENDERS} lenders) created in ${((performance.now() - tSetup) / 1000).toFixed(1)} s; funder at http://127.0.0.1:${port} answers in ${LATENCY_MS} ms`);

    // The workers' own databases (PostgreSQL): a pool each, as a worker process has.
    let worker1 = deps;
    let worker2: Deps | undefined;
    if (args.engine === 'pg') {
      const name = (await knex.raw('SELECT current_database() AS n')).rows[0].n as string;
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      const open = async () => {
        const d = openPostgres(url.toString(), { poolMax: POOL });
        extra.push(d);
        return buildDeps(config, logger, { db: d, clock });
      };
      worker1 = await open();
      worker2 = await open();
    }

    const results: Result[] = [];
    const problems: string[] = [];

    // Submit: the N funder.submit jobs.
    const submitted = () => count(deps, `SELECT count(*) AS c FROM jobs WHERE queue = 'funder.submit' AND status <> 'queued'`).then((c) => c === N);
    const sub = await runPhase('submit (funder.submit)', [worker1], LEVELS[0], 'submit', submitted);
    results.push(sub);
    report(sub);
    {
      const sent = await count(deps, `SELECT count(*) AS c FROM api_submissions WHERE external_id IS NOT NULL AND internal_status = 'sent' AND next_poll_at IS NOT NULL`);
      const subsSent = await count(deps, `SELECT count(*) AS c FROM submissions WHERE location_id = ? AND status = 'sent'`, [loc.id]);
      const jobsOk = await count(deps, `SELECT count(*) AS c FROM jobs WHERE queue = 'funder.submit' AND status = 'succeeded'`);
      const twice = [...stats.submits.values()].filter((n) => n !== 1).length;
      if (sent !== N || subsSent !== N || jobsOk !== N || stats.submits.size !== N || twice) {
        problems.push(`submit: ${sent} attempts sent, ${subsSent} submissions sent, ${jobsOk} jobs succeeded, ${stats.submits.size} distinct submits at the funder, ${twice} sent more than once (expected ${N}, ${N}, ${N}, ${N}, 0)`);
      }
    }

    // Poll rounds: one worker per concurrency level, then two workers (separate pools) per level.
    const rounds: { workers: Deps[]; concurrency: number }[] = [
      ...LEVELS.map((c) => ({ workers: [worker1], concurrency: c })),
      ...(worker2 ? LEVELS.map((c) => ({ workers: [worker1, worker2!], concurrency: c })) : []),
    ];
    let expected = 0;
    for (const r of rounds) {
      expected++;
      // Every attempt's next poll, at once: the clock jumps to the latest next_poll_at.
      const due = (await knex('api_submissions').where({ location_id: loc.id }).max('next_poll_at as t').first()) as { t: Date };
      clock.set(due.t);
      const polled = () => count(deps, `SELECT count(*) AS c FROM api_submissions WHERE location_id = ? AND poll_count = ?`, [loc.id, expected]).then((c) => c === N);
      const res = await runPhase(`poll round ${expected}`, r.workers, r.concurrency, 'status', polled);
      results.push(res);
      report(res);
      const wrongCount = await count(deps, `SELECT count(*) AS c FROM api_submissions WHERE location_id = ? AND poll_count <> ?`, [loc.id, expected]);
      const errored = await count(deps, `SELECT count(*) AS c FROM api_submissions WHERE location_id = ? AND (error_code IS NOT NULL OR internal_status <> 'pending' OR next_poll_at IS NULL OR locked_by IS NOT NULL)`, [loc.id]);
      const twice = [...stats.polls.values()].filter((n) => n !== 1).length;
      if (wrongCount || errored || stats.polls.size !== N || twice) {
        problems.push(`poll round ${expected}: ${wrongCount} attempts with poll_count <> ${expected}, ${errored} errored/not pending/locked, ${stats.polls.size} external ids polled, ${twice} polled more than once`);
      }
    }

    const best = results.slice(1).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    log('');
    log(`summary (engine ${args.engine}, N ${N}, funder latency ${LATENCY_MS} ms, pool ${args.engine === 'pg' ? POOL : 1} per worker; ceiling = workers x concurrency / latency):`);
    for (const r of results) report(r);
    log(
      `the poller sustains ${Math.round(best.perSecond * 60)} submissions/min at best (${best.workers} worker${best.workers > 1 ? 's' : ''} x ${best.concurrency}); ` +
        `one worker at ${LEVELS[0]}: ${Math.round(results[1].perSecond * 60)}/min`,
    );
    log(problems.length ? `CHECKS FAILED:\n  ${problems.join('\n  ')}` : `checks: every attempt submitted once and polled exactly once per round (${rounds.length} rounds), none errored`);
    log(`RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
    if (problems.length) process.exitCode = 1;
  } finally {
    unregisterFunderIntegration(SPEC_ID);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const d of extra) await d.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    await drop();
  }
}

main().catch((err) => {
  log(`bench-funders failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
