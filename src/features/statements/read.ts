import { groupLines, type Item, type PageItems } from './extract';

// The statement reader: from the positioned text items of every page (./extract.ts) to the
// statement's period, balances, transactions, printed totals and daily balances, using the page's
// geometry rather than a list of known layouts.
//
// - Lines: items on one baseline; each item is cut into words at its spaces (x positions estimated
//   along the item's width) and words far apart start a new cell.
// - Tokens: dates (05/02, 5/2, 05-02, Jan 03, Oct 2, 2026, 01/03/2026, 10/01/25), amounts in any
//   sign format (1,234.56, $1,234.56, (310.00), 125.00-, -125.00, –219.00, 349.00 DR / CR, +500.00
//   as a CR), counts.
// - Tables: a header row (date, description, debit/withdrawal, credit/deposit, amount, balance,
//   check number) gives the columns; an amount's column is the header it sits under.
// - Sections: headings (deposits and credits, withdrawals and debits, money in / money out, checks
//   paid, electronic withdrawals, card purchases, fees, daily balances, summary) give a row's
//   default sign.
// - Rows: a line starting with a date (or, in a check register, a check number) and carrying
//   amounts; lines below it without a date or an amount continue its description (and, indented
//   to it, lines ending in its amounts). A table with no date column takes each row's date from a
//   date alone on its line above the day's rows ("Wednesday, Apr 1, 2026"). A check
//   register may hold several checks on one line. Daily-balance tables (date-balance pairs) are
//   balances, never transactions. Summary boxes (label and amount side by side, several on a line,
//   labels on one line and amounts on the next, "There are N ... totaling $X") are totals to check
//   the rows against, never transactions.
// - Accounts: a statement may print several (a credit union's share savings and share draft, a
//   bank's combined checking and savings, a loan). An account's heading (a short line naming a kind
//   of account, with its number) starts that account's own balances, rows, totals and daily
//   balances; a balance whose label names an account, or printed under a column naming one, is that
//   account's; a summary table with a row per account is no account's. The business's transaction account (checking, share draft) is
//   reported; when that is not plain, `ambiguousAccounts` (analyze.ts: `several_accounts`).
//
// Nothing here decides what a statement's figures are: analyze.ts reconciles the reading to the
// cent and only then computes figures.

export type Sign = 1 | -1;
export type Marker = 'minus' | 'paren' | 'cr' | 'dr' | null;
export interface Money {
  cents: number;
  marker: Marker;
}

interface Word {
  x0: number;
  x1: number;
  t: string;
  cell: number;
}
export interface Line {
  page: number;
  y: number;
  size: number;
  words: Word[];
  text: string;
}

type Tok =
  | { k: 'date'; x0: number; x1: number; t: string; md: [number, number, number | null] }
  | { k: 'money'; x0: number; x1: number; t: string; m: Money }
  | { k: 'int'; x0: number; x1: number; t: string; n: number; paren: boolean }
  | { k: 'text'; x0: number; x1: number; t: string };

export interface Row {
  /** month, day, year (null when the row prints none) */
  md: [number, number, number | null];
  description: string;
  cents: number;
  /** How the sign was decided, weakest last: a debit/credit column, a printed marker, the section. */
  sign: Sign | null;
  marker: Marker;
  /** The running balance printed on the row, if any. */
  balance: number | null;
  section: number;
  check?: string;
}
export interface Total {
  label: string;
  kind: 'credit' | 'debit';
  category: string;
  /**
   * Every category the label names ("Checks and other deductions": checks and withdrawals;
   * "withdrawals, checks and fees"), when it names more than one. `nsf` / `od` / `ri` are the
   * overdraft and returned-item fee lines (a fee box's "Total overdraft fees").
   */
  categories?: string[];
  /** 0 when only a count is printed (`countOnly`). */
  cents: number;
  count: number | null;
  /** Only the count is printed ("Overdraft and returned item fees this period: 13 items"): the rows must number `count`. */
  countOnly?: boolean;
  /** The section the total closes (a "Total ..." line inside a section), else -1 (a summary). */
  section: number;
}
export interface Section {
  kind: SectionKind;
  category: string;
  heading: string;
}
export type SectionKind = 'credit' | 'debit' | 'checks' | 'daily' | 'summary' | 'mixed' | 'ignore';

export interface Reading {
  bankName: string | null;
  period: { start: string; end: string } | null;
  opening: number | null;
  closing: number | null;
  /** Every other closing balance printed for the account (a page's own "ending balance"), in order. */
  closings: number[];
  rows: Row[];
  totals: Total[];
  daily: Array<{ md: [number, number, number | null]; cents: number }>;
  sections: Section[];
  /** Figures the statement prints twice that disagree: the reading cannot be trusted. */
  conflicts?: string[];
  /** The account read, when the statement names it (several accounts on one statement: the transaction account's). */
  account?: AccountRef | null;
  /** Several accounts with activity and none of them plainly the business's transaction account: their kinds. */
  ambiguousAccounts?: string[];
}

// ------------------------------------------------------------------------------------ lines

const norm = (s: string) => s.replace(/[\u2212\u2012\u2013\u2014\u2015\uFE63\uFF0D]/g, '-').replace(/[\u00A0\u2007\u202F]/g, ' ').replace(/[\u200B-\u200D\uFEFF]/g, '');

/** The words of a line of items, with estimated positions, and the cell each belongs to. */
function wordsOf(items: Item[]): Word[] {
  const words: Word[] = [];
  let cell = -1;
  let lastX1 = -Infinity;
  for (const it of items) {
    const s = norm(it.s);
    if (!s.trim()) continue;
    const size = it.h || 8;
    const cw = (it.w || s.length * size * 0.5) / s.length;
    let prevEnd = -1;
    for (const m of s.matchAll(/\S+/g)) {
      const x0 = it.x + m.index! * cw;
      const x1 = x0 + m[0].length * cw;
      if (prevEnd < 0) {
        // The item's first word: a new cell unless it sits close to the previous item's text.
        const gap = x0 - lastX1;
        if (words.length && gap < size * 0.12 && m.index === 0) {
          // A word split across items.
          const w = words[words.length - 1];
          w.t += m[0];
          w.x1 = x1;
          lastX1 = x1;
          prevEnd = m.index! + m[0].length;
          continue;
        }
        if (!(gap < size * 0.45)) cell++;
      } else if (m.index! - prevEnd >= 2) cell++; // two spaces or more inside an item
      words.push({ x0, x1, t: m[0], cell });
      lastX1 = x1;
      prevEnd = m.index! + m[0].length;
    }
  }
  return words;
}

export function linesOf(pages: PageItems[]): Line[] {
  const out: Line[] = [];
  pages.forEach((p, page) => {
    for (const items of groupLines(p.items)) {
      const words = wordsOf(items);
      if (!words.length) continue;
      const size = Math.max(...items.map((i) => i.h || 8));
      out.push({ page, y: items[0].y, size, words, text: cellTexts(words).join('  ') });
    }
  });
  return out;
}

function cellTexts(words: Word[]): string[] {
  const cells: string[] = [];
  let c = -1;
  for (const w of words) {
    if (w.cell !== c) {
      cells.push(w.t);
      c = w.cell;
    } else cells[cells.length - 1] += ` ${w.t}`;
  }
  return cells;
}
function cellsOf(words: Word[]): Array<{ x0: number; x1: number; t: string }> {
  const cells: Array<{ x0: number; x1: number; t: string }> = [];
  let c = -1;
  for (const w of words) {
    if (w.cell !== c) {
      cells.push({ x0: w.x0, x1: w.x1, t: w.t });
      c = w.cell;
    } else {
      const last = cells[cells.length - 1];
      last.t += ` ${w.t}`;
      last.x1 = w.x1;
    }
  }
  return cells;
}

// ------------------------------------------------------------------------------------ tokens

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$/i;
// (No whole dollars before the point is none: a box's "Interest Paid  .00".)
const MONEY_WORD = /^(\()?([-+])?\$?([-+])?(\d{1,3}(?:,\d{3})+|\d*)\.(\d{2})(\))?(-)?(CR|DR|Cr|Dr|cr|dr)?$/;

export function parseMoney(word: string): Money | null {
  const m = MONEY_WORD.exec(norm(word).trim());
  if (!m) return null;
  if (Boolean(m[1]) !== Boolean(m[6])) return null;
  const cents = Number(m[4].replace(/,/g, '') || '0') * 100 + Number(m[5]);
  const suffix = m[8]?.toLowerCase();
  // A leading plus marks a credit as a CR does ("+4,867.93" beside unsigned debits).
  const marker: Marker = m[1] ? 'paren' : m[2] === '-' || m[3] === '-' || m[7] ? 'minus' : suffix === 'cr' || m[2] === '+' || m[3] === '+' ? 'cr' : suffix === 'dr' ? 'dr' : null;
  return { cents, marker };
}
/** A money value with its printed sign applied (CR and unmarked positive). */
export const signedCents = (m: Money) => (m.marker === 'minus' || m.marker === 'paren' || m.marker === 'dr' ? -m.cents : m.cents);

/** Month, day and year (4 digits, or null) of one date word, or null. */
function numericDate(w: string): [number, number, number | null] | null {
  let m = /^(\d{1,2})[/-](\d{1,2})(?:[/-](\d{2}|\d{4}))?$/.exec(w);
  if (m) {
    const mo = Number(m[1]);
    const d = Number(m[2]);
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
    return [mo, d, m[3] ? year4(m[3]) : null];
  }
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w);
  if (m) return [Number(m[2]), Number(m[3]), Number(m[1])];
  m = /^([A-Za-z]{3,4})[-.](\d{1,2})$/.exec(w);
  if (m && MONTH_WORD.test(m[1])) return [MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]), null];
  return null;
}
const year4 = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

function tokens(words: Word[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const t = w.t;
    // A month name and a day (and a year): Oct 02 / Oct 2, 2026 / October 2 2026
    if (MONTH_WORD.test(t) && i + 1 < words.length && /^\d{1,2},?$/.test(words[i + 1].t)) {
      const d = Number(words[i + 1].t.replace(',', ''));
      let y: number | null = null;
      let j = i + 1;
      if (i + 2 < words.length && /^\d{4}$/.test(words[i + 2].t)) {
        y = Number(words[i + 2].t);
        j = i + 2;
      }
      if (d >= 1 && d <= 31) {
        out.push({ k: 'date', x0: w.x0, x1: words[j].x1, t: words.slice(i, j + 1).map((x) => x.t).join(' '), md: [MONTHS.indexOf(t.slice(0, 3).toLowerCase()) + 1, d, y] });
        i = j;
        continue;
      }
    }
    const nd = numericDate(t.replace(/,$/, ''));
    if (nd && !MONEY_WORD.test(t)) {
      out.push({ k: 'date', x0: w.x0, x1: w.x1, t, md: nd });
      continue;
    }
    // "$ 1,234.56", "- 125.00", "1,234.56 CR"
    let word = t;
    let x0 = w.x0;
    let x1 = w.x1;
    let j = i;
    if ((t === '$' || t === '-' || t === '+' || t === '-$' || t === '$-' || t === '+$') && i + 1 < words.length && parseMoney(t + words[i + 1].t)) {
      word = t + words[i + 1].t;
      x1 = words[i + 1].x1;
      j = i + 1;
    }
    // "... was $1,262.14." (a sentence's full stop after the amount)
    const m = parseMoney(word) ?? (j === i && /\d\.$/.test(word) ? parseMoney(word.slice(0, -1)) : null);
    if (m) {
      if (/^USD$/i.test(words[j + 1]?.t ?? '')) j++; // "1,234.56 USD"
      const next = words[j + 1]?.t;
      if (m.marker === null && next && /^(CR|DR|-|\+)$/i.test(next) && words[j + 1].x0 - x1 < 30) {
        m.marker = next === '-' ? 'minus' : next === '+' || next.toLowerCase() === 'cr' ? 'cr' : 'dr';
        x1 = words[j + 1].x1;
        j++;
      }
      // An overdrawn balance at the end of a line: "1,234.56 OD".
      else if (m.marker === null && next === 'OD' && j + 2 === words.length && words[j + 1].x0 - x1 < 30) {
        m.marker = 'minus';
        x1 = words[j + 1].x1;
        j++;
      }
      out.push({ k: 'money', x0, x1, t: words.slice(i, j + 1).map((x) => x.t).join(' '), m });
      i = j;
      continue;
    }
    const n = /^\(?(\d{1,7})\)?$/.exec(t);
    if (n) {
      out.push({ k: 'int', x0, x1, t, n: Number(n[1]), paren: t.startsWith('(') });
      continue;
    }
    out.push({ k: 'text', x0, x1, t });
  }
  return out;
}

// ------------------------------------------------------------------------------------ vocabulary

type ColKind = 'date' | 'desc' | 'debit' | 'credit' | 'amount' | 'balance' | 'check' | 'type' | 'other';
interface Col {
  kind: ColKind;
  x0: number;
  x1: number;
}

// "DEP/CREDITS" (a typewriter register, blind-11): DEP is how such banks shorten deposits.
const CREDIT_WORD = /^(other )?(deposits?|deps?|credits?|additions?|money in|paid in|receipts?|inflows?)( amount)?$/;
const DEBIT_WORD = /^(other )?(withdrawals?|debits?|subtractions?|payments?|charges?|checks?|fees?|money out|paid out|outflows?)( amount)?$/;
function headerKind(text: string): ColKind | null {
  const raw = text.toLowerCase().replace(/[:.]+$/, '').trim();
  // "Deposits/Additions", "Checks & Other Debits", "Withdrawals ($)": every part a credit word, or every part a debit word.
  const parts = raw.replace(/\((\$|usd)\)/g, '').split(/\s*(?:\/|&|\band\b|,)\s*/).map((x) => x.trim()).filter(Boolean);
  if (parts.length && parts.every((x) => CREDIT_WORD.test(x))) return 'credit';
  if (parts.length && parts.every((x) => DEBIT_WORD.test(x)) && !(parts.length === 1 && /^checks?$/.test(parts[0]))) return 'debit';
  const t = raw.replace(/\s*\((\$|usd)\)$/, '');
  if (/^(date|dates|post(ing|ed)?( date)?|trans(action)?\.? date|eff(ective)?\.? date|value date|date posted|posting|day)$/.test(t)) return 'date';
  if (/^(check|chk|check ?(no|number|num|#)|check\s*#|ck ?#|no|number|serial( no)?)\.?$/.test(t)) return 'check';
  // A column saying which way each row goes ("Type: Debit / Credit", "DR/CR").
  if (/^(type|category|trans(action)? type|dr ?\/ ?cr|cr ?\/ ?dr|debit ?\/ ?credit|credit ?\/ ?debit)$/.test(t)) return 'type';
  if (/^(ref(erence)?\.?( no| number| #)?|trace( no| number)?|conf(irmation)?( no| #)?|code|tran code)\.?$/.test(t)) return 'other';
  if (/^(description|transaction( description| details)?|details?|memo|payee|activity|particulars|narrative|merchant|description of transaction)$/.test(t)) return 'desc';
  if (/^(withdrawals?|debits?|subtractions?|payments?|charges?|money out|paid out|withdrawals? ?(\/|&|and) ?debits|debits? ?(\/|&|and) ?withdrawals?|checks? ?(\/|&|and) ?(other )?debits|(debits?|withdrawals?) \(-\)|-|withdrawal amount|debit amount|amount debited|outflows?)$/.test(t)) return 'debit';
  if (/^(deposits?|credits?|additions?|money in|paid in|receipts?|deposits? ?(\/|&|and) ?(other )?credits|credits? ?(\/|&|and) ?deposits?|(credits?|deposits?) \(\+\)|\+|deposit amount|credit amount|amount credited|inflows?)$/.test(t)) return 'credit';
  if (/^(amount|amount \(\$\)|amt|transaction amount|\$ amount|amount\(\$\))$/.test(t)) return 'amount';
  if (/^((running|ledger|daily|ending|account|end of day|closing|available|new) )?balance( \(\$\))?$/.test(t)) return 'balance';
  return null;
}

/** The columns of a header row, or null when the line is not one. */
function headerOf(line: Line): Col[] | null {
  const words = line.words;
  if (words.length > 24) return null;
  if (words.some((w) => parseMoney(w.t) || numericDate(w.t))) return null;
  // Cells first; a cell that is not a header as a whole is tried word by word (and word pairs).
  const cols: Col[] = [];
  let unknown = 0;
  const cells = cellsOf(words);
  for (const c of cells) {
    const k = headerKind(c.t);
    if (k) {
      cols.push({ kind: k, x0: c.x0, x1: c.x1 });
      continue;
    }
    const ws = words.filter((w) => w.x0 >= c.x0 - 0.01 && w.x1 <= c.x1 + 0.01);
    for (let i = 0; i < ws.length; i++) {
      const two = i + 1 < ws.length ? headerKind(`${ws[i].t} ${ws[i + 1].t}`) : null;
      const three = i + 2 < ws.length ? headerKind(`${ws[i].t} ${ws[i + 1].t} ${ws[i + 2].t}`) : null;
      if (three) {
        cols.push({ kind: three, x0: ws[i].x0, x1: ws[i + 2].x1 });
        i += 2;
      } else if (two) {
        cols.push({ kind: two, x0: ws[i].x0, x1: ws[i + 1].x1 });
        i++;
      } else {
        const k = headerKind(ws[i].t);
        if (k) cols.push({ kind: k, x0: ws[i].x0, x1: ws[i].x1 });
        else unknown++;
      }
    }
  }
  const has = (k: ColKind) => cols.some((c) => c.kind === k);
  const numeric = cols.filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind)).length;
  if (cols.length < 2 || unknown > Math.max(1, cols.length / 2)) return null;
  // (No date column: a table whose dates head each day's rows, "Wednesday, Apr 1, 2026" on a line
  // of its own over "Description | Amount | Balance"; it names what its rows are and their amount.)
  if (!(has('date') || has('check') || (has('desc') && cols.some((c) => ['debit', 'credit', 'amount'].includes(c.kind)) && cols.length >= 3))) return null;
  if (!numeric) return null;
  if (!has('desc') && !has('balance') && !has('check') && !has('amount')) return null;
  return cols;
}

interface Heading {
  kind: SectionKind;
  category: string;
}
/** A section heading's meaning, from its words. */
function headingOf(text: string): Heading | null {
  const t = text.toLowerCase().replace(/\(?continued\)?|\bcont(\.|'d)?\b/g, ' ').replace(/\([^)]*\)?/g, ' ').replace(/[^a-z&/ ]+/g, ' ').replace(/\bcredit unions?\b/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t || t.split(' ').length > 9) return null;
  // A summary's column header naming both sides and the balances ("Account  Previous Balance
  // Deposits  Withdrawals  Ending Balance"): neither a credit nor a debit section.
  if (/\b(deposits?|credits?|additions?)\b/.test(t) && /\b(withdrawals?|debits?|subtractions?|deductions?|checks)\b/.test(t) && /\bbalances?\b/.test(t)) return { kind: 'summary', category: 'summary' };
  if (/^(daily|ending daily|daily ending|daily ledger|daily account|daily collected|end of day)\b.*\bbalances?\b|^balance summary$|^daily balance summary$|^balances by date$|^daily balances?$/.test(t)) return { kind: 'daily', category: 'daily' };
  if (/^(overdraft|total overdraft|returned item fees?|interest)\b.*\b(fees|summary|year)/.test(t)) return { kind: 'ignore', category: 'other' };
  // What the account's monthly fee is and how to avoid it ("Monthly service fee summary  Fee period
  // 12/13 - 01/14  Standard monthly service fee $30.00  You paid $30.00"): terms, not a printed total.
  if (/^((monthly|standard|account) )*(service|maintenance|account) (fee|charge)s? (summary|information|details?|calculation|explained|waiver)\b/.test(t)) return { kind: 'ignore', category: 'other' };
  // Not this period's posted activity: pending or held items (not yet posted, never in the
  // balances), check images (the checks again, as pictures with their captions), an account
  // analysis (fee arithmetic per service, "ACH ORIGINATION 25 @ 0.15").
  if (/^(pending|scheduled|held|on hold|memo posted)( [a-z]+)? (transactions?|items?|activity|deposits?|debits?|credits?|withdrawals?|payments?)$|^(check|checks|draft|item) images?\b|^images? of (paid )?(checks|items)\b|^(account|service charge|fee|business) analysis\b|^analysis (statement|summary|of service charges)\b/.test(t)) return { kind: 'ignore', category: 'other' };
  if (/^(summary of checks( written| paid)?|checks? (paid|cleared|written)|checks? (paid )?summary|paid checks|checks|check register|checks? and substitute checks|checks cleared)\b/.test(t)) return { kind: 'checks', category: 'checks' };
  if (/\b(account summary|summary of (your )?account|statement summary|account overview|balance summary|summary)$/.test(t) && !/checks/.test(t)) return { kind: 'summary', category: 'summary' };
  if (/^(transaction history|account activity|transactions?|activity( detail)?|transaction detail|account transactions|transaction activity|details of your account|daily activity)\b/.test(t)) return { kind: 'mixed', category: 'mixed' };
  const cat = categoryOf(t);
  if (cat === 'deposits') return { kind: 'credit', category: cat };
  if (cat) return { kind: 'debit', category: cat };
  if (/\b(activity|transactions|transaction history|transaction detail)\b/.test(t) && t.split(' ').length <= 7) return { kind: 'mixed', category: 'mixed' };
  return null;
}

/**
 * The kind of account a text names: `transaction` (checking, a credit union's share draft, a
 * demand-deposit / operating account), `savings` (savings, a credit union's share savings or
 * regular share, money market, certificates, IRA, club accounts) or `loan` (loans, lines of
 * credit, cards), else null.
 */
export type AccountKind = 'transaction' | 'savings' | 'loan';
const ACCOUNT_KINDS: Array<[AccountKind, RegExp]> = [
  ['transaction', /\b(checking|share drafts?|demand deposits?|dda|operating account)\b/],
  ['savings', /\b(savings?|money market|mma|certificates?( of deposit)?|cd|ira|christmas club|club account|(regular|primary|base|membership|business|main) shares?|share account)\b/],
  ['loan', /\b(loans?|lines? of credit|loc|heloc|mortgage|credit card account)\b/],
];
/** A text without the kinds of institution that name accounts' kinds ("Harborview Savings Bank", "... Federal Credit Union", "Savings and Loan"). */
const withoutInstitution = (text: string) =>
  text.toLowerCase().replace(/\bcredit unions?\b|\bsavings (and|&) loan( association)?\b|\bsavings (bank|institution|association|society)\b|\b(federal|mutual) savings\b|\b(loan|trust) (bank|company|association)\b|\bbuilding (and|&) loan\b|\bfsb\b/g, ' ');
export function accountKindOf(text: string): AccountKind | null {
  const t = withoutInstitution(text);
  return ACCOUNT_KINDS.find(([, re]) => re.test(t))?.[0] ?? null;
}
export interface AccountRef {
  kind: AccountKind;
  /** The account's number as printed (last digits of a mask), or null. */
  number: string | null;
  name: string;
}
/**
 * An account's heading: a short line, words and an account number only, that names a kind of
 * account ("0070 BUSINESS SHARE DRAFT", "Business Checking Account ****1234", "SAVINGS 0001",
 * "Business Line of Credit - Loan 0142"): the rows and balances after it are that account's. A
 * sentence, a transfer's or an interest line's words, a section heading ("Transfers to savings") or
 * an offer ("Open a money market account today") is none.
 */
export function accountHeadingOf(text: string): AccountRef | null {
  const t = text.replace(/\(?continued\)?|\bcont(\.|'d)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  const words = t.split(' ');
  if (!t || words.length > 10 || /[.!?]$/.test(t)) return null;
  const kind = accountKindOf(t);
  if (!kind) return null;
  const low = t.toLowerCase();
  // A line naming two kinds ("Business Checking - 7102 Business Savings - 3090", a summary's) heads neither.
  if (ACCOUNT_KINDS.filter(([, re]) => re.test(withoutInstitution(low))).length > 1) return null;
  if (/\b(transfers?|xfer|trf|to|from|interest|dividends?|rate|apy|fees?|charges?|payments? due|deposits|withdrawals|open|apply|today|offer|your|you|our|we|visit|call|ask|protection|linked|balance|balances|summary|overview|total|minimum|available|ref|pmt|pymt|iou|cleared)\b|=/.test(low)) return null;
  const num = /(?:#|no\.?|number|acct\.?|account|[*xX•.]{2,}|\b)\s*[*xX•.]*(\d{3,})\b/.exec(t);
  const tail = accountKindOf(words.slice(-3).join(' ')) !== null;
  if (!num && !/\baccount\b/i.test(t) && !tail) return null;
  return { kind, number: num ? num[1].slice(-4) : null, name: t };
}
/** Whether two headings name the same account: the same kind, and the same number when both print one. */
const sameAccount = (a: AccountRef, b: AccountRef) => a.kind === b.kind && (a.number === null || b.number === null || a.number === b.number);

/** What a label or heading totals: deposits, checks, fees, electronic, card, withdrawals, or null. */
function categoryOf(t: string): string | null {
  const s = t.toLowerCase();
  if (/^(incoming wires?|wires? in|wire transfers? in|transfers? in|incoming transfers?)$/.test(s)) return 'deposits';
  if (/^(outgoing wires?|wires? out|wire transfers? out|transfers? out|outgoing transfers?)$/.test(s)) return 'withdrawals';
  // Money coming in, whatever it is called ("Incoming Payments", "Received Transfers"): deposits.
  if (/^(total )?(incoming|inbound|received)\b/.test(s) && !/\b(fees?|charges?|returns?|returned|reversals?)\b/.test(s)) return 'deposits';
  // An online bank's sides: "Money in" / "Money out", "Paid in" / "Paid out", "Funds in" / "Funds out".
  if (/^(total )?(money|funds|paid) in$/.test(s)) return 'deposits';
  if (/^(total )?(money|funds|paid) out$/.test(s)) return 'withdrawals';
  if (/\b(deposits?|credits?|additions?)\b/.test(s) && !/\b(withdrawals?|debits?|subtractions?|deductions?|checks?|fees?|charges?|purchases?|payments?)\b/.test(s)) return 'deposits';
  if (/^(total )?(other )?(checks?|checks paid|paid checks)\b/.test(s)) return 'checks';
  if (/\b(fees?|service charges?|charges)\b/.test(s) && !/\bdeposits?\b/.test(s)) return 'fees';
  if (/\b(card|pos|debit card|purchases?)\b/.test(s)) return 'card';
  if (/\belectronic\b|\bach\b|\bpayments?\b/.test(s)) return 'electronic';
  if (/\b(withdrawals?|debits?|subtractions?|deductions?)\b/.test(s)) return 'withdrawals';
  return null;
}

/**
 * `nsf` (overdraft and returned-item fees together), `od` (overdraft / paid-item fees), `ri`
 * (returned-item / NSF fees) for a label that totals those fees, else null. Plural or "total ...":
 * a single fee line ("OVERDRAFT ITEM FEE") is a transaction, not a total.
 */
export function nsfFeeCategory(label: string): 'nsf' | 'od' | 'ri' | null {
  const t = label.toLowerCase().replace(/[^a-z&/ ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!/\b(fees|charges)\b|^total\b.*\b(fee|charge)\b/.test(t)) return null;
  if (/\b(limit|protection|transfer|waived|refund|reversal|credit)s?\b/.test(t)) return null;
  const od = /\b(overdraft|overdrawn|od|paid items?|courtesy pay)\b/.test(t);
  const ri = /\b(returned items?|return items?|nsf|non sufficient|insufficient funds?|unpaid items?)\b/.test(t);
  return od && ri ? 'nsf' : od ? 'od' : ri ? 'ri' : null;
}

/**
 * Every category a summary label names: "Checks and other deductions" is checks and withdrawals,
 * "CHECKS/DEBITS" checks and withdrawals, "withdrawals, checks and fees" all three; a plain label
 * one. A generic word ("other deductions", "debits", "withdrawals") is `withdrawals`.
 */
export function categoriesOf(label: string): string[] {
  const t = label.toLowerCase().replace(/\([^)]*\)/g, ' ').replace(/[^a-z&/, ]+/g, ' ').replace(/\s+/g, ' ').trim();
  const whole = categoryOf(t);
  const parts = t.split(/\s*(?:\/|&|,|\band\b|\bplus\b)\s*/).map((x) => x.trim()).filter(Boolean);
  const out = new Set<string>();
  for (const p of parts) {
    const c = nsfFeeCategory(p) ?? categoryOf(p);
    if (c) out.add(c);
  }
  if (!out.size && whole) out.add(whole);
  return [...out];
}

type Label = { role: 'opening' | 'closing' } | { role: 'total'; kind: 'credit' | 'debit'; category: string } | { role: 'ignore' };
function labelOf(raw: string): Label | null {
  const t = raw.toLowerCase().replace(/[^a-z&/' ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t) return null;
  // A fee box's overdraft / returned-item fee totals for this period ("Total Overdraft Fees",
  // "Overdraft and returned item fees", "TOTAL OVERDRAFT/NSF FEES"): checked against those fee
  // lines. Year-to-date figures are not this period's and are never checked or counted.
  // A rate, not a total: a fee box's "Fee per item: $34.00" beside its item counts ("Overdraft
  // items paid: 3 Items returned unpaid: 1 Fee per item: $34.00") is the price of one item.
  if (/\b(per item|each item|per occurrence|fee each)\b/.test(t)) return { role: 'ignore' };
  const nsfFees = nsfFeeCategory(t);
  if (nsfFees) return /\b(year to date|ytd|year)\b/.test(t) ? { role: 'ignore' } : { role: 'total', kind: 'debit', category: nsfFees };
  if (/\b(average|avg|minimum|min|maximum|low|high|collected|available|year to date|ytd|interest|apy|yield|annual|overdraft limit|hold|pending|courtesy pay|nsf)\b/.test(t)) return { role: 'ignore' };
  if (/\b(beginning|opening|starting|previous|prior|last statement s?|begin)\b.*\bbalance\b|^balance (forward|last statement|brought forward|at start)|^balance on [a-z]* ?$|^balance as of$/.test(t)) return { role: 'opening' };
  if (/\b(ending|closing|new|current|end|this statement s?)\b.*\bbalance\b|^balance this statement|^balance at end|^statement balance$/.test(t)) return { role: 'closing' };
  if (/\btotal (overdraft|returned item)/.test(t)) return { role: 'ignore' };
  const cat = categoryOf(t);
  if (!cat) return null;
  return { role: 'total', kind: cat === 'deposits' ? 'credit' : 'debit', category: cat };
}

// ------------------------------------------------------------------------------------ the period

const MONTH_NAME = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DATE_Y = `(?:\\d{1,2}[/-]\\d{1,2}[/-](?:\\d{4}|\\d{2})(?![\\d/])|${MONTH_NAME}\\s+\\d{1,2},?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2})`;
const DATE_NOY = `(?:${MONTH_NAME}\\s+\\d{1,2}|\\d{1,2}/\\d{1,2})`;
const RANGE_RE = new RegExp(`(${DATE_Y})\\s*(?:-|to|through|thru|until)\\s*(${DATE_Y})`, 'i');
const RANGE_NOY_RE = new RegExp(`(${DATE_NOY})\\s*(?:-|to|through|thru)\\s*(${DATE_Y})`, 'i');
const RANGE_SAME_MONTH_RE = new RegExp(`(${MONTH_NAME})\\s+(\\d{1,2})\\s*(?:-|to|through|thru)\\s*(\\d{1,2}),?\\s+(\\d{4})`, 'i');
/** The statement's closing date, strongest wording first ("as of" last, and never a balance's). */
const CLOSING_DATE_RES = [
  new RegExp(`\\b(?:statement (?:closing )?date|closing date|statement ending|period ending|ending date|end date|statement through)\\s*:?\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bfor (?:the period ending )?:?\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bthrough\\s*:?\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bas of\\s*:?\\s*(${DATE_Y})`, 'i'),
];
const PREVIOUS_DATE_RE = new RegExp(`\\b(?:previous|prior|last) statement(?: date| closing date| ending)?\\s*:?\\s*(${DATE_Y})`, 'i');
const DAYS_IN_PERIOD_RE = /\b(?:number of )?days in (?:the |this )?(?:statement |billing )?(?:period|cycle)\s*:?\s*(\d{1,3})\b/i;
const OPEN_ON_RE = new RegExp(`\\b(beginning|opening|starting|previous) balance (?:on|as of)\\s+(${DATE_Y})`, 'i');
const CLOSE_ON_RE = new RegExp(`\\b(?:ending|closing|new) balance (?:on|as of)\\s+(${DATE_Y})`, 'i');

export function isoOf(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return date.toISOString().slice(0, 10);
}
export function fullDate(text: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(t);
  if (m) return isoOf(year4(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return isoOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = new RegExp(`^(${MONTH_NAME})\\s+(\\d{1,2})\\s+(\\d{4})$`, 'i').exec(t);
  if (m) return isoOf(Number(m[3]), MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]));
  return null;
}
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
function monthBefore(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
  const prev = new Date(Date.UTC(y, m - 2, Math.min(d, last)));
  // The day after the same day a month earlier; a month-end statement starts on the 1st.
  const endOfMonth = d === new Date(Date.UTC(y, m, 0)).getUTCDate();
  return endOfMonth ? `${iso.slice(0, 8)}01` : addDays(prev.toISOString().slice(0, 10), 1);
}

function periodOf(texts: string[]): { start: string; end: string } | null {
  for (const l of texts) {
    let m = RANGE_RE.exec(l);
    if (m) {
      const start = fullDate(m[1]);
      const end = fullDate(m[2]);
      if (start && end && start <= end && days(start, end) <= 120) return { start, end };
    }
    m = RANGE_SAME_MONTH_RE.exec(l);
    if (m) {
      const mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
      const start = isoOf(Number(m[4]), mo, Number(m[2]));
      const end = isoOf(Number(m[4]), mo, Number(m[3]));
      if (start && end && start <= end) return { start, end };
    }
    m = RANGE_NOY_RE.exec(l);
    if (m) {
      const end = fullDate(m[2]);
      const md = tokens(m[1].split(/\s+/).map((t, i) => ({ x0: i, x1: i, t, cell: 0 })))[0];
      if (end && md?.k === 'date') {
        const y = Number(end.slice(0, 4));
        let start = isoOf(y, md.md[0], md.md[1]);
        if (start && start > end) start = isoOf(y - 1, md.md[0], md.md[1]);
        if (start && days(start, end) <= 120) return { start, end };
      }
    }
  }
  let open: string | null = null;
  let close: string | null = null;
  for (const l of texts) {
    // "Beginning balance on 10/01" opens the period; "previous balance as of 09/30" closes the one before.
    const o = OPEN_ON_RE.exec(l);
    const od = o ? fullDate(o[2]) : null;
    if (od) open ??= /previous/i.test(o![1]) ? addDays(od, 1) : od;
    close ??= fullDate(CLOSE_ON_RE.exec(l)?.[1] ?? '');
  }
  if (open && close && open <= close) return { start: open, end: close };
  let end: string | null = null;
  let prev: string | null = null;
  for (const l of texts) {
    const p = PREVIOUS_DATE_RE.exec(l);
    if (p) prev ??= fullDate(p[1]);
  }
  for (const re of CLOSING_DATE_RES) {
    for (const l of texts) {
      if (end) break;
      if (/\bbalance\b/i.test(l) && re === CLOSING_DATE_RES[3]) continue;
      const c = re.exec(l.replace(PREVIOUS_DATE_RE, ' '));
      if (c) end = fullDate(c[1]);
    }
  }
  if (end) {
    // "Days in period 28" (or "Number of days in this statement period: 28") beside the closing date.
    let span: number | null = null;
    for (const l of texts) {
      const d = DAYS_IN_PERIOD_RE.exec(l);
      if (d && Number(d[1]) >= 1 && Number(d[1]) <= 62) {
        span = Number(d[1]);
        break;
      }
    }
    const start = open && open < end && days(open, end) <= 62 ? open : prev && prev < end && days(prev, end) <= 62 ? addDays(prev, 1) : span ? addDays(end, 1 - span) : monthBefore(end);
    return { start, end };
  }
  // A calendar month named as the period, and nothing more precise: "Statement Period: April
  // 2026", "Statement for April 2026", "April 2026 Statement" (its first to its last day).
  for (const l of texts) {
    const m = MONTH_PERIOD_RE.exec(l) ?? MONTH_PERIOD_AFTER_RE.exec(l);
    if (!m) continue;
    const mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    const y = Number(m[2]);
    const first = isoOf(y, mo, 1);
    if (first) return { start: first, end: addDays(isoOf(mo === 12 ? y + 1 : y, mo === 12 ? 1 : mo + 1, 1)!, -1) };
  }
  return null;
}
const MONTH_PERIOD_RE = new RegExp(`\\b(?:statement(?:\\s+(?:period|month|for))?|period|for(?:\\s+the\\s+month\\s+of)?|month\\s+of)\\s*:?\\s*(${MONTH_NAME}),?\\s+(\\d{4})(?![\\d/,-]|\\s*(?:-|to\\b|through\\b|thru\\b))`, 'i');
const MONTH_PERIOD_AFTER_RE = new RegExp(`^\\s*(${MONTH_NAME}),?\\s+(\\d{4})\\s+(?:account\\s+|bank\\s+|business\\s+)?statement\\b`, 'i');
/**
 * A period printed down a header box ("Statement Period:" / "Dec 16, 2025" / "through" /
 * "Jan 15, 2026"), each part on its own line beside other text (the address): the label's cell and
 * the cells under it, left-aligned with it, on the next few lines, as one text.
 */
function stackedPeriods(lines: Line[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (const c of cellsOf(lines[i].words)) {
      // The label alone ("Statement Period:", "Period", "Statement Dates"), never a table's "Date".
      if (!/^(statement |account |billing )?period( covered)?:?$|^statement dates?:?$/i.test(c.t.trim())) continue;
      const parts = [c.t];
      let prev = lines[i];
      for (let j = i + 1; j < lines.length && j <= i + 5; j++) {
        const l = lines[j];
        if (l.page !== prev.page || l.y - prev.y > prev.size * 2.4) break;
        const under = cellsOf(l.words).filter((x) => Math.abs(x.x0 - c.x0) <= 20 || (x.x0 >= c.x0 && x.x1 <= c.x1 + 40));
        if (!under.length) break;
        parts.push(...under.map((x) => x.t));
        prev = l;
      }
      if (parts.length > 1) out.push(parts.join(' '));
    }
  }
  return out;
}
export const days = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/** A row's date with its year: the year that puts it inside the period (or nearest to it). */
export function dateIn(md: [number, number, number | null], period: { start: string; end: string }): string | null {
  const [mo, d, y] = md;
  if (y) return isoOf(y, mo, d);
  const ys = [...new Set([Number(period.start.slice(0, 4)), Number(period.end.slice(0, 4))])];
  let best: string | null = null;
  let bestDist = Infinity;
  for (const yy of [...ys, ys[0] - 1, ys[ys.length - 1] + 1]) {
    const iso = isoOf(yy, mo, d);
    if (!iso) continue;
    const dist = iso < period.start ? days(iso, period.start) : iso > period.end ? days(period.end, iso) : 0;
    if (dist < bestDist) {
      best = iso;
      bestDist = dist;
    }
  }
  return best;
}

// ------------------------------------------------------------------------------------ reading

const isBalanceLabel = (t: string) => {
  const l = labelOf(t);
  return l?.role === 'opening' || l?.role === 'closing';
};

/**
 * A label without the title of its box printed before it on the same line ("Overdraft/NSF fee
 * summary  Total overdraft fees $150.00" is "Total overdraft fees"): the title names the whole box,
 * the words from "Total" on name the figure (when they name one on their own: "Deposits (+)
 * Total" stays whole). Only a title that reads as one (it ends in "summary",
 * "totals", "overview", ... or is a section heading) is dropped.
 */
export function untitled(label: string): string {
  const m = /^(.+?)\s+(total\b.*)$/i.exec(label.trim());
  if (!m) return label;
  const title = m[1].replace(/[:\-–]+$/, '').trim();
  const rest = labelOf(m[2]);
  if (!rest || rest.role === 'ignore') return label;
  if (/\b(summary|totals|overview|information|details?|recap|at a glance)$/i.test(title) || headingOf(title)) return m[2];
  return label;
}

/** Label/amount pairs of a summary line: each amount with the words before it (and a count). */
function pairsOf(toks: Tok[]): Array<{ label: string; money: Money; count: number | null }> {
  const out: Array<{ label: string; money: Money; count: number | null }> = [];
  let label: string[] = [];
  let count: number | null = null;
  let leading: number | null = null;
  for (const t of toks) {
    if (t.k === 'money') {
      if (label.length) out.push({ label: untitled(label.join(' ')), money: t.m, count });
      label = [];
      count = null;
      leading = null;
    } else if (t.k === 'int' && label.length) count = t.n;
    // A count in front of its label ("38 DEPOSITS/CREDITS  73,009.28").
    else if (t.k === 'int' && !label.length && !t.paren) leading = t.n;
    else if (t.k === 'text') {
      if (count !== null && /^(items?|deposits?|credits?|debits?|withdrawals?|checks?|transactions?)$/i.test(t.t)) label.push(t.t);
      else {
        if (count !== null && !label.length) count = null;
        if (leading !== null && !label.length) count = leading;
        leading = null;
        label.push(t.t);
      }
    } else if (t.k === 'date') {
      leading = null;
      label.push(t.t);
    }
  }
  return out;
}

const THERE_ARE_RE = /there\s+(?:are|were|is|was)\s+(\d+)\s+(.+?)\s+totaling\s+\$?([\d,]+\.\d{2})/i;
/**
 * A summary figure in a sentence: "We added 43 deposits and credits totaling $43,806.70", "You had
 * 12 withdrawals, checks and fees totaling $9,001.22", "Deposits and credits for a total of $X".
 * The words before the amount name what it totals (and the count, when printed).
 */
const SENTENCE_TOTAL_RE = /^(.*?)\s*\b(?:totaling|totalling|totaled|totalled|for a total of|amounting to|in the amount of)\s*:?\s*(\(?[-+]?\$?\s?[\d,]+\.\d{2}\)?-?)(?=[\s.;,)]|$)/i;
const SENTENCE_SUBJECT_RE = /^(?:.*?\b)?(?:(?:we|you|there)\s+(?:have\s+)?(?:had|added|subtracted|made|posted|received|paid|deducted|withdrew|deposited|credited|debited|are|were|is|was|processed)\s+)?(?:a\s+total\s+of\s+)?(?:(\d+)\s+)?([a-z][a-z ,&/'-]*?)\s*$/i;
/** "Your balance on 09/01/25 was $1,262.14", "Beginning balance on Sep 1 ... $X", "ending balance as of 10/31: $X". */
const DATE_ANY = `(?:${DATE_Y}|${DATE_NOY})`;
/** The same with the amount first: "Your ending balance was $3,045.23 on 09/30/25". */
const BALANCE_WAS_RE = new RegExp(`\\b((?:[a-z]+\\s+){0,3})balance\\s+(?:was|is|of|:)\\s*(\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?(?:\\s?(?:CR|DR))?)\\s+(?:on|as of)\\s+(${DATE_ANY})(?=[\\s.;,]|$)`, 'i');
/** "Your balance went from $662.10 at the start of Jan 5, 2026 to $6,518.31 at the end of Feb 4, 2026" (an online bank's summary). */
const MONEY_SRC = `\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?`;
const BALANCE_WENT_RE = new RegExp(`\\bbalance\\s+(?:went|moved|changed|grew|rose|fell|dropped|increased|decreased)\\s+from\\s+(${MONEY_SRC})\\s+(?:at the (?:start|beginning) of|on|as of)\\s+(${DATE_ANY})\\s*,?\\s+to\\s+(${MONEY_SRC})\\s+(?:at the (?:end|close) of|on|as of)\\s+(${DATE_ANY})(?=[\\s.;,]|$)`, 'i');
/** "You received $46,309.95 in 39 transactions and sent $40,453.74 in 44 transactions." */
const RECEIVED_SENT_RE = new RegExp(`\\byou\\s+received\\s+(${MONEY_SRC})\\s+in\\s+(\\d+)\\s+(?:transactions?|deposits?|credits?|payments?)\\s*,?\\s+and\\s+(?:you\\s+)?(?:sent|spent|paid out)\\s+(${MONEY_SRC})\\s+in\\s+(\\d+)\\s+(?:transactions?|withdrawals?|debits?|payments?)\\b`, 'i');
const BALANCE_ON_RE = new RegExp(`\\b((?:[a-z]+\\s+){0,3})balance\\s+(?:on|as of|at the close of|at close of business on|at the end of)\\s+(${DATE_ANY})\\s*(?:was|is|of|were|:|=)?\\s*(\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?(?:\\s?(?:CR|DR))?)(?=[\\s.;,]|$)`, 'i');

/**
 * A header's amount columns where its rows put their amounts: right-aligned amounts share a right
 * edge, so the rows below the header (to the next header or the page's end) give one edge per
 * column that has amounts. When there are as many edges, each held by several amounts, as the
 * header has amount and balance columns, the columns, left to right, are those edges, left to
 * right: titles set left while their figures are set right ("Debits   Credits   Balance" each over
 * the left of a right-aligned column) are read by where the figures are. Otherwise the titles'
 * places stand.
 */
function fitColumnsOf(lines: Line[], toks: Tok[][], header: Col[], at: number): Col[] {
  const numeric = header.filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind)).sort((a, b) => a.x0 - b.x0);
  if (numeric.length < 2) return header;
  const edges: Array<{ x1: number; x0: number; n: number }> = [];
  for (let j = at + 1; j < lines.length && j <= at + 200 && lines[j].page === lines[at].page; j++) {
    if (headerOf(lines[j])) break;
    if (toks[j][0]?.k !== 'date' && /^(total|sub ?total|page|balance|beginning|ending|opening|closing)\b/i.test(lines[j].text)) continue;
    for (const t of toks[j]) {
      if (t.k !== 'money') continue;
      const e = edges.find((x) => Math.abs(x.x1 - t.x1) <= 2.5);
      if (e) {
        e.n++;
        e.x0 = Math.min(e.x0, t.x0);
      } else edges.push({ x1: t.x1, x0: t.x0, n: 1 });
    }
  }
  // (Amounts ending left of the first amount column's title are quoted in descriptions.)
  const right = edges.filter((e) => e.x1 > numeric[0].x0);
  const held = right.filter((e) => e.n >= 3).sort((a, b) => a.x1 - b.x1);
  if (held.length !== numeric.length) return header;
  // Every other amount on those rows on one of the edges.
  if (right.some((e) => e.n < 3)) return header;
  // Only when the titles' own places would put an edge's figures under another column.
  const nearest = (e: { x0: number; x1: number }) => numeric.reduce((b, c) => (ivDist(c.x0, c.x1, e.x0, e.x1) - ivDist(b.x0, b.x1, e.x0, e.x1) || Math.abs(c.x1 - e.x1) - Math.abs(b.x1 - e.x1)) < 0 ? c : b);
  if (held.every((e, k) => nearest(e) === numeric[k])) return header;
  const moved = new Map(numeric.map((c, k) => [c, { ...c, x0: held[k].x0, x1: held[k].x1 }]));
  return header.map((c) => moved.get(c) ?? c);
}

/**
 * A box beside the account summary whose figures are not read ("OVERDRAFT / RETURN ITEM FEES" with
 * this period and year to date, right of "Beginning Balance ... Ending Balance"): its heading would
 * end the summary's reading at the box, so the box's words are taken out of the lines it shares
 * with the summary. A box is a heading of an unread kind, alone on its line right of the middle,
 * with text left of it just below; it runs while its lines follow each other closely.
 */
function withoutSideBoxes(lines: Line[], pages: PageItems[]): Line[] {
  const out = lines.slice();
  for (let i = 0; i < out.length; i++) {
    const head = out[i];
    if (!head.words.length) continue;
    const x0 = head.words[0].x0;
    if (x0 < (pages[head.page]?.width ?? 612) * 0.4 || headingOf(head.text)?.kind !== 'ignore') continue;
    const next = out[i + 1];
    if (!next || next.page !== head.page || next.y - head.y > head.size * 2.4 || !next.words.some((w) => w.x1 < x0 - 4)) continue;
    let lastY = head.y;
    out[i] = { ...head, words: [], text: '' };
    for (let j = i + 1; j < out.length; j++) {
      const l = out[j];
      if (l.page !== head.page || l.y - lastY > l.size * 2.4 || l.words.some((w) => w.x0 < x0 - 4 && w.x1 > x0 + 4)) break;
      const keep = l.words.filter((w) => w.x0 < x0 - 4);
      if (keep.length === l.words.length) continue;
      lastY = l.y;
      out[j] = { ...l, words: keep, text: cellTexts(keep).join('  ') };
    }
  }
  return out.filter((l) => l.words.length);
}

export function read(pages: PageItems[]): Reading {
  const all = linesOf(pages);
  const lines = withoutSideBoxes(all, pages);
  const r: Reading = { bankName: null, period: null, opening: null, closing: null, closings: [], rows: [], totals: [], daily: [], sections: [] };
  r.bankName = bankOf(all);
  r.period = periodOf([...all.map((l) => l.text), ...stackedPeriods(all)]);
  const sections: Section[] = [{ kind: 'mixed', category: 'mixed', heading: '' }];
  let sec = 0;
  let cols: Col[] | null = null;
  let lastRow: { row: Row; line: Line; descX: number } | null = null;
  /** A dated line without an amount: its row's amounts may follow on the next line. */
  let pending: { toks: Tok[]; line: Line; lastY?: number } | null = null;
  /** The date heading the rows below it in a table without a date column. */
  let dayDate: [number, number, number | null] | null = null;
  /** Whether a line is indented to the pending row's description, just below its last line: that row's description going on. */
  const underPending = (line: Line, at: number) => {
    if (!pending || !cols) return false;
    // Just below the row's last line; or, the row running on to the next page, the first line
    // under that page's repeated column header.
    const below = pending.line.page === line.page && line.y - (pending.lastY ?? pending.line.y) <= pending.line.size * 2.6;
    const nextPage = line.page === pending.line.page + 1 && at > 0 && lines[at - 1].page === line.page && headerOf(lines[at - 1]) !== null;
    if (!below && !nextPage) return false;
    const desc = pending.toks.find((t, n) => n > 0 && t.k === 'text');
    return !!desc && line.words[0].x0 >= desc.x0 - 2 && !/^(total|sub ?total|page total)\b/i.test(line.text) && !isBalanceLabel(line.text);
  };
  let forwardOpening: number | null = null;
  /** Balances stated with their date ("Your balance on 09/01/25 was ..."), in the order printed. */
  const dated: Array<{ md: [number, number, number | null]; cents: number; role: 'opening' | 'closing' | null }> = [];
  const toks = lines.map((l) => tokens(l.words));
  // The same header repeated on a later page (its rows too few there to place its columns) keeps
  // the places its rows gave on an earlier page.
  const fitted = new Map<string, Col[]>();
  const fitColumns = (header: Col[], at: number) => {
    const key = header.map((c) => `${c.kind}@${Math.round(c.x0)}`).join(' ');
    const fit = fitColumnsOf(lines, toks, header, at);
    if (fit.some((c, k) => c.x0 !== header[k].x0 || c.x1 !== header[k].x1)) fitted.set(key, fit);
    else if (fitted.has(key)) return fitted.get(key)!;
    return fit;
  };

  const activityKey = (h: string) => h.toLowerCase().replace(/\(?continued\)?|cont(\.|'d)/g, '').replace(/[^a-z]+/g, ' ').trim();
  let firstActivity: string | null = null;
  let stopped = false;
  // Accounts: a statement may print several (a credit union's share savings and share draft, a
  // bank's combined checking and savings, a loan). Each account's heading starts its own opening,
  // closing, rows, totals and daily balances; one account is reported (see `chooseAccount`).
  type Segment = Pick<Reading, 'opening' | 'closing' | 'closings' | 'rows' | 'totals' | 'daily'> & { account: AccountRef | null };
  const accounts: Segment[] = [];
  let account: AccountRef | null = null;
  let accountRows = 0;
  /** Balances whose label names an account ("Savings ending balance"), kept for that account. */
  const named: Array<{ account: AccountRef; role: 'opening' | 'closing'; cents: number }> = [];
  const startAccount = (next: AccountRef | null, opening: number | null) => {
    accounts.push({ account, opening: r.opening, closing: r.closing, closings: r.closings, rows: r.rows, totals: r.totals, daily: r.daily });
    r.closings = [];
    r.rows = [];
    r.totals = [];
    r.daily = [];
    r.closing = null;
    r.opening = opening;
    accountRows = 0;
    account = next;
  };
  /** An account's heading: the same account goes on; another starts its own reading. */
  /** Every account heading met, the ones another heading replaced before any row too. */
  const headings: AccountRef[] = [];
  const switchAccount = (next: AccountRef, pageTop = false) => {
    if (account && sameAccount(account, next)) {
      account = { ...account, number: account.number ?? next.number };
      return;
    }
    // At the top of a page, an account met before the current one: the page's running header
    // (the statement's main account, a title repeated on every page), not a new account; the
    // current account's rows go on.
    if (pageTop && account && headings.some((a) => sameAccount(a, next))) return;
    headings.push(next);
    // What came before any heading (a summary's balances, no rows) is the first account's.
    if (!account && !r.rows.length) {
      account = next;
      return;
    }
    if (!r.rows.length && r.opening === null && r.closing === null && !r.totals.length) {
      account = next;
      return;
    }
    startAccount(next, null);
  };
  const newSection = (h: Heading, heading: string) => {
    // A second account's activity (a savings account after the checking account): not this
    // statement's transactions; nothing after it is read as this account's.
    if (h.kind === 'mixed' && heading) {
      const k = activityKey(heading);
      if (firstActivity === null) firstActivity = k;
      else if (k !== firstActivity && r.rows.length && /\b(savings|money market|share|certificate|cd|loan|line of credit)\b/.test(k)) stopped = true;
    }
    if (stopped) {
      sections.push({ kind: 'ignore', category: 'other', heading });
      sec = sections.length - 1;
      cols = null;
      return;
    }
    const cur = sections[sec];
    // "(continued)" on a later page, or the same heading repeated: the same section.
    if (cur.kind === h.kind && cur.category === h.category && (/contin|cont'd|cont\./i.test(heading) || cur.heading.toLowerCase() === heading.toLowerCase())) return;
    sections.push({ kind: h.kind, category: h.category, heading });
    sec = sections.length - 1;
    cols = null;
  };
  const addTotal = (label: string, money: Money, count: number | null, inSection: boolean, of: AccountRef | null = accountNamed(label)) => {
    const l = labelOf(label);
    if (!l) return;
    // A balance naming an account ("Savings ending balance", a relationship summary's line per
    // account) is that account's, never the one being read unless it is the same.
    if ((l.role === 'opening' || l.role === 'closing') && of && !(account && sameAccount(account, of))) {
      named.push({ account: of, role: l.role, cents: signedCents(money) });
      return;
    }
    if (l.role === 'opening') {
      if (r.opening !== null && signedCents(money) !== r.opening && !/forward|brought/i.test(label) && r.rows.length > accountRows) {
        // A second account's opening balance after this one's rows, no heading naming it (a credit
        // union's shares, each with its own table): each account is kept apart.
        startAccount(null, signedCents(money));
        return;
      }
      if (r.opening === null) {
        if (/forward|brought/i.test(label)) forwardOpening ??= signedCents(money);
        else {
          r.opening = signedCents(money);
          accountRows = r.rows.length;
        }
      }
      return;
    }
    if (l.role === 'closing') {
      if (r.closing === null) r.closing = signedCents(money);
      else if (!r.closings.includes(signedCents(money))) r.closings.push(signedCents(money));
      return;
    }
    if (l.role !== 'total') return;
    const cats = categoriesOf(label);
    r.totals.push({ label, kind: l.kind, category: l.category, ...(cats.length > 1 ? { categories: cats } : {}), cents: money.cents, count, section: inSection ? sec : -1 });
  };
  // A dated row read: a balance line is a printed total; a transaction is kept, and the next line may
  // continue its description. False when the line is no row.
  const takeRow = (row: ReturnType<typeof rowOf>, tk: Tok[], money: Tok[], line: Line): boolean => {
    if (row === 'balance') {
      const last = money[money.length - 1] as Extract<Tok, { k: 'money' }>;
      addTotal(tk.filter((t) => t.k === 'text').map((t) => t.t).join(' '), last.m, null, false);
      lastRow = null;
      return true;
    }
    if (!row) return false;
    r.rows.push(row.row);
    lastRow = { row: row.row, line, descX: row.descX };
    return true;
  };

  /** A box with "this period" and "year-to-date" columns: only this period's amounts are read. */
  let periodBox: { page: number; y: number; thisX: number; ytdX: number } | null = null;
  /** A summary with a column per account ("Business Checking ****1234 | Business Savings ****5678" over its label lines). */
  let accountCols: { page: number; y: number; cols: Array<{ x: number; account: AccountRef }> } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let tk = toks[i];
    const kind = sections[sec].kind;
    {
      const cells = cellsOf(line.words);
      const thisCell = cells.find((c) => /\b(this|current) (period|statement|cycle|month)\b|^(total )?for this period$/i.test(c.t));
      const ytdCell = cells.find((c) => /\b(year[- ]to[- ]date|ytd|this year)\b/i.test(c.t));
      if (thisCell && ytdCell && thisCell !== ytdCell && !tk.some((t) => t.k === 'money')) periodBox = { page: line.page, y: line.y, thisX: (thisCell.x0 + thisCell.x1) / 2, ytdX: (ytdCell.x0 + ytdCell.x1) / 2 };
      // (The box ends at the next table's column header: a register's "DATE  DESCRIPTION  AMOUNT"
      // right under it is no box line, and its amounts are never taken for year-to-date ones.)
      else if (periodBox && (line.page !== periodBox.page || line.y - periodBox.y > line.size * 14 || headerOf(line))) periodBox = null;
      if (periodBox && tk.some((t) => t.k === 'money')) {
        const box = periodBox;
        // A year-to-date amount is not this period's: it is dropped from the line before reading it.
        tk = tk.filter((t) => t.k !== 'money' || Math.abs((t.x0 + t.x1) / 2 - box.thisX) <= Math.abs((t.x0 + t.x1) / 2 - box.ytdX));
      }
    }
    // A date column right of the description ("Description | Posted | Amount | Balance"): the date
    // under it is the row's, read first as in any row.
    if (cols && tk.length > 1 && tk[0].k !== 'date') {
      const dc = cols.find((c) => c.kind === 'date');
      const dsc = cols.find((c) => c.kind === 'desc');
      if (dc && dsc && dsc.x0 < dc.x0) {
        const at = tk.findIndex((t) => t.k === 'date' && ivDist(dc.x0 - 6, dc.x1 + 6, t.x0, t.x1) === 0);
        // (An amount quoted in the description, left of the date column, stays in it.)
        if (at > 0 && tk.slice(0, at).every((t) => t.k !== 'money' || t.x1 < dc.x0)) tk = [tk[at], ...tk.slice(0, at), ...tk.slice(at + 1)];
      }
    }
    const money = tk.filter((t) => t.k === 'money');
    const text = line.text;
    {
      // Column headings naming two accounts or more, nothing else: the amounts below are each
      // their column's account's.
      const heads = !money.length ? cellsOf(line.words).map((c) => ({ x: (c.x0 + c.x1) / 2, account: accountNamed(c.t) })) : [];
      if (heads.length >= 2 && heads.every((c) => c.account)) accountCols = { page: line.page, y: line.y, cols: heads as Array<{ x: number; account: AccountRef }> };
      else if (accountCols && (line.page !== accountCols.page || line.y - accountCols.y > line.size * 14)) accountCols = null;
    }

    // A table's header row.
    if (stopped || kind === 'ignore') {
      const h = !money.length && !stopped ? headingOf(text) : null;
      const acct = !money.length && !stopped && tk[0]?.k !== 'date' ? accountHeadingOf(text) : null;
      if (h) newSection(h, text);
      else if (acct) {
        switchAccount(acct);
        newSection({ kind: 'mixed', category: 'mixed' }, '');
      }
      continue;
    }
    const header = headerOf(line);
    if (header) {
      if (kind === 'summary') newSection({ kind: 'mixed', category: 'mixed' }, '');
      const onlyBalances = !header.some((c) => ['debit', 'credit', 'amount', 'check'].includes(c.kind));
      if (onlyBalances && kind !== 'daily' && !header.some((c) => c.kind === 'desc')) newSection({ kind: 'daily', category: 'daily' }, text);
      cols = fitColumns(header, i);
      lastRow = null;
      dayDate = null;
      continue;
    }
    // A table without a date column: a date alone on its line ("Wednesday, Apr 1, 2026") heads
    // the day's rows below it.
    if (cols && !cols.some((c) => c.kind === 'date') && !money.length) {
      const d = tk.filter((t) => t.k === 'date');
      const rest = tk.filter((t) => t.k !== 'date');
      if (d.length === 1 && rest.every((t) => t.k === 'text' && /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?$/i.test(t.t))) {
        dayDate = (d[0] as Extract<Tok, { k: 'date' }>).md;
        lastRow = null;
        pending = null;
        continue;
      }
    }

    // "There are 12 deposits totaling $45,000.00"
    const there = THERE_ARE_RE.exec(text);
    if (there) {
      // A sub-section's heading printed before it on the line ("ACH Additions  There are 27
      // additions totaling 48,738.22") opens that sub-section.
      const before = text.slice(0, there.index).trim();
      const hb = before ? headingOf(before) : null;
      const h = headingOf(there[2]);
      if (hb) newSection(hb, before);
      // Before its rows it opens their section; after them (the same kind) it closes it.
      else if (h && (sections[sec].kind !== h.kind || sections[sec].category !== h.category)) newSection(h, there[2]);
      const cat = categoryOf(there[2]);
      if (cat) r.totals.push({ label: there[0], kind: cat === 'deposits' ? 'credit' : 'debit', category: cat, cents: parseMoney(there[3])!.cents, count: Number(there[1]), section: sec });
      lastRow = null;
      continue;
    }

    const first = tk[0];
    // Balances and totals written in sentences (never a transaction row, which starts with its date).
    if (first?.k !== 'date') {
      // A sentence wrapped before its amount ("... checks and fees totaling" / "$42,023.61."): the
      // next line is read with it, and consumed when the sentence is.
      let stext = text;
      let wrapped = false;
      if (!money.length && /\b(totaling|totalling|totaled|for a total of|amounting to|was|is|of)\s*:?\s*$/i.test(text) && i + 1 < lines.length && lines[i + 1].page === line.page && lines[i + 1].y - line.y <= line.size * 2.4 && toks[i + 1][0]?.k === 'money') {
        stext = `${text} ${lines[i + 1].text}`;
        wrapped = true;
      }
      const went = BALANCE_WENT_RE.exec(stext);
      if (went) {
        const dateOf = (t: string) => tokens(t.replace(/,/g, ' ').trim().split(/\s+/).map((w, n) => ({ x0: n, x1: n, t: w, cell: 0 })))[0];
        const [om, od, cm, cd] = [parseMoney(went[1].replace(/\s+/g, '')), dateOf(went[2]), parseMoney(went[3].replace(/\s+/g, '')), dateOf(went[4])];
        if (om && cm && od?.k === 'date' && cd?.k === 'date') {
          addTotal(`Beginning balance ${went[2]}`, om, null, false);
          addTotal(`Ending balance ${went[4]}`, cm, null, false);
          dated.push({ md: od.md, cents: signedCents(om), role: 'opening' }, { md: cd.md, cents: signedCents(cm), role: 'closing' });
          lastRow = null;
          if (wrapped) i++;
          continue;
        }
      }
      const rs = RECEIVED_SENT_RE.exec(stext);
      const [rm, sm2] = rs ? [parseMoney(rs[1].replace(/\s+/g, '')), parseMoney(rs[3].replace(/\s+/g, ''))] : [null, null];
      if (rs && rm && sm2) {
        r.totals.push({ label: 'Received', kind: 'credit', category: 'deposits', cents: rm.cents, count: Number(rs[2]), section: -1 }, { label: 'Sent', kind: 'debit', category: 'withdrawals', cents: sm2.cents, count: Number(rs[4]), section: -1 });
        lastRow = null;
        if (wrapped) i++;
        continue;
      }
      const was = BALANCE_ON_RE.test(stext) ? null : BALANCE_WAS_RE.exec(stext);
      const bal = was ? ([was[0], was[1], was[3], was[2]] as unknown as RegExpExecArray) : BALANCE_ON_RE.exec(stext);
      const bmd = bal ? tokens(bal[2].replace(/,/g, ' ').trim().split(/\s+/).map((t, n) => ({ x0: n, x1: n, t, cell: 0 })))[0] : null;
      const bm = bal ? parseMoney(bal[3].replace(/\s+/g, '')) : null;
      if (bal && bmd?.k === 'date' && bm) {
        const words = bal[1].toLowerCase();
        if (/\b(average|avg|minimum|min|lowest|low|highest|high|maximum|available|collected|projected|pending)\b/.test(words)) {
          lastRow = null;
          if (wrapped) i++;
          continue;
        }
        const role = /\b(beginning|opening|starting|previous|prior|begin)\b/.test(words) ? 'opening' : /\b(ending|closing|new|end)\b/.test(words) ? 'closing' : null;
        if (role) addTotal(role === 'opening' ? `Beginning balance ${bal[2]}` : `Ending balance ${bal[2]}`, bm, null, false);
        dated.push({ md: bmd.md, cents: signedCents(bm), role });
        lastRow = null;
        if (wrapped) i++;
        continue;
      }
      // ("There are N ... totaling $X" beside a sub-section's heading is that section's total, read below.)
      const st = /\bthere (?:are|were|is|was)\b/i.test(stext) ? null : SENTENCE_TOTAL_RE.exec(stext);
      const subj = st ? SENTENCE_SUBJECT_RE.exec(st[1].replace(/\s+/g, ' ').trim()) : null;
      const sm = st ? parseMoney(st[2].replace(/\s+/g, '')) : null;
      if (st && subj && sm) {
        const cats = categoriesOf(subj[2]);
        const credit = cats.length > 0 && cats.every((c) => c === 'deposits');
        const debit = cats.length > 0 && !cats.includes('deposits');
        if (credit || debit) {
          r.totals.push({ label: st[0], kind: credit ? 'credit' : 'debit', category: cats[0], ...(cats.length > 1 ? { categories: cats } : {}), cents: sm.cents, count: subj[1] ? Number(subj[1]) : null, section: -1 });
          lastRow = null;
          if (wrapped) i++;
          continue;
        }
      }
      // "Overdraft and returned item fees this period: 13 items": a count of those fee lines.
      const nc = !money.length ? /^(.*\b(?:fees|charges)\b[^:]*?):?\s+(\d+)\s+items?\.?\s*$/i.exec(text) : null;
      const ncat = nc ? labelOf(nc[1]) : null;
      if (nc && ncat?.role === 'total' && ['nsf', 'od', 'ri'].includes(ncat.category)) {
        r.totals.push({ label: nc[0], kind: 'debit', category: ncat.category, cents: 0, count: Number(nc[2]), countOnly: true, section: -1 });
        lastRow = null;
        if (wrapped) i++;
        continue;
      }
    }
    // Daily balances: date-balance pairs.
    if (kind === 'daily') {
      const pairs = datePairs(tk);
      if (pairs) {
        r.daily.push(...pairs);
        continue;
      }
    }

    // A check register: check number, date and amount, possibly several on one line.
    if ((kind === 'checks' || cols?.some((c) => c.kind === 'check')) && first && (first.k !== 'text' || /^[*#^]*\d{1,8}[*#^]*$/.test(first.t))) {
      const checks = checkGroups(tk);
      if (checks) {
        for (const c of checks) r.rows.push({ md: c.md, description: `CHECK ${c.number}`, cents: c.cents, sign: -1, marker: null, balance: null, section: sec, check: c.number });
        lastRow = null;
        continue;
      }
    }

    // Transactions printed two or three across under a header that repeats its columns ("Date  Ref
    // Number  Amount  Date  Ref Number  Amount"): each group of columns is a row of its own.
    const across = cols ? groupsAcross(cols) : null;
    if (across && first?.k === 'date' && money.length && kind !== 'daily' && kind !== 'summary') {
      const got: Row[] = [];
      for (const g of across) {
        const part = tk.filter((t) => t.x0 >= g.from && t.x0 < g.to);
        if (!part.length) continue;
        const row = part[0].k === 'date' && part.some((t) => t.k === 'money') ? rowOf(part, g.cols, sec, kind) : null;
        if (!row || row === 'balance') {
          got.length = 0;
          break;
        }
        got.push(row.row);
      }
      if (got.length) {
        r.rows.push(...got);
        lastRow = null;
        continue;
      }
    }

    // A transaction: a date first (a second date, a posting date, may follow), then amounts.
    if (first?.k === 'date' && money.length && kind !== 'daily' && kind !== 'summary') {
      if (takeRow(rowOf(tk, cols, sec, kind), tk, money, line)) continue;
    }

    if (first?.k === 'date' && !money.length && (kind === 'credit' || kind === 'debit' || kind === 'mixed' || kind === 'checks') && (cols || kind !== 'mixed') && tk.length > 1) {
      pending = { toks: tk, line };
      lastRow = null;
      continue;
    }
    if (money.length && first?.k === 'date') pending = null;

    // Summary labels on one line (possibly wrapped onto a second) and their amounts below them.
    if (!money.length && i + 1 < lines.length) {
      const cells = cellsOf(line.words);
      let j = i + 1;
      const extra: Line[] = [];
      while (j < lines.length && j <= i + 3 && lines[j].page === line.page && lines[j].y - lines[j - 1].y <= lines[j - 1].size * 2.4 && !toks[j].some((t) => t.k === 'money')) extra.push(lines[j++]);
      const below = toks[j];
      const amountsOnly = (tk: Tok[]) => tk.length > 0 && tk.every((t) => t.k === 'money' || t.k === 'int' || (t.k === 'text' && /^[=+]$/.test(t.t))) && tk.some((t) => t.k === 'money');
      const isLabel = (t: string) => {
        const l = labelOf(t);
        return l !== null && l.role !== 'ignore';
      };
      // A one-row table under the labels ("Account | Beginning Balance | ..." over "Business
      // Checking 4417 | 1,609.36 | ..."): words under a cell that is no label (the account's name)
      // are that cell's, not a label's; the amounts are read as below.
      const underNonLabel = (tk: Tok[]) => {
        const firstMoney = tk.findIndex((t) => t.k === 'money');
        if (firstMoney <= 0 || tk.slice(firstMoney).some((t) => t.k !== 'money' && !(t.k === 'text' && /^[=+]$/.test(t.t)))) return false;
        // (The name starts under that cell and may run on past it, never into the amounts; a
        // dated line is a transaction, and labels over a table's header row are that header's.)
        if (tk.slice(0, firstMoney).some((t) => t.k === 'date') || extra.some((l) => headerOf(l))) return false;
        const t = tk[0];
        const cell = cells.find((c) => ivDist(c.x0, c.x1, t.x0, t.x1) === 0);
        return !!cell && labelOf(cell.t) === null && cells.indexOf(cell) === 0;
      };
      const oneRow = below && underNonLabel(below);
      // A table of several accounts, one row each ("Account | Previous Balance | Deposits | ... |
      // Ending Balance" over a savings row and a checking row, a relationship summary): no row is
      // plainly this account's; each account's own section prints its balances. Read past it.
      if (oneRow && cells.filter((c) => isLabel(c.t)).length >= 2 && extra.length <= 1 && lines[j].page === line.page) {
        let k = j + 1;
        while (k < lines.length && lines[k].page === line.page && lines[k].y - lines[k - 1].y <= lines[k - 1].size * 2.4 && underNonLabel(toks[k])) k++;
        if (k > j + 1) {
          i = k - 1;
          lastRow = null;
          continue;
        }
      }
      if (cells.filter((c) => isLabel(c.t)).length >= 2 && below && lines[j].page === line.page && extra.length <= 1 && (amountsOnly(below) || oneRow)) {
        const labels = cells.map((c) => ({ ...c }));
        for (const l of extra) {
          for (const c of cellsOf(l.words)) {
            const cx = (c.x0 + c.x1) / 2;
            const to = labels.reduce((b, x) => (ivDist(x.x0, x.x1, c.x0, c.x1) - ivDist(b.x0, b.x1, c.x0, c.x1) || Math.abs((x.x0 + x.x1) / 2 - cx) - Math.abs((b.x0 + b.x1) / 2 - cx)) < 0 ? x : b);
            to.t += ` ${c.t}`;
          }
        }
        {
          const used = new Set<string>();
          for (const t of below) {
            if (t.k !== 'money') continue;
            const cx = (t.x0 + t.x1) / 2;
            const cell = labels.reduce((b, c) => (ivDist(c.x0, c.x1, t.x0, t.x1) - ivDist(b.x0, b.x1, t.x0, t.x1) || Math.abs((c.x0 + c.x1) / 2 - cx) - Math.abs((b.x0 + b.x1) / 2 - cx)) < 0 ? c : b);
            // Several accounts side by side ("Deposits/Credits (30)" for checking, "Deposits/Credits
            // (3)" for savings): the first of a label is this account's.
            const key = cell.t.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
            if (used.has(key)) continue;
            used.add(key);
            const count = /\((\d+)\)/.exec(cell.t);
            // (The account the row names, when it names one: "Business Savings 5678" is the savings'.)
            addTotal(cell.t, t.m, count ? Number(count[1]) : null, false, accountNamed(cell.t) ?? (oneRow ? accountNamed(below.filter((x) => x.k !== 'money').map((x) => x.t).join(' ')) : null));
          }
          i = j;
          lastRow = null;
          continue;
        }
      }
    }

    // An account's heading (not a row's wrapped description, indented to it).
    if (!money.length && first?.k !== 'date') {
      const acct = accountHeadingOf(text);
      // (Nor the second line of a row whose amounts follow: "ONLINE TRANSFER TO" over "Business
      // Savings xxxxxx4410".)
      const continues = (lastRow && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2) || underPending(line, i);
      if (acct && !continues) {
        switchAccount(acct, line.page > 0 && i - lines.findIndex((l) => l.page === line.page) < 3);
        lastRow = null;
        pending = null;
      }
    }

    // The first line of a two-line header row ("Deposits/" over "Credits"): not a heading.
    if (!money.length && !/\d/.test(text) && cellsOf(line.words).length >= (headingOf(cellTexts(line.words)[0]) ? 3 : 2) && i + 1 < lines.length && lines[i + 1].page === line.page && lines[i + 1].y - line.y <= line.size * 1.8 && headerOf(lines[i + 1])) continue;

    // A heading: words only.
    if (!money.length && (!first || first.k !== 'date')) {
      // Below a row, indented to its description: the description goes on (even if its words
      // look like a heading, "MOBILE DEPOSIT"); headings start left of the descriptions.
      const continuation = lastRow && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2;
      // (Indented to its description, a line goes on even when its words look like a heading:
      // "DEBIT ID 1853027741" is no debits section.)
      if (pending && (underPending(line, i) || (!headingOf(text) && pending.line.page === line.page && line.y - pending.line.y <= pending.line.size * 2.6))) {
        pending = { toks: [...pending.toks, ...tk], line: { ...line, size: pending.line.size, y: pending.line.y }, lastY: line.y };
        continue;
      }
      if (continuation && lastRow) {
        if (!/^(page \d|continued)/i.test(text)) lastRow.row.description += ` ${line.words.map((w) => w.t).join(' ')}`;
        lastRow.line = line;
        continue;
      }
      // A heading, or a heading followed by a note on its line ("Checks Paid   No. Checks: 3   *Indicates ...").
      const firstCell = cellTexts(line.words)[0];
      const h = headingOf(text) ?? (firstCell !== text ? headingOf(firstCell) : null);
      if (h) {
        newSection(h, headingOf(text) ? text : firstCell);
        lastRow = null;
        continue;
      }
      if (lastRow && line.y - lastRow.line.y > lastRow.line.size * 2.6) lastRow = null;
      continue;
    }

    // Below a row, indented to its description, an amount quoted in the description's own column,
    // well left of every amount column ("DEBIT ITEM AMOUNT $449.00" under an NSF fee): the
    // description goes on; it is neither a total nor a row.
    if (money.length && (!first || first.k !== 'date') && lastRow && cols && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2) {
      const numericCols = cols.filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind));
      const amountX = Math.min(...numericCols.map((c) => c.x0));
      // Or, the amount column before the description, an amount inside the description column.
      const descCol = cols.find((c) => c.kind === 'desc');
      const inDesc = (t: Tok) => !!descCol && numericCols.every((c) => c.x1 < descCol.x0) && t.x0 >= descCol.x0 - 2;
      if (money.every((t) => t.x1 < amountX - 20 || inDesc(t))) {
        lastRow.row.description += ` ${line.words.map((w) => w.t).join(' ')}`;
        lastRow.line = line;
        continue;
      }
    }

    // A dated row's description wrapped onto this line, its amounts at the end (the date and the
    // first description line above): that row, before its words are read as a label
    // ("DEBIT ID 1853027741 Ind KF648824002  245.00" is no "debits" total).
    if (money.length && first && first.k !== 'date' && underPending(line, i) && kind !== 'summary' && kind !== 'daily') {
      const row = rowOf([...pending!.toks, ...tk], cols, sec, kind);
      if (row && row !== 'balance') {
        pending = null;
        r.rows.push(row.row);
        lastRow = { row: row.row, line, descX: row.descX };
        continue;
      }
    }

    // A row below another, its description where the other's is and its amounts under the amount
    // columns, without a date (the date printed on a day's first row only): that day's row, before
    // its words are read as a label ("ACH Debit - GREEN NOTE ...  245.00" is no debits total).
    if (money.length && first && first.k !== 'date' && lastRow && cols && kind !== 'summary' && kind !== 'daily' && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && Math.abs(line.words[0].x0 - lastRow.descX) <= 2 && !/^(total|sub ?total|page|balance)\b/i.test(text) && !isBalanceLabel(text)) {
      const numericCols = cols.filter((c) => ['debit', 'credit', 'amount'].includes(c.kind));
      const amountX = Math.min(...numericCols.map((c) => c.x0));
      if (numericCols.length && money.some((t) => t.x1 >= amountX - 4)) {
        const row = rowOf([{ k: 'date', x0: -1, x1: -1, t: '', md: lastRow.row.md }, ...tk], cols, sec, kind);
        if (row && row !== 'balance') {
          r.rows.push(row.row);
          lastRow = { row: row.row, line, descX: row.descX };
          continue;
        }
      }
    }

    // A row under a date heading (no date column): the heading's date is the row's.
    if (money.length && dayDate && cols && !cols.some((c) => c.kind === 'date') && first && first.k !== 'date' && kind !== 'summary' && kind !== 'daily') {
      if (takeRow(rowOf([{ k: 'date', x0: -1, x1: -1, t: '', md: dayDate }, ...tk], cols, sec, kind), tk, money, line)) continue;
    }

    // Label and amount pairs: a summary, a section's total, a balance.
    // Under columns per account: "Beginning balance  1,000.00  10,000.00" is each column's
    // account's balance; its other figures are read in each account's own section, not here.
    if (accountCols && money.length >= 2 && first?.k === 'text' && tk.every((t, n) => (n < tk.indexOf(money[0]) ? t.k === 'text' || t.k === 'int' : t.k === 'money'))) {
      const label = tk.filter((t) => t.k === 'text').map((t) => t.t).join(' ');
      const cols = accountCols.cols;
      for (const m of money as Array<Extract<Tok, { k: 'money' }>>) {
        const cx = (m.x0 + m.x1) / 2;
        const col = cols.reduce((b, c) => (Math.abs(c.x - cx) < Math.abs(b.x - cx) ? c : b));
        if (isBalanceLabel(label)) addTotal(label, m.m, null, false, col.account);
      }
      lastRow = null;
      continue;
    }
    if (money.length && (!first || first.k !== 'date')) {
      // A page's own totals and the balance carried to the next page ("Page totals: Credits x CR
      // Debits y DR Carried forward z"): neither the statement's totals nor a transaction.
      // ("Total Debits/Credits this page 21,282.49 16,839.27" is one too.)
      if (/^(page (sub)?totals?|totals? (for |on )?(this )?page)\b/i.test(text) || /^(sub ?)?totals?\b[^\d]{0,40}?\b(this|per|on this|for this) page\b/i.test(text)) {
        lastRow = null;
        continue;
      }
      const pairs = pairsOf(tk);
      // "Subtotal: 40,587.05": the current section's total.
      const cur = sections[sec];
      if (pairs.length === 1 && /^(sub ?total|total)\s*:?$/i.test(pairs[0].label.trim()) && (cur.kind === 'credit' || cur.kind === 'debit' || cur.kind === 'checks')) {
        r.totals.push({ label: `${pairs[0].label} ${cur.heading}`, kind: cur.kind === 'credit' ? 'credit' : 'debit', category: cur.category, cents: pairs[0].money.cents, count: null, section: sec });
        lastRow = null;
        continue;
      }
      const labelled = pairs.filter((p) => labelOf(p.label));
      if (labelled.length) {
        // A heading that carries its section's total ("Deposits and Additions (12) $45,000.00") when rows follow.
        const h = pairs.length === 1 ? headingOf(pairs[0].label.replace(/\(\d+\)|\b\d+\b/g, '')) : null;
        // (In a summary box too when a column header follows at once: "Deposits (+)  Total 3,853.60"
        // over "Date  Amount", the box over; not a "Total ..." line, the box's own.)
        const nextRowFollows = h && i + 1 < lines.length && (kind !== 'summary' ? headerOf(lines[i + 1]) || toks[i + 1][0]?.k === 'date' : h.kind !== 'summary' && !/^total\b/i.test(text) && lines[i + 1].page === line.page && !!headerOf(lines[i + 1]));
        const isTotalLine = /^total\b/i.test(text) || /\btotal\b/i.test(pairs[0]?.label ?? '');
        const seen = new Set<string>();
        // A line naming its account before its figures ("Business Savings ****5678  Beginning
        // balance $5,000.00  Ending balance $5,010.00"): every figure on it is that account's.
        const lineAccount = accountNamed(pairs[0].label);
        for (const p of labelled) {
          // Several accounts side by side (checking, savings, the total): the first is this account's.
          const k = p.label.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
          if (seen.has(k)) continue;
          seen.add(k);
          const count = /\((\d+)\)/.exec(p.label);
          addTotal(p.label, p.money, p.count ?? (count ? Number(count[1]) : null), isTotalLine && sections[sec].kind !== 'summary' && sections[sec].kind !== 'mixed', accountNamed(p.label) ?? lineAccount);
        }
        if (nextRowFollows && h) {
          newSection(h, pairs[0].label);
          if (r.totals.length && r.totals[r.totals.length - 1].label === pairs[0].label) r.totals[r.totals.length - 1].section = sec;
        }
        lastRow = null;
        continue;
      }
      // A row whose date and first description line sit above its amounts.
      if (pending && pending.line.page === line.page && line.y - pending.line.y <= pending.line.size * 4 && kind !== 'summary' && kind !== 'daily') {
        const row = rowOf([...pending.toks, ...tk], cols, sec, kind);
        pending = null;
        if (row && row !== 'balance') {
          r.rows.push(row.row);
          lastRow = { row: row.row, line, descX: row.descX };
          continue;
        }
      }
      // A row without its own date (the date printed once per day): the day's date carries.
      if (lastRow && cols && kind !== 'summary' && kind !== 'daily') {
        const row = rowOf([{ ...lastRow.row, k: 'date', x0: -1, x1: -1, t: '', md: lastRow.row.md } as Tok, ...tk], cols, sec, kind);
        if (row && row !== 'balance') {
          r.rows.push(row.row);
          lastRow = { row: row.row, line, descX: row.descX };
          continue;
        }
      }
    }
  }
  r.opening ??= forwardOpening;
  datedBalances(r, dated);
  r.sections = sections;
  chooseAccount(r, [...accounts, { account, opening: r.opening, closing: r.closing, closings: r.closings, rows: r.rows, totals: r.totals, daily: r.daily }], named);
  return r;
}

/**
 * The account a balance's label names ("Savings ending balance", "Checking ****1234 beginning
 * balance"), or null for a plain "Ending balance".
 */
function accountNamed(label: string): AccountRef | null {
  const kind = accountKindOf(label);
  if (!kind) return null;
  const num = /(?:#|[*xX•.]{2,}|\b)(\d{3,})\b/.exec(label);
  return { kind, number: num ? num[1].slice(-4) : null, name: label };
}

/**
 * Which account of a statement to report: the only one with activity; of several, the business's
 * transaction account (checking, share draft) when exactly one is; an account no heading names
 * beside savings or loans it is not; else none (two checking accounts, or several accounts none of
 * which is named): `ambiguousAccounts`, and the statement is refused rather than read from one
 * account picked by guess. Rows of two accounts are never read as one. A balance that names an
 * account goes to that account only (a relationship summary's lines are each their account's).
 */
function chooseAccount(r: Reading, segs: Array<Pick<Reading, 'opening' | 'closing' | 'closings' | 'rows' | 'totals' | 'daily'> & { account: AccountRef | null }>, named: Array<{ account: AccountRef; role: 'opening' | 'closing'; cents: number }>): void {
  const active = segs.filter((s) => s.rows.length);
  let chosen = segs[segs.length - 1];
  // (A savings account's activity beside a checking account with none this period: the checking,
  // with no transactions, never the savings' figures as the business's.)
  const idleChecking = segs.find((s) => s.account?.kind === 'transaction' && !s.rows.length);
  if (active.length === 1) chosen = active[0].account && active[0].account.kind !== 'transaction' && idleChecking ? idleChecking : active[0];
  else if (active.length > 1) {
    const tx = active.filter((s) => s.account?.kind === 'transaction');
    const unnamed = active.filter((s) => !s.account);
    if (tx.length === 1) chosen = tx[0];
    else if (!tx.length && unnamed.length === 1) chosen = unnamed[0];
    else {
      // (Their kinds only: an account's name or number is not for a message.)
      r.ambiguousAccounts = active.map((s) => (s.account ? { transaction: 'a checking account', savings: 'a savings account', loan: 'a loan' }[s.account.kind] : 'an account without a heading'));
      chosen = active[0];
    }
  } else {
    chosen = segs.find((s) => s.account?.kind === 'transaction') ?? segs.find((s) => !s.account && (s.opening !== null || s.closing !== null)) ?? chosen;
  }
  r.opening = chosen.opening;
  r.closing = chosen.closing;
  r.closings = chosen.closings;
  r.rows = chosen.rows;
  r.totals = chosen.totals;
  r.daily = chosen.daily;
  r.account = chosen.account;
  // Balances naming the account read (or, when it has no heading, naming one kind of account only
  // and no other account of that kind is on the statement) fill what its own table did not print.
  const own = chosen.account;
  const mine = named.filter((n) => (own ? n.account.kind === own.kind && (own.number === null || n.account.number === null || own.number === n.account.number) : !segs.some((s) => s.account && s.account.kind === n.account.kind) && new Set(named.filter((m) => m.role === n.role).map((m) => m.account.kind)).size === 1));
  for (const role of ['opening', 'closing'] as const) {
    const vals = [...new Set(mine.filter((n) => n.role === role).map((n) => n.cents))];
    if (!vals.length) continue;
    if (r[role] === null) {
      if (vals.length === 1) r[role] = vals[0];
    } else if (role === 'closing') for (const v of vals) if (v !== r.closing && !r.closings.includes(v)) r.closings.push(v);
  }
}

/**
 * Balances stated with a date and no "beginning" or "ending" ("Your balance on 09/01/25 was $X",
 * "Your balance on 09/30/25 was $Y"): by date order, the earliest is the opening balance and the
 * latest the closing balance; with no printed period, their dates give it. A balance dated inside the
 * period (neither end) opens or closes nothing.
 */
function datedBalances(r: Reading, dated: Array<{ md: [number, number, number | null]; cents: number; role: 'opening' | 'closing' | null }>): void {
  if (!dated.length) return;
  if (!r.period) {
    const isos = dated.map((d) => (d.md[2] ? isoOf(d.md[2], d.md[0], d.md[1]) : null)).filter((x): x is string => !!x).sort();
    const first = isos[0];
    const last = isos[isos.length - 1];
    const monthEnd = (iso: string) => addDays(iso, 1).slice(8) === '01';
    // Only where the dates leave no doubt which day the period starts: "balance on 09/01 ... on
    // 09/30" (a month from its first day), or "on 08/31 ... on 09/30" (month end to month end: the
    // day after). "On 12/15 ... on 01/15" could start on either day: no period, no statement.
    if (isos.length < 2 || !(first < last) || days(first, last) > 63 || !monthEnd(last)) return;
    if (first.slice(8) === '01' && first.slice(0, 7) === last.slice(0, 7)) r.period = { start: first, end: last };
    else if (monthEnd(first) && addDays(first, 1).slice(0, 7) === last.slice(0, 7)) r.period = { start: addDays(first, 1), end: last };
    else return;
  }
  const period = r.period;
  const withDate = dated.map((d) => ({ ...d, iso: dateIn(d.md, period) })).filter((d): d is typeof d & { iso: string } => !!d.iso);
  const neutral = withDate.filter((d) => d.role === null).sort((a, b) => a.iso.localeCompare(b.iso));
  if (!neutral.length) return;
  const first = neutral[0];
  const last = neutral[neutral.length - 1];
  // A stated balance that disagrees with the one printed elsewhere is a conflict, never a choice.
  if (first.iso <= period.start) {
    if (r.opening === null) r.opening = first.cents;
    else if (r.opening !== first.cents) (r.conflicts ??= []).push(`The balance stated for ${first.iso} does not match the opening balance printed`);
  }
  if (last.iso >= period.end) {
    if (r.closing === null) r.closing = last.cents;
    else if (r.closing !== last.cents) (r.conflicts ??= []).push(`The balance stated for ${last.iso} does not match the closing balance printed`);
  }
}

const ivDist = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.max(a0, b0) - Math.min(a1, b1));

function datePairs(tk: Tok[]): Reading['daily'] | null {
  const out: Reading['daily'] = [];
  for (let i = 0; i < tk.length; i++) {
    const t = tk[i];
    const n = tk[i + 1];
    if (t.k === 'date' && n?.k === 'money') {
      out.push({ md: t.md, cents: signedCents(n.m) });
      i++;
    } else return null;
  }
  return out.length ? out : null;
}

function checkGroups(tk: Tok[]): Array<{ number: string; md: [number, number, number | null]; cents: number }> | null {
  const out: Array<{ number: string; md: [number, number, number | null]; cents: number }> = [];
  let num: string | null = null;
  let md: [number, number, number | null] | null = null;
  let cents: number | null = null;
  let afterRef = false;
  for (const t of tk) {
    if (!(t.k === 'text' && /^\d{8,}$/.test(t.t))) afterRef = false;
    if (t.k === 'int' && !t.paren && num === null) num = String(t.n);
    else if (t.k === 'text' && /^\d{1,8}[*#^]+$|^[*#^]+\d{1,8}$|^[*#^~†]+$/.test(t.t)) {
      // Gap marks (*), image marks (^) beside a check number.
      if (/\d/.test(t.t) && num === null) num = t.t.replace(/[*#^]/g, '');
      else if (/\d/.test(t.t)) return null;
    } else if (t.k === 'date' && md === null) md = t.md;
    // A long reference number between the date and the amount ("7730  Aug 1  4381711233  2,850.00").
    else if (t.k === 'text' && /^\d{8,}$/.test(t.t) && num !== null && md !== null && cents === null) continue;
    // A reference number closing a check's group ("3121  2,699.75  02/02  617011895").
    else if (t.k === 'text' && /^\d{8,}$/.test(t.t) && num === null && md === null && cents === null && out.length && !afterRef) {
      afterRef = true;
      continue;
    }
    else if (t.k === 'money' && cents === null) cents = t.m.cents;
    else return null;
    if (num !== null && md && cents !== null) {
      out.push({ number: num, md, cents });
      num = null;
      md = null;
      cents = null;
    }
  }
  if (num !== null || md || cents !== null) return null;
  return out.length ? out : null;
}

/** The column groups of a header that repeats its columns side by side (two or three across), or null. */
function groupsAcross(cols: Col[]): Array<{ from: number; to: number; cols: Col[] }> | null {
  const sorted = [...cols].sort((a, b) => a.x0 - b.x0);
  const starts = sorted.filter((c) => c.kind === sorted[0].kind);
  if (starts.length < 2 || sorted[0].kind !== 'date') return null;
  const groups = starts.map((s, i) => {
    const from = i === 0 ? -Infinity : s.x0 - 4;
    const to = i + 1 < starts.length ? starts[i + 1].x0 - 4 : Infinity;
    return { from, to, cols: sorted.filter((c) => c.x0 >= s.x0 - 0.01 && (i + 1 >= starts.length || c.x0 < starts[i + 1].x0 - 0.01)) };
  });
  // Each group the same columns, in the same order.
  const shape = (g: { cols: Col[] }) => g.cols.map((c) => c.kind).join(',');
  return groups.every((g) => shape(g) === shape(groups[0])) && groups[0].cols.some((c) => ['debit', 'credit', 'amount'].includes(c.kind)) ? groups : null;
}

/** One transaction row (or 'balance' for a balance line in the table, or null). */
function rowOf(tk: Tok[], cols: Col[] | null, sec: number, kind: SectionKind): { row: Row; descX: number } | 'balance' | null {
  const first = tk[0] as Extract<Tok, { k: 'date' }>;
  let i = 1;
  if (tk[i]?.k === 'date') i++; // a posting date and an effective date
  // The amount column before the description ("Date posted | Amount | Transaction description"):
  // the amounts printed there, right after the date, are the row's amounts.
  const desc = cols?.find((c) => c.kind === 'desc');
  // (With no amount column after the description, an amount printed in it is quoted: "OVERDRAFT FEE
  // ITEM AMT $2,095.76" after its 37.00.)
  if (desc && tk[i]?.k === 'money' && tk[tk.length - 1].k === 'money' && cols!.some((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind) && c.x1 < desc.x0) && !cols!.some((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind) && c.x0 > desc.x0)) {
    tk = tk.map((t, n) => (n > i && t.k === 'money' && t.x0 >= desc.x0 - 2 ? { k: 'text', x0: t.x0, x1: t.x1, t: t.t } : t));
  }
  if (desc && tk[i]?.k === 'money' && tk[tk.length - 1].k !== 'money' && cols!.some((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind) && c.x1 < desc.x0)) {
    let j = i;
    while (j < tk.length && tk[j].k === 'money' && tk[j].x1 < desc.x0) j++;
    tk = [...tk.slice(0, i), ...tk.slice(j), ...tk.slice(i, j)];
  }
  // The amount column before the description and the balance after it ("Date | Amount |
  // Description | Balance"): the amounts right after the date join the row's amounts at its end.
  if (desc && tk[i]?.k === 'money' && tk[i].x1 < desc.x0 && cols!.some((c) => ['debit', 'credit', 'amount'].includes(c.kind) && c.x1 < desc.x0) && cols!.some((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind) && c.x0 > desc.x0)) {
    let j = i;
    while (j < tk.length && tk[j].k === 'money' && tk[j].x1 < desc.x0) j++;
    let e = tk.length;
    while (e > j && tk[e - 1].k === 'money') e--;
    tk = [...tk.slice(0, i), ...tk.slice(j, e), ...tk.slice(i, j), ...tk.slice(e)];
  }
  let end = tk.length;
  while (end > i && tk[end - 1].k === 'money') end--;
  const amounts = tk.slice(end) as Array<Extract<Tok, { k: 'money' }>>;
  if (!amounts.length) return null;
  const middle = tk.slice(i, end);
  let check: string | undefined;
  const descParts: string[] = [];
  const typeWords: string[] = [];
  const typeCol = cols?.find((c) => c.kind === 'type');
  for (const t of middle) {
    if (t.k === 'int' && cols?.some((c) => c.kind === 'check' && ivDist(c.x0 - 6, c.x1 + 6, t.x0, t.x1) === 0)) check = String(t.n);
    else {
      if (typeCol && t.k === 'text' && ivDist(typeCol.x0 - 6, typeCol.x1 + 6, t.x0, t.x1) === 0) typeWords.push(t.t);
      descParts.push(t.t);
    }
  }
  // What the type column says: only a plain debit or credit word decides a sign ("ACH in" or "Card" do not).
  const typeText = typeWords.join(' ').toLowerCase().replace(/[^a-z]+/g, ' ').trim();
  const typeSign: Sign | null = /^(credit|cr|deposit|addition)$/.test(typeText) ? 1 : /^(debit|dr|withdrawal|subtraction)$/.test(typeText) ? -1 : null;
  let description = descParts.join(' ').trim();
  if (check && !/check/i.test(description)) description = `CHECK ${check} ${description}`.trim();
  const descX = middle.find((t) => t.k === 'text')?.x0 ?? first.x1 + 4;
  // A balance line: its words lead ("Beginning Balance", "Balance Forward"); a merchant's name
  // further on is no balance ("POS PURCHASE NEW BALANCE #0412", "... ENDING BALANCE CAFE").
  if (isBalanceLabel(description.split(/\s+/).slice(0, 3).join(' '))) return 'balance';
  // A total line (never a dated row of a table: "TOTAL WINE & MORE 1107" on its date is a purchase).
  if (/^(total|subtotal)\b/i.test(description) && (first.x0 < 0 || !cols)) return null;

  let amount: Extract<Tok, { k: 'money' }> | null = null;
  let balance: Extract<Tok, { k: 'money' }> | null = null;
  let colSign: Sign | null = null;
  const numeric = (cols ?? []).filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind));
  if (numeric.length) {
    const assigned = new Map<Col, Extract<Tok, { k: 'money' }>>();
    const extra: string[] = [];
    // An amount ending well left of every amount column is quoted in the description ("Fee for a
    // Transaction Posted on 01/06 $1,650.00" before its fee), not the row's own amount.
    const leftmost = Math.min(...numeric.map((c) => c.x0));
    while (amounts.length > 1 && amounts[0].x1 < leftmost - 20) description = `${description} ${amounts.shift()!.t}`.trim();
    for (const a of amounts) {
      const cx = (a.x0 + a.x1) / 2;
      const col = numeric.reduce((b, c) => {
        const d = ivDist(c.x0, c.x1, a.x0, a.x1) - ivDist(b.x0, b.x1, a.x0, a.x1);
        return (d || Math.abs(c.x1 - a.x1) - Math.abs(b.x1 - a.x1) || Math.abs((c.x0 + c.x1) / 2 - cx) - Math.abs((b.x0 + b.x1) / 2 - cx)) < 0 ? c : b;
      });
      const prev = assigned.get(col);
      if (prev) {
        // Two amounts under one column: the one further from it is part of the description.
        const dPrev = Math.abs(col.x1 - prev.x1);
        const dNew = Math.abs(col.x1 - a.x1);
        if (dNew < dPrev) {
          extra.push(prev.t);
          assigned.set(col, a);
        } else extra.push(a.t);
      } else assigned.set(col, a);
    }
    if (extra.length) description = `${description} ${extra.join(' ')}`.trim();
    for (const [c, a] of assigned) {
      if (c.kind === 'balance') balance = a;
      else if (amount) return null; // a debit and a credit on one row: not a row we can read
      else {
        amount = a;
        colSign = c.kind === 'debit' ? -1 : c.kind === 'credit' ? 1 : null;
      }
    }
    if (!amount) return balance ? null : null;
  } else if (kind === 'credit' || kind === 'debit' || kind === 'checks' || (cols && !cols.some((c) => c.kind === 'balance'))) {
    // A section's list without a balance column: the last amount is the row's; any before it is
    // quoted in the description ("OVERDRAFT ITEM FEE ITEM AMOUNT $1,299.00   36.00").
    if (amounts.length >= 2) description = `${description} ${amounts.slice(0, -1).map((a) => a.t).join(' ')}`.trim();
    amount = amounts[amounts.length - 1];
  } else {
    if (amounts.length >= 3) description = `${description} ${amounts.slice(0, -2).map((a) => a.t).join(' ')}`.trim();
    if (amounts.length >= 2) {
      amount = amounts[amounts.length - 2];
      balance = amounts[amounts.length - 1];
    } else amount = amounts[0];
  }
  const m = amount.m;
  const markerSign: Sign | null = m.marker === 'minus' || m.marker === 'paren' || m.marker === 'dr' ? -1 : m.marker === 'cr' ? 1 : null;
  const sectionSign: Sign | null = kind === 'credit' ? 1 : kind === 'debit' || kind === 'checks' ? -1 : null;
  // A type column that disagrees with the amount's column or printed sign: the row cannot be read.
  const stronger = colSign ?? markerSign;
  if (typeSign !== null && stronger !== null && typeSign !== stronger) return null;
  return {
    row: {
      md: first.md,
      description,
      cents: m.cents,
      sign: colSign ?? markerSign ?? typeSign ?? sectionSign,
      marker: m.marker,
      balance: balance ? signedCents(balance.m) : null,
      section: sec,
      ...(check ? { check } : {}),
    },
    descX,
  };
}

function bankOf(lines: Line[]): string | null {
  // The bank: a cell near the top of page 1 that names one (a cell, not the whole line: a page
  // number or an address often shares its baseline).
  for (const l of lines.filter((x) => x.page === 0).slice(0, 12)) {
    // Cells a typewriter font spaces two apart ("FARMERS  &  DROVERS  BANK") are one name: cells
    // closer than two characters' width are joined first.
    const runs: Array<{ x1: number; t: string }> = [];
    for (const c of cellsOf(l.words)) {
      const last = runs[runs.length - 1];
      if (last && c.x0 - last.x1 < l.size * 1.3) {
        last.t += ` ${c.t}`;
        last.x1 = c.x1;
      } else runs.push({ x1: c.x1, t: c.t });
    }
    for (const c of runs.map((x) => x.t)) {
      if (/\b(bank|credit union|financial|savings|trust|n\.a\.|bancorp|fcu)(?=\W|$)/i.test(c) && !/statement|member fdic|^page\b/i.test(c) && !/\d+\.\d{2}/.test(c)) return c.replace(/\s+/g, ' ').trim();
    }
  }
  return null;
}
