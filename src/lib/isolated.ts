import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';

// Work on untrusted files (a statement PDF read with pdf.js, a submission package built from
// merchant PDFs with pdf-lib) runs in a CHILD PROCESS with real bounds, so that nothing in a file can
// exhaust this process's memory or stall its event loop:
// - memory: V8's heap capped with --max-old-space-size, and the whole process's private writable
//   memory (heap, ArrayBuffers, native buffers) capped by the kernel: the child is started through
//   util-linux `prlimit --data=N` when it exists (an allocation over the cap fails inside the child);
//   in any case its resident size is read from /proc/<pid>/status every 20 ms and the child is
//   killed past the same cap (also where prlimit is missing).
// - time: a wall-clock limit, after which the child is killed (SIGKILL).
// - output: at most `maxOutputBytes` read back.
// Input and output cross stdin/stdout as one v8-serialized value each (Dates and Uint8Arrays
// survive). The child's entry is a plain module beside the caller: `<name>.ts` run through tsx when
// the caller runs from source (vitest, tsx), `<name>.mjs` when it runs from the bundle in dist/
// (scripts/build.mjs bundles every entry there).

export interface IsolationLimits {
  timeoutMs: number;
  /** V8 heap of the child (--max-old-space-size). */
  maxHeapMb: number;
  /** Everything the child may hold (resident size, and private writable memory through prlimit). */
  maxMemoryMb: number;
  maxOutputBytes?: number;
  /** Aborting kills the child (reported as `timeout`). */
  signal?: AbortSignal;
}

export type IsolatedResult<T> =
  | { ok: true; value: T; peakRssMb: number }
  /**
   * `heap`: out of V8 heap; `memory`: killed or failed past the process's memory cap; `timeout`:
   * killed at the time limit; `crashed`: ended otherwise without an answer.
   */
  | { ok: false; reason: 'timeout' | 'heap' | 'memory' | 'crashed'; peakRssMb: number };

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p)) ?? null;
const RSS_POLL_MS = 20;

/** Whether the kernel cap (prlimit) is used; the RSS watch applies either way. */
export const kernelMemoryCap = PRLIMIT !== null && process.platform === 'linux';

/**
 * The entry `name` beside the module at `metaUrl`: `.ts` from source and `.mjs` from the bundle, or
 * `.mjs` in both when `plain` (a plain-JavaScript entry, which starts faster: no tsx).
 */
export function childEntry(name: string, metaUrl: string, o: { plain?: boolean } = {}): URL {
  return new URL(`./${name}${metaUrl.endsWith('.ts') && !o.plain ? '.ts' : '.mjs'}`, metaUrl);
}

function readStatus(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Runs `entry` in a child process on `input` under `limits`. Never throws for anything the child does. */
export function runIsolated<T>(entry: URL, input: unknown, limits: IsolationLimits): Promise<IsolatedResult<T>> {
  const file = fileURLToPath(entry);
  const maxMemory = limits.maxMemoryMb * 1024 * 1024;
  const maxOutput = limits.maxOutputBytes ?? 64 * 1024 * 1024;
  const nodeArgs = [`--max-old-space-size=${limits.maxHeapMb}`, '--max-semi-space-size=16', ...(file.endsWith('.ts') ? ['--import', 'tsx'] : []), file];
  const [cmd, args] = kernelMemoryCap ? [PRLIMIT!, [`--data=${maxMemory}`, '--core=0', '--', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? '' } });
    let peak = 0;
    let killedFor: 'timeout' | 'memory' | null = null;
    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = '';
    let settled = false;
    const kill = (why: 'timeout' | 'memory') => {
      if (killedFor) return;
      killedFor = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    const onAbort = () => kill('timeout');
    if (limits.signal?.aborted) onAbort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    const watch = setInterval(() => {
      const s = child.pid ? readStatus(child.pid) : null;
      if (!s) return;
      peak = Math.max(peak, s.hwm, s.rss);
      if (s.rss > maxMemory) kill('memory');
    }, RSS_POLL_MS);
    const finish = (r: IsolatedResult<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      limits.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > maxOutput) return kill('memory');
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      errTail = (errTail + c.toString('latin1')).slice(-4096);
    });
    child.stdin.on('error', () => undefined); // the child may die before it read everything
    child.on('error', () => finish({ ok: false, reason: 'crashed', peakRssMb: mb(peak) }));
    child.on('close', (code, signal) => {
      const peakRssMb = mb(peak);
      if (killedFor) return finish({ ok: false, reason: killedFor, peakRssMb });
      if (code === 0 && !signal) {
        try {
          return finish({ ok: true, value: deserialize(Buffer.concat(out)) as T, peakRssMb });
        } catch {
          return finish({ ok: false, reason: 'crashed', peakRssMb });
        }
      }
      // V8 reports a heap or allocation failure on stderr before it aborts.
      const reason = /heap limit|JavaScript heap out of memory/i.test(errTail) ? 'heap' : /out of memory|allocation failed/i.test(errTail) ? 'memory' : 'crashed';
      finish({ ok: false, reason, peakRssMb });
    });
    child.stdin.end(serialize(input));
  });
}

const mb = (n: number) => Math.round(n / (1024 * 1024));

/** In the child: the input value (read whole from stdin). */
export async function readChildInput<T>(): Promise<T> {
  const parts: Buffer[] = [];
  for await (const c of process.stdin) parts.push(c as Buffer);
  return deserialize(Buffer.concat(parts)) as T;
}

/** In the child: writes the answer and exits once it is flushed. */
export function writeChildOutput(value: unknown): void {
  process.stdout.write(serialize(value), () => process.exit(0));
}
