import type { PageItems } from './extract';
import { cellTexts } from './lines';
import { DATE_NOY, DATE_Y } from './period';
import type { Line, Money, SectionKind, Tok } from './reading-types';
import { tokens } from './tokens';

// Sections and summary boxes: headings and what they total, labels of balances and totals, summary
// label/amount pairs and sentences, boxes beside the summary that are not read.

export interface Heading {
  kind: SectionKind;
  category: string;
}
/** A section heading's meaning, from its words. */
/**
 * Letter-spaced words read as words: a line printer's heading set one letter a column apart
 * between rules of dashes ("- - -  C H E C K S  P A I D  - - -", words two columns apart). A cell of
 * three letters or more, each alone, is the word they spell; anything else is left as it is.
 */
export function unspaced(text: string): string {
  return text
    .split(/(\s{2,})/)
    .map((c) => (/^(?:[A-Za-z] ){2,}[A-Za-z]$/.test(c) ? c.replace(/ /g, '') : c))
    .join('');
}

export function headingOf(text: string): Heading | null {
  const t = unspaced(text).toLowerCase().replace(/\(?continued\)?|\bcont(\.|'d)?\b/g, ' ').replace(/\([^)]*\)?/g, ' ').replace(/[^a-z&/ ]+/g, ' ').replace(/\bcredit unions?\b/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t) return null;
  // A box of items the statement says it leaves out ("Pending transactions — not included in this
  // statement or its balances", "Items not yet posted"): never this period's activity, however
  // long its title runs.
  if (t.split(' ').length <= 16 && /^(pending|scheduled|held|on hold|memo posted|unposted)\b.*\b(transactions?|items?|activity|deposits?|debits?|credits?|withdrawals?|payments?)\b.*\bnot (yet )?(included|reflected|posted|shown|part)\b|^(items?|transactions?|activity) not (yet )?(included|reflected|posted)\b/.test(t)) return { kind: 'ignore', category: 'other' };
  // A bare "Pending" title with its note beside it ("Pending  Not yet posted. Not included in the
  // summary, balances or totals"): the same box, its items not named.
  if (t.split(' ').length <= 16 && /^(pending|unposted|scheduled|on hold) not (yet )?(posted|included|reflected|shown|part)\b/.test(t)) return { kind: 'ignore', category: 'other' };
  if (t.split(' ').length > 9) return null;
  // A sentence is no heading: a legend of the page's signs ("AMOUNTS FOLLOWED BY - ARE DEBITS",
  // "Items marked * are checks out of sequence"), printed in a footer under the rows, names a side
  // but opens no section (blind-26: a credit union's footer read as a debits heading signed the
  // next page's credits as debits).
  // Nor a cross-reference to another part of the statement ("2 checks paid - see Checks Paid" under
  // a day's rows in a day-grouped register, its checks listed in a register of their own): it names
  // that part, opens none (blind-45: printed at the top of a page, before the first day heading, it
  // was read as a checks heading and signed the page's deposits as withdrawals).
  if (/\b(are|is|were|was|denotes?|indicates?|means|followed by|preceded by|marked|see|refer to)\b/.test(t)) return null;
  // A summary's column header naming both sides and the balances ("Account  Previous Balance
  // Deposits  Withdrawals  Ending Balance"): neither a credit nor a debit section.
  if (/\b(deposits?|credits?|additions?)\b/.test(t) && /\b(withdrawals?|debits?|subtractions?|deductions?|checks)\b/.test(t) && /\bbalances?\b/.test(t)) return { kind: 'summary', category: 'summary' };
  // A loan table's column header in a combined statement's summary ("Loan Accounts  Loan ID  Rate
  // Payments  Balance"): a rate and a balance beside the payments are a summary's columns, no debits
  // section (blind-48: read as one, it signed the checking share's rows below it as debits).
  if (/\b(rate|apr)\b/.test(t) && /\bbalances?\b/.test(t) && /\b(payments?|principal|interest|loans?)\b/.test(t)) return { kind: 'summary', category: 'summary' };
  if (/^(daily|ending daily|daily ending|daily ledger|daily account|daily collected|end of day)\b.*\bbalances?\b|^balance summary$|^daily balance summary$|^balances by date$|^daily balances?$/.test(t)) return { kind: 'daily', category: 'daily' };
  if (/^(overdraft|total overdraft|returned item fees?|interest)\b.*\b(fees|summary|year)/.test(t)) return { kind: 'ignore', category: 'other' };
  // A box's title over its columns of this period's and the year's figures ("YEAR-TO-DATE DIVIDENDS
  // FEES CHARGED  PERIOD  YTD", "Fee Summary  This Period  Year-to-Date"): amounts by period and
  // year, a summary, no section of transactions (blind-53: a credit union's boxes over its register
  // read as a fees heading signed every deposit below as a debit).
  if (/\b(period|month)\b/.test(t) && /\b(ytd|year to date)\b/.test(t)) return { kind: 'summary', category: 'summary' };
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
 * A section's name, for telling one section from another: its heading without "(continued)" (or
 * "continued from previous page", "cont'd") and without the count it prints ("(5 items)", "Items:
 * 5"). Page 2's "DEPOSITS (continued)" is page 1's "DEPOSITS (5 items)".
 */
export function sectionName(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/\(?\b(?:continued|cont'd|cont\.)(?:\s+(?:from|on)\s+(?:the\s+)?(?:previous|prior|preceding|last|next)?\s*page(?:\s+\d+)?)?\)?/g, ' ')
    .replace(/\(\s*\d{1,4}\s+(?:items?|transactions?|entries)\s*\)|(?:^|\s)\d{1,4}\s+(?:items?|transactions?|entries)\b|(?:\bno\.?|\bnumber of|#)\s*(?:of\s+)?(?:items?|checks?|transactions?|entries)\s*:?\s*\d{1,4}\b|\b(?:items?|transactions?|entries)\s*:\s*\d{1,4}\b/g, ' ')
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

/** What a label or heading totals: deposits, checks, fees, electronic, card, withdrawals, or null. */
export function categoryOf(t: string): string | null {
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
  const od = /\b(overdraft|overdrawn|od|paid items?|courtesy pay|privilege pay)\b/.test(t);
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
export function labelOf(raw: string): Label | null {
  const t = raw.toLowerCase().replace(/[^a-z&/' ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t) return null;
  // A fee box's overdraft / returned-item fee totals for this period ("Total Overdraft Fees",
  // "Overdraft and returned item fees", "TOTAL OVERDRAFT/NSF FEES"): checked against those fee
  // lines. Year-to-date figures are not this period's and are never checked or counted.
  // A rate, not a total: a fee box's "Fee per item: $34.00" beside its item counts ("Overdraft
  // items paid: 3 Items returned unpaid: 1 Fee per item: $34.00") is the price of one item.
  if (/\b(per item|each item|per occurrence|fee each)\b/.test(t)) return { role: 'ignore' };
  // A fee box's refunds of fees ("Fee refunds", "Overdraft fee reversals", "Refunded fees"): money
  // given back, a credit total checked against the credits that refund or reverse a fee.
  if (/\b(fees?|charges?)\b/.test(t) && /\b(refunds?|refunded|reversals?|reversed|rebates?)\b/.test(t)) return /\b(year to date|ytd|year)\b/.test(t) ? { role: 'ignore' } : { role: 'total', kind: 'credit', category: 'fee_refunds' };
  const nsfFees = nsfFeeCategory(t);
  if (nsfFees) return /\b(year to date|ytd|year)\b/.test(t) ? { role: 'ignore' } : { role: 'total', kind: 'debit', category: nsfFees };
  // The bank's interest credited this period, printed as a line of its own ("Interest Paid",
  // "Interest earned this period"): a credit total of the interest rows, which the summary's
  // deposits line beside it leaves out (blind-27: "Deposits and Credits" without the interest paid).
  // A credit union's dividends the same way: its summary's DIVIDENDS cell beside a DEPOSITS cell
  // that leaves them out, "Dividends Earned" (blind-55: a Wright-Patt-style share draft summary).
  if (/^(total )?interest (paid|earned|credited)( this (period|statement|cycle|month))?$/.test(t) || /^(total )?(dividends|dividends? (paid|earned|credited))( this (period|statement|cycle|month))?$/.test(t)) return { role: 'total', kind: 'credit', category: 'interest' };
  // Accounts' balances added up, a relationship summary's "Total Deposit Balances" (blind-42: the
  // checking and savings accounts' ending balances): no total of transactions ("deposit" names the
  // accounts' kind there, not credits).
  if (/\bbalances\b/.test(t) && !/\b(credits?|withdrawals?|debits?|checks?|fees?|additions?|subtractions?|payments?)\b/.test(t)) return { role: 'ignore' };
  if (/\b(average|avg|minimum|min|maximum|low|high|collected|available|year to date|ytd|interest|apy|yield|annual|overdraft limit|hold|pending|courtesy pay|privilege pay|nsf)\b/.test(t)) return { role: 'ignore' };
  // A treasury statement's ledger balances name no "balance": "Opening Ledger", "Closing Ledger".
  if (/\b(beginning|opening|starting|start|previous|prior|last statement s?|begin)\b.*\b(balance|ledger)\b|^balance (forward|last statement|brought forward|at start)|^balance on [a-z]* ?$|^balance as of$/.test(t)) return { role: 'opening' };
  if (/\b(ending|closing|new|current|end|this statement s?)\b.*\b(balance|ledger)\b|^balance this statement|^balance at end|^statement balance$/.test(t)) return { role: 'closing' };
  if (/\btotal (overdraft|returned item)/.test(t)) return { role: 'ignore' };
  const cat = categoryOf(t);
  if (!cat) return null;
  return { role: 'total', kind: cat === 'deposits' ? 'credit' : 'debit', category: cat };
}

export const isBalanceLabel = (t: string) => {
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
export function pairsOf(toks: Tok[]): Array<{ label: string; money: Money; count: number | null }> {
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
  // The amount first, its "Total ..." label after it ("119,514.41  Total Credits: 24 items", a
  // treasury statement's total line under its amount column): the words after are its label, a
  // number before "items" its count.
  const moneys = toks.filter((t) => t.k === 'money');
  if (!out.length && moneys.length === 1 && toks[0] === moneys[0] && toks.length > 1 && toks.slice(1).every((t) => t.k === 'text' || t.k === 'int')) {
    const rest = toks.slice(1);
    const n = rest.findIndex((t, k) => t.k === 'int' && /^(items?|transactions?|entries)\.?$/i.test(rest[k + 1]?.t ?? ''));
    const words = rest.filter((t, k) => t.k === 'text' && (n < 0 || k < n)).map((t) => t.t.replace(/:$/, ''));
    // (Only a label that says it is a total: an undated row printed amount first, "500.00  ACH DEPOSIT
    // SQUARE" under a day's first row, is that day's row, never a total.)
    if (words.length && /^(sub ?)?totals?$/i.test(words[0]) && (n < 0 || n + 2 === rest.length) && rest.filter((t) => t.k === 'int').length === (n < 0 ? 0 : 1)) {
      out.push({ label: untitled(words.join(' ')), money: (moneys[0] as Extract<Tok, { k: 'money' }>).m, count: n < 0 ? null : (rest[n] as Extract<Tok, { k: 'int' }>).n });
    }
  }
  return out;
}

export const THERE_ARE_RE = /there\s+(?:are|were|is|was)\s+(\d+)\s+(.+?)\s+totaling\s+\$?([\d,]+\.\d{2})/i;
/**
 * A summary figure in a sentence: "We added 43 deposits and credits totaling $43,806.70", "You had
 * 12 withdrawals, checks and fees totaling $9,001.22", "Deposits and credits for a total of $X".
 * The words before the amount name what it totals (and the count, when printed).
 */
export const SENTENCE_TOTAL_RE = /^(.*?)\s*\b(?:totaling|totalling|totaled|totalled|for a total of|amounting to|in the amount of)\s*:?\s*(\(?[-+]?\$?\s?[\d,]+\.\d{2}\)?-?)(?=[\s.;,)]|$)/i;
export const SENTENCE_SUBJECT_RE = /^(?:.*?\b)?(?:(?:we|you|there)\s+(?:have\s+)?(?:had|added|subtracted|made|posted|received|paid|deducted|withdrew|deposited|credited|debited|are|were|is|was|processed)\s+)?(?:a\s+total\s+of\s+)?(?:(\d+)\s+)?([a-z][a-z ,&/'-]*?)\s*$/i;
/** "Your balance on 09/01/25 was $1,262.14", "Beginning balance on Sep 1 ... $X", "ending balance as of 10/31: $X". */
const DATE_ANY = `(?:${DATE_Y}|${DATE_NOY})`;
/** The same with the amount first: "Your ending balance was $3,045.23 on 09/30/25". */
export const BALANCE_WAS_RE = new RegExp(`\\b((?:[a-z]+\\s+){0,3})balance\\s+(?:was|is|of|:)\\s*(\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?(?:\\s?(?:CR|DR))?)\\s+(?:on|as of)\\s+(${DATE_ANY})(?=[\\s.;,]|$)`, 'i');
/** "Your balance went from $662.10 at the start of Jan 5, 2026 to $6,518.31 at the end of Feb 4, 2026" (an online bank's summary). */
const MONEY_SRC = `\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?`;
export const BALANCE_WENT_RE = new RegExp(`\\bbalance\\s+(?:went|moved|changed|grew|rose|fell|dropped|increased|decreased)\\s+from\\s+(${MONEY_SRC})\\s+(?:at the (?:start|beginning) of|on|as of)\\s+(${DATE_ANY})\\s*,?\\s+to\\s+(${MONEY_SRC})\\s+(?:at the (?:end|close) of|on|as of)\\s+(${DATE_ANY})(?=[\\s.;,]|$)`, 'i');
/** "You received $46,309.95 in 39 transactions and sent $40,453.74 in 44 transactions." */
export const RECEIVED_SENT_RE = new RegExp(`\\byou\\s+received\\s+(${MONEY_SRC})\\s+in\\s+(\\d+)\\s+(?:transactions?|deposits?|credits?|payments?)\\s*,?\\s+and\\s+(?:you\\s+)?(?:sent|spent|paid out)\\s+(${MONEY_SRC})\\s+in\\s+(\\d+)\\s+(?:transactions?|withdrawals?|debits?|payments?)\\b`, 'i');
export const BALANCE_ON_RE = new RegExp(`\\b((?:[a-z]+\\s+){0,3})balance\\s+(?:on|as of|at the close of|at close of business on|at the end of)\\s+(${DATE_ANY})\\s*(?:was|is|of|were|:|=)?\\s*(\\(?[-+]?\\$?\\s?[-+]?[\\d,]+\\.\\d{2}\\)?-?(?:\\s?(?:CR|DR))?)(?=[\\s.;,]|$)`, 'i');

/**
 * A box beside the account summary whose figures are not read ("OVERDRAFT / RETURN ITEM FEES" with
 * this period and year to date, right of "Beginning Balance ... Ending Balance"): its heading would
 * end the summary's reading at the box, so the box's words are taken out of the lines it shares
 * with the summary. A box is a heading of an unread kind, alone on its line right of the middle,
 * with text left of it just below; it runs while its lines follow each other closely.
 */
export function withoutSideBoxes(lines: Line[], pages: PageItems[]): Line[] {
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

/**
 * A summary box set at the right of the page beside other text (the statement's title, the period,
 * a logo on the left; blind-34: "Starting balance / Deposits 17 / Withdrawals 20 / Ending balance"
 * in a grey table at the top right): each box line shares its baseline with the text beside it, so
 * read as one line the title's words would run into the first label and a period's date would
 * start the line. Lines whose right part, starting at one x right of the page's first third, is a
 * balance's or total's label (with a count) and one amount, three or more in a run (lines wholly
 * left of the box may sit between), an opening and a closing balance among them, and whose left
 * part holds no amount: the box's lines are read on their own, as a block where the box begins,
 * and the text beside them after it. Anything else is left as it is.
 */
export function summaryBeside(lines: Line[], pages: PageItems[]): Line[] {
  type Part = { at: number; k: number; x: number; role: string };
  /** The box part of a line: the words from a cell start on that read "label [count] amount". */
  const partOf = (l: Line, at: number): Part | null => {
    const width = pages[l.page]?.width ?? 612;
    for (let k = 0; k < l.words.length; k++) {
      const w = l.words[k];
      if (w.x0 < width / 3 || (k > 0 && w.cell === l.words[k - 1].cell)) continue;
      const left = l.words.slice(0, k);
      if (left.length && left[left.length - 1].x1 > w.x0 - 8) return null;
      if (tokens(left).some((t) => t.k === 'money')) return null;
      const tk = tokens(l.words.slice(k));
      const n = tk.length;
      if (n < 2 || tk[n - 1].k !== 'money') return null;
      const words = tk.slice(0, n - 1);
      if (words[words.length - 1].k === 'int') words.pop();
      if (!words.length || !words.every((t) => t.k === 'text')) return null;
      const label = labelOf(words.map((t) => t.t).join(' '));
      if (!label || label.role === 'ignore') return null;
      return { at, k, x: w.x0, role: label.role };
    }
    return null;
  };
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = partOf(lines[i], i);
    if (!first) {
      out.push(lines[i]);
      continue;
    }
    const run: Part[] = [first];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j];
      const prev = lines[run[run.length - 1].at];
      if (l.page !== prev.page || l.y - prev.y > Math.max(prev.size, 8) * 2.4) break;
      const p = partOf(l, j);
      if (p && Math.abs(p.x - first.x) <= 3) run.push(p);
      else if (l.words.some((w) => w.x1 > first.x - 4)) break;
    }
    const end = run[run.length - 1].at;
    const roles = new Set(run.map((p) => p.role));
    if (run.length < 3 || !roles.has('opening') || !roles.has('closing') || run.every((p) => p.k === 0)) {
      out.push(lines[i]);
      continue;
    }
    const part = (l: Line, words: Line['words']): Line => ({ ...l, words, text: cellTexts(words).join('  ') });
    const beside: Line[] = [];
    for (let m = i; m <= end; m++) {
      const p = run.find((x) => x.at === m);
      if (!p) {
        beside.push(lines[m]);
        continue;
      }
      out.push(part(lines[m], lines[m].words.slice(p.k)));
      if (p.k > 0) beside.push(part(lines[m], lines[m].words.slice(0, p.k)));
    }
    out.push(...beside);
    i = end;
  }
  return out;
}
