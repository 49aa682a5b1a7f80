import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import knexFactory from 'knex';
import { openPostgres, pgliteExtensions, pgliteParsers, wrapPglite, type Database } from '../src/db/engine';

// What the benchmarks share: the PostgreSQL admin address, a free loopback port, starting and
// stopping the server's processes, and a scratch database for the in-process ones.

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const log = (msg: string) => process.stderr.write(`${msg}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  port: number;
  /** The first capture group of `ready` (e.g. the address the server prints); '' when none. */
  url: string;
  /** Milliseconds from spawn to `ready`. */
  startMs: number;
}

/** Spawns `script` (a dist/*.mjs bundle, or TypeScript through tsx) on a free PORT; resolves once stdout matches `ready`. */
export async function startProc(script: string, env: Record<string, string>, ready: RegExp, nodeArgs: string[] = [], cwd?: string): Promise<Proc> {
  const port = await freePort();
  const started = performance.now();
  const args = [...nodeArgs, ...(script.endsWith('.mjs') ? [] : ['--import', 'tsx']), script];
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errText = '';
  child.stderr!.on('data', (d) => (errText = (errText + d).slice(-20_000)));
  let url = '';
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d) => {
      text += d;
      const m = ready.exec(text);
      if (m) {
        url = m[1] ?? '';
        resolve();
      }
      if (text.length > 100_000) text = text.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${errText}`)));
  });
  return { child, port, url, startMs: performance.now() - started };
}

/**
 * The node flags `npm start` gives the server (package.json `scripts.start` of the checkout at `cwd`),
 * so a benchmark runs the bundle as production does, its memory settings included.
 */
export function startFlags(cwd = '.'): string[] {
  const start = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.findIndex((w) => w.endsWith('dist/server.mjs'))).filter((w) => w.startsWith('--'));
}

/** SIGTERM, then waits for the exit (at most `waitMs`). */
export async function stopProc(p: Proc, waitMs = 20_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await Promise.race([exited, sleep(waitMs)]);
}

/** A new, empty PostgreSQL database `name` on ADMIN_URL's server: its URL, and `drop` to remove it. */
export async function pgDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = knexFactory({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}

/**
 * A scratch database for an in-process benchmark: a new PostgreSQL database (`engine` pg, dropped by
 * `drop`) or a fresh in-memory embedded one.
 */
export async function scratchDatabase(engine: string, prefix: string): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (engine !== 'pg') return { db: wrapPglite(new PGlite({ parsers: pgliteParsers, extensions: pgliteExtensions })), drop: async () => undefined };
  const { url, drop } = await pgDatabase(`${prefix}_${Date.now()}`);
  return { db: openPostgres(url), drop };
}

/**
 * Migrates the database at `databaseUrl` with the migrations of the checkout in `dir` (its own CLI,
 * through tsx), so a server built from another revision finds the schema it expects.
 */
export function migrateCheckout(dir: string, databaseUrl: string, secretKey: string): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'migrate'], { cwd: dir, env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: secretKey }, stdio: 'ignore' });
}

/** Rows as a Markdown table, each column padded to its widest cell; one string per line. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/** The median of `xs` (the mean of the middle two when even); NaN when empty. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** CPU time (user + system, ms) a process has used so far: per request, a figure that a shared machine's load disturbs far less than requests per second. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  // After the command: state is field 3, utime 14 and stime 15 (1-based, man 5 proc), in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's memory in MB from /proc: `VmRSS` now, or `VmHWM`, its peak so far. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}
