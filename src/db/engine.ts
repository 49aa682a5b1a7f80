import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import ClientPGLite from 'knex-pglite';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock';
import { SOCKET_ADVERT_FILE, readSocketAdvert, socketConnection, type SocketAdvert } from './embedded-socket';
import { neverNameStatements } from './prepared';

export type Engine = 'pg' | 'pglite';

export interface Database {
  knex: Knex;
  engine: Engine;
  close(): Promise<void>;
  /** The embedded engine opened by this process (absent on PostgreSQL and when reached through a running server). */
  pglite?: PGlite;
  /** Set when this process reaches an embedded database that another process (a running server) owns. */
  viaServer?: { pid: number; socket: string };
  /** PostgreSQL: where the credential listener connects (its own connection; DATABASE_LISTEN_URL, else the pool's address). */
  url?: string;
  /** Told of every change to what authentication reads (started by `watchCredentials`, closed with the database). */
  credentialWatch?: CredentialWatch;
  /** Run by `close()` before the pool closes (a process's in-memory rate-limit counts are sent). */
  beforeClose?: (() => Promise<void>)[];
}

interface KnexQueryEvent {
  sql: string;
  __knexTxId?: string;
  __knexQueryUid?: string;
}
/** A statement of this process that changes what authentication reads (knex's text: `update "api_keys" ...`). */
/** Authentication's own once-a-minute `last_used_at` write (the triggers ignore it too). */
const LAST_USED_ONLY = /^\s*update\s+"api_keys"\s+set\s+"last_used_at"\s*=\s*\S+\s+where/i;
const OWN_CREDENTIAL_WRITE = /^\s*(update|delete\s+from|truncate)\s+"?(api_keys|oauth_access_tokens|users|locations)"?[\s"]/i;

/** The channel migration 0025's triggers notify on any change to what authentication reads. */
export const CREDENTIALS_CHANNEL = 'svc_credentials';
/** How often the listener proves, with a nonce it sends itself, that notifications still reach it (injected clock). */
export const CREDENTIAL_PROOF_EVERY_MS = 30_000;

/**
 * Whether a per-process copy of credentials may be trusted, and when it must be dropped.
 *
 * `generation` moves on every notification on CREDENTIALS_CHANNEL (and whenever the listener is lost):
 * a copy taken at another generation is stale. `live` is true only while the listener has proven
 * itself: it sent a random nonce through the database (from a pool connection, as any writer would)
 * and received it back; until then (at start, after a reconnect, after a proof that did not come back
 * within one period) callers must ask the database. On PostgreSQL the listener is its own connection
 * (LISTEN); on the embedded engine it is PGlite's notification callback, and the operator socket
 * (embedded-socket.ts) holds `live` false while an operator session holds the database and moves the
 * generation when it lets go (a raw-protocol session's notifications do not reach the callback).
 */
export class CredentialWatch {
  generation = 0;
  /** Proofs received (a test reads it). */
  proofs = 0;
  private proven = false;
  private operatorHolds = 0;
  private awaiting?: string;
  private client?: pg.Client;
  private unsubscribe?: () => void;
  private stopTimer?: () => void;
  private closed = false;
  private work: Promise<unknown> = Promise.resolve();
  /** This process's statements writing credentials, running outside a transaction (by knex query uid). */
  private readonly runningWrites = new Set<string>();
  /** This process's open transactions that wrote credentials (by knex transaction id). */
  private readonly dirtyTransactions = new Set<string>();
  /** Commits of such transactions whose notification has not come back yet. */
  private awaitingOwn = 0;

  constructor(private readonly db: Database, private readonly clock: Clock) {
    // This process's own writes are not left to the notification's trip: from the write statement
    // until its commit's notification has come back the cache is not used (so the request after a
    // revocation through this process never meets the entry, whatever the notification's timing).
    const knex = db.knex;
    knex.on('query', (q: KnexQueryEvent) => {
      if (OWN_CREDENTIAL_WRITE.test(q.sql) && !LAST_USED_ONLY.test(q.sql)) {
        this.invalidate();
        if (q.__knexTxId) this.dirtyTransactions.add(q.__knexTxId);
        else if (q.__knexQueryUid) this.runningWrites.add(q.__knexQueryUid);
      } else if (q.__knexTxId && this.dirtyTransactions.has(q.__knexTxId) && /^\s*(COMMIT|ROLLBACK)\b/i.test(q.sql)) {
        this.dirtyTransactions.delete(q.__knexTxId);
        this.invalidate();
        if (/^\s*COMMIT\b/i.test(q.sql)) this.awaitingOwn++;
      }
    });
    const done = (_: unknown, q: KnexQueryEvent) => {
      if (q.__knexQueryUid && this.runningWrites.delete(q.__knexQueryUid)) this.invalidate();
    };
    knex.on('query-response', done);
    knex.on('query-error', done);
  }

  get live(): boolean {
    return this.proven && this.operatorHolds === 0 && this.runningWrites.size === 0 && this.dirtyTransactions.size === 0 && this.awaitingOwn === 0 && !this.closed;
  }

  /** Something authentication reads may have changed: every copy taken before now is stale. */
  invalidate(): void {
    this.generation++;
  }

  /** The embedded engine's operator socket holds (true) or released (false) the database. */
  operatorHold(held: boolean): void {
    this.operatorHolds += held ? 1 : -1;
    this.invalidate();
  }

  async start(): Promise<void> {
    this.stopTimer = this.clock.every(CREDENTIAL_PROOF_EVERY_MS, () => void this.tick());
    await this.run(() => this.connect());
  }

  private run(step: () => Promise<void>): Promise<void> {
    const next = this.work.then(step).catch(() => this.lost());
    this.work = next;
    return next;
  }

  private onMessage(payload: string): void {
    if (payload.startsWith('nonce:')) {
      if (this.awaiting !== undefined && payload === `nonce:${this.awaiting}`) {
        this.awaiting = undefined;
        this.proven = true;
        this.proofs++;
        this.awaitingOwn = 0; // a commit whose notification did not come before the proof never committed
      }
      return; // another process's proof
    }
    if (this.awaitingOwn > 0) this.awaitingOwn--;
    this.invalidate();
  }

  private lost(): void {
    this.proven = false;
    this.awaiting = undefined;
    this.invalidate();
    const c = this.client;
    this.client = undefined;
    if (c) void c.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    if (this.db.pglite) {
      if (!this.unsubscribe) {
        // LISTEN through knex: on the one connection, never inside an operator session's transaction.
        await this.db.knex.raw(`LISTEN ${CREDENTIALS_CHANNEL}`);
        this.unsubscribe = this.db.pglite.onNotification((channel, payload) => {
          if (channel === CREDENTIALS_CHANNEL) this.onMessage(payload);
        });
      }
    } else if (this.db.url) {
      const client = new pg.Client({ connectionString: this.db.url });
      client.on('notification', (m) => {
        if (m.channel === CREDENTIALS_CHANNEL) this.onMessage(m.payload ?? '');
      });
      const gone = () => {
        if (this.client === client) this.lost();
      };
      client.on('error', gone);
      client.on('end', gone);
      await client.connect();
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
    } else {
      return; // reached through a running server: never live, every lookup asks the database
    }
    await this.prove();
  }

  private async prove(): Promise<void> {
    const nonce = randomBytes(16).toString('hex');
    this.awaiting = nonce;
    await this.db.knex.raw('SELECT pg_notify(?, ?)', [CREDENTIALS_CHANNEL, `nonce:${nonce}`]);
  }

  /** Every period: a proof still unanswered means notifications may not be reaching us. */
  private tick(): void {
    if (this.closed) return;
    void this.run(async () => {
      const connected = this.db.pglite ? !!this.unsubscribe : !!this.client;
      if (!connected || this.awaiting !== undefined) {
        this.lost();
        await this.connect();
      } else {
        await this.prove();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer?.();
    await this.work.catch(() => {});
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const c = this.client;
    this.client = undefined;
    if (c) await c.end().catch(() => {});
  }
}

/**
 * Starts the credential listener of `db` (once; it never rejects: a failure leaves it not live); closed by `db.close()`.
 * An app built over no database (the architecture check builds one to read its pipeline) has nothing to watch.
 */
export async function watchCredentials(db: Database, clock: Clock): Promise<CredentialWatch | undefined> {
  if (db.credentialWatch) return db.credentialWatch;
  if (!db.knex) return undefined;
  const watch = new CredentialWatch(db, clock);
  db.credentialWatch = watch;
  await watch.start();
  return watch;
}

// Both engines return the same JS types: int8 and numeric as numbers (counts and money in dollars,
// which fit a double exactly to the cent), `date` as the 'YYYY-MM-DD' string it is (never a Date
// shifted by the process time zone), timestamps as Date.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);
/**
 * Extensions every embedded database loads (migration 0021 creates pg_trgm: the trigram indexes of
 * deal search). A data folder that has them must be opened with them.
 */
export const pgliteExtensions = { pg_trgm };

export const pgliteParsers = {
  [INT8]: (v: string) => Number(v),
  [NUMERIC]: (v: string) => Number(v),
  [DATE]: (v: string) => v,
};

export interface PostgresLimits {
  /** Connections in the pool. */
  poolMax?: number;
  /**
   * The longest one statement may run before PostgreSQL cancels it (SQLSTATE 57014), and the longest
   * a session may sit idle inside a transaction: one slow query or a stuck request cannot hold a
   * connection for ever. Unset: no limit (operator tools, migrations run apart).
   */
  statementTimeoutMs?: number;
  /** The longest a query waits for a free connection (knex's default is 60 s). */
  acquireTimeoutMs?: number;
}

/**
 * Knex's own log lines. Its default logger writes them with console.log, on stdout, where an
 * operator tool's result is (the seed's one JSON line): a pool timeout in a background exchange once
 * broke that line. "Acquire connection error" is dropped (the same error is thrown to the query that
 * waited, whose caller decides; a background exchange retries); anything else goes to stderr.
 */
export const knexLog = {
  warn(message: string) {
    if (String(message).startsWith('Acquire connection error')) return;
    process.stderr.write(`knex: ${String(message)}\n`);
  },
  error(message: string) {
    process.stderr.write(`knex: ${String(message)}\n`);
  },
  deprecate(message: string) {
    process.stderr.write(`knex: ${String(message)}\n`);
  },
  debug() {},
};

export function openPostgres(url: string, limits: PostgresLimits = {}, listenUrl?: string): Database {
  const t = limits.statementTimeoutMs;
  const knex = knexFactory({
    client: 'pg',
    log: knexLog,
    connection: t ? { connectionString: url, statement_timeout: t, idle_in_transaction_session_timeout: Math.max(t, 1000) * 2 } : url,
    pool: { min: 0, max: limits.poolMax ?? 10 },
    ...(limits.acquireTimeoutMs ? { acquireConnectionTimeout: limits.acquireTimeoutMs } : {}),
  });
  const db: Database = {
    knex,
    engine: 'pg',
    url: listenUrl ?? url,
    close: async () => {
      for (const hook of db.beforeClose?.splice(0) ?? []) await hook().catch(() => {});
      await db.credentialWatch?.close();
      await knex.destroy();
    },
  };
  return db;
}

/** An embedded database from an existing PGlite instance (tests load one from a migrated template). */
export function wrapPglite(pglite: PGlite, onClose?: () => void): Database {
  const knex = knexFactory({ client: ClientPGLite as unknown as typeof knexFactory.Client, connection: { pglite } as never, log: knexLog });
  const db: Database = {
    knex,
    engine: 'pglite',
    pglite,
    close: async () => {
      for (const hook of db.beforeClose?.splice(0) ?? []) await hook().catch(() => {});
      await db.credentialWatch?.close();
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
      onClose?.();
    },
  };
  return db;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The data folder is locked by another live process. */
export class DataDirInUseError extends Error {
  constructor(readonly dir: string, readonly pid: number, detail?: string) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}${detail ? ` (${detail})` : ''}. ` +
        'PGlite allows one process per data folder: stop that process, or set DATA_DIR to another folder, or use PostgreSQL with DATABASE_URL.',
    );
  }
}

export const LOCK_FILE = 'svc.lock';

function readPid(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/**
 * Takes `svc.lock` (our pid) with an exclusive create, so two processes starting together cannot both
 * win. A lock left by a dead process (a server killed with -9) is taken over.
 */
function takeLock(dir: string): string {
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      return lock;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = readPid(lock);
    if (pid && pid !== process.pid && pidAlive(pid)) throw new DataDirInUseError(dir, pid);
    // Stale (dead pid, our own pid, or a lock whose writer died before writing): take it over.
    rmSync(lock, { force: true });
  }
  throw new Error(`Could not take the lock ${lock}: other processes keep taking it`);
}

/**
 * The embedded engine on a data folder. PGlite is one process and one connection: two processes on
 * one folder silently lose data, so a lock file with our pid guards the folder.
 */
export async function openPgliteDir(dataDir: string): Promise<Database> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const lock = takeLock(dir);
  rmSync(join(dir, SOCKET_ADVERT_FILE), { force: true }); // we own the folder now: any advertisement is stale
  try {
    const pglite = new PGlite(join(dir, 'pgdata'), { parsers: pgliteParsers, extensions: pgliteExtensions });
    await pglite.waitReady;
    return wrapPglite(pglite, () => rmSync(lock, { force: true }));
  } catch (e) {
    rmSync(lock, { force: true });
    throw e;
  }
}

/** The server's own database: PostgreSQL, or the embedded engine in `dataDir` (which it then owns). */
export async function openDatabase(opts: { databaseUrl?: string; databaseListenUrl?: string; dataDir: string; limits?: PostgresLimits }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.limits, opts.databaseListenUrl) : openPgliteDir(opts.dataDir);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * For operator tools (CLI, seed): like `openDatabase`, but when the embedded data folder is owned by
 * a running server, connect through the socket that server advertises in the folder instead of
 * failing. A server that is still starting is given `waitMs` to advertise its socket.
 */
export async function openOperatorDatabase(opts: { databaseUrl?: string; dataDir: string; waitMs?: number }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const dir = resolve(opts.dataDir);
  const deadline = Date.now() + (opts.waitMs ?? 20_000);
  for (;;) {
    let busy: DataDirInUseError;
    try {
      return await openPgliteDir(dir);
    } catch (e) {
      if (!(e instanceof DataDirInUseError)) throw e;
      busy = e;
    }
    const advert = readSocketAdvert(dir);
    if (advert && advert.pid === busy.pid) {
      const db = await connectToServer(advert);
      if (db) return db;
      // Refused: the server died after our look at the lock (its lock is stale now: try again), or it is stopping.
      if (pidAlive(busy.pid)) throw new DataDirInUseError(dir, busy.pid, `its operator socket ${advert.socket} does not answer`);
    }
    if (Date.now() > deadline) {
      throw new DataDirInUseError(dir, busy.pid, 'and it offers no operator socket: it may be a server of an older version, or still starting');
    }
    await sleep(200); // a server still starting advertises its socket once it is ready
  }
}

/**
 * The running server's embedded database over its unix socket, with the `pg` client (one connection,
 * as on PGlite). Every process's such connection is the ONE PGlite session: its statements are never
 * named (`neverNameStatements`; a name would outlive this process there and meet the next one's).
 * Exported for prepared.test.ts; operator tools reach it through `openOperatorDatabase`.
 */
export async function connectToServer(advert: SocketAdvert): Promise<Database | undefined> {
  const knex = neverNameStatements(knexFactory({ client: 'pg', connection: socketConnection(advert.socket), pool: { min: 0, max: 1 }, log: knexLog }));
  try {
    await knex.raw('select 1');
  } catch (e) {
    await knex.destroy();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ENOENT') return undefined;
    throw e;
  }
  return { knex, engine: 'pglite', viaServer: { pid: advert.pid, socket: advert.socket }, close: () => knex.destroy() };
}
