import { Worker } from 'node:worker_threads';

// Text extraction of a PDF in a worker thread with a heap limit and a wall-clock limit (see
// ./pdf-text.worker.mjs). The result is every page's lines, each line its text runs with their x
// position, or a failure code. Never throws for anything in the file.

export interface Run {
  x: number;
  w: number;
  text: string;
}
export type ExtractFailure = 'encrypted' | 'unreadable' | 'too_many_pages' | 'timeout' | 'too_complex';
export type Extracted = { ok: true; pages: number; lines: Run[][][] } | { ok: false; code: ExtractFailure; pages: number | null };

const WORKER_URL = new URL('./pdf-text.worker.mjs', import.meta.url);

export function extractLines(bytes: Uint8Array, o: { maxPages: number; timeoutMs: number; maxHeapMb: number }): Promise<Extracted> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Extracted) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    };
    const copy = new Uint8Array(bytes); // the worker gets its own copy (pdf.js detaches what it is given)
    const worker = new Worker(WORKER_URL, {
      workerData: { bytes: copy, maxPages: o.maxPages },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    const timer = setTimeout(() => finish({ ok: false, code: 'timeout', pages: null }), o.timeoutMs);
    worker.on('message', (m: { ok: boolean; code?: ExtractFailure; pages?: number; lines?: Run[][][] }) => {
      if (m.ok) finish({ ok: true, pages: m.pages!, lines: m.lines! });
      else finish({ ok: false, code: m.code ?? 'unreadable', pages: m.pages ?? null });
    });
    worker.on('error', (err: Error & { code?: string }) => {
      finish({ ok: false, code: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too_complex' : 'unreadable', pages: null });
    });
    worker.on('exit', () => finish({ ok: false, code: 'unreadable', pages: null }));
  });
}
