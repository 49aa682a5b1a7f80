import type { components } from '../../../generated/schema';
import { categoryDoubt } from './doubt';
import { extractItems, ocrItems, type PageItems } from './extract';
import { dollars, figuresOf } from './figures';
import { addDays, dateIn, days } from './period';
import { statementStarts } from './parts';
import { read } from './read';
import type { Reading, Row } from './reading-types';
import { money, reconcile, type Reconciled } from './reconcile';
import type { FailureCode, StatementFigures, StatementResult } from './result';
import { amountFormAlternatives, balanceProof, datesFromOtherReading } from './scan-proof';
export type { FailureCode, StatementFigures, StatementResult } from './result';
export { categoryDoubt, paidBack } from './doubt';
export type { Txn } from './reconcile';

// Bank statement analysis: a PDF's positioned text (read in a child process with time and memory
// limits, ./extract.ts) is read from the page's geometry (./read.ts: lines and columns built from
// the text items, transaction tables found by their header row, sections by their headings, a
// row's sign from its column, its section or its printed marker, wrapped descriptions joined,
// check registers, daily-balance tables and summary boxes read as what they are), then RECONCILED
// before any figure is trusted: the opening balance plus the transactions must come to the printed
// closing balance to the cent, every printed section or summary total and count must match its
// rows, every printed running balance and daily balance must follow from the rows before it, and
// every date must fall in the statement period. Anything short of that is `failed` with a stable
// code (`does_not_reconcile`, `not_a_statement`, `no_transactions`, ...) and no figures: a partial
// reading is never reported as a statement. Only then are the figures computed, with what the
// transactions mean (revenue or not, NSF, MCA funder, recovery) taken from ./rules.ts, and only when
// no line the figures depend on is in doubt (categoryDoubt: a credit that reads like funding or a
// transfer from the merchant's own account, a large credit of a kind no rule knows, a fee for a
// returned item no rule counts, an unknown funder's repeated debits): reconciliation cannot catch a
// wrong category, so such a statement is `failed` with `uncertain_categories` rather than parsed
// with a true revenue, NSF count or MCA figure that may be wrong.

export interface AnalyzeOptions {
  maxPages?: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxHeapMb?: number;
  /** Everything the reader process may hold: heap, the buffers pdf.js decodes into, code. */
  maxMemoryMb?: number;
  /** What the file's compressed streams may decode to, in total. */
  maxDecodedBytes?: number;
  /** Pages of a scan read by OCR, at most. */
  maxScanPages?: number;
  /** Time allowed per scanned page (the reading's limit is this times the pages, plus `timeoutMs`). */
  scanPageMs?: number;
  /** Largest page image decoded (width × height pixels). */
  maxPixels?: number;
}

/**
 * Time allowed per scanned page: 15 s, or `STATEMENT_SCAN_PAGE_MS` for slower hardware (OCR of a full
 * page took 9-12 CPU-seconds here on 2026-11-27, measured at a load average of 1.5 on 2 cores; a
 * machine shared with other work needs more wall time). A value
 * that is not a positive whole number stops the start.
 */
export function scanPageMsFromEnv(): number {
  const raw = process.env.STATEMENT_SCAN_PAGE_MS;
  if (raw === undefined || raw === '') return 15_000;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw new Error(`STATEMENT_SCAN_PAGE_MS must be a positive whole number of milliseconds (got "${raw.slice(0, 20)}")`);
  return Number(raw);
}

/**
 * Limits of one reading: 200 pages, 20 s (a scan: plus 15 s a page), 25 MB of file, a 256 MB heap in a
 * reader process capped at 512 MB in all, and 128 MB of decoded stream data (a statement's text and
 * fonts decode to a few MB).
 */
export const DEFAULTS = { maxPages: 200, timeoutMs: 20_000, maxBytes: 26_214_400, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 128 * 1024 * 1024, maxScanPages: 15, scanPageMs: scanPageMsFromEnv(), maxPixels: 36_000_000 } as const;

export const REASONS: Record<FailureCode, string> = {
  empty: 'The file is empty',
  not_pdf: 'The file is not a PDF',
  encrypted: 'The PDF is password protected; upload a copy without a password',
  unreadable: 'The PDF is damaged or could not be read',
  no_text_layer: 'The PDF has no text layer (a scan or photo); upload the statement as downloaded from the bank',
  too_many_pages: `The PDF has more than ${DEFAULTS.maxPages} pages`,
  too_large: 'The file is larger than 25 MB',
  timeout: 'Reading the PDF took too long',
  too_complex: 'The PDF is too complex to read',
  resource_limit: 'Reading the PDF needs more memory than a statement may use (its compressed content expands too far)',
  not_a_statement: 'No bank statement could be read in the PDF (no statement period with opening and closing balances)',
  no_transactions: 'The statement shows no transactions that could be read',
  does_not_reconcile: "The transactions read do not add up to the statement's printed balances and totals, so its figures cannot be trusted",
  uncertain_categories: 'A transaction on the statement could not be told apart as revenue, funding, a transfer or a fee, so its revenue figures cannot be trusted',
  several_accounts: 'The statement holds several accounts with activity and none is plainly the business checking account; upload one statement per account',
  unreadable_scan: 'The scan could not be read exactly (too little text was recognized, or what was read does not add up); upload the statement as downloaded from the bank, or a sharper scan',
};
const fail = (code: FailureCode, pages: number | null = null, reason = REASONS[code]): StatementResult => ({ ok: false, code, reason, pages });

// ------------------------------------------------------------------------------------ reconciling

// ------------------------------------------------------------------------------------ doubt

// ------------------------------------------------------------------------------------ figures

/** Reads one statement PDF. Never throws for any input. */
export async function analyzeStatementPdf(bytes: Uint8Array, opts: AnalyzeOptions = {}): Promise<StatementResult> {
  const o = { ...DEFAULTS, ...opts };
  if (!bytes.length) return fail('empty');
  if (bytes.length > o.maxBytes) return fail('too_large');
  if (!Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return fail('not_pdf');
  const x = await extractItems(bytes, { maxPages: o.maxPages, timeoutMs: o.timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxDecodedBytes: o.maxDecodedBytes });
  if (!x.ok) return fail(x.code, x.pages, x.code === 'too_many_pages' ? `The PDF has more than ${o.maxPages} pages` : REASONS[x.code]);
  const text = x.items.flatMap((p) => p.items.map((i) => i.s)).join('').replace(/\s/g, '');
  if (text.length < 20) {
    // No text layer: a scan, read by OCR (a PDF without page images stays `no_text_layer`).
    if (x.pages > o.maxScanPages) return fail('too_many_pages', x.pages, `The PDF is a scan of more than ${o.maxScanPages} pages; scans are read up to ${o.maxScanPages} pages`);
    return analyzeScan(bytes, 'pdf', o, x.pages);
  }
  return readItems(x.items, x.pages);
}

function readItems(items: PageItems[], pages: number, scan = false): StatementResult {
  const starts = statementStarts(items);
  if (starts.length > 1) return readParts(items, starts, pages, scan);
  const one = readOne(items, pages, scan);
  return one.ok ? { ok: true, pages, figures: one.figures } : one.result;
}

type One = { ok: true; reading: Reading; c: Extract<Reconciled, { ok: true }>; figures: StatementFigures } | { ok: false; result: StatementResult };

/**
 * A PDF holding several statements of one account back to back (./parts.ts): each read and
 * reconciled on its own, then combined as one statement from the first opening balance to the last
 * closing balance, every transaction of every part, only when each part's period starts the day
 * after the one before ends and its opening balance is that one's closing balance. Anything else is
 * `failed`: one part's figures are never reported as the file's.
 */
function readParts(items: PageItems[], starts: number[], pages: number, scan: boolean): StatementResult {
  const parts: Array<Extract<One, { ok: true }>> = [];
  for (let i = 0; i < starts.length; i++) {
    const one = readOne(items.slice(starts[i], starts[i + 1] ?? items.length), pages, scan);
    if (!one.ok) {
      const r = one.result;
      return r.ok ? r : fail(r.code, pages, `The PDF holds ${starts.length} statements; statement ${i + 1} (from page ${starts[i] + 1}): ${r.reason}`);
    }
    parts.push(one);
  }
  for (let i = 1; i < parts.length; i++) {
    const [a, b] = [parts[i - 1], parts[i]];
    const an = a.reading.account?.number;
    const bn = b.reading.account?.number;
    if (an && bn && an !== bn) return fail('several_accounts', pages, `The PDF holds ${parts.length} statements of different accounts; upload one statement per account`);
    if (b.c.period.start !== addDays(a.c.period.end, 1) || b.c.opening !== a.c.closing) {
      return fail('does_not_reconcile', pages, `The PDF holds ${parts.length} statements that do not follow one another (statement ${i + 1} does not start where statement ${i} ends), so they cannot be read as one`);
    }
  }
  const c: Extract<Reconciled, { ok: true }> = { ok: true, txns: parts.flatMap((p) => p.c.txns), period: { start: parts[0].c.period.start, end: parts[parts.length - 1].c.period.end }, opening: parts[0].c.opening, closing: parts[parts.length - 1].c.closing };
  const doubt = categoryDoubt(c.txns);
  if (doubt) return fail('uncertain_categories', pages, doubt);
  return { ok: true, pages, figures: figuresOf(c, parts[0].reading.bankName) };
}

function readOne(items: PageItems[], pages: number, scan: boolean): One {
  const no = (r: StatementResult): One => ({ ok: false, result: r });
  let reading: Reading;
  try {
    reading = read(items);
  } catch {
    return no(fail('unreadable', pages));
  }
  let c = reconcile(reading);
  // A scan's printed balance misread (a digit, a speck read as a minus): proven by the runs of
  // rows on both sides of it (./scan-proof.ts), taken only when the whole reading then reconciles.
  const proven = !c.ok && scan ? balanceProof(reading) : null;
  if (proven) {
    const again = reconcile(proven);
    if (again.ok) [reading, c] = [proven, again];
  }
  if (!c.ok) return no(fail(c.code, pages, c.reason ?? REASONS[c.code]));
  const doubt = categoryDoubt(c.txns);
  if (doubt) return no(fail('uncertain_categories', pages, doubt));
  const figures = figuresOf(c, reading.bankName);
  const lost = unprovenDate(reading, figures);
  if (lost) return no(fail('does_not_reconcile', pages, `The date of a row of ${money(lost.cents)} was not read and the figures depend on it, so the figures cannot be trusted`));
  return { ok: true, reading, c, figures };
}

/**
 * A row of a scan whose own date OCR did not read (`Row.dateUnread`: it took the date of the row
 * above it) stands only when its date is proven: every date it may have (from the date it took to
 * the next dated row's of its section, toward the period's end or start as the section runs) that
 * reconciles (a printed daily balance may rule dates out) gives the same figures (daily balances,
 * negative days, ...). Otherwise that row: the statement fails, never with a carried date's figures.
 */
export function unprovenDate(reading: Reading, figures: StatementFigures): Row | null {
  const period = reading.period;
  if (!period || !reading.rows.some((x) => x.dateUnread)) return null;
  const dayMs = 86_400_000;
  const at = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
  const want = JSON.stringify(figures);
  for (let j = 0; j < reading.rows.length; j++) {
    const row = reading.rows[j];
    if (!row.dateUnread) continue;
    const from = dateIn(row.md, period);
    if (!from) return row;
    const same = reading.rows.filter((x) => x.section === row.section && !x.dateUnread);
    const dates = same.map((x) => dateIn(x.md, period)).filter((x): x is string => !!x);
    const next = reading.rows.slice(j + 1).find((x) => x.section === row.section && !x.dateUnread);
    const descending = dates.length > 1 && dates[0] > dates[dates.length - 1];
    const to = next ? dateIn(next.md, period) : descending ? period.start : period.end;
    if (!to) return row;
    const [lo, hi] = from <= to ? [at(from), at(to)] : [at(to), at(from)];
    for (let t = lo; t <= hi; t += dayMs) {
      const d = new Date(t);
      const md: [number, number, number | null] = [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCFullYear()];
      const rows = reading.rows.map((x, k) => (k === j ? { ...x, md } : x));
      const c = reconcile({ ...reading, rows });
      if (c.ok && JSON.stringify(figuresOf(c, reading.bankName)) !== want) return row;
    }
  }
  return null;
}

/**
 * A scan read by OCR (./ocr.mjs in the reader process) and then exactly as a text layer: the same
 * reader, the same reconciliation. A scan whose reading does not reconcile is `unreadable_scan`
 * (most likely a misread character), with what disagreed; never figures from a partial reading.
 */
async function analyzeScan(bytes: Uint8Array, kind: 'pdf' | 'png' | 'jpeg', o: Required<AnalyzeOptions>, pages: number): Promise<StatementResult> {
  const started = Date.now();
  const budget = o.timeoutMs + pages * o.scanPageMs;
  const [first, firstItems] = await readScan(bytes, kind, o, budget, 'auto');
  // A first reading that does not reconcile (or finds no statement) is read once more with the page
  // taken as one block of lines, within what is left of the time limit; either reading must
  // reconcile on its own, so a second reading is never a guess.
  const left = budget - (Date.now() - started);
  if (first.ok || !['unreadable_scan', 'not_a_statement', 'no_transactions'].includes(first.code) || left < pages * 2000) return first;
  const [second, secondItems] = await readScan(bytes, kind, o, left, 'block');
  const ocr = [...(first.ocr ?? []), ...(second.ocr ?? [])];
  if (second.ok) return { ...second, ocr };
  // Neither reconciles: the first reading with the dates it left unread where the second read the
  // same line word for word (./scan-proof.ts datesFromOtherReading), itself reconciled as any.
  const merged = firstItems && secondItems ? datesFromOtherReading(firstItems, secondItems) : null;
  if (merged) {
    const r = scanResult(merged, first.pages ?? pages);
    if (r.ok) return { ...r, ocr };
  }
  return { ...first, ocr };
}

/** A scan read by OCR (`layout`: the recognizer's own page layout, or one block of lines) and its items. */
async function readScan(bytes: Uint8Array, kind: 'pdf' | 'png' | 'jpeg', o: Required<AnalyzeOptions>, timeoutMs: number, layout: 'auto' | 'block'): Promise<[StatementResult, PageItems[] | null]> {
  const x = await ocrItems(bytes, kind, { maxPages: o.maxScanPages, timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxDecodedBytes: o.maxDecodedBytes, maxPixels: o.maxPixels, layout });
  if (!x.ok) {
    if (x.code === 'no_images') return [fail('no_text_layer', x.pages), null];
    if (x.code === 'too_many_pages') return [fail('too_many_pages', x.pages, `The scan has more than ${o.maxScanPages} pages; scans are read up to ${o.maxScanPages} pages`), null];
    if (x.code === 'timeout') return [fail('timeout', x.pages, 'Reading the scan took too long'), null];
    if (x.code === 'resource_limit') return [fail('resource_limit', x.pages, 'The scan needs more memory than a statement may use (its images are too large)'), null];
    return [fail(x.code, x.pages, kind === 'pdf' ? REASONS[x.code] : 'The image is damaged or could not be read'), null];
  }
  const text = x.items.flatMap((p) => p.items.map((i) => i.s)).join('');
  const stats = { ocr: x.stats };
  if (text.replace(/\s/g, '').length < 20) return [{ ...fail('unreadable_scan', x.pages, 'No text could be recognized on the scan; upload the statement as downloaded from the bank, or a sharper scan'), ...stats }, x.items];
  return [{ ...scanResult(x.items, x.pages), ...stats }, x.items];
}

/** A scan's items read, reconciled and (when they do not reconcile) their alternatives chosen from. */
function scanResult(items: PageItems[], pages: number): StatementResult {
  let r = readItems(items, pages, true);
  // Amounts left unsettled, and amounts misread in a form only one amount explains (./scan-proof.ts
  // amountFormAlternatives), are chosen only as the one reading that reconciles.
  if (!r.ok) r = chooseAlternatives(amountFormAlternatives(items), pages) ?? r;
  if (!r.ok && r.code === 'does_not_reconcile') return fail('unreadable_scan', pages, `The scan could not be read exactly: ${r.reason.replace(/, so the figures cannot be trusted$/, '')}; upload the statement as downloaded from the bank, or a sharper scan`);
  if (!r.ok && r.code === 'not_a_statement') return fail('not_a_statement', pages, 'No bank statement could be read on the scan (no statement period with opening and closing balances)');
  return r;
}

/** Readings tried at most when choosing among the values of amounts OCR could not settle. */
export const MAX_ALTERNATIVE_READINGS = 256;

/**
 * A scan whose reading does not reconcile, with amounts OCR could not settle (each unreadable, with
 * the values its readings gave: `Item.alt`): every combination of those values is read and
 * reconciled, and the one that reconciles is taken only when it is the only one (with its running
 * and daily balances, totals and counts, as any reading), or when every one that reconciles gives
 * the same figures (the choice changes nothing). None, several with other figures, or more
 * combinations than MAX_ALTERNATIVE_READINGS: null (the scan stays unreadable).
 */
export function chooseAlternatives(items: PageItems[], pages: number): StatementResult | null {
  const doubts: Array<{ page: number; item: number; from: string; alts: string[] }> = [];
  items.forEach((p, page) => p.items.forEach((it, item) => (it.alt ?? []).forEach(([from, ...alts]) => doubts.push({ page, item, from, alts }))));
  if (!doubts.length) return null;
  const combos = doubts.reduce((n, d) => n * d.alts.length, 1);
  if (combos > MAX_ALTERNATIVE_READINGS) return null;
  let found: StatementResult | null = null;
  for (let k = 0; k < combos; k++) {
    const pick = items.map((p) => ({ ...p, items: p.items.map((it) => ({ ...it })) }));
    let rest = k;
    for (const d of doubts) {
      const it = pick[d.page].items[d.item];
      it.s = it.s.replace(d.from, d.alts[rest % d.alts.length]);
      rest = Math.floor(rest / d.alts.length);
    }
    const r = readItems(pick, pages, true);
    if (!r.ok) continue;
    // Two that reconcile with other figures: no choice. With the same figures (a sign in doubt that
    // the row's column or running balance settles either way), the choice changes nothing.
    if (found && JSON.stringify(found) !== JSON.stringify(r)) return null;
    found = r;
  }
  return found;
}

/** Reads one statement photographed or scanned to a PNG or JPEG image. Never throws for any input. */
export async function analyzeStatementImage(bytes: Uint8Array, kind: 'png' | 'jpeg', opts: AnalyzeOptions = {}): Promise<StatementResult> {
  const o = { ...DEFAULTS, ...opts };
  if (!bytes.length) return fail('empty');
  if (bytes.length > o.maxBytes) return fail('too_large', null, 'The file is larger than 25 MB');
  return analyzeScan(bytes, kind, o, 1);
}

/** Image types read by OCR, by content type. */
export const SCAN_TYPES: Record<string, 'png' | 'jpeg'> = { 'image/png': 'png', 'image/jpeg': 'jpeg' };

/** Reads one statement of a content type: a PDF (text layer, or OCR of a scan) or a PNG or JPEG image. */
export function analyzeStatement(bytes: Uint8Array, contentType: string, opts: AnalyzeOptions = {}): Promise<StatementResult> {
  const kind = SCAN_TYPES[contentType];
  return kind ? analyzeStatementImage(bytes, kind, opts) : analyzeStatementPdf(bytes, opts);
}

// ------------------------------------------------------------------------------------ summary

/** Exactly the contract's deal summary (the `summary` of `statement.analyzed`). */
export type StatementSummary = components['schemas']['StatementSummary'];

/**
 * The deal summary over the parsed statements: average monthly true revenue, the day-weighted
 * average daily balance, total negative days and NSFs, the MCA positions and withhold of the most
 * recent statement (current positions), and any recovery activity. Null when none was parsed.
 */
export function summarize(statements: Array<Pick<StatementFigures, 'period_start' | 'period_end' | 'true_revenue' | 'average_daily_balance' | 'negative_days' | 'nsf_count' | 'mca_count' | 'mca_withhold_percent' | 'has_recovery_activity'>>): StatementSummary | null {
  if (!statements.length) return null;
  const cents = (d: number) => Math.round(d * 100);
  const revenue = statements.reduce((s, x) => s + cents(x.true_revenue), 0);
  let weighted = 0;
  let allDays = 0;
  for (const s of statements) {
    const d = days(s.period_start, s.period_end);
    weighted += cents(s.average_daily_balance) * d;
    allDays += d;
  }
  const latest = [...statements].sort((a, b) => b.period_end.localeCompare(a.period_end))[0];
  return {
    true_revenue: dollars(Math.round(revenue / statements.length)),
    average_balance: dollars(Math.round(weighted / allDays)),
    negative_days: statements.reduce((s, x) => s + x.negative_days, 0),
    nsf_count: statements.reduce((s, x) => s + x.nsf_count, 0),
    mca_count: latest.mca_count,
    mca_withhold_percent: latest.mca_withhold_percent,
    has_recovery_activity: statements.some((x) => x.has_recovery_activity),
  };
}
