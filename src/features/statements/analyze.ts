import type { components } from '../../../generated/schema';
import { extractLines, type Run } from './extract';
import { depositKind, isNsf, isRecovery, mcaFunder } from './rules';

// Bank statement analysis: a PDF's text (read in a child process with time and memory limits) is
// turned into the statement's period, opening and closing balances and transactions, and from them
// the figures lenders underwrite on. The reading is checked before any figure is trusted: the
// opening balance plus the transactions must come to the printed closing balance, to the cent;
// otherwise the statement is `not_a_statement` rather than a set of invented numbers.
//
// Layouts read: one transaction per line starting with its date (10/02, 10/02/2026, Oct 02,
// Oct 2, 2026), with a signed amount and a running balance (single column), separate withdrawal
// and deposit columns with a balance column (table), or deposits and withdrawals listed in their
// own sections without a running balance (sectioned, typically several pages). A transaction's sign
// comes from the running balance when there is one, else from an explicit sign, else its section.

export interface StatementFigures {
  period_start: string;
  period_end: string;
  bank_name: string | null;
  beginning_balance: number;
  deposits_total: number;
  deposit_count: number;
  true_revenue: number;
  average_daily_balance: number;
  ending_balance: number;
  negative_days: number;
  nsf_count: number;
  mca_count: number;
  mca_withhold_percent: number;
  has_recovery_activity: boolean;
}

export type FailureCode = 'empty' | 'not_pdf' | 'encrypted' | 'unreadable' | 'no_text_layer' | 'too_many_pages' | 'too_large' | 'timeout' | 'too_complex' | 'resource_limit' | 'not_a_statement';
export type StatementResult =
  | { ok: true; figures: StatementFigures; pages: number }
  | { ok: false; code: FailureCode; reason: string; pages: number | null };

export interface AnalyzeOptions {
  maxPages?: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxHeapMb?: number;
  /** Everything the reader process may hold: heap, the buffers pdf.js decodes into, code. */
  maxMemoryMb?: number;
  /** What the file's compressed streams may decode to, in total. */
  maxDecodedBytes?: number;
}

/**
 * Limits of one reading: 200 pages, 20 s, 25 MB of file, a 256 MB heap in a reader process capped at
 * 512 MB in all, and 128 MB of decoded stream data (a statement's text and fonts decode to a few MB).
 */
export const DEFAULTS = { maxPages: 200, timeoutMs: 20_000, maxBytes: 26_214_400, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 128 * 1024 * 1024 } as const;

const REASONS: Record<FailureCode, string> = {
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
  not_a_statement: 'No bank statement could be read in the PDF (period, balances and transactions that add up)',
};
const fail = (code: FailureCode, pages: number | null = null, reason = REASONS[code]): StatementResult => ({ ok: false, code, reason, pages });

// ------------------------------------------------------------------------------------ reading

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?';
const DATE_WITH_YEAR = `(?:\\d{1,2}/\\d{1,2}/\\d{2,4}|${MONTH_NAME}\\s+\\d{1,2},?\\s+\\d{4})`;
const PERIOD_RE = new RegExp(`(${DATE_WITH_YEAR})\\s*(?:-|–|to|through|thru)\\s*(${DATE_WITH_YEAR})`, 'i');
const LEADING_DATE_RE = new RegExp(`^(\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?|${MONTH_NAME}\\s+\\d{1,2}(?:,?\\s+\\d{4})?)(?=\\s|$)`, 'i');
const MONEY_RE = /(\(?)(-?)\$?(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})(\)?)(-?)(?![\d,])/g;
const OPENING_RE = /\b(beginning|opening|starting|previous|prior)\s+balance\b/i;
const CLOSING_RE = /\b(ending|closing|new)\s+balance\b/i;
const DEPOSIT_SECTION = /\b(deposits|credits|additions)\b/i;
const DEBIT_SECTION = /\b(withdrawals|debits|subtractions|checks\s+paid|fees|electronic\s+payments)\b/i;

interface Money {
  cents: number;
  negative: boolean;
}
function moneyIn(text: string): Money[] {
  const out: Money[] = [];
  for (const m of text.matchAll(MONEY_RE)) {
    const cents = Number(m[3].replace(/,/g, '')) * 100 + Number(m[4]);
    const negative = m[2] === '-' || m[6] === '-' || (m[1] === '(' && m[5] === ')');
    out.push({ cents, negative });
  }
  return out;
}

/** A date with its year ('YYYY-MM-DD'), or null. */
function fullDate(text: string): string | null {
  const t = text.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{2,4})$/.exec(t);
  if (m) return ymd(Number(m[3].length === 2 ? `20${m[3]}` : m[3]), Number(m[1]), Number(m[2]));
  m = new RegExp(`^(${MONTH_NAME})\\s+(\\d{1,2}),?\\s+(\\d{4})$`, 'i').exec(t);
  if (m) return ymd(Number(m[3]), MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]));
  return null;
}
function ymd(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return date.toISOString().slice(0, 10);
}
/** A transaction's date (its year from the period when it has none). */
function txnDate(text: string, period: { start: string; end: string }): string | null {
  const withYear = fullDate(text);
  if (withYear) return withYear;
  let mo: number;
  let d: number;
  let m = /^(\d{1,2})\/(\d{1,2})$/.exec(text.trim());
  if (m) {
    mo = Number(m[1]);
    d = Number(m[2]);
  } else {
    m = new RegExp(`^(${MONTH_NAME})\\s+(\\d{1,2})$`, 'i').exec(text.trim());
    if (!m) return null;
    mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    d = Number(m[2]);
  }
  const startYear = Number(period.start.slice(0, 4));
  const startMonth = Number(period.start.slice(5, 7));
  return ymd(mo < startMonth ? startYear + 1 : startYear, mo, d);
}

interface Txn {
  date: string;
  description: string;
  cents: number;
}

interface Reading {
  bankName: string | null;
  period: { start: string; end: string } | null;
  opening: number | null;
  closing: number | null;
  txns: Txn[];
}

const lineText = (runs: Run[]) => runs.map((r) => r.text.trim()).filter(Boolean).join('  ');

function read(pages: Run[][][]): Reading {
  const lines = pages.flatMap((p) => p.map(lineText)).filter((l) => l.trim());
  const r: Reading = { bankName: null, period: null, opening: null, closing: null, txns: [] };
  // The bank: the first text run near the top of page 1 that names one (a run, not the whole line:
  // a page number or an address often shares its baseline).
  const top = (pages[0] ?? []).slice(0, 10).flat();
  const bank = top.find((run) => /\b(bank|credit union|financial|savings|trust|n\.a\.)(?=\W|$)/i.test(run.text) && !/statement/i.test(run.text) && !moneyIn(run.text).length);
  r.bankName = bank ? bank.text.replace(/\s+/g, ' ').trim() : null;
  for (const l of lines) {
    const m = PERIOD_RE.exec(l);
    if (m) {
      const start = fullDate(m[1]);
      const end = fullDate(m[2]);
      if (start && end && start <= end) {
        r.period = { start, end };
        break;
      }
    }
  }
  if (!r.period) return r;
  let section = 0; // +1 deposits, -1 withdrawals, 0 unknown
  let balance: number | null = null;
  for (const l of lines) {
    const amounts = moneyIn(l);
    const lead = LEADING_DATE_RE.exec(l);
    const isPeriodLine = PERIOD_RE.test(l);
    if (OPENING_RE.test(l) && amounts.length) {
      if (r.opening === null) {
        const a = amounts[amounts.length - 1];
        r.opening = a.negative ? -a.cents : a.cents;
        balance = r.opening;
      }
      continue;
    }
    if (CLOSING_RE.test(l) && amounts.length) {
      if (r.closing === null) {
        const a = amounts[amounts.length - 1];
        r.closing = a.negative ? -a.cents : a.cents;
      }
      continue;
    }
    if (!lead || isPeriodLine) {
      // A section heading: words only, no amount.
      if (!amounts.length && !lead) {
        if (DEPOSIT_SECTION.test(l) && !DEBIT_SECTION.test(l)) section = 1;
        else if (DEBIT_SECTION.test(l) && !DEPOSIT_SECTION.test(l)) section = -1;
      }
      continue;
    }
    if (!amounts.length) continue;
    const date = txnDate(lead[1], r.period);
    if (!date) continue;
    const rest = l.slice(lead[0].length);
    const firstMoney = rest.search(/\(?-?\$?(\d{1,3}(,\d{3})*|\d+)\.\d{2}/);
    const description = (firstMoney >= 0 ? rest.slice(0, firstMoney) : rest).replace(/\s{2,}/g, ' ').trim();
    const amt = amounts.length >= 2 ? amounts[amounts.length - 2] : amounts[0];
    let cents: number | null = null;
    if (amounts.length >= 2 && balance !== null) {
      const b = amounts[amounts.length - 1];
      const next = b.negative ? -b.cents : b.cents;
      if (Math.abs(next - balance) === amt.cents) cents = next - balance;
    }
    if (cents === null) {
      if (amt.negative) cents = -amt.cents;
      else if (section) cents = section * amt.cents;
      else cents = /\b(deposit|credit)\b/i.test(description) ? amt.cents : -amt.cents;
    }
    if (balance !== null) balance += cents;
    r.txns.push({ date, description, cents });
  }
  return r;
}

// ------------------------------------------------------------------------------------ figures

const dollars = (cents: number) => Math.round(cents) / 100;
const days = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

function figuresOf(r: Required<Pick<Reading, 'txns'>> & { bankName: string | null; period: { start: string; end: string }; opening: number; closing: number }): StatementFigures {
  let deposits = 0;
  let depositCount = 0;
  let nonRevenue = 0;
  let nsf = 0;
  let mcaDebits = 0;
  let recovery = false;
  const funders = new Set<string>();
  for (const t of r.txns) {
    if (isNsf(t.description)) nsf++;
    if (isRecovery(t.description) && t.cents < 0) recovery = true;
    if (t.cents > 0) {
      deposits += t.cents;
      depositCount++;
      if (depositKind(t.description) !== 'revenue') nonRevenue += t.cents;
    } else {
      const funder = mcaFunder(t.description);
      if (funder) {
        funders.add(funder);
        mcaDebits += -t.cents;
      }
    }
  }
  // End-of-day balances over every calendar day of the period.
  const n = days(r.period.start, r.period.end);
  const byDay = new Map<string, number>();
  for (const t of r.txns) byDay.set(t.date, (byDay.get(t.date) ?? 0) + t.cents);
  let bal = r.opening;
  let sum = 0;
  let negative = 0;
  const start = Date.parse(`${r.period.start}T00:00:00Z`);
  for (let i = 0; i < n; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    bal += byDay.get(day) ?? 0;
    sum += bal;
    if (bal < 0) negative++;
  }
  const trueRevenue = deposits - nonRevenue;
  return {
    period_start: r.period.start,
    period_end: r.period.end,
    bank_name: r.bankName,
    beginning_balance: dollars(r.opening),
    deposits_total: dollars(deposits),
    deposit_count: depositCount,
    true_revenue: dollars(trueRevenue),
    average_daily_balance: dollars(Math.round(sum / n)),
    ending_balance: dollars(r.closing),
    negative_days: negative,
    nsf_count: nsf,
    mca_count: funders.size,
    mca_withhold_percent: trueRevenue > 0 ? Math.round((mcaDebits / trueRevenue) * 10_000) / 100 : 0,
    has_recovery_activity: recovery,
  };
}

/** Reads one statement PDF. Never throws for any input. */
export async function analyzeStatementPdf(bytes: Uint8Array, opts: AnalyzeOptions = {}): Promise<StatementResult> {
  const o = { ...DEFAULTS, ...opts };
  if (!bytes.length) return fail('empty');
  if (bytes.length > o.maxBytes) return fail('too_large');
  if (!Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return fail('not_pdf');
  const x = await extractLines(bytes, { maxPages: o.maxPages, timeoutMs: o.timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxDecodedBytes: o.maxDecodedBytes });
  if (!x.ok) return fail(x.code, x.pages, x.code === 'too_many_pages' ? `The PDF has more than ${o.maxPages} pages` : REASONS[x.code]);
  const text = x.lines.flat(2).map((r) => r.text).join('').replace(/\s/g, '');
  if (text.length < 20) return fail('no_text_layer', x.pages);
  const r = read(x.lines);
  if (!r.period || r.opening === null || r.closing === null || !r.txns.length) return fail('not_a_statement', x.pages);
  const total = r.txns.reduce((s, t) => s + t.cents, 0);
  if (r.opening + total !== r.closing) {
    return fail('not_a_statement', x.pages, "The statement's transactions do not add up to its closing balance, so its figures cannot be trusted");
  }
  if (r.txns.some((t) => t.date < r.period!.start || t.date > r.period!.end)) {
    return fail('not_a_statement', x.pages, 'Transactions fall outside the statement period');
  }
  return { ok: true, pages: x.pages, figures: figuresOf({ ...r, period: r.period, opening: r.opening, closing: r.closing }) };
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
