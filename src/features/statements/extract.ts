import { childEntry, runIsolated } from '../../lib/isolated';

// Text extraction of a PDF in a child process (./pdf-text.child.mjs, run by src/lib/isolated.ts)
// with a heap limit, a whole-process memory limit (prlimit --data and an RSS watch: pdf.js inflates
// streams into ArrayBuffers that a heap limit does not count), a wall-clock limit after which the
// child is killed, and a budget for the bytes the file's streams decode to. The result is every
// page's lines, each line its text runs with their x position, or a failure code. Never throws for
// anything in the file.

export interface Run {
  x: number;
  w: number;
  text: string;
}
export type ExtractFailure = 'encrypted' | 'unreadable' | 'too_many_pages' | 'timeout' | 'too_complex' | 'resource_limit';
export type Extracted = { ok: true; pages: number; lines: Run[][][] } | { ok: false; code: ExtractFailure; pages: number | null };

export interface ExtractLimits {
  maxPages: number;
  timeoutMs: number;
  /** V8 heap of the child. */
  maxHeapMb: number;
  /** Everything the child may hold (heap, buffers, code). */
  maxMemoryMb: number;
  /** What the file's streams may decode to, in total. */
  maxDecodedBytes: number;
}

const CHILD = childEntry('pdf-text.child', import.meta.url, { plain: true });

/** Peak resident size of the last reader child (MB), for benchmarks and tests. */
export let lastPeakRssMb = 0;

export async function extractLines(bytes: Uint8Array, o: ExtractLimits): Promise<Extracted> {
  const r = await runIsolated<{ ok: boolean; code?: ExtractFailure; pages?: number; lines?: Run[][][] }>(
    CHILD,
    { bytes, maxPages: o.maxPages, maxDecodedBytes: o.maxDecodedBytes },
    { timeoutMs: o.timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxOutputBytes: 32 * 1024 * 1024 },
  );
  lastPeakRssMb = r.peakRssMb;
  if (!r.ok) {
    // Out of heap: the file is too complex (a nesting bomb); past the process's memory cap, or the
    // reader died for any other reason: a resource limit. Either way the file is not read again.
    return { ok: false, code: r.reason === 'timeout' ? 'timeout' : r.reason === 'heap' ? 'too_complex' : 'resource_limit', pages: null };
  }
  const m = r.value;
  if (m && m.ok === true && Array.isArray(m.lines)) return { ok: true, pages: m.pages!, lines: m.lines };
  return { ok: false, code: m?.code ?? 'unreadable', pages: m?.pages ?? null };
}
