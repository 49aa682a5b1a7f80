/**
 * `npm run bench:overload [-- --rate 540] [--duration 30] [--capacity-seconds 10] [--keys 300]`
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
 */
import { Agent, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { openPostgres } from '../src/db/engine';
import { migrateLatest } from '../src/db/migrate';
import { createApiKey, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { systemClock } from '../src/lib/clock';
import { ADMIN_URL, log, rssMb, sleep, startFlags, startProc, stopProc } from './bench-kit';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string' },
    duration: { type: 'string', default: '30' },
    'capacity-seconds': { type: 'string', default: '10' },
    keys: { type: 'string', default: '300' },
    'client-timeout': { type: 'string', default: '10000' },
  },
});
const DURATION_S = Number(args.duration);
const KEYS = Number(args.keys);
const CLIENT_TIMEOUT_MS = Number(args['client-timeout']);
const SECRET_KEY = 'bench-secret-key-0123456789-abcdefghijklmnop';

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);

interface Shot {
  status?: number;
  code?: string;
  ms: number;
  timedOut?: boolean;
  error?: string;
}

async function main(): Promise<void> {
  const name = `svc_bench_overload_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const db = openPostgres(dbUrl, { poolMax: 2 });
  let server: Awaited<ReturnType<typeof startProc>> | undefined;
  try {
    await migrateLatest(db.knex);
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
    server = await startProc('dist/server.mjs', { DATABASE_URL: dbUrl, SECRET_KEY, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1' }, /listening on (\S+)/, startFlags());
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
    log(`start-up: listening after ${Math.round(server.startMs)} ms; first request ${first.ms.toFixed(1)} ms (status ${first.status}), 100th ${hundredth.ms.toFixed(1)} ms`);

    // ---------------------------------------------------------------- capacity (closed loop)
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
    const capacityRps = Math.round(capacity.requests.average);
    log(`capacity (closed loop, 32 connections): ${capacityRps} requests/s, p50 ${capacity.latency.p50} ms, p99 ${capacity.latency.p99} ms, non-2xx ${capacity.non2xx}`);

    // ---------------------------------------------------------------- overload (open loop)
    const rate = Number(args.rate ?? capacityRps * 3);
    log(`overload: ${rate} requests/s for ${DURATION_S} s (open loop), client timeout ${CLIENT_TIMEOUT_MS} ms`);
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
    const ok = answered.filter((r) => r.status! < 300);
    const shed = answered.filter((r) => r.status === 503 && r.code === 'overloaded');
    const other = answered.filter((r) => r.status! >= 300 && !(r.status === 503 && r.code === 'overloaded'));
    const timedOut = results.filter((r) => r.timedOut);
    const errors = results.filter((r) => r.error);
    const otherKinds = new Map<string, number>();
    for (const r of other) otherKinds.set(`${r.status} ${r.code ?? ''}`, (otherKinds.get(`${r.status} ${r.code ?? ''}`) ?? 0) + 1);
    for (const r of errors) otherKinds.set(r.error!, (otherKinds.get(r.error!) ?? 0) + 1);

    // ---------------------------------------------------------------- late writes and the log
    await sleep(12_000); // anything still running finishes or is cancelled by its statement timeout
    const committed = (await db.knex('businesses').whereIn('legal_name', [...writesGivenUp.keys()]).select('legal_name', 'created_at')) as Array<{ legal_name: string; created_at: Date }>;
    const lateBy = committed.map((row) => new Date(row.created_at).getTime() - writesGivenUp.get(row.legal_name)!);
    await sleep(500);

    const f = (x: number) => x.toFixed(0);
    const lines = [
      `overload results (${rate}/s for ${DURATION_S} s = ${total} requests, 3x of ${capacityRps}/s measured)`,
      `  answered 2xx           ${ok.length}  (p50 ${f(pct(ok.map((r) => r.ms), 50))} ms, p99 ${f(pct(ok.map((r) => r.ms), 99))} ms)`,
      `  shed 503 overloaded    ${shed.length}  (p50 ${f(pct(shed.map((r) => r.ms), 50))} ms, p99 ${f(pct(shed.map((r) => r.ms), 99))} ms)`,
      `  other answers/errors   ${other.length + errors.length}  ${[...otherKinds].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
      `  timed out (10 s)       ${timedOut.length}`,
      `  peak requests in flight (client side) ${peakInFlight}`,
      `  server RSS             ${rssBefore} MB before, peak ${peakRss} MB`,
      `  recovery               first normal success ${f(recoveredMs)} ms after the arrivals stopped`,
      `  writes given up        ${writesGivenUp.size}; committed anyway ${committed.length}; latest ${committed.length ? f(Math.max(...lateBy)) : '-'} ms after the client left; over 10 s: ${lateBy.filter((x) => x > 10_000).length}`,
      `  access-log lines       ${requestLines} for ${sent} requests sent`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    if (server) await stopProc(server);
    await db.close();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
