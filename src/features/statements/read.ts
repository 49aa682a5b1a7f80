import { AccountBook, accountHeadingOf, accountNamed, datedBalances, sameAccount } from './accounts';
import { type Col, dateFirst, fitColumnsOf, groupsAcross, headerOf, type PeriodBox, sideBySide, tablesBeside, thisPeriodOnly } from './columns';
import type { PageItems } from './extract';
import { bankOf, cellsOf, cellTexts, ivDist, linesOf, runningFooters } from './lines';
import { dateIn, periodOf, stackedPeriods } from './period';
import type { AccountRef, Line, Money, Reading, Row, Section, Tok } from './reading-types';
import { checkGroups, datePairs, rowOf } from './rows';
import { categoriesOf, type Heading, headingOf, isBalanceLabel, labelOf, sectionName, summaryBeside, unspaced, withoutSideBoxes } from './sections';
import { signedCents, tokens } from './tokens';
import { accountColumnsLine, byTypeBeside, byTypeTable, labelsOverAmounts, type LineAt, type ReadState, sentenceLine, thereAreLine, totalsLine } from './read-totals';

// The statement reader: from the positioned text items of every page (./extract.ts) to the
// statement's period, balances, transactions, printed totals and daily balances, using the page's
// geometry rather than a list of known layouts.
//
// - Lines: items on one baseline; each item is cut into words at its spaces (x positions estimated
//   along the item's width) and words far apart start a new cell.
// - Tokens: dates (05/02, 5/2, 05-02, Jan 03, 16-DEC, Oct 2, 2026, 01/03/2026, 10/01/25), amounts in any
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

// (In parentheses too: "2026-09-03 (Thursday)".)
const WEEKDAY_WORD = /^\(?(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?\)?,?$/i;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * A line that is only a closing balance's label and its amount ("Ending ledger balance $11,864.90",
 * "Closing balance ($1,673.93)"): under a day's heading, that day's closing balance.
 */
export function dayClosingLine(tk: Tok[]): boolean {
  if (tk.length < 2 || tk[tk.length - 1].k !== 'money' || !tk.slice(0, -1).every((t) => t.k === 'text')) return false;
  return labelOf(tk.slice(0, -1).map((t) => t.t).join(' '))?.role === 'closing';
}

export function read(pages: PageItems[]): Reading {
  const all = linesOf(pages);
  const lines = tablesBeside(sideBySide(byTypeBeside(summaryBeside(withoutSideBoxes(all, pages), pages))));
  const r: Reading = { bankName: null, period: null, opening: null, closing: null, closings: [], rows: [], totals: [], daily: [], sections: [] };
  const footers = runningFooters(lines);
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
  /** The column titles of the table whose rows were last read, and of the table the day heading is in. */
  let headerText: string | null = null;
  let dayHeader: string | null = null;
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
  /**
   * A row without a date of its own, on a scan (a page read by OCR, with its unread ink): a word left
   * of the description (where the date goes), or ink no recognized word covers before its first word
   * on its line, is a date OCR did not read (a date printed once per day leaves paper there).
   */
  const dateUnread = (line: Line, descX: number) => {
    const unread = pages[line.page]?.unread;
    if (!unread) return false;
    const x0 = line.words[0].x0;
    if (x0 < descX - line.size) return true;
    return unread.some((b) => b.x1 <= x0 + 1 && b.y1 >= line.y - line.size * 0.8 && b.y0 <= line.y + line.size * 0.2);
  };
  /**
   * Whether an account heading is a running header: the same account named within the first three
   * lines of every page after the first (a page title repeating the account, not a new account).
   */
  const runningHeader = (acct: AccountRef) => {
    const last = lines.length ? lines[lines.length - 1].page : 0;
    if (last < 1) return false;
    for (let p = 1; p <= last; p++) {
      const top = lines.filter((l) => l.page === p).slice(0, 3);
      if (!top.some((l) => {
        const a = accountHeadingOf(l.text);
        return !!a && sameAccount(a, acct) && a.number === acct.number;
      })) return false;
    }
    return true;
  };
  /**
   * The date printed below the row of line `at` (its description wrapped onto lines without
   * amounts between, each indented to it and just below the last), the description's words those
   * lines add, and the index of the date's line; or null.
   */
  const dateBelow = (at: number): { md: [number, number, number | null]; more: string; at: number } | null => {
    const row = lines[at];
    const x = row.words[0].x0;
    const more: string[] = [];
    let y = row.y;
    for (let j = at + 1; j < lines.length && j <= at + 4; j++) {
      const l = lines[j];
      const tj = toks[j];
      if (l.page !== row.page || l.y - y > row.size * 2.6 || l.words[0].x0 < x - 2 || tj.some((t) => t.k === 'money')) return null;
      if (tj[0].k === 'date') {
        const rest = l.words.filter((w) => w.x0 >= tj[0].x1).map((w) => w.t).filter((w) => !/^[|·•\u2022-]$/.test(w));
        return { md: (tj[0] as Extract<Tok, { k: 'date' }>).md, more: [...more, ...rest].join(' '), at: j };
      }
      if (headerOf(l) || headingOf(l.text)) return null;
      more.push(l.words.map((w) => w.t).join(' '));
      y = l.y;
    }
    return null;
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

  const activityKey = sectionName;
  let firstActivity: string | null = null;
  let stopped = false;
  // Accounts: a statement may print several; each account's heading starts its own reading
  // (./accounts.ts AccountBook), one account is reported (chooseAccount).
  const book = new AccountBook(r);
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
    // "(continued)" on a later page, or the same heading repeated: the same section. (A
    // "continued" naming another section of the same kind read earlier, "DEPOSITS (continued)" at
    // the top of page 2 under page 1's last section "ELECTRONIC CREDITS": that one goes on, not the
    // current one; its rows join it by name (./reconcile.ts) and its printed total counts them all.
    const cont = /contin|cont'd|cont\./i.test(heading);
    // A heading over sub-sections, no rows of its own ("Deposits and Other Additions - continued"
    // over page 1's "ACH Additions" going on): the current sub-section goes on.)
    const another = cont && sectionName(cur.heading) !== sectionName(heading) && sections.some((x, n) => x.kind === h.kind && x.category === h.category && sectionName(x.heading) === sectionName(heading) && r.rows.some((row) => row.section === n));
    if (cur.kind === h.kind && cur.category === h.category && !another && (cont || cur.heading.toLowerCase() === heading.toLowerCase())) return;
    sections.push({ kind: h.kind, category: h.category, heading });
    sec = sections.length - 1;
    cols = null;
  };
  const addTotal = (label: string, money: Money, count: number | null, inSection: boolean, of: AccountRef | null = accountNamed(label)) => {
    const l = labelOf(label);
    if (!l) return;
    // A balance naming an account ("Savings ending balance", a relationship summary's line per
    // account) is that account's, never the one being read unless it is the same.
    if ((l.role === 'opening' || l.role === 'closing') && of && !(book.account && sameAccount(book.account, of))) {
      book.named.push({ account: of, role: l.role, cents: signedCents(money) });
      return;
    }
    if (l.role === 'opening') {
      if (r.opening !== null && signedCents(money) !== r.opening && !/forward|brought/i.test(label) && r.rows.length > book.rows) {
        // A second account's opening balance after this one's rows, no heading naming it (a credit
        // union's shares, each with its own table): each account is kept apart.
        book.start(null, signedCents(money));
        return;
      }
      if (r.opening === null) {
        if (/forward|brought/i.test(label)) forwardOpening ??= signedCents(money);
        else {
          r.opening = signedCents(money);
          book.rows = r.rows.length;
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

  /** What the lines of totals and balances (./read-totals.ts) read and record through. */
  const st: ReadState = {
    r,
    lines,
    toks,
    sections,
    get sec() {
      return sec;
    },
    dated,
    addTotal,
    newSection,
  };

  /** A box with "this period" and "year-to-date" columns: only this period's amounts are read. */
  let periodBox: PeriodBox | null = null;
  /** A summary with a column per account ("Business Checking ****1234 | Business Savings ****5678" over its label lines). */
  let accountCols: { page: number; y: number; cols: Array<{ x: number; account: AccountRef }> } | null = null;
  /** The last dated line of an unread section (pending items, a second account's rows). */
  let ignoredItem: { page: number; y: number; x: number; size: number } | null = null;
  // Each row's page: the rows read since the last line are that line's page's.
  let rowsPage = 0;
  const pageRows = () => {
    for (let k = r.rows.length - 1; k >= 0 && r.rows[k].page === undefined; k--) r.rows[k].page = rowsPage;
  };
  /** The last row read with its line (kept past the page's end), and a row going on over a page break under the repeated column titles. */
  let tail: { row: Row; line: Line; descX: number } | null = null;
  let overBreak: { row: Row; descX: number; header: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (lastRow) tail = lastRow;
    pageRows();
    rowsPage = line.page;
    let tk = toks[i];
    const kind = sections[sec].kind;
    // A box with "this period" and "year-to-date" columns: only this period's amounts are read.
    ({ box: periodBox, tk } = thisPeriodOnly(periodBox, line, tk));
    tk = dateFirst(cols, tk);
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
      // An item of the unread section and the lines indented below it (its description going
      // on: "ACH deposit · Payout · pending" under a pending item) are that item's, never a
      // heading that ends the section.
      if (tk[0]?.k === 'date') ignoredItem = { page: line.page, y: line.y, x: tk[0].x1, size: line.size };
      const underItem = !!ignoredItem && ignoredItem.page === line.page && line.y - ignoredItem.y <= ignoredItem.size * 2.6 && line.words[0].x0 > ignoredItem.x;
      if (underItem) ignoredItem!.y = line.y;
      const h = !money.length && !stopped && !underItem ? headingOf(text) : null;
      const acct = !money.length && !stopped && tk[0]?.k !== 'date' && !underItem ? accountHeadingOf(text) : null;
      if (h) newSection(h, text);
      else if (acct) {
        book.switch(acct);
        newSection({ kind: 'mixed', category: 'mixed' }, '');
      }
      continue;
    }
    // A breakdown by type (before any header: "Summary by type  In  Out" reads like one).
    const byType = byTypeTable(st, { i, line, tk, money, text, first: tk[0], kind, accountCols });
    if (byType !== null) {
      i = byType;
      lastRow = null;
      continue;
    }
    // A row's description going on below it in one cell, indented to the description and left of
    // every amount column ("MOBILE DEPOSIT" over "CHECK DEPOSIT" over "REF 2818238211", blind-42's
    // Gate City-style register): no header of new columns ("check" and "deposit" are titles too);
    // a header repeated starts at the table's left, its titles in cells of their own.
    // A row split by a page break (a word processor's table row may split): the line right under
    // the next page's repeated column titles, no date and no amount, indented to the row's
    // description and in one cell left of every amount column, is that row's description going
    // on, not a heading ("PAYMENTS ID: 3499769509" opening page 3, blind-62's Writer-printed
    // credit union). Only when that row was the last thing on its page (below it only the page's
    // running lines) and the titles are the ones its table was read under.
    if (overBreak && overBreak.header === i - 1 && cols && !money.length && tk[0]?.k !== 'date' && line.page === lines[i - 1].page && line.words[0].x0 >= overBreak.descX - 2 && cellsOf(line.words).length === 1 && line.words[line.words.length - 1].x1 < Math.min(...cols.filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind)).map((c) => c.x0)) && !headerOf(line) && !isBalanceLabel(text) && !/^(total|sub ?total|page)\b/i.test(text)) {
      overBreak.row.description += ` ${line.words.map((w) => w.t).join(' ')}`;
      lastRow = { row: overBreak.row, line, descX: overBreak.descX };
      overBreak = null;
      continue;
    }
    overBreak = null;
    const inDescription = !!lastRow && !!cols && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2 && cellsOf(line.words).length === 1 && line.words[line.words.length - 1].x1 < Math.min(...cols.filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind)).map((c) => c.x0));
    const header = inDescription ? null : headerOf(line);
    if (header) {
      // Under a summary, or under a "Balance Summary" read as daily balances: a header naming a
      // description and an amount opens the register (daily balances have neither; blind-32: a
      // credit union's register under its Previous / New Balance box was read as daily balances).
      const register = header.some((c) => c.kind === 'desc') && header.some((c) => ['debit', 'credit', 'amount'].includes(c.kind));
      if (kind === 'summary' || (kind === 'daily' && register)) newSection({ kind: 'mixed', category: 'mixed' }, '');
      const onlyBalances = !header.some((c) => ['debit', 'credit', 'amount', 'check'].includes(c.kind));
      if (onlyBalances && kind !== 'daily' && !header.some((c) => c.kind === 'desc')) newSection({ kind: 'daily', category: 'daily' }, text);
      // (The columns' titles repeated at the top of the page after the last row read, nothing but
      // running lines between: that row may go on below them.)
      const sameTitles = headerText === text.replace(/\s+/g, ' ').trim().toLowerCase();
      const last = tail as { row: Row; line: Line; descX: number } | null;
      const between = last ? lines.slice(lines.indexOf(last.line) + 1, i) : [];
      const lastOnPage: boolean = !!last && last.line.page === line.page - 1 && r.rows[r.rows.length - 1] === last.row && lines.indexOf(last.line) >= 0 && between.every((l) => footers.has(l) || (l.page === line.page && !toks[lines.indexOf(l)].some((t) => t.k === 'money')));
      overBreak = sameTitles && lastOnPage && last ? { row: last.row, descX: last.descX, header: i } : null;
      cols = fitColumns(header, i);
      lastRow = null;
      // A day's rows going on under the same column titles repeated on the next page ("Account
      // Activity (continued)" / "Description  Additions  Subtractions"): still that day's; under
      // any other table, no day yet.
      headerText = text.replace(/\s+/g, ' ').trim().toLowerCase();
      if (dayHeader !== headerText) dayDate = null;
      continue;
    }
    // A table without a date column: a date alone on its line ("Wednesday, Apr 1, 2026") heads
    // the day's rows below it.
    // Or, no table header at all (rows of a description and an amount under each day's heading),
    // a full date with its year and its weekday ("Tuesday, March 3, 2026").
    // Or a short heading without the year ("Tue 09/02"), when its weekday is that date's own in the
    // statement's period: the weekday says it heads a day (blind-26: a fintech's Daily Activity).
    const noHeaderDay = (d: Tok[], rest: Tok[]) => {
      if (cols || kind === 'summary' || kind === 'daily') return false;
      const date = d[0] as Extract<Tok, { k: 'date' }>;
      const weekday = [...rest.map((t) => t.t), date.t.split(/\s+/)[0]].find((t) => WEEKDAY_WORD.test(t));
      if (date.md[2] !== null) return rest.length > 0;
      const iso = weekday && r.period ? dateIn(date.md, r.period) : null;
      return !!iso && WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()] === weekday!.replace(/^\(/, '').slice(0, 3).toLowerCase();
    };
    if ((cols ? !cols.some((c) => c.kind === 'date') : true) && !money.length) {
      const d = tk.filter((t) => t.k === 'date');
      const rest = tk.filter((t) => t.k !== 'date');
      if (d.length === 1 && (cols || noHeaderDay(d, rest)) && rest.every((t) => t.k === 'text' && WEEKDAY_WORD.test(t.t))) {
        dayDate = (d[0] as Extract<Tok, { k: 'date' }>).md;
        dayHeader = headerText;
        lastRow = null;
        pending = null;
        continue;
      }
    }

    // A day's heading that carries the day's closing balance ("May 4 ... End of day balance
    // $13,174.61", "Mar 4 Daily balance 1,204.10"): the date heads the rows below it and the amount is
    // that day's printed balance, never a transaction (blind-64: a credit union's flexbox view
    // grouping each day's rows under it, no balance per row). Only in a table without a date column
    // and only with the day's words, so a register's dated "Ending balance" row stays what it was.
    if ((cols ? !cols.some((c) => c.kind === 'date') : true) && kind !== 'summary' && kind !== 'daily' && money.length === 1 && tk[0]?.k === 'date' && tk[tk.length - 1].k === 'money') {
      const label = tk.slice(1, -1);
      const words = label.map((t) => t.t).join(' ');
      if (label.length && label.every((t) => t.k === 'text') && /\bbalance\b/i.test(words) && /\b(end of (the )?day|end-of-day|day's|daily)\b/i.test(words)) {
        dayDate = (tk[0] as Extract<Tok, { k: 'date' }>).md;
        dayHeader = headerText;
        r.daily.push({ md: dayDate, cents: signedCents((money[0] as Extract<Tok, { k: 'money' }>).m) });
        lastRow = null;
        pending = null;
        continue;
      }
    }

    const first = tk[0];
    const at: LineAt = { i, line, tk, money, text, first, kind, accountCols };
    const there = thereAreLine(st, at);
    if (there !== null) {
      i = there;
      lastRow = null;
      continue;
    }
    const sentence = sentenceLine(st, at);
    if (sentence !== null) {
      i = sentence;
      lastRow = null;
      continue;
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

    const summary = labelsOverAmounts(st, at);
    if (summary !== null) {
      i = summary;
      lastRow = null;
      continue;
    }

    // An account's heading (not a row's wrapped description, indented to it).
    if (!money.length && first?.k !== 'date') {
      const acct = accountHeadingOf(text);
      // (Nor the second line of a row whose amounts follow: "ONLINE TRANSFER TO" over "Business
      // Savings xxxxxx4410".)
      const continues = (lastRow && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2) || underPending(line, i);
      if (acct && !continues) {
        book.switch(acct, line.page > 0 && i - lines.findIndex((l) => l.page === line.page) < 3, runningHeader(acct));
        lastRow = null;
        pending = null;
        // Before any row, an account's own heading ("BUSINESS CHECKING" over its register) starts
        // that account's register: a box of one side read above it (a fee box's "FEES", "Items
        // this period: ... withdrawals/debits") ends there, and gives the register's rows no sign
        // (blind-59: a credit union's register under page 1's fee box read every credit as a fee).
        // A heading of its own ("Checking Deposits") or one going on ("continued") is no new start.
        // (Not under the heading it follows at once: "DEPOSITS AND CREDITS" over "Business Checking
        // 7720" names the account whose deposits follow, and the section's side stands (review revI:
        // such a statement was refused, its deposits no longer signed).)
        const prev = lines[i - 1];
        const justOpened = !!prev && prev.page === line.page && !!sections[sec]?.heading && prev.text === sections[sec].heading;
        if (!r.rows.length && !justOpened && ['credit', 'debit', 'checks'].includes(kind) && !headingOf(text) && !/contin|cont'd|cont\./i.test(text)) newSection({ kind: 'mixed', category: 'mixed' }, '');
      }
    }

    // The first line of a two-line header row ("Deposits/" over "Credits"): not a heading. (A box the
    // statement says it leaves out, "Pending  Not yet posted...", over its own header is that box.)
    // Cells of rule marks only ("- - - OTHER DEBITS - - -", a typewriter statement's dashes around
    // its heading) are no column titles: a heading so drawn, over its table's header, is a heading.
    // (Nor a heading set letter by letter, "C H E C K S  P A I D": column titles are never letter-spaced.)
    if (!money.length && !/\d/.test(text) && headingOf(text)?.kind !== 'ignore' && unspaced(text) === text && cellsOf(line.words).filter((c) => /[a-z]/i.test(c.t)).length >= (headingOf(cellTexts(line.words)[0]) ? 3 : 2) && i + 1 < lines.length && lines[i + 1].page === line.page && lines[i + 1].y - line.y <= line.size * 1.8 && headerOf(lines[i + 1])) continue;

    // A heading: words only.
    if (!money.length && (!first || first.k !== 'date')) {
      // Below a row, indented to its description: the description goes on (even if its words
      // look like a heading, "MOBILE DEPOSIT"); headings start left of the descriptions.
      // (Never a page's running footer, however close under the page's last row: lines.ts runningFooters.)
      const continuation = lastRow && !footers.has(line) && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2;
      // (Indented to its description, a line goes on even when its words look like a heading:
      // "DEBIT ID 1853027741" is no debits section.)
      if (pending && (underPending(line, i) || (!headingOf(text) && pending.line.page === line.page && line.y - pending.line.y <= pending.line.size * 2.6))) {
        pending = { toks: [...pending.toks, ...tk], line: { ...line, size: pending.line.size, y: pending.line.y }, lastY: line.y };
        continue;
      }
      // A count on a line of its own right under a section's rows ("Total items: 4", "Number of
      // items: 4"): the section's count, its rows (on every page) must number it. Only under a
      // section of one side whose last row is the last row read, on the same page: a count
      // elsewhere (under a register of both sides, after another box) is not plainly the section's.
      const lone = LONE_COUNT.exec(text.trim());
      const lastRead = r.rows[r.rows.length - 1];
      if (lone && !pending && lastRow && lastRow.row === lastRead && lastRead.section === sec && lastRow.line.page === line.page && ['credit', 'debit', 'checks'].includes(sections[sec].kind)) {
        r.totals.push({ label: text.trim(), kind: sections[sec].kind === 'credit' ? 'credit' : 'debit', category: sections[sec].category, cents: 0, count: Number(lone[1] ?? lone[2] ?? lone[3]), countOnly: true, sectionOnly: true, section: sec });
        lastRow = null;
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
        // A count printed with the heading ("DEPOSITS AND OTHER CREDITS (4 ITEMS)", "Other Debits
        // 12 items", "Checks Paid  No. Checks: 3"): the rows of that section must number it
        // (./reconcile.ts), so a row missed or read twice is caught as the bank's own count would.
        const n = sectionCount(text);
        if (n !== null && ['credit', 'debit', 'checks', 'mixed'].includes(sections[sec].kind)) r.totals.push({ label: text, kind: sections[sec].kind === 'credit' ? 'credit' : 'debit', category: sections[sec].category, cents: 0, count: n, countOnly: true, section: sec });
        lastRow = null;
        continue;
      }
      if (lastRow && line.y - lastRow.line.y > lastRow.line.size * 2.6) lastRow = null;
      continue;
    }

    // A table without a date column whose rows print their date BELOW the description ("Direct debit
    // payment to GUSTO  -8,337.48  29,986.68" over a grey "30 October 2026 | Transaction: ..."; an
    // online account's register): a line of a description and amounts, no day heading above it in
    // this table, followed (its description perhaps wrapped onto lines without amounts, indented to
    // it) by a line that starts with a date and carries no amount: that date is the row's.
    if (money.length && first && first.k !== 'date' && cols && !cols.some((c) => c.kind === 'date') && !dayDate && kind !== 'summary' && kind !== 'daily') {
      const below = dateBelow(i);
      if (below) {
        const row = rowOf([{ k: 'date', x0: -1, x1: -1, t: '', md: below.md }, ...tk], cols, sec, kind);
        if (row && row !== 'balance') {
          if (below.more) row.row.description += ` ${below.more}`;
          r.rows.push(row.row);
          lastRow = null;
          pending = null;
          i = below.at;
          continue;
        }
      }
    }

    // Below a row, indented to its description, one amount under the balance column alone and none
    // under a debit, credit or amount column (blind-41: Citizens Business Bank-style three-line ACH
    // descriptions, "ID 8855148974 CCD  42,854.75", the day's balance printed on the last row's last
    // line): the row's description goes on and the amount is its running balance, which the
    // balances check then holds to the rows; never a total ("SERVICE CHARGE  -7,126.62" under
    // "ACCOUNT ANALYSIS  25.00" is the fee's second line and the day's balance).
    if (money.length === 1 && first?.k !== 'date' && lastRow && lastRow.row.balance === null && cols && kind !== 'summary' && kind !== 'daily' && lastRow.line.page === line.page && line.y - lastRow.line.y <= lastRow.line.size * 2.6 && line.words[0].x0 >= lastRow.descX - 2 && !/^(total|sub ?total|page)\b/i.test(text) && !isBalanceLabel(text)) {
      const m = money[0] as Extract<Tok, { k: 'money' }>;
      const near = (c: { x0: number; x1: number }) => ivDist(c.x0 - 6, c.x1 + 6, m.x0, m.x1) === 0;
      const balCol = cols.find((c) => c.kind === 'balance');
      if (balCol && near(balCol) && !cols.some((c) => ['debit', 'credit', 'amount'].includes(c.kind) && near(c)) && tk[tk.length - 1] === m) {
        const words = tk.slice(0, -1).map((t) => t.t).join(' ');
        if (words) lastRow.row.description += ` ${words}`;
        lastRow.row.balance = signedCents(m.m);
        lastRow.line = line;
        continue;
      }
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
          row.row.carried = true;
          if (dateUnread(line, lastRow.descX)) row.row.dateUnread = true;
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
    // Under a day's heading with no table header: the day's closing balance ("End of day balance
    // $9,551.85", "Balance at end of day") is that day's printed daily balance; any other line of a description and one
    // amount at its end is a row of that day (its sign the amount's own: "($462.15)").
    if (dayDate && !cols && money.length === 1 && tk[tk.length - 1].k === 'money' && first?.k === 'text' && kind !== 'summary' && kind !== 'daily') {
      // (Or the day's closing balance named as a statement's is, "Ending ledger balance ($1,673.93)"
      // under "2026-03-24 (Tuesday)": under a day's heading it closes that day.)
      if ((/\bbalance\b/i.test(text) && /\b(day|daily|day's)\b/i.test(text)) || dayClosingLine(tk)) {
        r.daily.push({ md: dayDate, cents: signedCents((money[0] as Extract<Tok, { k: 'money' }>).m) });
        lastRow = null;
        continue;
      }
      if (!/^(total|sub ?total|page)\b/i.test(text) && !isBalanceLabel(text) && takeRow(rowOf([{ k: 'date', x0: -1, x1: -1, t: '', md: dayDate }, ...tk], null, sec, kind), tk, money, line)) continue;
    }

    // Label and amount pairs: a summary, a section's total, a balance.
    const totals = accountColumnsLine(st, at) ?? totalsLine(st, at);
    if (totals !== null) {
      i = totals;
      lastRow = null;
      continue;
    }
    if (money.length && (!first || first.k !== 'date')) {
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
          row.row.carried = true;
          if (dateUnread(line, lastRow.descX)) row.row.dateUnread = true;
          r.rows.push(row.row);
          lastRow = { row: row.row, line, descX: row.descX };
          continue;
        }
      }
    }
  }
  pageRows();
  // Several lone counts under one section are its rows' own (a count under each deposit), none the section's.
  const lone = r.totals.filter((t) => t.sectionOnly);
  r.totals = r.totals.filter((t) => !t.sectionOnly || lone.filter((o) => o.section === t.section).length === 1);
  r.opening ??= forwardOpening;
  datedBalances(r, dated);
  r.sections = sections;
  book.finish();
  withoutRepeatedListings(r);
  return r;
}

/**
 * A count of a section alone on its line, saying it is one: "Total items: 4", "Number of items 4",
 * "Total number of transactions: 4", "Item count: 4", "Total: 4 items". (A bare "ITEMS 2" under a
 * deposit counts that deposit's items, not the section's.)
 */
const LONE_COUNT = /^(?:total\s+(?:number\s+of\s+)?|(?:number|no\.?|#)\s*of\s+)(?:items?|transactions?|entries)(?:\s+(?:listed|posted|shown|paid))?\s*:?\s*(\d{1,4})\.?$|^(?:item|transaction|entry)\s+count\s*:?\s*(\d{1,4})\.?$|^total\s*:?\s*(\d{1,4})\s+(?:items?|transactions?|entries)\.?$/i;

/** A description's words, upper case, for comparing one listing of an item with another. */
const wordsKey = (d: string) => ` ${d.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim()} `;

/**
 * A section that lists again items already read ("Electronic Items" after a "Transactions by Date"
 * register, each ACH item once more with its own total): every one of its rows (three or more) is
 * an earlier section's row of the same date and amount whose description holds the repeat's, each
 * earlier row answering one repeat only. Such a section adds no transactions: its rows and its
 * totals are dropped, not counted twice (blind-53: read as more debits, the statement did not
 * reconcile). A section only partly repeating earlier rows is left as read (it may hold items of
 * its own; the reconciliation decides).
 */
export function withoutRepeatedListings(r: Reading): void {
  const bySection = new Map<number, Row[]>();
  for (const row of r.rows) {
    const list = bySection.get(row.section) ?? [];
    list.push(row);
    bySection.set(row.section, list);
  }
  const repeated = new Set<number>();
  const twinOf = new Map<Row, Row>();
  const order = [...bySection.keys()].sort((a, b) => a - b);
  for (const s of order) {
    const mine = bySection.get(s)!;
    if (mine.length < 3) continue;
    const kind = r.sections[s]?.kind;
    if (kind === 'summary' || kind === 'daily' || kind === 'ignore') continue;
    const earlier = r.rows.filter((row) => row.section < s && !repeated.has(row.section));
    const used = new Set<Row>();
    const all = mine.every((row) => {
      const key = wordsKey(row.description);
      if (key.trim().length < 3) return false;
      const twin = earlier.find((e) => !used.has(e) && e.cents === row.cents && e.md[0] === row.md[0] && e.md[1] === row.md[1] && wordsKey(e.description).includes(key));
      if (!twin) return false;
      used.add(twin);
      twinOf.set(row, twin);
      return true;
    });
    if (all) repeated.add(s);
  }
  if (!repeated.size) return;
  // A repeat whose rows net to nothing (a transfer in and the same sum out) leaves the balances the
  // same dropped or kept: they cannot tell a second listing from genuine items that happen to repeat,
  // and with no side total printed a wrong deposits figure would pass. Not trusted, a person looks
  // (revt: four transfers in and out listed again were dropped with the statement still reconciling).
  for (const s of repeated) {
    const signs = bySection.get(s)!.map((row) => row.sign ?? twinOf.get(row)?.sign ?? null);
    const net = bySection.get(s)!.reduce((a, row, i) => a + (signs[i] ?? 0) * row.cents, 0);
    if (signs.every((x) => x !== null) && net === 0) (r.conflicts ??= []).push('A section lists again, to a net of nothing, items already read: whether it is a second listing or more transactions the balances cannot tell');
  }
  r.rows = r.rows.filter((row) => !repeated.has(row.section));
  r.totals = r.totals.filter((t) => !repeated.has(t.section));
  for (const s of repeated) r.sections[s] = { ...r.sections[s], kind: 'ignore', category: 'other' };
}

/**
 * The number of rows a section's heading says it holds, or null: "(4 ITEMS)", "12 items", "(3
 * transactions)", "No. Checks: 3", "Number of items: 5". A number beside other words (an account's
 * digits, a date) is none.
 */
export function sectionCount(heading: string): number | null {
  const re = /\(\s*(\d{1,4})\s+(?:items?|transactions?|entries)\s*\)|(?:^|\s)(\d{1,4})\s+(?:items?|transactions?|entries)\b|\b(?:no\.?|number of|#)\s*(?:of\s+)?(?:items?|checks?|transactions?|entries)\s*:?\s*(\d{1,4})\b/gi;
  const all = [...heading.matchAll(re)];
  // (Two counts on the line, "Money in 39 transactions  Money out 60 transactions", are a summary's
  // cards for both sides, no one section's count.)
  return all.length === 1 ? Number(all[0][1] ?? all[0][2] ?? all[0][3]) : null;
}
