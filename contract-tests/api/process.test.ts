import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, clonePostgresUrl } from '../support/harness';

// The operator's view: the CLI and the server process, run as a partner or operator would run them.
const ROOT = new URL('../..', import.meta.url).pathname;
const TSX = join(ROOT, 'node_modules/.bin/tsx');

let env: NodeJS.ProcessEnv;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent' };
  delete base.DATABASE_URL;
  if (ENGINE === 'pg') {
    const db = await clonePostgresUrl();
    env = { ...base, DATABASE_URL: db.url };
    cleanup = db.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proc-'));
    env = { ...base, DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup?.());

function cli(...args: string[]) {
  const r = spawnSync(TSX, ['src/cli/index.ts', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

describe(`operator CLI (${ENGINE})`, () => {
  it('creates a location, a user and keys; lists keys without secrets; revokes', { timeout: 180_000 }, () => {
    const loc = cli('location', 'create', '--name', 'CLI Capital', '--test');
    expect(loc.code).toBe(0);
    expect(loc.stdout.trim().split('\n')).toHaveLength(1);
    expect(loc.json()).toMatchObject({ id: expect.stringMatching(/^loc_[0-9A-Z]{26}$/), name: 'CLI Capital', is_test: true });
    const locationId = loc.json().id;

    const user = cli('user', 'create', '--location', locationId, '--name', 'Dana Whitfield', '--email', 'dana@cli.example', '--role', 'admin');
    expect(user.code).toBe(0);
    expect(user.json().id).toMatch(/^usr_/);

    const key = cli('key', 'create', '--location', locationId, '--name', 'CRM sync', '--role', 'user', '--user', user.json().id, '--scopes', 'deals:read,deals:write', '--expires-at', '2030-01-01T00:00:00Z');
    expect(key.code).toBe(0);
    const k = key.json();
    expect(k.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(k).toMatchObject({ role: 'user', scopes: ['deals:read', 'deals:write'], expires_at: '2030-01-01T00:00:00.000Z', last4: k.key.slice(-4) });

    const list = cli('key', 'list', '--location', locationId);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(k.key);
    expect(list.json().data[0]).toMatchObject({ id: k.id, prefix: 'svc_live_', last4: k.key.slice(-4) });

    const revoked = cli('key', 'revoke', k.id);
    expect(revoked.code).toBe(0);
    expect(revoked.json()).toMatchObject({ id: k.id, revoked: true });
    expect(cli('key', 'list', '--location', locationId).json().data[0].revoked_at).not.toBeNull();
  });

  it('bad input is a clear message on stderr and a non-zero exit, nothing on stdout', { timeout: 120_000 }, () => {
    for (const args of [
      ['user', 'create', '--location', 'loc_nope', '--name', 'X', '--email', 'x@y.example', '--role', 'owner'],
      ['key', 'create', '--location', 'loc_nope', '--name', 'X'],
      ['key', 'create', '--name', 'X'],
      ['frobnicate'],
    ]) {
      const r = cli(...args);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.length).toBeGreaterThan(5);
    }
  });
});

describe(`seed (${ENGINE})`, () => {
  it('fills a location with a living book through the public API: every phase, offers, advances at several payment levels', { timeout: 180_000 }, async () => {
    const r = spawnSync(TSX, ['src/cli/seed.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 170_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ location_id: expect.stringMatching(/^loc_/), api_key: expect.stringMatching(/^svc_live_/), businesses: 8, deals: 8 });
    const { openDatabase } = await import('../../src/db/engine');
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
    try {
      const phases = await db.knex('deals as d').join('pipeline_stages as s', 's.id', 'd.stage_id').where('d.location_id', out.location_id).distinct('s.phase');
      expect(phases.map((p: { phase: string }) => p.phase).sort()).toEqual(['contracts', 'dead', 'funded', 'new', 'offers', 'submitted']);
      const advances = await db.knex('advances').where('location_id', out.location_id).select('paid_amount', 'payback_amount', 'status');
      expect(new Set(advances.map((a: { paid_amount: number; payback_amount: number }) => Math.round((100 * a.paid_amount) / a.payback_amount))).size).toBe(advances.length);
      expect(advances.some((a: { status: string }) => a.status === 'paid-off')).toBe(true);
      expect(Number((await db.knex('events').where('location_id', out.location_id).count('* as n'))[0].n)).toBeGreaterThan(30);
    } finally {
      await db.close();
    }
  });
});

function startServer(extra: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(TSX, ['src/server.ts'], { cwd: ROOT, env: { ...env, PORT: '0', ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(pred: () => boolean, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`server process (${ENGINE})`, () => {
  it('serves /healthz, /readyz and /v1; first run on the embedded engine prints a working admin key; SIGTERM exits 0', { timeout: 120_000 }, async () => {
    // A data folder of its own, so this is a first run on an empty embedded database.
    const fresh = ENGINE === 'pglite' ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-first-')) } : {};
    const s = startServer(fresh);
    await waitFor(() => /listening on (http:\/\/\S+)/.test(s.output()), 'the server to listen');
    const url = /listening on (http:\/\/\S+)/.exec(s.output())![1];
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
    if (ENGINE === 'pglite') {
      const key = /(svc_live_[0-9A-Za-z]{32})/.exec(s.output())?.[1];
      expect(key).toBeDefined();
      const res = await fetch(`${url}/v1/businesses`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      // PGlite is one process per data folder: a second server on the same folder refuses, clearly.
      const second = startServer(fresh);
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toMatch(/in use by process \d+/);
    } else {
      expect(s.output()).not.toMatch(/svc_live_/);
    }
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    if (fresh.DATA_DIR) rmSync(fresh.DATA_DIR, { recursive: true, force: true });
  });

  it('production mode requires DATABASE_URL and creates nothing', async () => {
    const s = startServer({ NODE_ENV: 'production', DATABASE_URL: '', SECRET_KEY: 'x'.repeat(40) });
    expect(await s.exited).not.toBe(0);
    expect(s.output()).toMatch(/DATABASE_URL is required/);
  });
});
