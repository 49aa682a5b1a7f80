import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

// What the benchmarks (scripts/bench.ts, scripts/bench-webhooks.ts) share: the PostgreSQL admin
// address, a free loopback port, and starting and stopping the server's processes.

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

/** SIGTERM, then waits for the exit (at most `waitMs`). */
export async function stopProc(p: Proc, waitMs = 20_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await Promise.race([exited, sleep(waitMs)]);
}
