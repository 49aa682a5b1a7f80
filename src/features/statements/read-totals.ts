import { accountNamed } from './accounts';
import { type Col, headerOf } from './columns';
import { cellsOf, ivDist } from './lines';
import type { AccountRef, Line, Money, Reading, Section, SectionKind, Tok } from './reading-types';
import { BALANCE_ON_RE, BALANCE_WAS_RE, BALANCE_WENT_RE, categoriesOf, categoryOf, type Heading, headingOf, isBalanceLabel, labelOf, pairsOf, RECEIVED_SENT_RE, SENTENCE_SUBJECT_RE, SENTENCE_TOTAL_RE, THERE_ARE_RE } from './sections';
import { parseMoney, signedCents, tokens } from './tokens';

// The lines of a statement that print totals and balances rather than transactions, read for the
// statement reader's loop (./read.ts): "There are N ... totaling $X", balances and totals written
// in sentences, summary labels over their amounts, balances under columns naming accounts, and
// label/amount pairs (a summary, a section's total, a balance). Each function reads the line at
// `l.i` (and the lines it consumes) and returns the index of the last line it read, or null when
// the line is none of its kind; the reader then forgets the row above (no description runs on).

/** What the reader's loop shares with these functions: its reading so far and how it records totals. */
export interface ReadState {
  r: Reading;
  lines: Line[];
  toks: Tok[][];
  sections: Section[];
  /** The current section (live: newSection moves it). */
  readonly sec: number;
  dated: Array<{ md: [number, number, number | null]; cents: number; role: 'opening' | 'closing' | null }>;
  addTotal: (label: string, money: Money, count: number | null, inSection: boolean, of?: AccountRef | null) => void;
  newSection: (h: Heading, heading: string) => void;
}
/** The line being read. */
export interface LineAt {
  i: number;
  line: Line;
  tk: Tok[];
  money: Tok[];
  text: string;
  first: Tok | undefined;
  kind: SectionKind;
  /** A summary's columns naming an account each, over this line. */
  accountCols: { page: number; y: number; cols: Array<{ x: number; account: AccountRef }> } | null;
}

/** "There are 12 deposits totaling $45,000.00": a section's total, opening or closing it. */
export function thereAreLine(s: ReadState, l: LineAt): number | null {
  const { r, sections, newSection } = s;
  const { i, text } = l;
  // "There are 12 deposits totaling $45,000.00"
  const there = THERE_ARE_RE.exec(text);
  if (!there) return null;
  {
    // A sub-section's heading printed before it on the line ("ACH Additions  There are 27
    // additions totaling 48,738.22") opens that sub-section.
    const before = text.slice(0, there.index).trim();
    const hb = before ? headingOf(before) : null;
    const h = headingOf(there[2]);
    if (hb) newSection(hb, before);
    // Before its rows it opens their section; after them (the same kind) it closes it.
    else if (h && (sections[s.sec].kind !== h.kind || sections[s.sec].category !== h.category)) newSection(h, there[2]);
    const cat = categoryOf(there[2]);
    if (cat) r.totals.push({ label: there[0], kind: cat === 'deposits' ? 'credit' : 'debit', category: cat, cents: parseMoney(there[3])!.cents, count: Number(there[1]), section: s.sec });
    return i;
  }

  return null;
}

/** Balances and totals written in sentences (never a transaction row, which starts with its date). */
export function sentenceLine(s: ReadState, l: LineAt): number | null {
  const { r, lines, toks, dated, addTotal } = s;
  const { i, line, money, text, first } = l;
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
        return wrapped ? i + 1 : i;
      }
    }
    const rs = RECEIVED_SENT_RE.exec(stext);
    const [rm, sm2] = rs ? [parseMoney(rs[1].replace(/\s+/g, '')), parseMoney(rs[3].replace(/\s+/g, ''))] : [null, null];
    if (rs && rm && sm2) {
      r.totals.push({ label: 'Received', kind: 'credit', category: 'deposits', cents: rm.cents, count: Number(rs[2]), section: -1 }, { label: 'Sent', kind: 'debit', category: 'withdrawals', cents: sm2.cents, count: Number(rs[4]), section: -1 });
      return wrapped ? i + 1 : i;
    }
    const was = BALANCE_ON_RE.test(stext) ? null : BALANCE_WAS_RE.exec(stext);
    const bal = was ? ([was[0], was[1], was[3], was[2]] as unknown as RegExpExecArray) : BALANCE_ON_RE.exec(stext);
    const bmd = bal ? tokens(bal[2].replace(/,/g, ' ').trim().split(/\s+/).map((t, n) => ({ x0: n, x1: n, t, cell: 0 })))[0] : null;
    const bm = bal ? parseMoney(bal[3].replace(/\s+/g, '')) : null;
    if (bal && bmd?.k === 'date' && bm) {
      const words = bal[1].toLowerCase();
      if (/\b(average|avg|minimum|min|lowest|low|highest|high|maximum|available|collected|projected|pending)\b/.test(words)) {
        return wrapped ? i + 1 : i;
      }
      // A fintech's sub-account beside the account ("Tax Bucket balance on May 31, 2026: $1,240.00 (a
      // separate savings bucket, not included above)"): another account's balance, never this one's.
      if (/\b(bucket|vault|pocket|envelope|goal|sub-?account)s?\b/.test(words) || /\b(not (included|part of|counted)|separate (savings|account|bucket))\b/i.test(stext)) {
        return wrapped ? i + 1 : i;
      }
      const role = /\b(beginning|opening|starting|previous|prior|begin)\b/.test(words) ? 'opening' : /\b(ending|closing|new|end)\b/.test(words) ? 'closing' : null;
      if (role) addTotal(role === 'opening' ? `Beginning balance ${bal[2]}` : `Ending balance ${bal[2]}`, bm, null, false);
      dated.push({ md: bmd.md, cents: signedCents(bm), role });
      return wrapped ? i + 1 : i;
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
        return wrapped ? i + 1 : i;
      }
    }
    // "Overdraft and returned item fees this period: 13 items": a count of those fee lines.
    const nc = !money.length ? /^(.*\b(?:fees|charges)\b[^:]*?):?\s+(\d+)\s+items?\.?\s*$/i.exec(text) : null;
    const ncat = nc ? labelOf(nc[1]) : null;
    if (nc && ncat?.role === 'total' && ['nsf', 'od', 'ri'].includes(ncat.category)) {
      r.totals.push({ label: nc[0], kind: 'debit', category: ncat.category, cents: 0, count: Number(nc[2]), countOnly: true, section: -1 });
      return wrapped ? i + 1 : i;
    }
  }
  return null;
}

/** Summary labels on one line (possibly wrapped onto a second) and their amounts below them. */
export function labelsOverAmounts(s: ReadState, l: LineAt): number | null {
  const { lines, toks, addTotal } = s;
  const { i, line, money } = l;
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
    // A summary of several accounts, one row each, the rows naming their accounts (blind-35: a
    // credit union's "Account | Previous Balance | Deposits | Withdrawals | Ending Balance" over a
    // savings share, a checking share and a Total row, beside the member's address): no row is the
    // whole of any one account's reading here; each account's own register prints its balances and
    // totals. Read past it.
    if (cells.filter((c) => isLabel(c.t)).length >= 2 && !extra.length) {
      const end = accountsTableEnd(s, j);
      if (end !== null) return end;
    }
    // A table of several accounts, one row each ("Account | Previous Balance | Deposits | ... |
    // Ending Balance" over a savings row and a checking row, a relationship summary): no row is
    // plainly this account's; each account's own section prints its balances. Read past it.
    if (oneRow && cells.filter((c) => isLabel(c.t)).length >= 2 && extra.length <= 1 && lines[j].page === line.page) {
      let k = j + 1;
      while (k < lines.length && lines[k].page === line.page && lines[k].y - lines[k - 1].y <= lines[k - 1].size * 2.4 && underNonLabel(toks[k])) k++;
      if (k > j + 1) {
        return k - 1;
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
        const before = s.r.totals.length;
        const used = new Set<string>();
        const nearest = (t: Tok) => labels.reduce((b, c) => (ivDist(c.x0, c.x1, t.x0, t.x1) - ivDist(b.x0, b.x1, t.x0, t.x1) || Math.abs((c.x0 + c.x1) / 2 - (t.x0 + t.x1) / 2) - Math.abs((b.x0 + b.x1) / 2 - (t.x0 + t.x1) / 2)) < 0 ? c : b);
        // A row of boxes, each label at its box's left and its amount at its right (blind-28: "Previous
        // Balance | Deposits/Credits (20) | ..."): an amount may lie nearer the next box's label. One
        // amount for each label, ending right of its label's start, and the nearest giving two to one
        // label: each box's amount is the one of its rank.
        const amounts = below.filter((t) => t.k === 'money');
        const byRank = amounts.length === labels.length && new Set(amounts.map(nearest)).size < labels.length && amounts.every((t, k) => t.x1 > labels[k].x0 && (k + 1 === labels.length || t.x1 <= labels[k + 1].x0 + (labels[k + 1].x1 - labels[k + 1].x0)));
        for (const t of below) {
          if (t.k !== 'money') continue;
          const cell = byRank ? labels[amounts.indexOf(t)] : nearest(t);
          // A balance labelled by its date alone ("Balance on Jun 01 | Money in (36) | Money out (30) |
          // Balance on Jun 30", a fintech's summary cells): the balance on that day, opening or closing
          // by its date in the period as a sentence's "balance on <date>" is (accounts.ts
          // datedBalances), never an opening because the words say "balance on" (blind-46: both
          // read as the opening, the second dropped as another account's, no closing).
          const on = DATED_BALANCE_CELL.exec(cell.t.trim());
          const md = on ? dateOfWords(on[1]) : null;
          if (md) {
            const key = `${md.join('-')}`;
            if (used.has(key)) continue;
            used.add(key);
            s.dated.push({ md, cents: signedCents(t.m), role: null });
            continue;
          }
          // Several accounts side by side ("Deposits/Credits (30)" for checking, "Deposits/Credits
          // (3)" for savings): the first of a label is this account's.
          const key = cell.t.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
          if (used.has(key)) continue;
          used.add(key);
          // (Its count in parentheses, "Deposits/Credits (20)", or before the words, "73 CHECKS/DEBITS".)
          const count = /\((\d+)\)/.exec(cell.t) ?? /^(\d{1,4})\s+(?=(?:deposits?|credits?|checks?|debits?|withdrawals?)\b)/i.exec(cell.t.trim());
          // (The account the row names, when it names one: "Business Savings 5678" is the savings'.)
          addTotal(cell.t, t.m, count ? Number(count[1]) : null, false, accountNamed(cell.t) ?? (oneRow ? accountNamed(below.filter((x) => x.k !== 'money').map((x) => x.t).join(' ')) : null));
        }
        // A cell of its own counting a side ("Total Credits | # Credits | Total Debits | # Debits"
        // over "119,514.41 | 24 | 81,531.50 | 53"): the number under it is that side's total's count.
        const added = s.r.totals.slice(before);
        for (const t of below) {
          if (t.k !== 'int') continue;
          const cx = (t.x0 + t.x1) / 2;
          const cell = labels.reduce((b, c) => (ivDist(c.x0, c.x1, t.x0, t.x1) - ivDist(b.x0, b.x1, t.x0, t.x1) || Math.abs((c.x0 + c.x1) / 2 - cx) - Math.abs((b.x0 + b.x1) / 2 - cx)) < 0 ? c : b);
          const what = COUNT_CELL.exec(cell.t.trim());
          const side = what ? labelOf(what[1] ?? what[2]) : null;
          if (!side || side.role !== 'total') continue;
          const of = added.filter((x) => x.kind === side.kind && x.count === null && !x.countOnly);
          if (of.length === 1) of[0].count = t.n;
        }
        return j;
      }
    }
  }

  return null;
}

/**
 * The last line of a table of several accounts starting at line `j`, or null: consecutive undated
 * lines of the same page, each with two amounts or more, the words before the amounts naming an
 * account ("Primary Share 00", "Business Checking 11") or a total ("Total"), two accounts or more
 * named. A single account's row is no such table.
 */
export function accountsTableEnd(s: Pick<ReadState, 'lines' | 'toks'>, j: number): number | null {
  const { lines, toks } = s;
  let k = j;
  let named = 0;
  let last: number | null = null;
  while (k < lines.length && lines[k].page === lines[j].page && (k === j || lines[k].y - lines[k - 1].y <= lines[k - 1].size * 2.4)) {
    const tk = toks[k];
    const first = tk.findIndex((t) => t.k === 'money');
    if (first <= 0 || tk.filter((t) => t.k === 'money').length < 2 || tk.some((t) => t.k === 'date')) break;
    if (tk.slice(first).some((t) => t.k !== 'money')) break;
    const name = tk.slice(0, first).map((t) => t.t).join(' ');
    if (accountNamed(name)) named++;
    else if (!/^(.*\s)?(grand )?totals?:?$/i.test(name.trim())) break;
    last = k;
    k++;
  }
  return named >= 2 ? last : null;
}

/** A summary cell naming a balance by its date only: "Balance on Jun 01", "Balance as of 06/30/2026". */
const DATED_BALANCE_CELL = /^balance\s+(?:on|as of)\s+(.+?)\s*:?$/i;
/** The month and day (and year) of words that are one date and nothing else, or null. */
function dateOfWords(words: string): [number, number, number | null] | null {
  const tk = tokens(words.replace(/,/g, ' ').trim().split(/\s+/).map((t, n) => ({ x0: n, x1: n, t, cell: 0 })));
  return tk.length === 1 && tk[0].k === 'date' ? tk[0].md : null;
}

/** A summary cell that counts a side: "# Credits", "No. of Debits", "Number of Deposits", "Credits Count". */
const COUNT_CELL = /^(?:#|no\.?|number(?: of)?|count(?: of)?)\s*(?:of\s+)?([a-z][a-z /&]*?)$|^([a-z][a-z /&]*?)\s+(?:count|#)$/i;

/** A balance line under columns naming an account each. */
export function accountColumnsLine(s: ReadState, l: LineAt): number | null {
  const { addTotal } = s;
  const { i, tk, money, first, accountCols } = l;
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
    return i;
  }
  return null;
}

/** Label and amount pairs on a line without a date: a summary, a section's total, a balance; a page's own totals are skipped. */
export function totalsLine(s: ReadState, l: LineAt): number | null {
  const { r, lines, toks, sections, addTotal, newSection } = s;
  const { i, line, money, text, first, kind } = l;
  let { tk } = l;
  // In a summary, a balance dated before its label ("04/01/2026  Beginning Balance  $18,000.00",
  // blind-28): the balance on that day, as "Beginning balance on 04/01" is; never a row.
  const datedBalance = kind === 'summary' && first?.k === 'date' && tk[1]?.k === 'text' && isBalanceLabel(tk.slice(1, tk.findIndex((t) => t.k === 'money')).map((t) => t.t).join(' '));
  if (datedBalance) tk = tk.slice(1);
  if (!money.length || (first && first.k === 'date' && !datedBalance)) return null;
  // A page's own totals and the balance carried to the next page ("Page totals: Credits x CR
  // Debits y DR Carried forward z"): neither the statement's totals nor a transaction.
  // ("Total Debits/Credits this page 21,282.49 16,839.27" is one too.)
  if (/^(page (sub)?totals?|totals? (for |on )?(this )?page)\b/i.test(text) || /^(sub ?)?totals?\b[^\d]{0,40}?\b(this|per|on this|for this) page\b/i.test(text)) {
    // One amount under a section of one side ("Subtotal this page  3,000.00" closing page 1's part
    // of "DEPOSITS"): that page's rows of the section, checked against them only, never the
    // section's rows on every page (those the section's own total counts).
    const cur = sections[s.sec];
    if (money.length === 1 && (cur.kind === 'credit' || cur.kind === 'debit' || cur.kind === 'checks') && !/\b(carried|forward|brought|balance)\b/i.test(text)) {
      r.totals.push({ label: tk.filter((t) => t.k === 'text').map((t) => t.t).join(' '), kind: cur.kind === 'credit' ? 'credit' : 'debit', category: cur.category, cents: (money[0] as Extract<Tok, { k: 'money' }>).m.cents, count: null, section: s.sec, page: line.page });
    }
    return i;
  }
  // A price quoted in a notice or a fee schedule ("INCOMING WIRE FEE REMAINS $15.00 PER WIRE.",
  // "Stop payments $30.00 each"): a rate, never a total of this period's lines (blind-30).
  const rates = new Set(tk.flatMap((t, n) => (t.k === 'money' && tk[n + 1]?.k === 'text' && /^(per|each)[.,;]?$/i.test(tk[n + 1].t) ? [t.m] : [])));
  if (rates.size && rates.size === money.length) return i;
  const pairs = pairsOf(tk).filter((p) => !rates.has(p.money));
  // "Subtotal: 40,587.05": the current section's total.
  const cur = sections[s.sec];
  if (pairs.length === 1 && /^(sub ?total|total)\s*:?$/i.test(pairs[0].label.trim()) && (cur.kind === 'credit' || cur.kind === 'debit' || cur.kind === 'checks')) {
    r.totals.push({ label: `${pairs[0].label} ${cur.heading}`, kind: cur.kind === 'credit' ? 'credit' : 'debit', category: cur.category, cents: pairs[0].money.cents, count: null, section: s.sec });
    return i;
  }
  // One line totalling both sides of a register, its label naming each side in turn (with its count)
  // and its two amounts under the register's columns in that order ("Total additions (20) and
  // subtractions (58)  48,271.74  (95,124.39)", "Totals: credits and debits  9,000.00  7,500.00"):
  // each side's own total, never one total of both (nor a heading of the rows below it).
  // (The columns of the register above it: the nearest header row before it.)
  const columnsAbove = () => {
    for (let k = i - 1; k >= 0 && lines[k].page >= line.page - 1; k--) {
      const h = toks[k].some((t) => t.k === 'money' || t.k === 'date') ? null : headerOf(lines[k]);
      if (h) return h;
    }
    return null;
  };
  const both = bothSidesTotal(tk, text, columnsAbove);
  if (both) {
    for (const b of both) addTotal(b.label, b.money, b.count, false);
    return i;
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
      addTotal(p.label, p.money, p.count ?? (count ? Number(count[1]) : null), isTotalLine && sections[s.sec].kind !== 'summary' && sections[s.sec].kind !== 'mixed', accountNamed(p.label) ?? lineAccount);
    }
    if (nextRowFollows && h) {
      newSection(h, pairs[0].label);
      if (r.totals.length && r.totals[r.totals.length - 1].label === pairs[0].label) r.totals[r.totals.length - 1].section = s.sec;
    }
    return i;
  }
  return null;
}

/** A breakdown table's title: "Money in by type", "Credits by category", "Outgoing by channel". */
const BY_TYPE = /^(money (in|out)|deposits?|credits?|debits?|withdrawals?|incoming|outgoing|inflows?|outflows?|additions|subtractions|payments (in|out))\s+by\s+(type|category|channel|method|kind)$/i;
const sideOfTitle = (t: string): 'credit' | 'debit' => (/^(money in|deposits?|credits?|incoming|inflows?|additions|payments in)\b/i.test(t) ? 'credit' : 'debit');
/** A side's title with nothing after it: "Money in", "Money out" (an online bank's words for its sides). */
const SIDE_ONLY = /^(money|funds) (in|out)$/i;
/** The column titles of such a table ("Type  Count  Total"). */
const BY_TYPE_HEAD = /^(type|category|channel|method|kind|count|number|no\.?|#|items?|total|amount|sum|\s)+$/i;

/**
 * A breakdown of each side by the bank's own types, titled "Money in by type" / "Money out by
 * type" (a fintech's cash account), side by side or one under the other: under "Type Count Total",
 * lines such as "ACH 14 $73,154.78  ACH 12 $171,661.01" are totals of the side whose title is
 * above them (by place), never transactions and never one side's total for the other ("ACH" is
 * money in on the left, money out on the right). Each is recorded in the table's group: together
 * they must be their side (./reconcile.ts). Null when the line is no such title.
 */
export function byTypeTable(s: ReadState, l: LineAt): number | null {
  const { r, lines, toks } = s;
  const { i, line, money } = l;
  if (money.length) return null;
  const cells = cellsOf(line.words);
  if (cells.length >= 3 && BY_TYPE_ONE.test(cells[0].t.trim()) && cells.slice(1).every((c) => SIDE_HEAD.test(c.t.trim()))) return byTypeColumns(s, l, cells);
  const heads = cells.map((c) => ({ x0: c.x0, t: c.t.trim() }));
  // A side's own title alone ("Money in" over "Tile payments transfers (21) $21,726.09" and "Other
  // money in (3) $1,094.65", blind-28: a fintech's own card payouts split out of the rest): its lines
  // are that side's breakdown as under "Money in by type", when no line is dated.
  const sideOnly = heads.length === 1 && SIDE_ONLY.test(heads[0].t);
  if (!heads.length || !heads.every((h) => BY_TYPE.test(h.t) || sideOnly)) return null;
  heads.sort((a, b) => a.x0 - b.x0);
  const got: Array<{ label: string; kind: 'credit' | 'debit'; cents: number; count: number | null; group: string }> = [];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const ln = lines[j];
    if (ln.page !== line.page || ln.y - lines[j - 1].y > lines[j - 1].size * 2.4) break;
    const tk = toks[j];
    if (!tk.some((t) => t.k === 'money')) {
      if (BY_TYPE_HEAD.test(ln.text)) continue;
      break;
    }
    if (sideOnly && tk.some((t) => t.k === 'date')) return null;
    // Each amount is the table's whose title begins at or left of it; its type and count are
    // the words and the whole number before it, in the same table.
    const band = (x: number) => heads.reduce((b, h, n) => (h.x0 <= x + 1 ? n : b), 0);
    let rest = tk;
    while (rest.length) {
      const m = rest.findIndex((t) => t.k === 'money');
      if (m < 0) return null;
      const mt = rest[m] as Extract<Tok, { k: 'money' }>;
      const b = band((mt.x0 + mt.x1) / 2);
      const before = rest.slice(0, m).filter((t) => band(t.x0) === b);
      if (before.length !== rest.slice(0, m).length) return null;
      const words = before.filter((t) => t.k === 'text').map((t) => t.t);
      const ints = before.filter((t) => t.k === 'int') as Array<Extract<Tok, { k: 'int' }>>;
      if (!words.length || ints.length > 1 || mt.m.cents < 0) return null;
      got.push({ label: `${heads[b].t}: ${words.join(' ')}`, kind: sideOfTitle(heads[b].t), cents: Math.abs(mt.m.cents), count: ints.length ? ints[0].n : null, group: heads[b].t.toLowerCase() });
      rest = rest.slice(m + 1);
    }
  }
  if (!got.length) return null;
  for (const g of got) r.totals.push({ label: g.label, kind: g.kind, category: 'by_type', cents: g.cents, count: g.count, section: -1, group: g.group });
  return j - 1;
}

/** One breakdown table of both sides, titled over its types: "Summary by type", "Activity by category". */
const BY_TYPE_ONE = /^(summary|activity|totals?|transactions?|account activity|money in and out|in and out|credits and debits|deposits and withdrawals)\s+by\s+(transaction\s+)?(type|category|channel|method|kind)$/i;
/** Its side columns: "In" / "Out", "Money in" / "Money out", "Credits" / "Debits", "Deposits" / "Withdrawals". */
const SIDE_HEAD = /^(in|out|money in|money out|incoming|outgoing|credits?|debits?|deposits?|withdrawals?|inflows?|outflows?)$/i;

/**
 * "Summary by type" over columns "In" and "Out" (an online bank's e-statement): each line below
 * ("ACH  $44,141.84  $38,000.00", "Card  $0.00  $3,290.94") gives a type's money in under "In" and
 * its money out under "Out". The types are the bank's own (a row's channel, not its description),
 * so no line is matched to rows on its own: each column's lines are recorded in that column's
 * group and together must be their side, to the cent (./reconcile.ts). A line that is not a type
 * and its amounts under the columns ends the table; a line of another shape makes it no such table.
 */
function byTypeColumns(s: ReadState, l: LineAt, cells: Array<{ x0: number; x1: number; t: string }>): number | null {
  const { r, lines, toks } = s;
  const { i, line } = l;
  const title = cells[0].t.trim();
  const cols = cells.slice(1).map((c) => ({ ...c, kind: /^(in|money in|incoming|credits?|deposits?|inflows?)$/i.test(c.t.trim()) ? ('credit' as const) : ('debit' as const) }));
  if (new Set(cols.map((c) => c.kind)).size !== 2 || cols.length !== 2) return null;
  const got: Array<{ label: string; kind: 'credit' | 'debit'; cents: number; group: string }> = [];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const ln = lines[j];
    if (ln.page !== line.page || ln.y - lines[j - 1].y > lines[j - 1].size * 2.4) break;
    const tk = toks[j];
    const money = tk.filter((t) => t.k === 'money') as Array<Extract<Tok, { k: 'money' }>>;
    const words = tk.filter((t) => t.k === 'text');
    // (A type is a word or two left of the columns, then one amount under each column.)
    if (money.length !== cols.length || !words.length || tk.some((t) => t.k !== 'text' && t.k !== 'money') || words.some((w) => w.x1 >= cols[0].x0 - 2) || tk.findIndex((t) => t.k === 'money') !== words.length) {
      // (Another line after the table's lines, "Average daily balance $8,378.86 ...", ends it;
      // its lines read so far must still make their sides.)
      if (!money.length || got.length) break;
      return null;
    }
    const used = new Set<number>();
    for (const m of money) {
      const cx = (m.x0 + m.x1) / 2;
      const c = cols.reduce((b, c, n) => (ivDist(c.x0, c.x1, m.x0, m.x1) - ivDist(cols[b].x0, cols[b].x1, m.x0, m.x1) || Math.abs((c.x0 + c.x1) / 2 - cx) - Math.abs((cols[b].x0 + cols[b].x1) / 2 - cx)) < 0 ? n : b, 0);
      if (used.has(c) || m.m.cents < 0 || m.m.marker) return null;
      used.add(c);
      got.push({ label: `${title} ${cols[c].t.trim()}: ${words.map((w) => w.t).join(' ')}`, kind: cols[c].kind, cents: m.m.cents, group: `${title} ${cols[c].t.trim()}`.toLowerCase() });
    }
  }
  if (!got.length) return null;
  for (const g of got) r.totals.push({ label: g.label, kind: g.kind, category: 'by_type', cents: g.cents, count: null, section: -1, group: g.group });
  return j - 1;
}

/**
 * A breakdown by type set BESIDE the summary ("Starting balance $14,200.00 | Money in and out by
 * type  In  Out" over "ACH 96,376.50 65,897.44" beside "Money in +$103,808.90"): the box's title and
 * the lines under it, right of where its title starts, are moved after the summary's lines, so the
 * summary reads as a summary and the box as a breakdown (byTypeColumns), never a type's line as a
 * summary total. The box ends at a gap, a word across its edge, or a line whose part in it holds no amount.
 */
export function byTypeBeside(lines: Line[]): Line[] {
  const part = (l: Line, words: Line['words']): Line | null => (words.length ? { ...l, words, text: cellsOf(words).map((c) => c.t).join('  ') } : null);
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i];
    const cells = cellsOf(head.words);
    const at = cells.findIndex((c, n) => n > 0 && n === cells.length - 3 && BY_TYPE_ONE.test(c.t.trim()) && cells.slice(n + 1).every((x) => SIDE_HEAD.test(x.t.trim())));
    if (at < 1) {
      out.push(head);
      continue;
    }
    const cut = cells[at].x0 - 1;
    const left: Line[] = [];
    const right: Line[] = [];
    let j = i;
    for (; j < lines.length && lines[j].page === head.page; j++) {
      const l = lines[j];
      if (j > i && (l.y - lines[j - 1].y > l.size * 2.4 || l.words.some((w) => w.x0 < cut && w.x1 > cut + 2))) break;
      const [a, b] = [part(l, l.words.filter((w) => w.x0 < cut)), part(l, l.words.filter((w) => w.x0 >= cut))];
      if (j > i && b && !tokens(b.words).some((t) => t.k === 'money')) break;
      if (a) left.push(a);
      if (b) right.push(b);
    }
    out.push(...left, ...right);
    i = j - 1;
  }
  return out;
}

/**
 * A "Total(s) <side> and <side>" line with exactly two amounts after its label: each side's total,
 * the first amount the first side's, a count printed with a side ("(20)", "20") its count. Null
 * unless the label starts with "Total", splits at one "and" ("&"; or, with none, at one comma:
 * "Totals: 52 debits, 42 credits") into a credit side and a debit side (in
 * either order), and nothing but the two amounts follows it.
 */
export function bothSidesTotal(tk: Tok[], text: string, columnsAbove?: () => Col[] | null): Array<{ label: string; money: Money; count: number | null }> | null {
  if (!/^totals?\b/i.test(text)) return null;
  const m = tk.findIndex((t) => t.k === 'money');
  if (m < 0 || tk.length !== m + 2 || tk[m + 1].k !== 'money') return null;
  const head = tk.slice(0, m);
  const and = head.flatMap((t, n) => (t.k === 'text' && /^(and|&)$/i.test(t.t) ? [n] : []));
  // (Or a comma closing the first side, "Totals: 52 debits, 42 credits" (blind-62), when no "and" splits it.)
  const comma = head.flatMap((t, n) => (t.k === 'text' && /,$/.test(t.t) ? [n] : []));
  if (head.some((t) => t.k !== 'text' && t.k !== 'int')) return null;
  const parts = and.length === 1 ? [head.slice(0, and[0]), head.slice(and[0] + 1)] : !and.length && comma.length === 1 ? [head.slice(0, comma[0] + 1), head.slice(comma[0] + 1)] : null;
  if (!parts) return null;
  // (Split at a comma, the amounts must lie under the register's columns of those sides in the words'
  // order: "Totals (27 credits, 48 debits)" over Debits | Credits prints the debits first (blind-26).)
  const columns = !and.length && columnsAbove ? columnsAbove() : null;
  const sideAt = (t: Tok) => {
    const c = columns?.filter((x) => x.kind === 'debit' || x.kind === 'credit').find((x) => t.x1 >= x.x0 - 2 && t.x0 <= x.x1 + 2);
    return c ? c.kind : null;
  };
  const out: Array<{ label: string; money: Money; count: number | null }> = [];
  const kinds: string[] = [];
  parts.forEach((p, n) => {
    const words = p.filter((t) => t.k === 'text').map((t) => t.t.replace(/[:,]$/, ''));
    const ints = p.filter((t): t is Extract<Tok, { k: 'int' }> => t.k === 'int');
    const label = `${n === 0 ? '' : 'Total '}${words.join(' ')}`.replace(/^totals\b/i, 'Total');
    const l = labelOf(label);
    if (!l || l.role !== 'total' || ints.length > 1) return;
    kinds.push(l.kind);
    out.push({ label, money: (tk[m + n] as Extract<Tok, { k: 'money' }>).m, count: ints.length ? ints[0].n : null });
  });
  if (!and.length && kinds.some((k, n) => sideAt(tk[m + n]) !== k)) return null;
  return out.length === 2 && kinds.includes('credit') && kinds.includes('debit') ? out : null;
}
