import { childEntry, IsolatedPool, runIsolated } from '../../lib/isolated';

// Text extraction of a PDF in a child process (./pdf-text.child.mjs, run by src/lib/isolated.ts)
// with a heap limit, a whole-process memory limit (prlimit --data and an RSS watch: pdf.js inflates
// streams into ArrayBuffers that a heap limit does not count), a wall-clock limit after which the
// child is killed, and a budget for the bytes the file's streams decode to. The result is every
// page's positioned text items (x, y from the top left of the upright page, width, font size) and
// the page's size, or a failure code (`extractItems`); `extractLines` groups the same items into
// lines of runs for callers that only want the text. Never throws for anything in the file.
//
// Readers are kept warm (a pool of 2 processes, each replaced after 50 documents, when a document
// leaves it above 300 MB, or at once when it breaches a limit), so a document does not pay the
// process start (node and pdf.js, about 0.4 s); every bound holds per document. A scan leaves its
// reader holding tesseract's worker (a scan's reader peaks at 327-413 MB, measured): the soft mark after a scan is
// `scanSoftRssMb`, so the next scan finds the recognizer loaded (about 3 CPU-s a scan saved), and a
// scan takes the reader that read the last scan, a text PDF another one (started when none is idle and
// the pool has room; a text PDF that does run in a scan's reader has it replaced after, at the usual
// 300 MB). The hard cap (512 MB)
// is the same for every job. A reading with other heap or memory limits than the pool's runs in a
// process of its own.

/** One text item as pdf.js places it: baseline at (x, y) from the page's top left, w wide, h the font size. */
export interface Item {
  x: number;
  y: number;
  w: number;
  h: number;
  s: string;
  /** Set when the text runs up or down the page. */
  v?: 1;
  /** Set when the PDF shows a space of its own right after the item: the next item begins a new word. */
  sp?: 1;
  /**
   * OCR only: amounts in `s` that could not be read exactly, each as written in `s` ("9,676.65?")
   * followed by the values it was read as; the reconciliation may choose (analyze.ts).
   */
  alt?: string[][];
}
export interface PageItems {
  width: number;
  height: number;
  items: Item[];
  /**
   * OCR only: ink no word kept on the page covers (a character, a date, a mark the recognizer left
   * out or read as nothing), boxes in page points from the top left. A row that takes the date of
   * the row above it where such ink lies before its first word lost its own date (read.ts).
   */
  unread?: Array<{ x0: number; y0: number; x1: number; y1: number }>;
}
export interface Run {
  x: number;
  w: number;
  text: string;
}
export type ExtractFailure = 'encrypted' | 'unreadable' | 'too_many_pages' | 'timeout' | 'too_complex' | 'resource_limit';
export type Extracted = { ok: true; pages: number; lines: Run[][][] } | { ok: false; code: ExtractFailure; pages: number | null };
export type ExtractedItems = { ok: true; pages: number; items: PageItems[] } | { ok: false; code: ExtractFailure; pages: number | null };

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

/** The warm readers' limits: the statement reader's defaults (src/features/statements/analyze.ts). */
export const POOL = { size: 2, maxJobs: 50, softRssMb: 300, scanSoftRssMb: 400, maxHeapMb: 256, maxMemoryMb: 512 } as const;
let pool: IsolatedPool | null = null;
/** Whether documents go to the warm readers (tests and benchmarks compare both). */
export function useReaderPool(on: boolean): void {
  poolOn = on;
  if (!on) {
    pool?.close();
    pool = null;
  }
}
let poolOn = process.env.STATEMENT_READER_POOL !== '0';

/**
 * One job in the reader process: a warm reader of the pool when the limits are the pool's, else a
 * process of its own with these limits. Records the process's peak memory.
 */
async function runReader<T>(input: object, o: { timeoutMs: number; maxHeapMb: number; maxMemoryMb: number }, kind: 'text' | 'ocr') {
  const warm = poolOn && o.maxHeapMb === POOL.maxHeapMb && o.maxMemoryMb === POOL.maxMemoryMb;
  if (warm) pool ??= new IsolatedPool(CHILD, POOL);
  const r = warm
    ? await pool!.run<T>(input, { timeoutMs: o.timeoutMs, maxOutputBytes: 32 * 1024 * 1024, kind, softRssMb: kind === 'ocr' ? POOL.scanSoftRssMb : POOL.softRssMb })
    : await runIsolated<T>(CHILD, input, { timeoutMs: o.timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxOutputBytes: 32 * 1024 * 1024 });
  lastPeakRssMb = r.peakRssMb;
  return r;
}

export async function extractItems(bytes: Uint8Array, o: ExtractLimits): Promise<ExtractedItems> {
  type Answer = { ok: boolean; code?: ExtractFailure; pages?: number; items?: PageItems[] };
  const input = { bytes, maxPages: o.maxPages, maxDecodedBytes: o.maxDecodedBytes };
  const r = await runReader<Answer>(input, o, 'text');
  if (!r.ok) {
    // Out of heap: the file is too complex (a nesting bomb); past the process's memory cap, or the
    // reader died for any other reason: a resource limit. Either way the file is not read again.
    return { ok: false, code: r.reason === 'timeout' ? 'timeout' : r.reason === 'heap' ? 'too_complex' : 'resource_limit', pages: null };
  }
  const m = r.value;
  if (m && m.ok === true && Array.isArray(m.items)) return { ok: true, pages: m.pages!, items: m.items };
  return { ok: false, code: m?.code ?? 'unreadable', pages: m?.pages ?? null };
}

export interface OcrLimits {
  maxPages: number;
  timeoutMs: number;
  maxHeapMb: number;
  maxMemoryMb: number;
  maxDecodedBytes: number;
  /** Largest image (width × height) decoded. */
  maxPixels: number;
  /** How tesseract segments a page: its own blocks (auto), or one block of lines across the page. */
  layout?: 'auto' | 'block';
}
export interface OcrPageStats {
  /** Wall time of the page: getting its image, cleaning it (prepMs), recognizing it (ocrMs). */
  ms: number;
  /** CPU time of the reader process for the page (all its threads). */
  cpuMs: number;
  prepMs: number;
  ocrMs: number;
  /** CPU time of the cleaning (prepMs), and of the second readings of doubtful amounts (part of ocrMs). */
  prepCpuMs: number;
  rereadCpuMs: number;
  /** CPU time of starting the recognizer (worker created, model loaded) when this page started it. */
  coldCpuMs?: number;
  words: number;
  /** Words tesseract read with a confidence under 60%. */
  low: number;
  /** Skew found and corrected (degrees). */
  skew: number;
  dpi: number;
}
export type OcrFailure = ExtractFailure | 'no_images';
export type OcredItems = { ok: true; pages: number; items: PageItems[]; stats: OcrPageStats[] } | { ok: false; code: OcrFailure; pages: number | null };

/**
 * The words of a scan (a PDF whose pages are images, or a PNG or JPEG) read by OCR in the reader
 * process (./ocr.mjs), as positioned items like a text layer's, with per-page statistics. The same
 * process bounds as text extraction (heap, memory, time; a warm reader when the limits are the
 * pool's), with the scan's own time limit and page limit. Never throws for anything in the file.
 */
export async function ocrItems(bytes: Uint8Array, kind: 'pdf' | 'png' | 'jpeg', o: OcrLimits): Promise<OcredItems> {
  type Answer = { ok: boolean; code?: OcrFailure; pages?: number; items?: PageItems[]; stats?: OcrPageStats[] };
  const input = { mode: 'ocr', bytes, kind, maxPages: o.maxPages, maxPixels: o.maxPixels, maxDecodedBytes: o.maxDecodedBytes, layout: o.layout ?? 'auto' };
  const r = await runReader<Answer>(input, o, 'ocr');
  if (!r.ok) return { ok: false, code: r.reason === 'timeout' ? 'timeout' : r.reason === 'heap' ? 'too_complex' : 'resource_limit', pages: null };
  const m = r.value;
  if (m && m.ok === true && Array.isArray(m.items)) return { ok: true, pages: m.pages!, items: m.items, stats: m.stats ?? [] };
  return { ok: false, code: m?.code ?? 'unreadable', pages: m?.pages ?? null };
}

/**
 * Items on one baseline: grouped top to bottom by y (items whose baselines are within a third of
 * the font size share a line), left to right within a line. Text running up the page is left out.
 */
export function groupLines(items: Item[]): Item[][] {
  const sorted = items.filter((i) => !i.v).sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Array<{ y: number; h: number; items: Item[] }> = [];
  for (const it of sorted) {
    const last = lines[lines.length - 1];
    const tol = Math.max(1.5, 0.35 * Math.min(it.h || 8, last?.h || 8));
    if (last && Math.abs(it.y - last.y) <= tol) {
      last.items.push(it);
      last.h = Math.max(last.h, it.h);
    } else lines.push({ y: it.y, h: it.h, items: [it] });
  }
  return lines.map((l) => l.items.sort((a, b) => a.x - b.x));
}

/** Every page's lines, each its text runs (x, width, text) left to right. */
export async function extractLines(bytes: Uint8Array, o: ExtractLimits): Promise<Extracted> {
  const r = await extractItems(bytes, o);
  if (!r.ok) return r;
  return { ok: true, pages: r.pages, lines: r.items.map((p) => groupLines(p.items).map((l) => l.map((i) => ({ x: i.x, w: i.w, text: i.s })))) };
}
