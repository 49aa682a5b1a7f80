import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../../src/db/engine';
import { createApiKey, createLocation, createUser } from '../../src/features/accounts/accounts.service';
import { systemClock } from '../../src/lib/clock';
import { ENGINE, clonePostgresUrl, migratedEmbeddedFolder } from '../support/harness';
import type { Received } from '../support/receiver';

// At-least-once across a crash: a worker is killed with SIGKILL after it sent a delivery and before
// it could record the outcome (the receiver holds the request open). When a worker runs again, the
// event arrives again with the same event id and delivery id, and nothing is lost.
//  - PostgreSQL: the API runs without a worker (START_WORKER=false) and workers run apart
//    (`dist/worker.mjs`, what `npm run worker` runs). The second worker takes the delivery over at
//    once: the killed worker's session is gone, so its lease is void without waiting for it to run out.
//  - Embedded engine: one process owns the data folder and runs the API and the worker; it is killed
//    and started again on the same folder, and releases the leases its previous life left.
// These run the compiled bundle, exactly what `npm start` and `npm run worker` run (built to a folder
// of this file's own).

const ROOT = new URL('../..', import.meta.url).pathname;
// The bundle `npm start` runs, built once per run (contract-tests/support/global-setup-bundle.ts).
const DIST = inject('bundleDir');

interface Proc {
  child: ChildProcess;
  out: () => string;
}

function launch(script: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Proc & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = ready.exec(out);
      if (match) {
        clearInterval(timer);
        resolve({ child, out: () => out, match });
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`${script} exited ${code}: ${out}`));
    });
  });
}

async function kill(p: Proc | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill(signal);
  await exited;
}

let receiver: http.Server;
let hookUrl = '';
let received: Received[] = [];
/** While true the receiver never answers: the worker is stuck between sending and recording. */
let hold = true;
const held: http.ServerResponse[] = [];
const procs: Proc[] = [];

async function waitFor<T>(what: string, fn: () => T | undefined, ms = 60_000, got: () => unknown = () => received.length): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got: ${JSON.stringify(got())} attempt(s) received; processes: ${procs.map((p) => p.out()).join('\n---\n').slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 25)); // polling a real child process, not a time rule
  }
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      if (hold) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}, 120_000);

afterAll(async () => {
  for (const p of procs) await kill(p, 'SIGKILL');
  for (const r of held) r.destroy();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

async function subscribeAndWrite(base: string, key: string): Promise<void> {
  const sub = await api(base, key, 'POST', '/v1/webhooks', { url: hookUrl, events: ['business.created'] });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const biz = await api(base, key, 'POST', '/v1/businesses', { legal_name: 'Crash Test Bakery LLC' });
  expect(biz.status, JSON.stringify(biz.body)).toBe(201);
}

function expectRedelivered(): void {
  expect(received.length).toBeGreaterThanOrEqual(2);
  const [first, again] = received;
  expect(again.headers['x-svc-delivery']).toBe(first.headers['x-svc-delivery']);
  expect(JSON.parse(again.body.toString()).id).toBe(JSON.parse(first.body.toString()).id);
  expect(JSON.parse(again.body.toString()).type).toBe('business.created');
}

describe.skipIf(ENGINE !== 'pg')('a worker killed mid-attempt (PostgreSQL, separate worker processes)', () => {
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const p of procs.splice(0)) await kill(p, 'SIGTERM');
    await drop?.();
  });

  it('the next worker delivers the event again, same event id and delivery id, without waiting for the lease', { timeout: 120_000 }, async () => {
    const db = await clonePostgresUrl();
    drop = db.drop;
    const pg = openPostgres(db.url, { poolMax: 1 });
    const loc = await createLocation(pg.knex, systemClock, { name: 'Crash', isTest: true });
    const user = await createUser(pg.knex, systemClock, { locationId: loc.id, name: 'Ops', email: 'ops@crash.example', role: 'admin' });
    const key = (await createApiKey(pg.knex, systemClock, { locationId: loc.id, name: 'crash', role: 'admin', userId: user.id })).key;

    const env = { ...process.env, NODE_ENV: 'development', DATABASE_URL: db.url, SECRET_KEY: 'crash-test-secret-key-0123456789-abcdefgh', LOG_LEVEL: 'silent' };
    const server = await launch(`${DIST}/server.mjs`, { ...env, PORT: '0', START_WORKER: 'false' }, /listening on (http:\/\/\S+)/);
    procs.push(server);
    const base = server.match[1];
    received = [];
    hold = true;
    await subscribeAndWrite(base, key);

    const first = await launch(`${DIST}/worker.mjs`, env, /worker (wrk_[0-9a-f]+) running/);
    procs.push(first);
    await waitFor('the first attempt', () => received.length === 1);
    const leased = await pg.knex('webhook_deliveries').where({ kind: 'event' }).first();
    expect(leased).toMatchObject({ status: 'pending', attempts: 0, locked_by: first.match[1] });
    expect(new Date(leased.locked_until).getTime()).toBeGreaterThan(Date.now() + 30_000); // the lease alone would hold it for a minute

    await kill(first, 'SIGKILL');
    hold = false;
    const started = Date.now();
    const second = await launch(`${DIST}/worker.mjs`, env, /worker (wrk_[0-9a-f]+) running/);
    procs.push(second);
    await waitFor('the attempt after the crash', () => received.length >= 2);
    expect(Date.now() - started, 'ms until the next worker delivered again').toBeLessThan(30_000);
    expectRedelivered();
    let done: Record<string, unknown> | undefined;
    let reading = false;
    const refresh = async () => {
      if (reading) return;
      reading = true;
      done = await pg.knex('webhook_deliveries').where({ kind: 'event' }).first();
      reading = false;
    };
    await waitFor('the outcome to be recorded', () => done?.status === 'succeeded' || (void refresh(), undefined));
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, locked_by: null });
    await pg.close();
  });
});

describe.skipIf(ENGINE !== 'pglite')('the embedded server killed mid-attempt', () => {
  let dir = '';
  afterAll(async () => {
    for (const p of procs.splice(0)) await kill(p, 'SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('restarted on its folder, it delivers the event again with the same event id and delivery id', { timeout: 180_000 }, async () => {
    dir = await migratedEmbeddedFolder('svc-crash-');
    const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '' };
    const first = await launch(`${DIST}/server.mjs`, env, /API key:\s+(\S+)[\s\S]*listening|listening on (http:\/\/\S+)[\s\S]*API key:\s+(\S+)/);
    procs.push(first);
    const base = /listening on (http:\/\/\S+)/.exec(first.out())![1];
    const key = /API key:\s+(\S+)/.exec(first.out())![1];
    received = [];
    hold = true;
    await subscribeAndWrite(base, key);
    await waitFor('the first attempt', () => received.length === 1);

    await kill(first, 'SIGKILL');
    hold = false;
    const restarted = Date.now();
    const second = await launch(`${DIST}/server.mjs`, env, /listening on (http:\/\/\S+)/);
    procs.push(second);
    await waitFor('the attempt after the restart', () => received.length >= 2);
    expect(Date.now() - restarted, 'ms from the restart to the new attempt').toBeLessThan(30_000); // not the lease running out: released at start
    expectRedelivered();
    const base2 = second.match[1];
    const sub = (await api(base2, key, 'GET', '/v1/webhooks')).body.data as unknown as { id: string }[];
    const deliveries = await api(base2, key, 'GET', `/v1/webhooks/${sub[0].id}/deliveries`);
    const list = deliveries.body.data as unknown as { id: string; event_id: string; status: string }[];
    expect(list).toHaveLength(1);
    expect(list[0].id).toBe(received[0].headers['x-svc-delivery']);
  });
});
