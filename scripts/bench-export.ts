/**
 * `npm run bench:export [-- --businesses 50000 --engine pg|pglite]`: a benchmark, not a test.
 *
 * Taking the data out (issue 29): a location of N businesses (one deal and one note on every tenth),
 * seeded in SQL, served by the real app on a loopback port. Measures, in this one process (the
 * client only counts bytes):
 *
 * - `GET /v1/businesses` as CSV read as fast as possible: time, rows/s, MB/s, peak memory above idle;
 * - the same CSV read by a slow client (the socket paused, 16 KiB taken every 50 ms, 320 KB/s): the server
 *   must wait for it (backpressure), so the peak stays about that of the fast read, whatever the
 *   file's size, and pages are fetched only as the client takes them: the last page is read near
 *   the end of the transfer (without the wait for `drain` it is read seconds earlier and the rest of
 *   the file queues in the server's memory and the socket);
 * - `GET /v1/exports/location` (NDJSON): time and peak memory.
 *
 * Heap plus external memory (socket buffers) is sampled every 20 ms after a forced GC (run with
 * --expose-gc, as the npm script does).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createApiKey, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { handlers } from '../src/features/handlers';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { log, scratchDatabase } from './bench-kit';

const { values: args } = parseArgs({ options: { businesses: { type: 'string', default: '50000' }, engine: { type: 'string', default: 'pg' } } });
const N = Number(args.businesses);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

/** When the server last queried the database (its last page read). */
let lastQuery = 0;

async function fetchAll(port: number, path: string, key: string, accept: string, slow: boolean) {
  gc();
  // Heap and buffers (a chunk queued on a socket is a Buffer outside the heap).
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const idle = used();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 20);
  const t0 = performance.now();
  const { bytes, lines, status } = await new Promise<{ bytes: number; lines: number; status: number }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${key}`, Accept: accept } }, (res) => {
      let bytes = 0;
      let lines = 0;
      const count = (c: Buffer) => {
        bytes += c.length;
        for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
      };
      if (!slow) {
        res.on('data', count);
      } else {
        res.pause();
        const tick = setInterval(() => {
          const c = res.read(16384) as Buffer | null;
          if (c) count(c);
        }, 50);
        res.on('end', () => clearInterval(tick));
      }
      res.on('end', () => resolve({ bytes, lines, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  clearInterval(timer);
  const ms = performance.now() - t0;
  return { status, bytes, lines, ms, peakAboveIdle: peak - idle, lastReadMs: lastQuery - t0 };
}

async function main(): Promise<void> {
  const { db, drop } = await scratchDatabase(args.engine!, 'svc_bench_export');
  let server: http.Server | undefined;
  try {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-export-secret-key-0123456789abcdef' };
    const deps = await buildDeps(config, createLogger('silent'), { db, clock: systemClock });
    const knex = deps.db.knex;
    const loc = await createLocation(knex, systemClock, { name: 'Bench Brokers', isTest: true });
    const user = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const { key } = await createApiKey(knex, systemClock, { locationId: loc.id, name: 'bench', role: 'admin', userId: user.id });
    const t0 = performance.now();
    await knex.raw(
      `INSERT INTO businesses (id, location_id, legal_name, dba, ein, phone, email, status, tags, custom_data, created_at, updated_at)
       SELECT 'biz_BENCH' || lpad(g::text, 21, '0'), :loc, 'Business ' || g || CASE WHEN g % 7 = 0 THEN ', "Quoted" LLC' ELSE ' LLC' END,
         CASE WHEN g % 5 = 0 THEN '=HYPERLINK(' || g || ')' END, NULL, '1303555' || lpad((g % 10000)::text, 4, '0'), 'b' || g || '@bench.example',
         'active', '["bench"]'::jsonb, '{"tier":"gold"}'::jsonb, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
       FROM generate_series(1, :n) g`,
      { loc: loc.id, n: N },
    );
    const stage = await knex('pipeline_stages').where({ location_id: loc.id }).orderBy('sort_order').first('id');
    await knex.raw(
      `INSERT INTO deals (id, location_id, business_id, stage_id, stage_entered_at, status, requested_amount, originator_id, created_at, updated_at)
       SELECT 'deal_BENCH' || lpad(g::text, 20, '0'), :loc, 'biz_BENCH' || lpad(g::text, 21, '0'), :stage, now(), 'open', 50000, :user, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
       FROM generate_series(10, :n, 10) g`,
      { loc: loc.id, n: N, stage: stage.id, user: user.id },
    );
    await knex.raw(`ANALYZE`);
    log(`seeded ${N} businesses, ${Math.floor(N / 10)} deals in ${((performance.now() - t0) / 1000).toFixed(1)} s (${args.engine})`);

    knex.on('query', () => (lastQuery = performance.now()));
    const app = createApp(deps, handlers);
    server = http.createServer(app);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;

    const runs = [
      ['CSV, fast reader', '/v1/businesses', 'text/csv', false],
      ['CSV, slow reader', '/v1/businesses', 'text/csv', true],
      ['NDJSON export', '/v1/exports/location', 'application/x-ndjson', false],
    ] as const;
    for (const [name, path, accept, slow] of runs) {
      const r = await fetchAll(port, path, key, accept, slow);
      log(
        `${name.padEnd(18)} ${r.status} ${r.lines} lines, ${mb(r.bytes)} MB in ${(r.ms / 1000).toFixed(2)} s ` +
          `(${Math.round(r.lines / (r.ms / 1000))} lines/s, ${(r.bytes / 1024 / 1024 / (r.ms / 1000)).toFixed(1)} MB/s); peak heap+buffers above idle ${mb(r.peakAboveIdle)} MB; last page read at ${(r.lastReadMs / 1000).toFixed(2)} s`,
      );
    }
  } finally {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
