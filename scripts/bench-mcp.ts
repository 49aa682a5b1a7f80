/**
 * `npm run bench:mcp [-- --engine pglite] [--rounds 300]`
 *
 * A benchmark, never a test. The real app (in process, on a loopback port, logs at info to nowhere)
 * on a scratch database with 200 businesses; an admin's OAuth access tokens for /mcp. Measures, one
 * request at a time as an assistant sends them: `tools/list`, a read tool call (`listBusinesses`,
 * limit 20) and the same read on /v1 directly (the tool's overhead), and a write tool call
 * (`createBusiness`). Prints the number of tools, the size of the tools/list answer, and p50/p95/p99.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Writable } from 'node:stream';
import { createApp } from '../src/app';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createAccessToken, createLocation, createUser } from '../src/features/accounts/accounts.service';
import { handlers } from '../src/features/handlers';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { log, scratchDatabase } from './bench-kit';

const { values: args } = parseArgs({ options: { engine: { type: 'string', default: 'pg' }, rounds: { type: 'string', default: '300' } } });
const ROUNDS = Number(args.rounds);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${pct(s, 50).toFixed(2)} ms, p95 ${pct(s, 95).toFixed(2)} ms, p99 ${pct(s, 99).toFixed(2)} ms`;
};

async function main(): Promise<void> {
  const { db, drop } = await scratchDatabase(args.engine!, 'svc_bench_mcp');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-mcp-secret-key-0123456789abcdef', publicBaseUrl: base };
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const deps = await buildDeps(config, createLogger('info', sink), { db, clock: systemClock });
    server.on('request', createApp(deps, handlers));
    const knex = deps.db.knex;
    const loc = await createLocation(knex, systemClock, { name: 'Bench Brokers', isTest: true });
    const user = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    // Every scope (an admin's assistant sees every tool), and enough tokens that the per-credential
    // rate limit (300 a minute) never answers: requests go round them.
    const tokens: string[] = [];
    for (let i = 0; i < 16; i++) tokens.push((await createAccessToken(knex, systemClock, { userId: user.id, scopes: [], audience: 'mcp', ttlSeconds: 86_400 })).token);
    let turn = 0;
    const hdrs = () => ({ authorization: `Bearer ${tokens[turn++ % tokens.length]}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${base}/v1/businesses`, { method: 'POST', headers: hdrs(), body: JSON.stringify({ legal_name: `Bakery ${i} LLC` }) });
      if (r.status !== 201) throw new Error(`seed: ${r.status} ${await r.text()}`);
    }
    let id = 0;
    const rpc = async (method: string, params: object) => {
      const r = await fetch(`${base}/mcp`, { method: 'POST', headers: hdrs(), body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${method}: ${r.status} ${text.slice(0, 200)}`);
      return text;
    };
    const time = async (fn: () => Promise<unknown>) => {
      const out: number[] = [];
      for (let i = 0; i < 20; i++) await fn(); // warm-up
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        await fn();
        out.push(performance.now() - t0);
      }
      return out;
    };
    const listed = await rpc('tools/list', {});
    const tools = (JSON.parse(listed) as { result: { tools: unknown[] } }).result.tools.length;
    log(`engine ${args.engine}, ${ROUNDS} rounds each, one request at a time`);
    log(`tools listed for this token: ${tools} (answer ${(listed.length / 1024).toFixed(0)} KB)`);
    log(`tools/list:                      ${fmt(await time(() => rpc('tools/list', {})))}`);
    log(`tools/call listBusinesses (20):  ${fmt(await time(() => rpc('tools/call', { name: 'listBusinesses', arguments: { limit: 20 } })))}`);
    log(`GET /v1/businesses?limit=20:     ${fmt(await time(async () => (await fetch(`${base}/v1/businesses?limit=20`, { headers: hdrs() })).text()))}`);
    let n = 0;
    log(`tools/call createBusiness:       ${fmt(await time(() => rpc('tools/call', { name: 'createBusiness', arguments: { body: { legal_name: `Assistant ${++n} LLC` } } })))}`);
    log(`peak RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB (this process: app and client)`);
    await deps.storage.close?.();
    await db.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
