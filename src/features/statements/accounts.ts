import { addDays, dateIn, days, isoOf } from './period';
import type { AccountKind, AccountRef, Reading } from './reading-types';

// Accounts on one statement: the kind of account a heading names, the account a balance names,
// which account is reported, and balances printed with their dates.

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

/**
 * An account's heading: a short line, words and an account number only, that names a kind of
 * account ("0070 BUSINESS SHARE DRAFT", "Business Checking Account ****1234", "SAVINGS 0001",
 * "Business Line of Credit - Loan 0142"): the rows and balances after it are that account's. A
 * sentence, a transfer's or an interest line's words, a section heading ("Transfers to savings") or
 * an offer ("Open a money market account today") is none.
 */
/**
 * A credit union's share or suffix id, one to four digits after the word ("BUSINESS CHECKING - SHARE
 * 10", "Savings Suffix 01", "Share ID 0000"): the account's number within the member's, as good as
 * an account number in a heading.
 */
const SHARE_ID = /\b(?:share|suffix|sfx)(?:\s*(?:id|#|no\.?))?\s*[-:#]?\s*(\d{1,4})\b/i;
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
  const share = SHARE_ID.exec(t);
  const tail = accountKindOf(words.slice(-3).join(' ')) !== null;
  if (!num && !share && !/\baccount\b/i.test(t) && !tail) return null;
  return { kind, number: num ? num[1].slice(-4) : share ? share[1] : null, name: t };
}
/** Whether two headings name the same account: the same kind, and the same number when both print one. */
export const sameAccount = (a: AccountRef, b: AccountRef) => a.kind === b.kind && (a.number === null || b.number === null || a.number === b.number);

/**
 * The account a balance's label names ("Savings ending balance", "Checking ****1234 beginning
 * balance"), or null for a plain "Ending balance".
 */
export function accountNamed(label: string): AccountRef | null {
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
export function chooseAccount(r: Reading, segs: Array<Pick<Reading, 'opening' | 'closing' | 'closings' | 'rows' | 'totals' | 'daily'> & { account: AccountRef | null }>, named: Array<{ account: AccountRef; role: 'opening' | 'closing'; cents: number }>): void {
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
export function datedBalances(r: Reading, dated: Array<{ md: [number, number, number | null]; cents: number; role: 'opening' | 'closing' | null }>): void {
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

type Segment = Pick<Reading, 'opening' | 'closing' | 'closings' | 'rows' | 'totals' | 'daily'> & { account: AccountRef | null };

/**
 * The accounts of one statement as the reader meets them (a credit union's share savings and share
 * draft, a bank's combined checking and savings, a loan): each account's heading starts its own
 * opening, closing, rows, totals and daily balances in the reading; `finish` reports one account
 * (chooseAccount).
 */
export class AccountBook {
  /** The accounts read before the current one. */
  private readonly accounts: Segment[] = [];
  /** The account being read (null until a heading names one). */
  account: AccountRef | null = null;
  /** The rows read before the current account's opening balance. */
  rows = 0;
  /** Balances whose label names an account ("Savings ending balance"), kept for that account. */
  readonly named: Array<{ account: AccountRef; role: 'opening' | 'closing'; cents: number }> = [];
  /** Every account heading met, the ones another heading replaced before any row too. */
  private readonly headings: AccountRef[] = [];

  constructor(private readonly r: Reading) {}

  /** Another account's reading starts (the current one kept apart). */
  start(next: AccountRef | null, opening: number | null): void {
    const r = this.r;
    this.accounts.push({ account: this.account, opening: r.opening, closing: r.closing, closings: r.closings, rows: r.rows, totals: r.totals, daily: r.daily });
    r.closings = [];
    r.rows = [];
    r.totals = [];
    r.daily = [];
    r.closing = null;
    r.opening = opening;
    this.rows = 0;
    this.account = next;
  }

  /** An account's heading: the same account goes on; another starts its own reading. */
  switch(next: AccountRef, pageTop = false, runningHeader = false): void {
    const r = this.r;
    const account = this.account;
    if (account && sameAccount(account, next)) {
      this.account = { ...account, number: account.number ?? next.number };
      return;
    }
    // A page's running header naming the account ("Cobblestone | Saguaro Mobile Glass | Checking
    // x8810" atop every page after the first), met after the first page's rows under no heading: the
    // account those rows were already, not a new one (blind-26: the first page's rows were set
    // apart as another account's and the statement read from page 2 on).
    if (pageTop && runningHeader && !account && !this.headings.length) {
      this.headings.push(next);
      this.account = next;
      return;
    }
    // At the top of a page, an account met before the current one: the page's running header
    // (the statement's main account, a title repeated on every page), not a new account; the
    // current account's rows go on.
    if (pageTop && account && this.headings.some((a) => sameAccount(a, next))) return;
    this.headings.push(next);
    // What came before any heading (a summary's balances, no rows) is the first account's.
    if (!account && !r.rows.length) {
      this.account = next;
      return;
    }
    if (!r.rows.length && r.opening === null && r.closing === null && !r.totals.length) {
      this.account = next;
      return;
    }
    this.start(next, null);
  }

  /** The reading left with the account reported. */
  finish(): void {
    const r = this.r;
    chooseAccount(r, [...this.accounts, { account: this.account, opening: r.opening, closing: r.closing, closings: r.closings, rows: r.rows, totals: r.totals, daily: r.daily }], this.named);
  }
}
