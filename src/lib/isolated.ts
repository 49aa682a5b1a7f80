import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

/**
 * A folder of bundled entries (scripts/build.mjs's output) to run a `.ts` entry from, as its
 * `<name>.mjs` there, instead of through tsx beside its source; null: from source. The api tests
 * set it to the bundle built at the start of their run (contract-tests/support/per-file.ts): the
 * same code `npm start` runs, started with plain node (about 0.6 CPU-s) instead of tsx (1.1-1.4),
 * and every emailed submission builds its package in such a child.
 */
let bundledEntries: string | null = null;
export function runEntriesFromBundle(dir: string | null): void {
  bundledEntries = dir;
}
function entryFile(entry: URL): string {
  const file = fileURLToPath(entry);
  return bundledEntries && file.endsWith('.ts') ? join(bundledEntries, `${basename(file, '.ts')}.mjs`) : file;
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
  const file = entryFile(entry);
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

// ------------------------------------------------------------------------------------ warm pool

export interface PoolOptions {
  /** Reader processes kept warm. */
  size: number;
  /** A process is replaced after this many jobs. */
  maxJobs: number;
  /** A process is replaced after a job that leaves it above this resident size (MB). */
  softRssMb: number;
  /** V8 heap of each process (--max-old-space-size). */
  maxHeapMb: number;
  /** Everything each process may hold (prlimit --data and the RSS watch), as for runIsolated. */
  maxMemoryMb: number;
}

interface PoolChild {
  child: ReturnType<typeof spawn>;
  jobs: number;
  busy: boolean;
  buf: Buffer;
  errTail: string;
  onFrame: ((b: Buffer) => void) | null;
  onExit: (() => void) | null;
  dead: boolean;
  /** The kind of the last job this process ran (`PoolJob.kind`). */
  kind: string | null;
}

/** One job's limits in a warm process. */
export interface PoolJob {
  timeoutMs: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /**
   * The soft mark for this job (MB, instead of the pool's `softRssMb`): a job that keeps more memory
   * on purpose (OCR's recognizer, kept for the next scan) may leave its process this large and
   * still have it kept; never above the pool's `maxMemoryMb`.
   */
  softRssMb?: number;
  /** What the job is: an idle process whose last job was of the same kind is taken first. */
  kind?: string;
}

/**
 * Warm child processes for `entry` (which must serve length-prefixed frames when ISOLATED_POOL=1),
 * so a job does not pay the process start. Every bound of runIsolated holds per job: the heap and
 * memory caps are set when a process starts (and the RSS watch runs during each job); a job past its
 * time limit, its output limit or the memory cap has its process killed (the job fails as it would
 * alone) and a fresh process takes its place. A process is also retired after `maxJobs` jobs or when
 * a job leaves it above `softRssMb` (or the job's own soft mark). A job takes an idle process whose
 * last job was of its kind first, else a fresh process while the pool has room, else another idle one. Idle processes do not keep the event loop alive.
 */
export class IsolatedPool {
  private idle: PoolChild[] = [];
  private live = 0;
  private waiting: Array<(c: PoolChild) => void> = [];
  constructor(private readonly entry: URL, readonly o: PoolOptions) {}

  private spawnChild(): PoolChild {
    const file = entryFile(this.entry);
    const nodeArgs = [`--max-old-space-size=${this.o.maxHeapMb}`, '--max-semi-space-size=16', file];
    const maxMemory = this.o.maxMemoryMb * 1024 * 1024;
    const [cmd, args] = kernelMemoryCap ? [PRLIMIT!, [`--data=${maxMemory}`, '--core=0', '--', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? '', ISOLATED_POOL: '1' } });
    const pc: PoolChild = { child, jobs: 0, busy: false, buf: Buffer.alloc(0), errTail: '', onFrame: null, onExit: null, dead: false, kind: null };
    child.stdout!.on('data', (c: Buffer) => {
      pc.buf = pc.buf.length ? Buffer.concat([pc.buf, c]) : c;
      while (pc.buf.length >= 4 && pc.buf.length >= 4 + pc.buf.readUInt32LE(0)) {
        const n = pc.buf.readUInt32LE(0);
        const frame = pc.buf.subarray(4, 4 + n);
        pc.buf = pc.buf.subarray(4 + n);
        pc.onFrame?.(frame);
      }
    });
    child.stderr!.on('data', (c: Buffer) => {
      pc.errTail = (pc.errTail + c.toString('latin1')).slice(-4096);
    });
    child.stdin!.on('error', () => undefined);
    const gone = () => {
      if (pc.dead) return;
      pc.dead = true;
      this.live--;
      this.idle = this.idle.filter((x) => x !== pc);
      pc.onExit?.();
      // A job waiting for a process (every place was taken, this one by a process retired and not
      // yet gone) gets a fresh one in its place.
      const next = this.live < this.o.size ? this.waiting.shift() : undefined;
      if (next) next(this.spawnChild());
    };
    child.on('error', gone);
    child.on('close', gone);
    this.live++;
    this.unref(pc);
    return pc;
  }
  private unref(pc: PoolChild) {
    pc.child.unref();
    for (const s of [pc.child.stdin, pc.child.stdout, pc.child.stderr]) (s as unknown as { unref?: () => void })?.unref?.();
  }
  private ref(pc: PoolChild) {
    pc.child.ref();
    for (const s of [pc.child.stdin, pc.child.stdout, pc.child.stderr]) (s as unknown as { ref?: () => void })?.ref?.();
  }
  private acquire(kind: string | null): Promise<PoolChild> {
    // The idle process that last ran a job of this kind (a scan after a scan finds its recognizer
    // loaded; a text PDF does not take the memory a scan left), else a fresh one while the pool has
    // room (one job after another would otherwise all run in one process: a text PDF in the scan's
    // reader, which it then leaves above its soft mark, so every scan loaded tesseract again), else
    // the most recent one.
    let at = -1;
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i].kind === kind) {
        at = i;
        break;
      }
    }
    if (at < 0 && kind !== null && this.live < this.o.size) return Promise.resolve(this.spawnChild());
    if (at < 0) at = this.idle.length - 1;
    const c = at >= 0 ? this.idle.splice(at, 1)[0] : undefined;
    if (c) return Promise.resolve(c);
    if (this.live < this.o.size) return Promise.resolve(this.spawnChild());
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  private release(pc: PoolChild, retire: boolean) {
    pc.busy = false;
    pc.onFrame = null;
    pc.onExit = null;
    if (retire && !pc.dead) {
      pc.child.stdin!.end();
      pc.child.kill('SIGKILL');
    }
    const next = this.waiting.shift();
    if (next) {
      if (!retire && !pc.dead) return next(pc);
      // The retired process's place goes to a fresh one (its exit is counted when it closes).
      if (!pc.dead) this.live--, (pc.dead = true);
      return next(this.spawnChild());
    }
    if (!retire && !pc.dead) {
      this.unref(pc);
      this.idle.push(pc);
    }
  }

  /** Runs one job; the same answers as runIsolated (never throws for anything the child does). */
  async run<T>(input: unknown, limits: PoolJob): Promise<IsolatedResult<T>> {
    const pc = await this.acquire(limits.kind ?? null);
    pc.busy = true;
    pc.kind = limits.kind ?? null;
    const softRss = Math.min(limits.softRssMb ?? this.o.softRssMb, this.o.maxMemoryMb) * 1024 * 1024;
    pc.errTail = '';
    this.ref(pc);
    const maxMemory = this.o.maxMemoryMb * 1024 * 1024;
    const maxOutput = limits.maxOutputBytes ?? 64 * 1024 * 1024;
    return new Promise((resolve) => {
      let peak = 0;
      let killedFor: 'timeout' | 'memory' | null = null;
      let settled = false;
      const sample = () => {
        const s = pc.child.pid ? readStatus(pc.child.pid) : null;
        if (!s) return;
        peak = Math.max(peak, s.rss);
        if (s.rss > maxMemory) kill('memory');
      };
      const kill = (why: 'timeout' | 'memory') => {
        if (killedFor || settled) return;
        killedFor = why;
        pc.child.kill('SIGKILL');
      };
      const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
      const onAbort = () => kill('timeout');
      if (limits.signal?.aborted) onAbort();
      limits.signal?.addEventListener('abort', onAbort, { once: true });
      const watch = setInterval(sample, RSS_POLL_MS);
      const outWatch = setInterval(() => {
        if (pc.buf.length > maxOutput) kill('memory');
      }, RSS_POLL_MS);
      const finish = (r: IsolatedResult<T>, retire: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        clearInterval(outWatch);
        limits.signal?.removeEventListener('abort', onAbort);
        pc.jobs++;
        this.release(pc, retire || pc.jobs >= this.o.maxJobs || peak > softRss);
        resolve(r);
      };
      pc.onFrame = (frame) => {
        sample();
        const peakRssMb = mb(peak);
        if (frame.length > maxOutput) return finish({ ok: false, reason: 'memory', peakRssMb }, true);
        try {
          finish({ ok: true, value: deserialize(frame) as T, peakRssMb }, false);
        } catch {
          finish({ ok: false, reason: 'crashed', peakRssMb }, true);
        }
      };
      pc.onExit = () => {
        const peakRssMb = mb(peak);
        if (killedFor) return finish({ ok: false, reason: killedFor, peakRssMb }, true);
        const reason = /heap limit|JavaScript heap out of memory/i.test(pc.errTail) ? 'heap' : /out of memory|allocation failed/i.test(pc.errTail) ? 'memory' : 'crashed';
        finish({ ok: false, reason, peakRssMb }, true);
      };
      if (pc.dead) return pc.onExit();
      sample();
      const body = serialize(input);
      const head = Buffer.alloc(4);
      head.writeUInt32LE(body.length, 0);
      pc.child.stdin!.write(Buffer.concat([head, body]));
    });
  }

  /** Stops every idle process (busy ones finish their job first and are then retired). */
  close(): void {
    for (const pc of this.idle.splice(0)) {
      pc.child.stdin!.end();
      pc.child.kill('SIGKILL');
    }
  }
}
