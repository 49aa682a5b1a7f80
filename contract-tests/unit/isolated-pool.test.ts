import { afterEach, describe, expect, it } from 'vitest';
import { IsolatedPool } from '../../src/lib/isolated';

// The warm pool's recycling (src/lib/isolated.ts): a process is replaced after a job that leaves it
// above the soft memory mark, the pool's or the job's own (a scan keeps tesseract loaded on purpose:
// src/features/statements/extract.ts), and a job takes an idle process that last ran its kind.
// Real child processes (contract-tests/support/pool-child.mjs), each job holding more memory.
const CHILD = new URL('../support/pool-child.mjs', import.meta.url);
const pools: IsolatedPool[] = [];
const make = (size = 1) => {
  const p = new IsolatedPool(CHILD, { size, maxJobs: 50, softRssMb: 100, maxHeapMb: 128, maxMemoryMb: 400 });
  pools.push(p);
  return p;
};
afterEach(() => pools.splice(0).forEach((p) => p.close()));
const pid = async (p: IsolatedPool, holdMb: number, o: { softRssMb?: number; kind?: string } = {}) => {
  const r = await p.run<{ pid: number }>({ holdMb }, { timeoutMs: 20_000, ...o });
  if (!r.ok) throw new Error(r.reason);
  return { pid: r.value.pid, peakRssMb: r.peakRssMb };
};

describe('the warm pool keeps or replaces a process by what its job left', () => {
  it("a job left above the pool's soft mark has its process replaced; with a job's own higher mark it is kept", async () => {
    const p = make();
    const a = await pid(p, 0);
    expect((await pid(p, 0)).pid).toBe(a.pid);
    const big = await pid(p, 120);
    expect(big.pid).toBe(a.pid);
    expect(big.peakRssMb).toBeGreaterThan(100);
    // Left at about 160 MB, over the pool's 100: the next job runs in a fresh process.
    expect((await pid(p, 0)).pid).not.toBe(a.pid);
    const b = await pid(p, 120, { softRssMb: 250 });
    expect((await pid(p, 0, { softRssMb: 250 })).pid).toBe(b.pid);
    // A job's own mark is never above the process's hard cap.
    const c = await pid(p, 0, { softRssMb: 10_000 });
    expect(c.pid).toBe(b.pid);
  });

  it('a job takes the idle process that last ran a job of its kind', async () => {
    const p = make(2);
    const [x, y] = await Promise.all([pid(p, 0, { kind: 'ocr' }), pid(p, 0, { kind: 'text' })]);
    expect(x.pid).not.toBe(y.pid);
    for (let i = 0; i < 3; i++) {
      expect((await pid(p, 0, { kind: 'ocr' })).pid).toBe(x.pid);
      expect((await pid(p, 0, { kind: 'text' })).pid).toBe(y.pid);
    }
  });

  it('one job after another: a job of another kind gets a process of its own while the pool has room', async () => {
    const p = make(2);
    const x = await pid(p, 0, { kind: 'ocr' });
    const y = await pid(p, 0, { kind: 'text' });
    expect(y.pid).not.toBe(x.pid);
    for (let i = 0; i < 3; i++) {
      expect((await pid(p, 0, { kind: 'ocr' })).pid).toBe(x.pid);
      expect((await pid(p, 0, { kind: 'text' })).pid).toBe(y.pid);
    }
    // A pool of one: the job takes the idle process of the other kind.
    const q = make(1);
    const a = await pid(q, 0, { kind: 'ocr' });
    expect((await pid(q, 0, { kind: 'text' })).pid).toBe(a.pid);
  });
});
