/**
 * `npm run bench:overload [-- --rate 540] [--duration 30] [--capacity-seconds 10] [--keys 300]`
 * `npm run bench:overload -- --before DIR [--rounds 3] [--rate 540] [--duration 30] [--capacity-seconds 10]`
 *
 * A benchmark, never a test. Runs the built server (`npm start`'s entry, LOG_LEVEL=info, default
 * overload settings) on a fresh PostgreSQL database and:
 *
 * 1. start-up: time from spawn to "listening", the first request's latency against the 100th's;
 * 2. capacity: closed-loop load (32 connections, 70% reads / 30% writes) for `--capacity-seconds`;
 * 3. overload: open-loop arrivals at a fixed rate (`--rate`, default 3x the measured capacity) for
 *    `--duration` seconds, every request on its own keep-alive socket with a 10 s client timeout
 *    (the client hangs up), the same mix;
 * 4. recovery: from the end of the arrivals, a normal request every 100 ms until one succeeds.
 *
 * Prints answered / shed / timed-out counts, latency of the answered, the server's peak RSS (VmHWM),
 * the recovery time, how many access-log lines the server wrote against requests sent, and, for
 * every write whose client gave up, whether and when it committed after that.
 * Load is spread over enough API keys that the per-credential rate limit never answers.
 *
 * Paired mode (`--before DIR`): DIR is a checkout of another revision with its node_modules; its
 * dist/ is built here with its own `node scripts/build.mjs`. Each of `--rounds` rounds runs the whole
 * scenario (fresh database migrated by that side's own migrations, start-up, overload, recovery, late
 * commits) once with this checkout's dist/server.mjs ("after") and once with DIR's ("before"), the
 * side that goes first alternating from round to round. Both sides get the SAME arrivals: `--rate`,
 * or, without it, 3x the capacity measured once beforehand on the after side (a calibration run of
 * its own: start-up and the closed-loop phase, nothing else), so no paired run has a capacity phase
 * before its overload. Prints a table per run and the median over rounds per side with the ratio
 * after / before, then a verdict.
 *
 * Verdict rule: a figure is WORSE when the after side's median is worse than the before side's by
 * more than 10% of the before median AND by more than that figure's absolute floor (what one noisy
 * run moves it by): answered 2xx (fewer is worse; floor 1% of the requests offered), client
 * timeouts (more is worse; floor 1% of the requests offered), answered p50 (20 ms) and p99
 * (100 ms), peak RSS (16 MB), recovery (500 ms), late commits (3 writes), start-up (100 ms). Shed
 * answers are shown but not judged: shedding fast is what the server should do instead of timing
 * out. "not worse" when no figure is worse; otherwise the figures that are, with both medians.
 */
import { execFileSync } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openPostgres } from '../src/db/engine';
import { migrateLatest } from '../src/db/migrate';
import { createApiKey, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { systemClock } from '../src/lib/clock';
import { log, median, migrateCheckout, pgDatabase, rssMb, sleep, startFlags, startProc, stopProc, table } from './bench-kit';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string' },
    duration: { type: 'string', default: '30' },
    'capacity-seconds': { type: 'string', default: '10' },
    keys: { type: 'string', default: '300' },
    'client-timeout': { type: 'string', default: '10000' },
    before: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
const DURATION_S = Number(args.duration);
const KEYS = Number(args.keys);
const CLIENT_TIMEOUT_MS = Number(args['client-timeout']);
const SECRET_KEY = 'bench-secret-key-0123456789-abcdefghijklmnop';

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const f = (x: number) => x.toFixed(0);

interface Shot {
  status?: number;
  code?: string;
  ms: number;
  timedOut?: boolean;
  error?: string;
}

/** A build to run: its checkout (`dir`, whose dist/server.mjs, package.json and migrations are used). */
interface Side {
  name: 'after' | 'before';
  dir: string;
  /** Prefix of its progress lines ('' in the single-run mode). */
  tag: string;
}

/** What one run of the scenario measured. */
interface Run {
  startMs: number;
  capacity?: { rps: number; p50: number; p99: number; non2xx: number };
  /** Absent for a calibration run (start-up and capacity only). */
  overload?: {
    rate: number;
    total: number;
    ok: number[];
    shed: number[];
    /** 429 answers (the rate limit should never answer here). */
    limited: number;
    other: number;
    otherKinds: Map<string, number>;
    timedOut: number;
    peakInFlight: number;
    rssBefore: number;
    peakRss: number;
    recoveredMs: number;
    givenUp: number;
    lateBy: number[];
    requestLines: number;
    sent: number;
  };
}

/**
 * The scenario once on `side`, on a database of its own. `capacity` measures the closed-loop
 * capacity first (`calibrate`: and stops there); `rate` fixes the arrivals, 3x the capacity without it.
 */
async function runOnce(side: Side, opts: { capacity: boolean; rate?: number; calibrate?: boolean }): Promise<Run> {
  const { url: dbUrl, drop } = await pgDatabase(`svc_bench_overload_${process.pid}_${side.name}`);
  const db = openPostgres(dbUrl, { poolMax: 2 });
  let server: Awaited<ReturnType<typeof startProc>> | undefined;
  try {
    // The before side's server expects its own schema; seeding uses tables both revisions share.
    if (side.name === 'before') migrateCheckout(side.dir, dbUrl, SECRET_KEY);
    else await migrateLatest(db.knex);
    const loc = await createLocation(db.knex, systemClock, { name: 'Overload bench' });
    const user = await createUser(db.knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const keys: string[] = [];
    for (let i = 0; i < KEYS + 1; i++) keys.push((await createApiKey(db.knex, systemClock, { locationId: loc.id, name: `k${i}`, role: 'admin', userId: user.id })).key);
    const probeKey = keys.pop()!;
    await db.knex.raw(
      `INSERT INTO businesses (id, location_id, legal_name, city, state, status, created_at, updated_at)
       SELECT 'biz_0000' || upper(lpad(to_hex(i), 22, '0')), ?, 'Seed ' || i || ' LLC', 'Denver', 'CO', 'active', now() - (i || ' seconds')::interval, now()
         FROM generate_series(1, 1000) AS i`,
      [loc.id],
    );
    const bizIds = (await db.knex('businesses').where({ location_id: loc.id }).limit(200).pluck('id')) as string[];

    // ---------------------------------------------------------------- start-up
    let requestLines = 0;
    server = await startProc(
      join(side.dir, 'dist/server.mjs'),
      { DATABASE_URL: dbUrl, SECRET_KEY, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1' },
      /listening on (\S+)/,
      startFlags(side.dir),
      side.dir,
    );
    server.child.stdout!.on('data', (d: Buffer) => (requestLines += (d.toString().match(/"msg":"request"/g) ?? []).length));
    const base = `http://127.0.0.1:${server.port}`;
    const pid = server.child.pid!;
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    let sent = 0;
    let n = 0;
    /** One request of the 70/30 mix (reads: a page, one business; writes: a create with an Idempotency-Key). */
    const shoot = (timeoutMs: number, key = keys[n % keys.length], writes?: Map<string, number>): Promise<Shot> => {
      const i = n++;
      sent++;
      const r = i % 10;
      const write = r >= 7;
      const path = write ? '/v1/businesses' : r < 4 ? '/v1/businesses?limit=10' : `/v1/businesses/${bizIds[i % bizIds.length]}`;
      const legalName = `Overload ${process.pid} ${i} LLC`;
      const body = write ? JSON.stringify({ legal_name: legalName }) : undefined;
      const t0 = performance.now();
      return new Promise<Shot>((resolve) => {
        const req = httpRequest(`${base}${path}`, {
          method: write ? 'POST' : 'GET',
          agent,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': `ovl-${process.pid}-${i}` } : {}),
          },
        });
        const timer = setTimeout(() => {
          if (write && writes) writes.set(legalName, Date.now());
          req.destroy();
          resolve({ ms: performance.now() - t0, timedOut: true });
        }, timeoutMs);
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            clearTimeout(timer);
            let code: string | undefined;
            if (res.statusCode! >= 400) {
              try {
                code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
              } catch {
                code = 'not_json';
              }
            }
            resolve({ status: res.statusCode, code, ms: performance.now() - t0 });
          });
        });
        req.on('error', (e) => {
          clearTimeout(timer);
          resolve({ ms: performance.now() - t0, error: (e as NodeJS.ErrnoException).code ?? e.message });
        });
        req.end(body);
      });
    };

    const first = await shoot(30_000, probeKey);
    for (let i = 0; i < 98; i++) await shoot(30_000, probeKey);
    const hundredth = await shoot(30_000, probeKey);
    log(`${side.tag}start-up: listening after ${Math.round(server.startMs)} ms; first request ${first.ms.toFixed(1)} ms (status ${first.status}), 100th ${hundredth.ms.toFixed(1)} ms`);
    const run: Run = { startMs: server.startMs };

    // ---------------------------------------------------------------- capacity (closed loop)
    if (opts.capacity) {
      let c = 0;
      const capacity = await autocannon({
        url: base,
        connections: 32,
        duration: Number(args['capacity-seconds']),
        requests: [
          {
            setupRequest: (req: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) => {
              const i = c++;
              const r = i % 10;
              req.headers = { authorization: `Bearer ${keys[i % keys.length]}`, 'content-type': 'application/json' };
              if (r >= 7) {
                req.method = 'POST';
                req.path = '/v1/businesses';
                req.body = JSON.stringify({ legal_name: `Capacity ${process.pid} ${i} LLC` });
              } else {
                req.method = 'GET';
                req.path = r < 4 ? '/v1/businesses?limit=10' : `/v1/businesses/${bizIds[i % bizIds.length]}`;
              }
              return req;
            },
          },
        ],
      } as autocannon.Options);
      sent += capacity.requests.total;
      run.capacity = { rps: Math.round(capacity.requests.average), p50: capacity.latency.p50, p99: capacity.latency.p99, non2xx: capacity.non2xx };
      log(`${side.tag}capacity (closed loop, 32 connections): ${run.capacity.rps} requests/s, p50 ${run.capacity.p50} ms, p99 ${run.capacity.p99} ms, non-2xx ${run.capacity.non2xx}`);
      if (opts.calibrate) return run;
    }

    // ---------------------------------------------------------------- overload (open loop)
    const rate = opts.rate ?? run.capacity!.rps * 3;
    log(`${side.tag}overload: ${rate} requests/s for ${DURATION_S} s (open loop), client timeout ${CLIENT_TIMEOUT_MS} ms`);
    await sleep(2000);
    const rssBefore = Math.round(rssMb(pid, 'VmRSS'));
    const writesGivenUp = new Map<string, number>();
    const shots: Promise<Shot>[] = [];
    let peakInFlight = 0;
    let inFlight = 0;
    const t0 = performance.now();
    const total = rate * DURATION_S;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
        while (shots.length < due) {
          inFlight++;
          peakInFlight = Math.max(peakInFlight, inFlight);
          shots.push(shoot(CLIENT_TIMEOUT_MS, undefined, writesGivenUp).finally(() => inFlight--));
        }
        if (shots.length >= total) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    const loadEnd = performance.now();

    // ---------------------------------------------------------------- recovery
    let recoveredMs = NaN;
    for (;;) {
      const p = await shoot(2000, probeKey);
      if (p.status === 200 || p.status === 201) {
        recoveredMs = performance.now() - loadEnd;
        break;
      }
      if (performance.now() - loadEnd > 120_000) break;
      await sleep(100);
    }
    const results = await Promise.all(shots);
    const peakRss = Math.round(rssMb(pid, 'VmHWM'));
    const answered = results.filter((r) => r.status !== undefined);
    const isShed = (r: Shot) => r.status === 503 && r.code === 'overloaded';
    const other = answered.filter((r) => r.status! >= 300 && !isShed(r));
    const errors = results.filter((r) => r.error);
    const otherKinds = new Map<string, number>();
    for (const r of other) otherKinds.set(`${r.status} ${r.code ?? ''}`, (otherKinds.get(`${r.status} ${r.code ?? ''}`) ?? 0) + 1);
    for (const r of errors) otherKinds.set(r.error!, (otherKinds.get(r.error!) ?? 0) + 1);

    // ---------------------------------------------------------------- late writes and the log
    await sleep(12_000); // anything still running finishes or is cancelled by its statement timeout
    const committed = (await db.knex('businesses').whereIn('legal_name', [...writesGivenUp.keys()]).select('legal_name', 'created_at')) as Array<{ legal_name: string; created_at: Date }>;
    await sleep(500);
    run.overload = {
      rate,
      total,
      ok: answered.filter((r) => r.status! < 300).map((r) => r.ms),
      shed: answered.filter(isShed).map((r) => r.ms),
      limited: answered.filter((r) => r.status === 429).length,
      other: other.length + errors.length,
      otherKinds,
      timedOut: results.filter((r) => r.timedOut).length,
      peakInFlight,
      rssBefore,
      peakRss,
      recoveredMs,
      givenUp: writesGivenUp.size,
      lateBy: committed.map((row) => new Date(row.created_at).getTime() - writesGivenUp.get(row.legal_name)!),
      requestLines,
      sent,
    };
    return run;
  } finally {
    if (server) await stopProc(server);
    await db.close();
    await drop();
  }
}

/** The single run's report, as the script has always printed it. */
function report(run: Run): string[] {
  const o = run.overload!;
  return [
    `overload results (${o.rate}/s for ${DURATION_S} s = ${o.total} requests, 3x of ${run.capacity?.rps ?? '-'}/s measured)`,
    `  answered 2xx           ${o.ok.length}  (p50 ${f(pct(o.ok, 50))} ms, p99 ${f(pct(o.ok, 99))} ms)`,
    `  shed 503 overloaded    ${o.shed.length}  (p50 ${f(pct(o.shed, 50))} ms, p99 ${f(pct(o.shed, 99))} ms)`,
    `  other answers/errors   ${o.other}  ${[...o.otherKinds].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    `  timed out (10 s)       ${o.timedOut}`,
    `  peak requests in flight (client side) ${o.peakInFlight}`,
    `  server RSS             ${o.rssBefore} MB before, peak ${o.peakRss} MB`,
    `  recovery               first normal success ${f(o.recoveredMs)} ms after the arrivals stopped`,
    `  writes given up        ${o.givenUp}; committed anyway ${o.lateBy.length}; latest ${o.lateBy.length ? f(Math.max(...o.lateBy)) : '-'} ms after the client left; over 10 s: ${o.lateBy.filter((x) => x > 10_000).length}`,
    `  access-log lines       ${o.requestLines} for ${o.sent} requests sent`,
  ];
}

// ------------------------------------------------------------------ paired mode

/** A compared figure: how to read it off a run, which way is worse, and its noise floor (see the doc comment). */
interface Figure {
  name: string;
  of: (run: Run) => number;
  worse: 'lower' | 'higher';
  floor: (offered: number) => number;
  judged: boolean;
}

const FIGURES: Figure[] = [
  { name: 'answered 2xx', of: (r) => r.overload!.ok.length, worse: 'lower', floor: (offered) => offered * 0.01, judged: true },
  { name: 'shed (503/429)', of: (r) => r.overload!.shed.length + r.overload!.limited, worse: 'higher', floor: () => 0, judged: false },
  { name: 'client timeouts', of: (r) => r.overload!.timedOut, worse: 'higher', floor: (offered) => offered * 0.01, judged: true },
  { name: 'answered p50 ms', of: (r) => pct(r.overload!.ok, 50), worse: 'higher', floor: () => 20, judged: true },
  { name: 'answered p99 ms', of: (r) => pct(r.overload!.ok, 99), worse: 'higher', floor: () => 100, judged: true },
  { name: 'peak RSS MB', of: (r) => r.overload!.peakRss, worse: 'higher', floor: () => 16, judged: true },
  { name: 'recovery ms', of: (r) => r.overload!.recoveredMs, worse: 'higher', floor: () => 500, judged: true },
  { name: 'late commits', of: (r) => r.overload!.lateBy.length, worse: 'higher', floor: () => 3, judged: true },
  { name: 'start-up ms', of: (r) => r.startMs, worse: 'higher', floor: () => 100, judged: true },
];
const MARGIN = 0.1;

/** Whether `after` is worse than `before` beyond the noise margin (10% of before and the figure's floor). NaN (never recovered, no 2xx) counts as worse. */
function isWorse(fig: Figure, after: number, before: number, offered: number): boolean {
  if (Number.isNaN(after)) return !Number.isNaN(before);
  if (Number.isNaN(before)) return false;
  const by = fig.worse === 'higher' ? after - before : before - after;
  return by > Math.max(MARGIN * Math.abs(before), fig.floor(offered));
}

const commit = (dir: string) => execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();

async function paired(beforeDir: string): Promise<void> {
  const rounds = Number(args.rounds);
  const after: Side = { name: 'after', dir: resolve('.'), tag: 'after: ' };
  const before: Side = { name: 'before', dir: resolve(beforeDir), tag: 'before: ' };
  log(`building the before side in ${before.dir} ...`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: before.dir, stdio: 'inherit' });

  let rate = args.rate === undefined ? undefined : Number(args.rate);
  let measured = '';
  if (rate === undefined) {
    log('calibration: measuring the after side\'s capacity ...');
    const cal = await runOnce(after, { capacity: true, calibrate: true });
    rate = cal.capacity!.rps * 3;
    measured = `, 3x the after side's measured ${cal.capacity!.rps}/s`;
  }
  const offered = rate * DURATION_S;

  const runs: { round: number; side: Side; run: Run }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const side of round % 2 ? [after, before] : [before, after]) {
      log(`round ${round}/${rounds}: ${side.name}`);
      runs.push({ round, side, run: await runOnce(side, { capacity: false, rate }) });
    }
  }

  const show = (x: number) => (Number.isNaN(x) ? '-' : f(x));
  const perRun = table(
    ['round', 'side', ...FIGURES.map((fig) => fig.name), 'other'],
    runs.map(({ round, side, run }) => [String(round), side.name, ...FIGURES.map((fig) => show(fig.of(run))), String(run.overload!.other)]),
  );
  const worse: string[] = [];
  const summary = table(
    ['figure', 'after median', 'before median', 'after / before', 'judged'],
    FIGURES.map((fig) => {
      const med = (s: Side) => median(runs.filter((r) => r.side === s).map((r) => fig.of(r.run)));
      const [a, b] = [med(after), med(before)];
      const bad = fig.judged && isWorse(fig, a, b, offered);
      if (bad) worse.push(`${fig.name} ${show(a)} vs ${show(b)}`);
      return [fig.name, show(a), show(b), b && !Number.isNaN(a) ? (a / b).toFixed(2) : '-', fig.judged ? (bad ? 'WORSE' : 'ok') : 'shown only'];
    }),
  );
  process.stdout.write(
    [
      `bench:overload paired: after ${commit(after.dir)} (${after.dir}) vs before ${commit(before.dir)} (${before.dir})`,
      `offered to every run: ${rate}/s for ${DURATION_S} s = ${offered} requests${measured}; ${rounds} round(s), the first side alternating`,
      ...perRun,
      '',
      `medians over ${rounds} round(s):`,
      ...summary,
      '',
      worse.length ? `verdict: WORSE: ${worse.join('; ')}` : `verdict: not worse (each judged median within ${MARGIN * 100}% or its floor of before's)`,
    ].join('\n') + '\n',
  );
}

async function main(): Promise<void> {
  if (args.before) return paired(args.before);
  const run = await runOnce({ name: 'after', dir: '.', tag: '' }, { capacity: true, rate: args.rate === undefined ? undefined : Number(args.rate) });
  process.stdout.write(report(run).join('\n') + '\n');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
