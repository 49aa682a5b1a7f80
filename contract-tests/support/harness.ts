import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import knexFactory from 'knex';
import supertest from 'supertest';
import { inject } from 'vitest';
import { createApp } from '../../src/app';
import { buildDeps } from '../../src/bootstrap';
import { loadConfig, type Config } from '../../src/config';
import { openPostgres, pgliteExtensions, pgliteParsers, wrapPglite, type Database, type PostgresLimits } from '../../src/db/engine';
import type { Deps } from '../../src/deps';
import { createApiKey, createLocation, createUser, type CreatedKey } from '../../src/features/accounts/accounts.service';
import { handlers as realHandlers } from '../../src/features/handlers';
import type { Role } from '../../src/http/spec';
import type { Handlers } from '../../src/http/types';
import { ManualClock } from '../../src/lib/clock';
import { createLogger } from '../../src/logger';
import { setDialGuard, setHostResolver } from '../../src/outbound/policy';
import { adminUrl, databaseUrl } from './pg-urls';

/**
 * No test dials off this machine: every outbound socket to an address outside loopback is refused
 * (as a refused connection) and recorded here, even when a rule is broken on purpose.
 */
export const refusedDials: string[] = [];
const onThisMachine = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
/**
 * Installs the guards below. Run when this module loads and again before every test file
 * (contract-tests/support/per-file.ts): the api projects share one module graph per worker
 * (`isolate: false`), so what one file changed or recorded must not reach the next.
 */
export function installNetworkGuards(): void {
  refusedDials.length = 0;
  setDialGuard((address) => {
    if (onThisMachine(address)) return true;
    refusedDials.push(address);
    return false;
  });
  // Nor does any test ask real DNS: names resolve only through a table a test installs itself.
  setHostResolver(async (host) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} (tests resolve no real names)`), { code: 'ENOTFOUND' });
  });
}
installNetworkGuards();

export const ENGINE = (process.env.TEST_DB ?? 'pg') as 'pg' | 'pglite';

/** PostgreSQL only: a fresh database cloned from the template, by URL (for child processes). */
export async function clonePostgresUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_t_${inject('pgTemplate').split('_')[2]}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 1 } });
  await createFromTemplate(admin, name);
  return {
    url: databaseUrl(name),
    drop: async () => dropInBackground(admin, name),
  };
}

/**
 * A test database cloned from the template, its commits not waiting for the WAL flush
 * (`synchronous_commit = off`, a setting of this database: the test's own connections and the child
 * processes it starts on the URL all take it). What a commit makes visible, and when, is the same;
 * only a crash of the PostgreSQL server itself could lose the last commits, and no test crashes it.
 * Each commit otherwise waits for an fsync (about 2 ms on this machine, more under load): mcp.test.ts
 * alone makes about 1,150 of them.
 */
async function createFromTemplate(admin: ReturnType<typeof knexFactory>, name: string): Promise<void> {
  await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  await admin.raw(`ALTER DATABASE ${name} SET synchronous_commit = off`);
}

/**
 * DROP DATABASE waits for a checkpoint: 2-3 s of waiting each on this machine (measured: 8 in a row
 * 20 s, 8 at once 0.2 s), at the end of every PostgreSQL test file and of every test that clones a
 * database of its own. Nothing waits for a database to be gone, so it is dropped in the background
 * while the worker goes on; what is still there when the run ends (a worker that exited first), the
 * global teardown drops (global-setup-pg.ts).
 */
function dropInBackground(admin: ReturnType<typeof knexFactory>, name: string): void {
  void admin
    .raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    .catch(() => undefined)
    .finally(() => admin.destroy());
}

/**
 * The embedded engine only: a data folder for a child process (server, CLI, seed), already migrated,
 * written from this run's template (under a second of CPU here; a child creating and migrating a
 * new folder itself takes about five). Tests of a first start use an empty folder instead.
 */
export async function migratedEmbeddedFolder(prefix = 'svc-folder-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pglite = new PGlite(dir, { extensions: pgliteExtensions, loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  await pglite.waitReady;
  await pglite.close();
  return dir;
}

/** A fresh database for one test file, cloned from the migrated template of this run. */
export async function cloneDatabase(limits: PostgresLimits = {}): Promise<Database> {
  if (ENGINE === 'pglite') {
    const file = inject('pgliteTemplate');
    const pglite = new PGlite({ parsers: pgliteParsers, extensions: pgliteExtensions, loadDataDir: new Blob([readFileSync(file)]) });
    await pglite.waitReady;
    return wrapPglite(pglite);
  }
  const name = `svc_t_${inject('pgTemplate').split('_')[2]}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 1 } });
  await createFromTemplate(admin, name);
  const db = openPostgres(databaseUrl(name), { poolMax: 5, ...limits });
  return {
    ...db,
    close: async () => {
      await db.close();
      dropInBackground(admin, name);
    },
  };
}

export interface Tenant {
  locationId: string;
  users: Record<Role, { id: string; name: string }>;
  /** A key per role, each bound to that role's user. */
  keys: Record<Role, string>;
  key(opts?: { role?: Role; scopes?: string[]; expiresAt?: Date | null; user?: Role | null; name?: string }): Promise<CreatedKey>;
  auth(role?: Role): { Authorization: string };
}

export interface Harness {
  deps: Deps;
  clock: ManualClock;
  knex: Deps['db']['knex'];
  api: ReturnType<typeof supertest>;
  /** The Express app itself (to serve it on a real port, e.g. for a browser). */
  app: ReturnType<typeof createApp>;
  logs: string[];
  /** A location with a user and key per role; a test location unless `isTest: false`. */
  tenant(name?: string, opts?: { isTest?: boolean }): Promise<Tenant>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: {
    handlers?: Partial<Handlers>; start?: string; storageUrl?: string; s3Credentials?: { accessKeyId: string; secretAccessKey: string }; publicBaseUrl?: string;
    /** Load-shedding bounds (tiny ones to test shedding); the rest of the configuration is the default. */
    overload?: Partial<Config['overload']>;
    /** The local storage routes' bounds (tiny ones to test them). */
    storageLimits?: Partial<Config['storageLimits']>;
    /** PostgreSQL pool and statement limits (ignored by the embedded engine, which has no pool). */
    dbLimits?: PostgresLimits;
  } = {},
): Promise<Harness> {
  const db = await cloneDatabase(opts.dbLimits);
  const clock = new ManualClock(opts.start ?? '2026-11-23T12:00:00.000Z');
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  // Document bytes (the local storage back end) go to a folder of this harness's own.
  const filesDir = mkdtempSync(join(tmpdir(), 'svc-files-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'test-secret-key-for-contract-tests-0123456789', dataDir: filesDir,
    storageUrl: opts.storageUrl, publicBaseUrl: opts.publicBaseUrl ?? 'http://127.0.0.1:3000',
  };
  config.overload = { ...config.overload, ...opts.overload };
  config.storageLimits = { ...config.storageLimits, ...opts.storageLimits };
  const deps = await buildDeps(config, createLogger('info', sink), { db, clock, validateResponses: true, s3Credentials: opts.s3Credentials });
  const app = createApp(deps, { ...realHandlers, ...opts.handlers } as Handlers);
  const api = supertest(app);
  let n = 0;
  return {
    deps,
    clock,
    knex: db.knex,
    api,
    app,
    logs,
    async tenant(name = `Tenant ${++n}`, tenantOpts: { isTest?: boolean } = {}) {
      const loc = await createLocation(db.knex, clock, { name, isTest: tenantOpts.isTest ?? true });
      const users = {} as Tenant['users'];
      const keys = {} as Tenant['keys'];
      for (const role of ['admin', 'manager', 'user'] as Role[]) {
        const u = await createUser(db.knex, clock, { locationId: loc.id, name: `${role[0].toUpperCase()}${role.slice(1)} ${n}`, email: `${role}${n}@${loc.id.toLowerCase()}.example`, role });
        users[role] = { id: u.id, name: u.name };
        keys[role] = (await createApiKey(db.knex, clock, { locationId: loc.id, name: `${role} key`, role, userId: u.id })).key;
      }
      return {
        locationId: loc.id,
        users,
        keys,
        key: (o = {}) =>
          createApiKey(db.knex, clock, {
            locationId: loc.id, name: o.name ?? 'test key', role: o.role ?? 'manager', scopes: o.scopes,
            expiresAt: o.expiresAt ?? null, userId: o.user === null ? null : users[o.user ?? o.role ?? 'manager'].id,
          }),
        auth: (role = 'admin') => ({ Authorization: `Bearer ${keys[role]}` }),
      };
    },
    async close() {
      await deps.storage.close?.();
      await db.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
