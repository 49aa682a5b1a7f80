import type { components } from '../../../generated/schema';
import { extractItems, ocrItems, type OcrPageStats, type PageItems } from './extract';
import { dateIn, days, read, type Reading } from './read';
import { counterparty, creditDoubt, creditSettled, debitSettled, depositKind, isNsf, isRecovery, looksLikeFunderDebit, looksLikeNsfFee, mcaFunder, moneyBackFrom, paysCounterparty } from './rules';

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

export type FailureCode = 'empty' | 'not_pdf' | 'too_large' | 'encrypted' | 'unreadable' | 'no_text_layer' | 'too_many_pages' | 'timeout' | 'too_complex' | 'resource_limit' | 'not_a_statement' | 'no_transactions' | 'does_not_reconcile' | 'uncertain_categories' | 'unreadable_scan' | 'several_accounts';
export type StatementResult =
  /** `ocr`: the statement was a scan, read by OCR (per-page statistics, for benchmarks and tests). */
  | { ok: true; figures: StatementFigures; pages: number; ocr?: OcrPageStats[] }
  | { ok: false; code: FailureCode; reason: string; pages: number | null; ocr?: OcrPageStats[] };

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
 * Time allowed per scanned page: 15 s, or `STATEMENT_SCAN_PAGE_MS` for slower hardware (OCR of a page
 * takes about 5 CPU-seconds here; a machine shared with other work needs more wall time). A value
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

export interface Txn {
  date: string;
  description: string;
  cents: number;
}
type Reconciled = { ok: true; txns: Txn[]; period: { start: string; end: string }; opening: number; closing: number } | { ok: false; code: FailureCode; reason?: string };

const sumOf = (xs: Array<{ cents: number }>) => xs.reduce((s, x) => s + x.cents, 0);
const money = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;

/**
 * The transactions of a reading, when everything printed agrees with them to the cent: every row's
 * sign decided, opening + credits - debits = closing, each running balance, each section and
 * summary total and count, each printed daily balance. Otherwise the failure and what disagreed.
 */
export function reconcile(r: Reading): Reconciled {
  if (!r.period || r.opening === null || r.closing === null) return { ok: false, code: 'not_a_statement' };
  if (r.conflicts?.length) return { ok: false, code: 'does_not_reconcile', reason: `${r.conflicts[0]}, so the figures cannot be trusted` };
  // Several accounts with activity, none plainly the business's transaction account: none is read.
  if (r.ambiguousAccounts) return { ok: false, code: 'several_accounts', reason: `The statement holds ${r.ambiguousAccounts.length} accounts with activity (${r.ambiguousAccounts.join(', ')}) and none is plainly the business checking account; upload one statement per account` };
  if (!r.rows.length) return { ok: false, code: r.opening === r.closing && r.totals.every((t) => t.cents === 0) ? 'no_transactions' : r.totals.length ? 'does_not_reconcile' : 'no_transactions' };
  const period = r.period;
  const rows = r.rows.map((x) => ({ ...x }));
  // Signs: the column, the printed marker or the section; else the running balance; else the
  // table's convention (amounts marked one way, the others the other way).
  const marked = rows.filter((x) => x.sign === null);
  if (marked.length) {
    let bal = r.opening;
    for (const x of rows) {
      if (x.sign === null && x.balance !== null) {
        if (bal + x.cents === x.balance) x.sign = 1;
        else if (bal - x.cents === x.balance) x.sign = -1;
      }
      if (x.sign === null) break;
      bal += x.sign * x.cents;
    }
    const markers = new Set(rows.map((x) => x.marker).filter(Boolean));
    for (const x of rows) {
      if (x.sign !== null) continue;
      if (markers.has('cr') && !markers.has('dr') && !markers.has('minus') && !markers.has('paren')) x.sign = -1;
      else if (!markers.has('cr') && (markers.has('dr') || markers.has('minus') || markers.has('paren'))) x.sign = 1;
    }
    if (rows.some((x) => x.sign === null)) return { ok: false, code: 'does_not_reconcile', reason: 'Some transactions could not be told apart as deposits or withdrawals, so the figures cannot be trusted' };
  }
  const signed = rows.map((x) => ({ ...x, cents: x.sign! * x.cents }));
  // Printed section totals, against the rows of that section (before checks listed twice are dropped).
  const key = (i: number) => `${r.sections[i].kind}|${r.sections[i].category}|${r.sections[i].heading.toLowerCase().replace(/\(?continued\)?|cont(\.|'d)/g, '').replace(/[^a-z]+/g, ' ').trim()}`;
  const inGroup = (s: number) => signed.filter((x) => key(x.section) === key(s));
  // A "summary of checks" repeating checks that are already in the history: counted once.
  const txns = signed.filter((x) => {
    if (r.sections[x.section].kind !== 'checks' || !x.check) return true;
    const num = new RegExp(`(^|\\D)0*${x.check}(\\D|$)`);
    return !signed.some((y) => y.section !== x.section && y.cents === x.cents && (y.check === x.check || num.test(y.description)) && (r.sections[y.section].kind !== 'checks' || y.section < x.section));
  });
  const credits = txns.filter((x) => x.cents > 0);
  const debits = txns.filter((x) => x.cents < 0);
  // Each printed total must be the sum (and count) of a set of rows it can stand for: its
  // section's rows, the rows of the sections its label names, the rows its words describe, or the
  // whole side. A label naming several categories ("Checks and other deductions", "CHECKS/DEBITS",
  // "withdrawals, checks and fees") stands for their union; a partial total printed beside others
  // on the same side ("CHECKS/DEBITS" beside "SERVICE CHARGES/FEES") for what the others leave. A
  // total no set of rows adds up to fails the statement.
  const words: Record<string, RegExp> = { deposits: /\bdeposits?\b/i, checks: /\bche(ck|que)s?\b|\bchk\b/i, fees: /\bfees?\b|\bcharges?\b/i, card: /\bcard\b|\bpos\b|\bpurchase\b/i, electronic: /\bach\b|\belectronic\b|\bpayment\b/i };
  const odWord = /\b(overdraft|overdrawn|od|o d|paid item|item paid|courtesy)\b/i;
  const nsfRows = debits.filter((x) => isNsf(x.description));
  const name = (h: string) => h.toLowerCase().replace(/\(?continued\)?|cont(\.|'d)|\btotal\b|\(\d+\)|\d+/g, ' ').replace(/[^a-z]+/g, ' ').trim();
  type S = (typeof signed)[number];
  const candidatesOf = (t: (typeof r.totals)[number]): S[][] => {
    // Overdraft and returned-item fee totals: those fee lines only.
    if (t.category === 'nsf' || t.category === 'od' || t.category === 'ri') {
      const od = nsfRows.filter((x) => odWord.test(x.description));
      const ri = nsfRows.filter((x) => !odWord.test(x.description));
      return t.category === 'nsf' ? [nsfRows] : t.category === 'od' ? [od, nsfRows] : [ri, nsfRows];
    }
    const side = t.kind === 'credit' ? credits : debits;
    const cands: S[][] = [side];
    if (t.section >= 0) cands.unshift(inGroup(t.section).filter((x) => Math.sign(x.cents) === (t.kind === 'credit' ? 1 : -1)));
    // The section of the same name ("Customer Deposits 7 $10,741.27" and its "Customer Deposits" rows).
    const named = signed.filter((x) => name(r.sections[x.section].heading) === name(t.label));
    if (named.length) cands.push(named);
    const bySection = side.filter((x) => r.sections[x.section].category === t.category);
    cands.push(bySection, txns.filter((x) => r.sections[x.section].category === t.category));
    // One of several sections of that category ("Regular Deposits" beside "Other Credits", both deposits).
    const secs = new Set(bySection.map((x) => x.section));
    if (secs.size > 1) for (const s of secs) cands.push(bySection.filter((x) => x.section === s));
    if (words[t.category]) {
      const w = side.filter((x) => words[t.category].test(x.description));
      cands.push(w);
      if (t.category === 'withdrawals' || t.category === 'electronic') cands.push(side.filter((x) => !words.checks.test(x.description)));
      // A service charge beside overdraft and returned-item fees the bank counts apart ("Service
      // Charge 15.00" when the period also has overdraft fees): the fee lines that are not those.
      if (t.category === 'fees') cands.push(w.filter((x) => !isNsf(x.description)));
    }
    // Withdrawals beside a separate checks total: the debits that are not checks, by column or by
    // description ("Check 2211" lines in one register).
    if (t.category === 'withdrawals') cands.push(side.filter((x) => r.sections[x.section].kind !== 'checks' && !x.check), side.filter((x) => r.sections[x.section].kind !== 'checks' && !x.check && !words.checks.test(x.description)));
    if (t.categories) {
      const cs = new Set(t.categories);
      cands.push(side.filter((x) => cs.has(r.sections[x.section].category) || (cs.has('checks') && r.sections[x.section].kind === 'checks')));
      cands.push(side.filter((x) => t.categories!.some((c) => words[c]?.test(x.description) || (c === 'checks' && !!x.check))));
    }
    return cands;
  };
  const fits = (c: S[], t: (typeof r.totals)[number]) => (t.countOnly ? c.length === t.count : Math.abs(sumOf(c)) === t.cents && (t.count === null || c.length === t.count));
  const matched = new Map<(typeof r.totals)[number], S[]>();
  const unmatched: Array<(typeof r.totals)[number]> = [];
  for (const t of r.totals) {
    const c = candidatesOf(t).find((x) => fits(x, t));
    if (c) matched.set(t, c);
    else unmatched.push(t);
  }
  // A summary box breaking each side down by the bank's own categories ("Deposits", "Electronic
  // Credits", "Other Credits" / "Checks Paid", "Card Purchases", "Electronic Debits", "Fees"), whose
  // lines no set of rows read from the descriptions may reproduce: the lines of a side together
  // must be the side, to the cent and in number (every line's count, when printed). Each line is
  // then an informational subset of its side, not a total to reconcile against on its own; the
  // side (and the balance equation) still bind.
  const partitioned = new Set<(typeof r.totals)[number]>();
  for (const kind of ['credit', 'debit'] as const) {
    const side = kind === 'credit' ? credits : debits;
    const group = r.totals.filter((t) => t.kind === kind && t.section < 0 && !t.countOnly && !['nsf', 'od', 'ri'].includes(t.category) && !fits(side, t));
    if (group.length < 2) continue;
    const counted = group.every((t) => t.count !== null);
    if (sumOf(group) === Math.abs(sumOf(side)) && (!counted || group.reduce((n, t) => n + t.count!, 0) === side.length)) for (const t of group) partitioned.add(t);
  }
  for (const t of unmatched) {
    if (partitioned.has(t)) continue;
    const side = t.kind === 'credit' ? credits : debits;
    // What the other summary totals of its side leave ("CHECKS/DEBITS" = the debits that are not
    // "SERVICE CHARGES/FEES", "Other credits" = the credits that are not "Deposits"), when the
    // label names a generic category, several categories, or "other" ones.
    let ok = false;
    if (t.section < 0 && !t.countOnly && (t.categories || t.category === 'withdrawals' || /\bother\b/i.test(t.label))) {
      // (The other lines of the box, not its overdraft/returned-item fee figures, which restate some
      // of the side's fee lines; and only when they do not overlap.)
      const others = [...matched].filter(([o, c]) => o !== t && o.section < 0 && o.kind === t.kind && !o.countOnly && !['nsf', 'od', 'ri'].includes(o.category) && c.length < side.length && c.length > 0);
      const taken = new Set(others.flatMap(([, c]) => c));
      const disjoint = taken.size === others.reduce((n, [, c]) => n + c.length, 0);
      ok = others.length > 0 && disjoint && fits(side.filter((x) => !taken.has(x)), t);
    }
    // A zero total ("Other Credits 0.00") with no section of its name holding rows.
    const zero = t.cents === 0 && !t.count && !t.countOnly && !signed.some((x) => name(r.sections[x.section].heading) === name(t.label));
    if (!ok && !zero) {
      return { ok: false, code: 'does_not_reconcile', reason: t.countOnly ? `The printed count "${t.label}" does not match the transactions read, so the figures cannot be trusted` : `The printed total "${t.label}" (${money(t.cents)}) does not match the transactions read, so the figures cannot be trusted` };
    }
  }
  // Opening + transactions = closing.
  const total = sumOf(txns);
  // The first closing balance printed, or a later one (a page's own "ending balance" came first).
  const closing = r.opening + total === r.closing ? r.closing : (r.closings.find((c) => c === r.opening! + total) ?? r.closing);
  if (r.opening + total !== closing) {
    return { ok: false, code: 'does_not_reconcile', reason: `The opening balance plus the transactions (${money(r.opening + total)}) is not the closing balance (${money(r.closing)}), so the figures cannot be trusted` };
  }
  // Running balances, where printed, row by row (in the order printed).
  // Newest first (as some online banks list them) when that is the order the balances follow.
  const follows = (list: typeof signed) => {
    let bal = r.opening!;
    for (const x of list) {
      bal += x.cents;
      if (x.balance !== null && x.balance !== bal && r.sections[x.section].kind !== 'checks') return x;
    }
    return null;
  };
  const bad = follows(signed);
  if (bad && follows([...signed].reverse())) {
    return { ok: false, code: 'does_not_reconcile', reason: `A running balance (${money(bad.balance!)}) does not follow from the transactions before it, so the figures cannot be trusted` };
  }
  // Dates inside the period.
  const out: Txn[] = [];
  for (const x of txns) {
    const date = dateIn(x.md, period);
    if (!date || date < period.start || date > period.end) return { ok: false, code: 'does_not_reconcile', reason: 'A transaction falls outside the statement period, so the figures cannot be trusted' };
    out.push({ date, description: x.description, cents: x.cents });
  }
  // Printed daily balances against the end-of-day balances the transactions give.
  if (r.daily.length) {
    const eod = endOfDay(out, period, r.opening);
    for (const d of r.daily) {
      const date = dateIn(d.md, period);
      if (!date || date > period.end) return { ok: false, code: 'does_not_reconcile', reason: 'A daily balance falls outside the statement period' };
      const want = date < period.start ? r.opening : eod.get(date)!;
      if (want !== d.cents) return { ok: false, code: 'does_not_reconcile', reason: `The printed balance of ${date} (${money(d.cents)}) does not follow from the transactions, so the figures cannot be trusted` };
    }
  }
  return { ok: true, txns: out, period, opening: r.opening, closing };
}

/** End-of-day balance of every calendar day of the period (carried over days without activity). */
function endOfDay(txns: Txn[], period: { start: string; end: string }, opening: number): Map<string, number> {
  const byDay = new Map<string, number>();
  for (const t of txns) byDay.set(t.date, (byDay.get(t.date) ?? 0) + t.cents);
  const out = new Map<string, number>();
  const n = days(period.start, period.end);
  const start = Date.parse(`${period.start}T00:00:00Z`);
  let bal = opening;
  for (let i = 0; i < n; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    bal += byDay.get(day) ?? 0;
    out.set(day, bal);
  }
  return out;
}

// ------------------------------------------------------------------------------------ doubt

/** An incoming wire (the channel funders and own-account moves use for large round sums). */
/**
 * Debits that recur by nature and are no funder's pull: transfers to the merchant's other accounts,
 * checks, card purchases and cash, payments the merchant pushes (bill pay, Zelle, Venmo).
 */
// (Not WITHDRAWAL: "Withdrawal to <originator>" is how some banks word every ACH debit, a funder's too.)
const OWN_OR_CHECK = /\b(TRANSFER|XFER|TRF|TFR|SWEEP|CHECK|CHK|CHEQUE|POS|PURCHASE|CARD|CHECKCARD|ATM|CASH|BILL ?PAY|ZELLE|VENMO|PAYPAL)\b/i;
/** A line naming an account of the merchant's (a mask or the account's kind after TO/FROM). */
const OWN_ACCOUNT = /\b(TO|FROM|FR)\b.{0,12}(\bX+\d{3,}\b|[*.\u2022]+\d{3,}\b|\b(SAVINGS|SAV|SV|CHECKING|CHK|DDA|MMA|RESERVE|TREASURY)\b)/i;
const WIRE = /\b(WIRE|WT|FEDWIRE|FED ?WIRE|WIRE ?IN|INCOMING WIRE|BOOK TRANSFER|RTP|FEDNOW)\b/i;

/**
 * The credits that are money given back by a counterparty the merchant paid in the same period:
 * worded as money back ("Credit Memo GRAYBAR ELECTRIC", "HENRY SCHEIN CREDIT MEMO", rules.ts
 * `moneyBackFrom`), naming a counterparty that debits of the period pay (rules.ts
 * `paysCounterparty`), and no more than those debits paid it (a supplier gives back at most what it
 * was paid). Not revenue. Any other money-back credit no row settles is still doubted.
 */
export function paidBack(txns: Txn[]): Set<Txn> {
  const out = new Set<Txn>();
  const debits = txns.filter((t) => t.cents < 0);
  for (const t of txns) {
    if (t.cents <= 0 || creditDoubt(t.description) !== 'return') continue;
    const name = moneyBackFrom(t.description);
    if (!name) continue;
    const paid = debits.filter((x) => paysCounterparty(x.description, name)).reduce((a, x) => a - x.cents, 0);
    if (paid > 0 && t.cents <= paid) out.add(t);
  }
  return out;
}

/**
 * Why a reconciled statement's category figures cannot be trusted, naming the line (by date and
 * amount, never its description), or null when every line they depend on is settled:
 * - a credit counted as revenue that reads like a loan or an advance's funding (the funding trade's
 *   words: FUNDING, FINANCIAL, CAPITAL GROUP, LENDING, ADVANCE...) or like a transfer from another
 *   account of the merchant's (an account mask or kind: x6652, ...1234, SAVINGS, TREASURY), and no
 *   processor row settles it; or like money given back (a return, reversal or refund), or comes
 *   from a counterparty the merchant pays in the period (a card purchase returned, a debit reversed);
 * - a credit no row settles at all (not a processor's payout, a deposit, a customer's payment, a
 *   refund, a transfer or funding), from a source that pays once in the period (a customer or a
 *   processor pays again; funding is an event), that is large: a tenth or more of the period's
 *   credits, or a round $5,000 or more by wire;
 * - a debit that reads like a returned-item, NSF or overdraft fee that no row counts;
 * - three or more debits of one amount to one counterparty with the funding trade's words that no
 *   funder row knows, or four or more of $50 or more to any payee no row knows (not a transfer, a
 *   check, a card purchase, cash or a payment the merchant pushes): an unknown advance's daily or
 *   weekly payments. A payee is the counterparty whatever the bank's wording (rules.ts
 *   `counterparty`: the NACHA "ORIG CO NAME:", else the words after "Withdrawal to", "ACH DEBIT"...).
 */
export function categoryDoubt(txns: Txn[]): string | null {
  const credits = txns.filter((t) => t.cents > 0);
  const total = sumOf(credits);
  // A source that pays more than once in the period is a customer or a processor; funding is an event.
  const source = (d: string) => d.toUpperCase().split(/\s+/).filter((w) => !/\d/.test(w)).map((w) => w.replace(/[^A-Z&]/g, '')).filter(Boolean).join(' ');
  const times = new Map<string, number>();
  for (const t of credits) times.set(source(t.description), (times.get(source(t.description)) ?? 0) + 1);
  // Counterparties the merchant pays; a credit's is the same when one's words begin the other's
  // ("GRAINGER" paid, "GRAINGER CR" credited), with a word of 4 letters or more in common.
  const paidTo = txns.filter((t) => t.cents < 0).map((t) => counterparty(t.description).split(' ')).filter((w) => w[0]);
  const samePayee = (a: string[], b: string[]) => {
    const n = Math.min(a.length, b.length);
    return n > 0 && a.slice(0, n).join(' ') === b.slice(0, n).join(' ') && a.slice(0, n).some((w) => w.length >= 4);
  };
  const givenBack = paidBack(txns);
  for (const t of credits) {
    if (givenBack.has(t)) continue;
    const why = creditDoubt(t.description);
    if (why === 'funding') return `The credit of ${money(t.cents)} on ${t.date} reads like a loan or an advance's funding, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'transfer') return `The credit of ${money(t.cents)} on ${t.date} reads like a transfer from another account of the merchant's, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'return') return `The credit of ${money(t.cents)} on ${t.date} reads like a return, reversal or refund, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'debatable') return `The credit of ${money(t.cents)} on ${t.date} reads like a factoring advance, an insurance claim for a loss or a warranty credit, which the trade counts as sales for some businesses and not for others, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'rebate') return `The credit of ${money(t.cents)} on ${t.date} reads like a rebate or incentive program's payment, which is money back to the buyer but pay to the contractor who installed, and no rule says which, so true revenue cannot be trusted`;
    // Money back from a counterparty the merchant pays (a card purchase returned, a debit reversed).
    const cp = counterparty(t.description);
    if (!creditSettled(t.description) && cp && paidTo.some((w) => samePayee(w, cp.split(' ')))) return `The credit of ${money(t.cents)} on ${t.date} comes from a counterparty the merchant pays in the period, so it may be a return of the merchant's own payment, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (!creditSettled(t.description) && times.get(source(t.description)) === 1 && (t.cents * 10 >= total || (t.cents >= 500_000 && t.cents % 10_000 === 0 && WIRE.test(t.description)))) {
      return `The credit of ${money(t.cents)} on ${t.date} (${Math.round((t.cents / total) * 100)}% of the credits) is of a kind no rule knows (not a card payout, a deposit or a customer's payment), so true revenue cannot be trusted`;
    }
  }
  const funderLike = new Map<string, Txn[]>();
  const recurring = new Map<string, Txn[]>();
  // A payee: the counterparty whatever the bank's wording (rules.ts counterparty).
  const payee = (d: string) => counterparty(d) || d.toUpperCase().replace(/[^A-Z]+/g, ' ').trim();
  for (const t of txns) {
    if (t.cents >= 0) continue;
    if (t.cents <= -5_000 && !debitSettled(t.description) && !OWN_OR_CHECK.test(t.description) && !OWN_ACCOUNT.test(t.description)) {
      const key = `${t.cents}|${payee(t.description)}`;
      const same = [...(recurring.get(key) ?? []), t];
      recurring.set(key, same);
      if (same.length >= 4) return `${same.length} debits of ${money(-t.cents)} to one payee (the first on ${same[0].date}) recur like an advance's payments, and no rule knows the payee, so the MCA figures cannot be trusted`;
    }
    if (looksLikeNsfFee(t.description)) return `The debit of ${money(-t.cents)} on ${t.date} reads like a returned-item or overdraft fee that no rule counts, so the NSF count cannot be trusted`;
    if (looksLikeFunderDebit(t.description) && !OWN_OR_CHECK.test(t.description)) {
      const key = `${t.cents}|${payee(t.description)}`;
      const same = [...(funderLike.get(key) ?? []), t];
      funderLike.set(key, same);
      if (same.length >= 3) return `${same.length} debits of ${money(-t.cents)} (the first on ${same[0].date}) read like an advance's payments to a funder no rule knows, so the MCA figures cannot be trusted`;
    }
  }
  return null;
}

// ------------------------------------------------------------------------------------ figures

const dollars = (cents: number) => Math.round(cents) / 100;

function figuresOf(c: Extract<Reconciled, { ok: true }>, bankName: string | null): StatementFigures {
  let deposits = 0;
  let depositCount = 0;
  let nonRevenue = 0;
  let nsf = 0;
  let mcaDebits = 0;
  let recovery = false;
  const funders = new Set<string>();
  const mcaRows: Array<{ date: string; cents: number; returned: boolean }> = [];
  for (const t of c.txns) {
    if (t.cents >= 0) continue;
    if (isRecovery(t.description)) recovery = true;
    // An NSF or returned-item fee is an NSF event, even when it names the funder whose debit bounced.
    if (isNsf(t.description)) {
      nsf++;
      continue;
    }
    const funder = mcaFunder(t.description);
    if (funder) {
      funders.add(funder);
      mcaDebits += -t.cents;
      mcaRows.push({ date: t.date, cents: -t.cents, returned: false });
    }
  }
  const givenBack = paidBack(c.txns);
  for (const t of c.txns) {
    if (t.cents <= 0) continue;
    deposits += t.cents;
    depositCount++;
    if (depositKind(t.description) === 'revenue' && !givenBack.has(t)) continue;
    nonRevenue += t.cents;
    // A funder's debit returned unpaid (the same amount credited back within a few days, as a
    // return): that payment was not withheld.
    if (/\b(RETURN(ED)?|RTN|REVERS(AL|ED)|R0\d)\b/i.test(t.description)) {
      const m = mcaRows.find((x) => !x.returned && x.cents === t.cents && x.date <= t.date && days(x.date, t.date) <= 6);
      if (m) {
        m.returned = true;
        mcaDebits -= t.cents;
      }
    }
  }
  const eod = endOfDay(c.txns, c.period, c.opening);
  let sum = 0;
  let negative = 0;
  for (const b of eod.values()) {
    sum += b;
    if (b < 0) negative++;
  }
  const trueRevenue = deposits - nonRevenue;
  return {
    period_start: c.period.start,
    period_end: c.period.end,
    bank_name: bankName,
    beginning_balance: dollars(c.opening),
    deposits_total: dollars(deposits),
    deposit_count: depositCount,
    true_revenue: dollars(trueRevenue),
    average_daily_balance: dollars(Math.round(sum / eod.size)),
    ending_balance: dollars(c.closing),
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

function readItems(items: PageItems[], pages: number): StatementResult {
  let reading: Reading;
  try {
    reading = read(items);
  } catch {
    return fail('unreadable', pages);
  }
  const c = reconcile(reading);
  if (!c.ok) return fail(c.code, pages, c.reason ?? REASONS[c.code]);
  const doubt = categoryDoubt(c.txns);
  if (doubt) return fail('uncertain_categories', pages, doubt);
  return { ok: true, pages, figures: figuresOf(c, reading.bankName) };
}

/**
 * A scan read by OCR (./ocr.mjs in the reader process) and then exactly as a text layer: the same
 * reader, the same reconciliation. A scan whose reading does not reconcile is `unreadable_scan`
 * (most likely a misread character), with what disagreed; never figures from a partial reading.
 */
async function analyzeScan(bytes: Uint8Array, kind: 'pdf' | 'png' | 'jpeg', o: Required<AnalyzeOptions>, pages: number): Promise<StatementResult> {
  const started = Date.now();
  const budget = o.timeoutMs + pages * o.scanPageMs;
  const first = await readScan(bytes, kind, o, budget, 'auto');
  // A first reading that does not reconcile (or finds no statement) is read once more with the page
  // taken as one block of lines, within what is left of the time limit; either reading must
  // reconcile on its own, so a second reading is never a guess.
  const left = budget - (Date.now() - started);
  if (first.ok || !['unreadable_scan', 'not_a_statement', 'no_transactions'].includes(first.code) || left < pages * 2000) return first;
  const second = await readScan(bytes, kind, o, left, 'block');
  if (second.ok) return { ...second, ocr: [...(first.ocr ?? []), ...(second.ocr ?? [])] };
  return { ...first, ocr: [...(first.ocr ?? []), ...(second.ocr ?? [])] };
}

async function readScan(bytes: Uint8Array, kind: 'pdf' | 'png' | 'jpeg', o: Required<AnalyzeOptions>, timeoutMs: number, layout: 'auto' | 'block'): Promise<StatementResult> {
  const x = await ocrItems(bytes, kind, { maxPages: o.maxScanPages, timeoutMs, maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxDecodedBytes: o.maxDecodedBytes, maxPixels: o.maxPixels, layout });
  if (!x.ok) {
    if (x.code === 'no_images') return fail('no_text_layer', x.pages);
    if (x.code === 'too_many_pages') return fail('too_many_pages', x.pages, `The scan has more than ${o.maxScanPages} pages; scans are read up to ${o.maxScanPages} pages`);
    if (x.code === 'timeout') return fail('timeout', x.pages, 'Reading the scan took too long');
    if (x.code === 'resource_limit') return fail('resource_limit', x.pages, 'The scan needs more memory than a statement may use (its images are too large)');
    return fail(x.code, x.pages, kind === 'pdf' ? REASONS[x.code] : 'The image is damaged or could not be read');
  }
  const text = x.items.flatMap((p) => p.items.map((i) => i.s)).join('');
  const stats = { ocr: x.stats };
  if (text.replace(/\s/g, '').length < 20) return { ...fail('unreadable_scan', x.pages, 'No text could be recognized on the scan; upload the statement as downloaded from the bank, or a sharper scan'), ...stats };
  let r = readItems(x.items, x.pages);
  if (!r.ok) r = chooseAlternatives(x.items, x.pages) ?? r;
  if (!r.ok && r.code === 'does_not_reconcile') return { ...fail('unreadable_scan', x.pages, `The scan could not be read exactly: ${r.reason.replace(/, so the figures cannot be trusted$/, '')}; upload the statement as downloaded from the bank, or a sharper scan`), ...stats };
  if (!r.ok && r.code === 'not_a_statement') return { ...fail('not_a_statement', x.pages, 'No bank statement could be read on the scan (no statement period with opening and closing balances)'), ...stats };
  return { ...r, ...stats };
}

/** Readings tried at most when choosing among the values of amounts OCR could not settle. */
export const MAX_ALTERNATIVE_READINGS = 256;

/**
 * A scan whose reading does not reconcile, with amounts OCR could not settle (each unreadable, with
 * the values its readings gave: `Item.alt`): every combination of those values is read and
 * reconciled, and the one that reconciles is taken only when it is the only one (with its running
 * and daily balances, totals and counts, as any reading). None, more than one, or more
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
    const r = readItems(pick, pages);
    if (!r.ok) continue;
    if (found) return null;
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
