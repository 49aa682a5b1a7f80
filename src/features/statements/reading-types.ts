// What the statement reader (./read.ts) produces: lines and words of the page, tokens, rows,
// printed totals, sections and the reading itself.

export type Sign = 1 | -1;
export type Marker = 'minus' | 'paren' | 'cr' | 'dr' | null;
export interface Money {
  cents: number;
  marker: Marker;
}

export interface Word {
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

export type Tok =
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
  /** The row prints no date of its own: it took the date of the row above it (the date printed once per day). */
  carried?: true;
  /**
   * A scan: the row took the date of the row above it, but something was printed where its own date
   * would be (a word left of its description, ink no word covers): its date was not read, and it
   * stands only when no date it may have changes a figure (analyze.ts).
   */
  dateUnread?: true;
  /** The page the row is printed on (0-based). */
  page?: number;
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
  /**
   * A breakdown table the total is one line of ("Money in by type": ACH, Wire, Card...): its
   * lines are bound together, to the cent and in number, to their side (./reconcile.ts), never
   * one by one nor with another box's lines.
   */
  group?: string;
  /** A total of one page's rows of its section only ("Subtotal this page"): that page (0-based). */
  page?: number;
  /** A count printed on a line of its own under a section ("Total items: 4"): that section's rows only, never the side's. */
  sectionOnly?: true;
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

/**
 * The kind of account a text names: `transaction` (checking, a credit union's share draft, a
 * demand-deposit / operating account), `savings` (savings, a credit union's share savings or
 * regular share, money market, certificates, IRA, club accounts) or `loan` (loans, lines of
 * credit, cards), else null.
 */
export type AccountKind = 'transaction' | 'savings' | 'loan';

export interface AccountRef {
  kind: AccountKind;
  /** The account's number as printed (last digits of a mask), or null. */
  number: string | null;
  name: string;
}
