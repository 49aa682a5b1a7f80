/**
 * The running server's embedded database, offered to the operator tools (CLI, seed) of the same
 * user over a unix socket in the data folder, so they work while the server runs.
 *
 * Why not `PGLiteSocketServer` from @electric-sql/pglite-socket: it runs each wire-protocol message
 * under `pglite.runExclusive`, one message at a time, but knows nothing of the server's own use of
 * the same PGlite through knex-pglite, whose transactions are separate BEGIN / ... / COMMIT calls.
 * PGlite is ONE backend session, so a socket client's statement ran inside the server's open
 * transaction (and was lost when the server rolled back), and the server's statements ran inside a
 * socket client's transaction (and were lost when the client rolled back). Both were reproduced.
 *
 * The safe rule here: a socket client runs only while it holds the server's single knex connection
 * (knex-pglite has a pool of exactly one). It takes that connection, through the same pool queue as
 * the server's requests, before its first message, and gives it back only when PGlite answers
 * ReadyForQuery with status Idle, that is when no transaction and no extended-protocol sequence of
 * that client is open. A knex transaction of the server holds the same connection from BEGIN to
 * COMMIT. So a transaction is never entered by the other side, in either direction. A client that
 * disconnects mid-transaction is rolled back before the connection is given back, and one that
 * holds it longer than `holdTimeoutMs` is disconnected (and rolled back), so the server never waits
 * on an operator for long.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';

/** The advertisement, next to `svc.lock`: which process serves the folder, and where. */
export const SOCKET_ADVERT_FILE = 'svc.socket';
export interface SocketAdvert {
  pid: number;
  socket: string;
}

// libpq naming (`<dir>/.s.PGSQL.<port>`), so `pg` reaches it with host=<dir>, port=<port>.
const SOCKET_NAME = '.s.PGSQL.5432';
// sun_path holds 108 bytes on Linux and 104 on macOS, terminator included.
const MAX_SOCKET_PATH = 100;

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE = 256 * 1024 * 1024;
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);

export function readSocketAdvert(dataDir: string): SocketAdvert | undefined {
  try {
    const a = JSON.parse(readFileSync(join(dataDir, SOCKET_ADVERT_FILE), 'utf8')) as Partial<SocketAdvert>;
    if (typeof a.pid === 'number' && typeof a.socket === 'string' && existsSync(a.socket)) return { pid: a.pid, socket: a.socket };
  } catch {
    // absent or half-written: no advertisement
  }
  return undefined;
}

/** knex/pg connection settings for a socket path written by `serveEmbeddedSocket`. */
export function socketConnection(socket: string): { host: string; port: number; user: string; database: string } {
  const port = Number(/^\.s\.PGSQL\.(\d+)$/.exec(basename(socket))?.[1] ?? 5432);
  return { host: dirname(socket), port, user: 'postgres', database: 'postgres' };
}

function simpleQuery(sql: string): Uint8Array {
  const body = Buffer.from(`${sql}\0`, 'utf8');
  const msg = Buffer.alloc(5 + body.length);
  msg.write('Q', 0, 'latin1');
  msg.writeInt32BE(4 + body.length, 1);
  body.copy(msg, 5);
  return msg;
}

/** A FATAL ErrorResponse, as PostgreSQL sends before closing a connection it terminates. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const msg = Buffer.alloc(5 + fields.length);
  msg.write('E', 0, 'latin1');
  msg.writeInt32BE(4 + fields.length, 1);
  fields.copy(msg, 5);
  return msg;
}

/** Follows the backend's message stream across chunks and reports each ReadyForQuery status ('I', 'T' or 'E'). */
class ReadyScanner {
  private head: Buffer = Buffer.alloc(0);
  private left = 0;
  private type = 0;
  feed(data: Uint8Array, onReady: (status: string) => void): void {
    let i = 0;
    while (i < data.length) {
      if (this.left > 0) {
        if (this.type === 0x5a && this.left === 1) onReady(String.fromCharCode(data[i]));
        const n = Math.min(this.left, data.length - i);
        i += n;
        this.left -= n;
        continue;
      }
      const take = data.subarray(i, i + 5 - this.head.length);
      this.head = Buffer.concat([this.head, take]);
      i += take.length;
      if (this.head.length === 5) {
        this.type = this.head[0];
        this.left = this.head.readInt32BE(1) - 4;
        this.head = Buffer.alloc(0);
      }
    }
  }
}

interface Gate {
  pglite: PGlite;
  knex: Knex;
  holdTimeoutMs: number;
  log(msg: string, extra?: Record<string, unknown>): void;
  /**
   * An operator session took (true) or gave back (false) the database. The credential cache is not
   * used meanwhile, and is dropped when it gives back: an operator may have revoked a key, and the
   * raw protocol's notifications go to the operator, not to the server's listener.
   */
  hold(held: boolean): void;
}

/** One operator connection. Its messages run in order, each only while it holds the server's connection. */
class Session {
  private buf: Buffer = Buffer.alloc(0);
  private started = false;
  private closed = false;
  private aborted = false;
  private chain: Promise<void> = Promise.resolve();
  private held: unknown = null;
  private holdTimer?: NodeJS.Timeout;
  private openSequence = false;
  private readonly scanner = new ReadyScanner();
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(private readonly socket: Socket, private readonly gate: Gate) {
    this.done = new Promise((r) => (this.resolveDone = r));
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', () => this.end());
    socket.on('close', () => this.end());
  }

  private queue(step: () => Promise<void> | void): void {
    this.chain = this.chain.then(step).catch((err) => {
      this.gate.log('operator connection failed', { err: err instanceof Error ? err.message : String(err) });
      this.socket.destroy();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (!this.started) {
        if (this.buf.length < 8) return;
        const len = this.buf.readInt32BE(0);
        const code = this.buf.readInt32BE(4);
        if (len < 8 || len > 10_000) return void this.socket.destroy();
        if (this.buf.length < len) return;
        const msg = this.buf.subarray(0, len);
        this.buf = this.buf.subarray(len);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.queue(() => void this.socket.write('N')); // no TLS on a local socket
        } else if (code === CANCEL_REQUEST) {
          return void this.socket.destroy(); // PGlite has nothing to cancel
        } else {
          this.started = true;
          this.queue(() => this.run(msg, 0));
        }
      } else {
        if (this.buf.length < 5) return;
        const len = this.buf.readInt32BE(1);
        if (len < 4 || len > MAX_MESSAGE) return void this.socket.destroy();
        if (this.buf.length < 1 + len) return;
        const msg = this.buf.subarray(0, 1 + len);
        this.buf = this.buf.subarray(1 + len);
        const type = msg[0];
        if (type === 0x58) return void this.socket.end(); // Terminate: 'close' rolls back and releases
        this.queue(() => this.run(msg, type));
      }
    }
  }

  private async run(msg: Uint8Array, type: number): Promise<void> {
    // Messages received before a disconnect still run, in order (a pipelined COMMIT then Terminate
    // commits, as on PostgreSQL); after a hold timeout nothing more runs.
    if (this.aborted) return;
    if (!this.held) {
      this.held = await this.gate.knex.client.acquireConnection();
      this.gate.hold(true);
      this.holdTimer = setTimeout(() => this.expire(), this.gate.holdTimeoutMs);
      this.holdTimer.unref();
    }
    let ready: string | undefined;
    const { pglite } = this.gate;
    await pglite.runExclusive(() =>
      pglite.execProtocolRawStream(msg, {
        onRawData: (data) => {
          this.scanner.feed(data, (status) => (ready = status));
          if (!this.socket.destroyed) this.socket.write(Buffer.from(data));
        },
      }),
    );
    // Parse/Bind/Describe/Execute/Flush open a sequence that only Sync (or a simple Query) closes.
    this.openSequence = type !== 0 && type !== 0x53 && type !== 0x51;
    if (ready === 'I') this.release();
  }

  private expire(): void {
    if (this.closed || !this.held) return;
    this.aborted = true;
    this.gate.log('operator connection held the database too long; disconnecting it and rolling back', { ms: this.gate.holdTimeoutMs });
    this.socket.end(fatal('25P03', `terminating connection: it kept the embedded database busy for more than ${this.gate.holdTimeoutMs} ms (the server waits meanwhile)`));
    this.socket.destroySoon();
  }

  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    const conn = this.held;
    this.held = null;
    if (conn) {
      this.gate.hold(false);
      void this.gate.knex.client.releaseConnection(conn);
    }
  }

  /** The client is gone: after its last message, close what it left open, then give the connection back. */
  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue(async () => {
      if (this.held) {
        const { pglite } = this.gate;
        await pglite.runExclusive(async () => {
          const discard = { onRawData: () => {} };
          if (this.openSequence) await pglite.execProtocolRawStream(SYNC, discard);
          if (pglite.isInTransaction()) await pglite.execProtocolRawStream(simpleQuery('ROLLBACK'), discard);
        });
      }
    });
    this.chain = this.chain.finally(() => {
      this.release();
      this.resolveDone();
    });
  }

  /** The server is stopping: nothing more of this client runs; what it left open is rolled back. */
  destroy(): void {
    this.aborted = true;
    this.socket.destroy();
  }
}

export interface EmbeddedSocket {
  /** The socket path (also advertised in `<dataDir>/svc.socket`). */
  path: string;
  /** Stops accepting, disconnects operators (rolling back what they left open), removes the advertisement. */
  close(): Promise<void>;
}

/**
 * Serves `db` (the embedded engine this process owns) on a unix socket reachable only by this user:
 * `<dataDir>/run/.s.PGSQL.5432` in a 0700 folder (or a private folder in the system temp folder when
 * that path is too long for a socket), advertised with our pid in `<dataDir>/svc.socket`.
 */
export async function serveEmbeddedSocket(
  // The parts of engine.ts's Database it serves (engine.ts imports this file: no import back).
  db: { knex: Knex; pglite?: PGlite; credentialWatch?: { operatorHold(held: boolean): void } },
  dataDir: string,
  opts: { holdTimeoutMs?: number; maxConnections?: number; log?: Gate['log'] } = {},
): Promise<EmbeddedSocket> {
  if (!db.pglite) throw new Error('serveEmbeddedSocket needs the embedded engine opened by this process');
  const dir = resolve(dataDir);
  let runDir = join(dir, 'run');
  let ownRunDir = false;
  if (Buffer.byteLength(join(runDir, SOCKET_NAME)) > MAX_SOCKET_PATH) {
    runDir = mkdtempSync(join(tmpdir(), 'svc-sock-'));
    ownRunDir = true;
  } else {
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
  }
  chmodSync(runDir, 0o700);
  const path = join(runDir, SOCKET_NAME);
  rmSync(path, { force: true }); // a socket left by a server that was killed (we hold the folder lock now)

  const gate: Gate = { pglite: db.pglite, knex: db.knex, holdTimeoutMs: opts.holdTimeoutMs ?? 15_000, log: opts.log ?? (() => {}), hold: (held) => db.credentialWatch?.operatorHold(held) };
  const sessions = new Set<Session>();
  const maxConnections = opts.maxConnections ?? 8;
  const server: Server = createServer((socket) => {
    if (sessions.size >= maxConnections) {
      socket.end(fatal('53300', 'too many operator connections'));
      return;
    }
    const s = new Session(socket, gate);
    sessions.add(s);
    void s.done.then(() => sessions.delete(s));
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(path, () => {
      server.off('error', rej);
      res();
    });
  });
  chmodSync(path, 0o600);

  const advertFile = join(dir, SOCKET_ADVERT_FILE);
  const tmp = `${advertFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, socket: path } satisfies SocketAdvert), { mode: 0o600 });
  renameSync(tmp, advertFile);

  let closing: Promise<void> | undefined;
  return {
    path,
    close: () =>
      (closing ??= (async () => {
        try {
          if ((JSON.parse(readFileSync(advertFile, 'utf8')) as SocketAdvert).pid === process.pid) rmSync(advertFile, { force: true });
        } catch {
          // already gone
        }
        const closed = new Promise<void>((r) => server.close(() => r()));
        const pending = [...sessions].map((s) => s.done);
        for (const s of sessions) s.destroy();
        await Promise.all(pending);
        await closed;
        rmSync(path, { force: true });
        if (ownRunDir) rmSync(runDir, { recursive: true, force: true });
      })()),
  };
}
