import { dateIn, days } from './period';
import type { Reading, Sign } from './reading-types';
import type { FailureCode } from './result';
import { depositKind, isNsf, looksLikeNsfFee } from './rules';
import { sectionName } from './sections';

// Reconciling a reading (./read.ts) before any figure is trusted: every row's sign decided, opening +
// credits - debits = closing, each running balance, section and summary total and count, each
// printed daily balance. Otherwise the failure and what disagreed.
export interface Txn {
  date: string;
  description: string;
  cents: number;
  /**
   * A bank's fee line the rules only doubt as an overdraft or returned-item fee ("Fee Overdraft
   * Transfer/Paid Item": a protection transfer's fee or a paid item's), that the bank's own printed
   * total of this period's overdraft / returned-item fees counts as one: counted as an NSF event
   * (figures.ts), no longer in doubt (doubt.ts). Set only by the reconciliation, never by words alone.
   */
  feeCounted?: true;
}
export type Reconciled = { ok: true; txns: Txn[]; period: { start: string; end: string }; opening: number; closing: number } | { ok: false; code: FailureCode; reason?: string };

/** A credit that refunds or reverses a fee ("OVERDRAFT FEE REFUND", "SERVICE CHARGE REVERSAL", "REFUND OF NSF FEE"). */
export const FEE_REFUND = /\b(fees?|charges?)\b.*\b(refunds?|refunded|reversals?|reversed|rebates?)\b|\b(refunds?|refunded|reversals?|reversed|rebates?)\b.*\b(fees?|charges?)\b/i;
/** A payee's channel: a line that begins so pays someone else, whatever fee words it carries. */
const CHANNEL_FIRST = /\b(ach|ccd|ppd|web|pos|purchase|card|wire|check|chk|transfer|xfer|bill ?pay|zelle|payment to)\b/i;
/** A bank's own charge: its fee word comes before any payee's channel ("OVERDRAFT CHARGE PAID ITEM ACH DEBIT ..."). */
export function bankCharge(description: string): boolean {
  const fee = /\b(fees?|charges?|chg)\b/i.exec(description);
  const ch = CHANNEL_FIRST.exec(description);
  return !!fee && (!ch || fee.index < ch.index);
}
/** A description's words, upper case, letters only, a plural's S dropped ("FEES" is FEE). */
const wordsOf = (d: string) => new Set(d.toUpperCase().split(/[^A-Z]+/).filter(Boolean).map((w) => w.replace(/(?<=[^S])S$/, '')));
/** The words of a fee type's label that name the fee ("Overdraft Item Fee" -> OVERDRAFT ITEM FEE), not "Total" or a count. */
function feeTypeWords(label: string): string[] {
  return [...wordsOf(label)].filter((w) => !/^(TOTAL|THI|THIS|PERIOD|COUNT|AMOUNT|NO|OF)$/.test(w));
}
export const sumOf = (xs: Array<{ cents: number }>) => xs.reduce((s, x) => s + x.cents, 0);
export const money = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;

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
    // From the opening balance, row by row in the order printed; a register printed newest first
    // (its oldest row last) from its last row up, when only that order settles every row.
    const fromBalances = (list: typeof rows) => {
      const got = new Map<(typeof rows)[number], Sign>();
      let bal = r.opening!;
      for (const x of list) {
        let sign = x.sign;
        if (sign === null && x.balance !== null) {
          if (bal + x.cents === x.balance) sign = 1;
          else if (bal - x.cents === x.balance) sign = -1;
        }
        if (sign === null) break;
        got.set(x, sign);
        bal += sign * x.cents;
      }
      return got;
    };
    const settles = (got: Map<(typeof rows)[number], Sign>) => rows.every((x) => x.sign !== null || got.has(x));
    const forward = fromBalances(rows);
    const backward = settles(forward) ? null : fromBalances([...rows].reverse());
    const got = backward && settles(backward) ? backward : forward;
    for (const x of rows) if (x.sign === null && got.has(x)) x.sign = got.get(x)!;
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
  // (A section's pages are one section: "DEPOSITS (continued)" is "DEPOSITS (5 items)", ./sections.ts sectionName.)
  const key = (i: number) => `${r.sections[i].kind}|${r.sections[i].category}|${sectionName(r.sections[i].heading)}`;
  const inGroup = (s: number) => signed.filter((x) => key(x.section) === key(s));
  // A "summary of checks" repeating checks that are already in the history: counted once.
  const recap = recapRows(signed, r.sections);
  const txns = signed.filter((x) => {
    if (recap.has(x)) return false;
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
  const odWord = /\b(overdraft|overdrawn|od|o d|paid item|item paid|courtesy|privilege pay)\b/i;
  const nsfRows = debits.filter((x) => isNsf(x.description));
  // The bank's own fee lines that read like an overdraft or returned-item fee no row counts
  // (rules.ts looksLikeNsfFee): tried with the fee lines the rules count, after them, against the
  // bank's printed period total of those fees; the total that takes them says what they are.
  const doubtedFees = debits.filter((x) => looksLikeNsfFee(x.description) && bankCharge(x.description));
  const interestRows = credits.filter((x) => depositKind(x.description) === 'interest');
  const name = (h: string) => h.toLowerCase().replace(/\(?continued\)?|cont(\.|'d)|\btotal\b|\(\d+\)|\d+/g, ' ').replace(/[^a-z]+/g, ' ').trim();
  type S = (typeof signed)[number];
  const candidatesOf = (t: (typeof r.totals)[number]): S[][] => {
    // A page's subtotal of its section ("Subtotal this page"): that page's rows of the section only.
    if (t.page !== undefined && t.section >= 0) return [inGroup(t.section).filter((x) => x.page === t.page && Math.sign(x.cents) === (t.kind === 'credit' ? 1 : -1))];
    // A count on a line of its own under a section ("Total items: 4"): the section's rows only.
    if (t.sectionOnly && t.section >= 0) return [inGroup(t.section)];
    // Overdraft and returned-item fee totals: those fee lines only.
    if (t.category === 'nsf' || t.category === 'od' || t.category === 'ri') {
      const od = nsfRows.filter((x) => odWord.test(x.description));
      const ri = nsfRows.filter((x) => !odWord.test(x.description));
      const base = t.category === 'nsf' ? [nsfRows] : t.category === 'od' ? [od, nsfRows] : [ri, nsfRows];
      if (!doubtedFees.length || t.cents <= 0) return base;
      // (An overdraft total takes only the doubted lines with an overdraft's words, a returned-item total only the others.)
      const more = t.category === 'nsf' ? doubtedFees : doubtedFees.filter((x) => odWord.test(x.description) === (t.category === 'od'));
      return more.length ? [...base, ...base.map((c) => [...c, ...more])] : base;
    }
    // Refunds of fees: the credits that refund or reverse a fee, those only.
    if (t.category === 'fee_refunds') return [credits.filter((x) => FEE_REFUND.test(x.description))];
    // The bank's interest credited ("Interest Paid" in the summary, beside a deposits line that leaves
    // it out: the box's lines then make the credits together): the interest rows, those only.
    if (t.category === 'interest') return [interestRows];
    // A count printed with a section's heading ("DEPOSITS (4 ITEMS)"): that section's rows, every one
    // read under it (before a row listed again elsewhere is dropped), or, a heading that counts a side
    // ("Money in  39 transactions" over a register of both), the side's.
    // (revB: or, a count of checks, "No. Checks: 1" over a section of checks and other debits, its
    // rows that are checks, by number or by word, no bank's charge.)
    if (t.countOnly && t.section >= 0) {
      const own = inGroup(t.section);
      const cands = [own, t.kind === 'credit' ? credits : debits];
      if (/\b(?:no\.?|number of|#)\s*(?:of\s+)?checks?\b/i.test(t.label)) cands.push(own.filter((x) => !!x.check || (words.checks.test(x.description) && !bankCharge(x.description) && !isNsf(x.description))));
      return cands;
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
    // A checks total against the rows read with a check number (a register's CHECK NO column), not
    // every line naming a check: "OVERDRAFT ITEM FEE CHECK 4421" is the bank's fee for one (blind-21:
    // Busey's "CHECKS PAID THIS PERIOD: 10 TOTAL 7,370.18" below a register holding that fee line).
    if (t.category === 'checks') cands.push(side.filter((x) => !!x.check));
    // Or against the lines naming a check that are no charge of the bank's: "OVERDRAFT ITEM FEE / ITEM
    // PAID CHECK 7733" in a register without a check-number column is the fee for a check, not one
    // (blind-30: a First Citizens-style register whose checks are "CHECK 7733" lines).
    if (t.category === 'checks') cands.push(side.filter((x) => words.checks.test(x.description) && !bankCharge(x.description) && !isNsf(x.description)));
    if (words[t.category]) {
      const w = side.filter((x) => words[t.category].test(x.description));
      cands.push(w);
      if (t.category === 'withdrawals' || t.category === 'electronic') cands.push(side.filter((x) => !words.checks.test(x.description)));
      // A service charge beside overdraft and returned-item fees the bank counts apart ("Service
      // Charge 15.00" when the period also has overdraft fees): the fee lines that are not those.
      if (t.category === 'fees') cands.push(w.filter((x) => !isNsf(x.description)));
      // The bank's own charges: lines worded with the fee word before any payee's channel ("RETURNED
      // ITEM CHARGE", "ACCOUNT ANALYSIS CHARGE"), not a payee's bill that names its fees ("ACH
      // DEBIT ADP PAYROLL FEES": the payroll company's pull; blind-17's "Service Charges*" box).
      if (t.category === 'fees') {
        const own = w.filter((x) => bankCharge(x.description));
        cands.push(own, own.filter((x) => !isNsf(x.description)));
      }
    }
    // A fee summary's line per fee type ("Fee Type | Items | Amount" over "Overdraft Item Fee 1
    // 35.00", "Wire Transfer Fee 2 50.00"): the fee lines its words describe, every word of the
    // type in the line (blind-23: Cathay's SERVICE FEE SUMMARY, whose "Overdraft Item Fee" was
    // checked only against all the fees, or the fees that are not overdraft or NSF ones).
    if (['fees', 'od', 'ri', 'nsf'].includes(t.category) && t.kind === 'debit') {
      const typeWords = feeTypeWords(t.label);
      if (typeWords.length >= 2) cands.push(side.filter((x) => typeWords.every((w) => wordsOf(x.description).has(w))));
    }
    // Withdrawals beside a separate checks total: the debits that are not checks, by column or by
    // description ("Check 2211" lines in one register).
    if (t.category === 'withdrawals') cands.push(side.filter((x) => r.sections[x.section].kind !== 'checks' && !x.check), side.filter((x) => r.sections[x.section].kind !== 'checks' && !x.check && !words.checks.test(x.description)));
    // (The bank's fee for a check, "OD ITEM FEE CHECK 4410", is no check: it stays with the other debits.)
    if (t.category === 'withdrawals') cands.push(side.filter((x) => r.sections[x.section].kind !== 'checks' && !x.check && !(words.checks.test(x.description) && !bankCharge(x.description) && !isNsf(x.description))));
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
  // The doubted fee lines a printed overdraft / returned-item fee total took (above).
  const feeCounted = new Set([...matched].filter(([t]) => ['nsf', 'od', 'ri'].includes(t.category)).flatMap(([, c]) => c.filter((x) => doubtedFees.includes(x))));
  // A summary box breaking each side down by the bank's own categories ("Deposits", "Electronic
  // Credits", "Other Credits" / "Checks Paid", "Card Purchases", "Electronic Debits", "Fees"), whose
  // lines no set of rows read from the descriptions may reproduce: the lines of a side together
  // must be the side, to the cent and in number (every line's count, when printed). Each line is
  // then an informational subset of its side, not a total to reconcile against on its own; the
  // side (and the balance equation) still bind.
  const partitioned = new Set<(typeof r.totals)[number]>();
  for (const kind of ['credit', 'debit'] as const) {
    const side = kind === 'credit' ? credits : debits;
    const lines = r.totals.filter((t) => t.kind === kind && t.section < 0 && !t.countOnly && !['nsf', 'od', 'ri'].includes(t.category) && !fits(side, t));
    // (A line printed twice, the box's "Checks Paid (5) 3,886.66" and a sentence below the register
    // "Checks in this period: 5, totaling 3,886.66": one line of the box, the one with its count.)
    const box = lines.filter((t, n) => !lines.some((o, m) => o !== t && o.group === t.group && o.category === t.category && o.cents === t.cents && ((o.count !== null && t.count === null) || (o.count === t.count && m < n))));
    // (A breakdown table's lines, "Money in by type", only together: never with another box's.)
    for (const g of new Set(box.map((t) => t.group))) {
      const group = box.filter((t) => t.group === g);
      if (group.length < 2) continue;
      const counted = group.every((t) => t.count !== null);
      // (Each line must be a sum some of the side's rows make: a "Deposits" line off by what another
      // line of the box makes up, the box still adding to its side, is a line no rows read make.)
      if (sumOf(group) === Math.abs(sumOf(side)) && (!counted || group.reduce((n, t) => n + t.count!, 0) === side.length) && group.every((t) => someRowsMake(side.map((x) => Math.abs(x.cents)), t.cents))) for (const t of group) partitioned.add(t);
    }
  }
  for (const t of unmatched) {
    // (The interest or dividends a box prints apart from its deposits line are never only a part of
    // the box: they must be the interest rows read, or a misread dividend would pass as a deposit.)
    if (partitioned.has(t) && t.category !== 'interest') continue;
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
      // A service charge (or fees) the summary prints in a cell of its own beside a debits total
      // that leaves it out ("73 CHECKS/DEBITS" beside "SERVICE CHARGE", blind-38's First
      // Interstate-style box), while a checks listing's total below restates checks the debits
      // total includes: the debits less the fee cell's rows only, to the cent and in number.
      if (!ok && t.kind === 'debit') {
        const fees = others.filter(([o]) => o.category === 'fees').flatMap(([, c]) => c);
        ok = fees.length > 0 && fits(side.filter((x) => !fees.includes(x)), t);
      }
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
  // A later closing balance taken over the first one printed: only when the first is a page's own
  // (the balance the rows above it reach, in the order printed either way). A summary's ending
  // balance that no run of the rows reaches, beside a register's "Ending Balance" row the rows do
  // reach, is two closing balances for one account: refused.
  if (closing !== r.closing) {
    const reached = new Set<number>();
    for (const list of [txns, [...txns].reverse()]) {
      let bal = r.opening;
      for (const x of list) reached.add((bal += x.cents));
    }
    if (!reached.has(r.closing)) return { ok: false, code: 'does_not_reconcile', reason: `The closing balance printed first (${money(r.closing)}) is not the closing balance the transactions reach (${money(closing)}), printed too, so the figures cannot be trusted` };
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
    out.push({ date, description: x.description, cents: x.cents, ...(feeCounted.has(x) ? { feeCounted: true as const } : {}) });
  }
  // A register printed newest first (its running balances follow only from its last row up, or,
  // without balances, its dates only go back): the transactions in the order they happened.
  const backward = bad !== null || (!txns.some((x) => x.balance !== null) && out.length > 1 && out[0].date > out[out.length - 1].date && out.every((t, n) => n === 0 || t.date <= out[n - 1].date));
  if (backward) out.reverse();
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

/**
 * Whether some of `amounts` (cents, positive) add up to `target` exactly: the smaller of the target and
 * what the others leave is searched, as a bitset of reachable sums. Past a search of about 10^8 steps
 * (a target above $100,000 beside hundreds of rows) it cannot tell and says yes: the line is then bound
 * only with its box, as before.
 */
export function someRowsMake(amounts: number[], target: number): boolean {
  const total = amounts.reduce((a, b) => a + b, 0);
  if (target < 0 || target > total) return false;
  const t = Math.min(target, total - target);
  if (t === 0) return true;
  const words = (t >>> 5) + 1;
  if (t > 10_000_000 || words * amounts.length > 100_000_000 / 32) return true;
  const reach = new Uint32Array(words);
  reach[0] = 1;
  for (const a of amounts) {
    if (a <= 0 || a > t) continue;
    const ws = a >>> 5;
    const bs = a & 31;
    for (let w = words - 1; w >= ws; w--) {
      let v = reach[w - ws] << bs;
      if (bs && w - ws - 1 >= 0) v |= reach[w - ws - 1] >>> (32 - bs);
      reach[w] |= v;
    }
    if ((reach[t >>> 5] >>> (t & 31)) & 1) return true;
  }
  return ((reach[t >>> 5] >>> (t & 31)) & 1) === 1;
}

/** End-of-day balance of every calendar day of the period (carried over days without activity). */
export function endOfDay(txns: Txn[], period: { start: string; end: string }, opening: number): Map<string, number> {
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

/**
 * The rows of a recap: a later section (not a checks list, handled apart) every row of which
 * repeats, one for one, a row of an earlier section with the same date, sign, amount and
 * description ("FEES CHARGED THIS PERIOD (INCLUDED IN CURRENT BALANCE)" under a register that
 * already holds those fee lines). Each is counted once, in the earlier section; the balance
 * equation and the running balances still bind the reading. A section with any row of its own
 * is no recap, and none of its rows is dropped.
 */
export function recapRows<T extends { md: [number, number, number | null]; cents: number; description: string; section: number }>(rows: T[], sections: Array<{ kind: string }>): Set<T> {
  const out = new Set<T>();
  const same = (a: T, b: T) => a.cents === b.cents && a.md[0] === b.md[0] && a.md[1] === b.md[1] && (a.md[2] === null || b.md[2] === null || a.md[2] === b.md[2]) && a.description.replace(/\s+/g, ' ').trim().toLowerCase() === b.description.replace(/\s+/g, ' ').trim().toLowerCase();
  for (const s of new Set(rows.map((x) => x.section))) {
    if (sections[s]?.kind === 'checks') continue;
    const own = rows.filter((x) => x.section === s);
    const used = new Set<T>();
    const all = own.every((x) => {
      const y = rows.find((y) => y.section < s && !out.has(y) && !used.has(y) && same(x, y));
      if (y) used.add(y);
      return !!y;
    });
    if (all && own.length) for (const x of own) out.add(x);
  }
  return out;
}
