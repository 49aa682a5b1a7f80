import { cellsOf, cellTexts, ivDist } from './lines';
import type { Line, Tok } from './reading-types';
import { headingOf } from './sections';
import { numericDate, parseMoney, tokens } from './tokens';

// Column and header detection: a table's header row gives its columns; the rows below place the
// amount columns where their figures are; headers that repeat their columns side by side; two
// tables printed side by side taken apart.

type ColKind = 'date' | 'desc' | 'debit' | 'credit' | 'amount' | 'balance' | 'check' | 'type' | 'other';
export interface Col {
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
  if (/^(ref(erence)?\.?( no| number| #)?|trace( no| number)?|conf(irmation)?( no| #)?|code|tran code|seq|seq\.? ?(no|#)|sequence( no| number| #)?)\.?$/.test(t)) return 'other';
  if (/^(description|transaction( description| details)?|details?|memo|payee|activity|particulars|narrative|merchant|description of transaction)$/.test(t)) return 'desc';
  if (/^(withdrawals?|debits?|subtractions?|payments?|charges?|money out|paid out|withdrawals? ?(\/|&|and) ?debits|debits? ?(\/|&|and) ?withdrawals?|checks? ?(\/|&|and) ?(other )?debits|(debits?|withdrawals?) \(-\)|-|withdrawal amount|debit amount|amount debited|outflows?)$/.test(t)) return 'debit';
  if (/^(deposits?|credits?|additions?|money in|paid in|receipts?|deposits? ?(\/|&|and) ?(other )?credits|credits? ?(\/|&|and) ?deposits?|(credits?|deposits?) \(\+\)|\+|deposit amount|credit amount|amount credited|inflows?)$/.test(t)) return 'credit';
  if (/^(amount|amount \(\$\)|amt|transaction amount|\$ amount|amount\(\$\))$/.test(t)) return 'amount';
  if (/^((running|ledger|daily|ending|account|end of day|closing|available|new) )?balance( \(\$\))?$/.test(t)) return 'balance';
  return null;
}

/** The columns of a header row, or null when the line is not one. */
export function headerOf(line: Line): Col[] | null {
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

/**
 * A header's amount columns where its rows put their amounts: right-aligned amounts share a right
 * edge, so the rows below the header (to the next header or the page's end) give one edge per
 * column that has amounts. When there are as many edges, each held by several amounts, as the
 * header has amount and balance columns, the columns, left to right, are those edges, left to
 * right: titles set left while their figures are set right ("Debits   Credits   Balance" each over
 * the left of a right-aligned column) are read by where the figures are. Otherwise the titles'
 * places stand.
 */
export function fitColumnsOf(lines: Line[], toks: Tok[][], header: Col[], at: number): Col[] {
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
  if (held.every((e, k) => nearest(e) === numeric[k])) {
    // Each edge under its own title: a column spans its title and the figures printed under it, so a
    // short figure right-aligned on the edge, left bare between two titles ("3.50" under a wider
    // "1,970.98", past the end of its left-aligned title "Deposits"), is still that column's. (Not
    // when the spans would then overlap: the titles are kept.)
    const spans = numeric.map((c, k) => ({ ...c, x0: Math.min(c.x0, held[k].x0), x1: Math.max(c.x1, held[k].x1) }));
    if (spans.some((c, k) => k > 0 && c.x0 <= spans[k - 1].x1)) return header;
    const wide = new Map(numeric.map((c, k) => [c, spans[k]]));
    return header.map((c) => wide.get(c) ?? c);
  }
  const moved = new Map(numeric.map((c, k) => [c, { ...c, x0: held[k].x0, x1: held[k].x1 }]));
  return header.map((c) => moved.get(c) ?? c);
}

/** The column groups of a header that repeats its columns side by side (two or three across), or null. */
export function groupsAcross(cols: Col[]): Array<{ from: number; to: number; cols: Col[] }> | null {
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

/**
 * Two tables side by side ("Deposits and Credits | Withdrawals and Debits" over "Date Description
 * Amount  Date Description Amount", the rows of the two sides unrelated): each side is a table of
 * its own. A heading on each side, one of credits and one of debits, over a header whose columns
 * repeat in two groups: the lines from the header down (to the totals of both sides, a line
 * across the cut, or the page's end) are cut where the right group begins, and the right halves
 * are read after the left ones, under the right side's heading. Anything else is left as it is.
 */
export function sideBySide(lines: Line[]): Line[] {
  const part = (l: Line, words: Line['words']): Line | null => (words.length ? { ...l, words, text: cellTexts(words).join('  ') } : null);
  const out: Line[] = [];
  let flow = null as { cut: number; shape: string } | null;
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i];
    const next = lines[i + 1];
    const header = next && next.page === head.page ? headerOf(next) : null;
    const found = header ? groupsAcross(header) : null;
    // A later page of a two-column register whose right column holds no header (the summary set in
    // the next free column after the activity): the left column's header alone, cut where the
    // register's columns were cut before.
    const shapeOf = (cs: Col[]) => [...cs].sort((a, b) => a.x0 - b.x0).map((c) => c.kind).join(',');
    const f = flow;
    const groups: Array<{ from: number; to: number; cols: Col[] }> | null =
      found ?? (f && header && shapeOf(header) === f.shape && header.every((c) => c.x1 < f.cut) ? [{ from: -Infinity, to: f.cut, cols: header }, { from: f.cut, to: Infinity, cols: [] }] : null);
    if (!groups || groups.length !== 2) {
      out.push(head);
      continue;
    }
    const cut: number = groups[1].from;
    const halves = (l: Line) => [part(l, l.words.filter((w) => w.x0 < cut)), part(l, l.words.filter((w) => w.x0 >= cut))] as const;
    // A register flowing in two newspaper columns (each with its own running Balance, or whose rows
    // stand on their own baselines, `flowsDown`): the left column's rows, then the right column's,
    // to the page's end or a line across the cut; row by row across, the balances of the two would
    // interleave (blind-24), and a row's wrapped reference would be read beside the other column's
    // next row (blind-45).
    const [hl, hr] = halves(head);
    const kinds = [hl && headingOf(hl.text)?.kind, hr && headingOf(hr.text)?.kind].sort().join(',');
    const creditsBesideDebits = !!hl && !!hr && kinds === 'credit,debit' && !head.words.some((w) => w.x0 < cut && w.x1 > cut + 2);
    if (groups[0].cols.some((c) => c.kind === 'balance') || (!creditsBesideDebits && flowsDown(lines, i + 2, cut))) {
      flow = { cut, shape: shapeOf(groups[0].cols) };
      out.push(head);
      const left: Line[] = [];
      const right: Line[] = [];
      let j = i + 1;
      for (; j < lines.length && lines[j].page === head.page; j++) {
        const l = lines[j];
        if (l.words.some((w) => w.x0 < cut && w.x1 > cut + 2)) break;
        const [a, b] = halves(l);
        if (a) left.push(a);
        if (b) right.push(b);
      }
      out.push(...left, ...right);
      i = j - 1;
      continue;
    }
    if (!creditsBesideDebits || !hl || !hr) {
      out.push(head);
      continue;
    }
    const left: Line[] = [hl];
    const right: Line[] = [hr];
    let j = i + 1;
    for (; j < lines.length && lines[j].page === head.page; j++) {
      const l = lines[j];
      // A line across the cut (a note, the next section's heading): the two tables are over.
      if (l.words.some((w) => w.x0 < cut && w.x1 > cut + 2)) break;
      const [a, b] = halves(l);
      if (a) left.push(a);
      if (b) right.push(b);
      if (/^total\b/i.test(a?.text ?? '') && /^total\b/i.test(b?.text ?? '')) {
        j++;
        break;
      }
    }
    out.push(...left, ...right);
    i = j - 1;
  }
  return out;
}

/**
 * Whether the rows under a header repeated side by side flow down the page in two columns (the left
 * column to its foot, then the right one) rather than across it (one row of each group on a line): a
 * line where one half begins a row (a date first) and the other half does not (a wrapped description
 * or reference of a row above it), or a row in the right half alone with a row in the left half below
 * it (across, the left column's row would come first). Rows printed across a line share their lines;
 * rows flowing down stand on baselines of their own, each column's wrapped lines falling between or
 * beside the other's rows (blind-45: a credit union's
 * "Date | Transaction Description | Amount" twice across, no balance column, read row by row across,
 * took a row's reference for the other column's row's label).
 */
function flowsDown(lines: Line[], from: number, cut: number): boolean {
  const startsRow = (ws: Line['words']) => tokens(ws)[0]?.k === 'date';
  let rightAlone = false;
  for (let j = from; j < lines.length && lines[j].page === lines[from]?.page; j++) {
    const l = lines[j];
    if (l.words.some((w) => w.x0 < cut && w.x1 > cut + 2) || headerOf(l)) break;
    const a = l.words.filter((w) => w.x0 < cut);
    const b = l.words.filter((w) => w.x0 >= cut);
    if (a.length && b.length && startsRow(a) !== startsRow(b)) return true;
    if (!a.length && b.length && startsRow(b)) rightAlone = true;
    else if (rightAlone && a.length && startsRow(a)) return true;
  }
  return false;
}

/** A box with "this period" and "year-to-date" columns, where its column titles were. */
export interface PeriodBox {
  page: number;
  y: number;
  thisX: number;
  ytdX: number;
}
/**
 * A box with "this period" and "year-to-date" columns: only this period's amounts are read. The
 * box in force after this line (its title line starts it; another page, a gap or the next table's
 * column header ends it) and the line's tokens without its year-to-date amounts.
 */
export function thisPeriodOnly(periodBox: PeriodBox | null, line: Line, tk: Tok[]): { box: PeriodBox | null; tk: Tok[] } {
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
  return { box: periodBox, tk };
}

/**
 * A date column right of the description ("Description | Posted | Amount | Balance"): the date
 * under it is the row's, moved first as in any row.
 */
export function dateFirst(cols: Col[] | null, tk: Tok[]): Tok[] {
  if (cols && tk.length > 1 && tk[0].k !== 'date') {
    const dc = cols.find((c) => c.kind === 'date');
    const dsc = cols.find((c) => c.kind === 'desc');
    if (dc && dsc && dsc.x0 < dc.x0) {
      const at = tk.findIndex((t) => t.k === 'date' && ivDist(dc.x0 - 6, dc.x1 + 6, t.x0, t.x1) === 0);
      // (An amount quoted in the description, left of the date column, stays in it.)
      if (at > 0 && tk.slice(0, at).every((t) => t.k !== 'money' || t.x1 < dc.x0)) return [tk[at], ...tk.slice(0, at), ...tk.slice(at + 1)];
    }
  }
  return tk;
}

/**
 * Two different tables side by side, each under a heading of its own ("Checks Paid | Daily Balance
 * Summary" over "Number Date Amount | Date Balance", Atlantic Union-style, blind-20): a line whose
 * words fall in two groups far apart, each a section heading and of different kinds, over a header
 * line that cuts at the same place into two headers. The lines from the header down (to a line
 * across the cut, a gap of more than two lines, or the page's end) are cut there, and the right
 * halves are read after the left ones, under the right side's heading. (The deposits | withdrawals
 * pair whose columns repeat is sideBySide's.) Anything else is left as it is.
 */
export function tablesBeside(lines: Line[]): Line[] {
  const part = (l: Line, words: Line['words']): Line | null => (words.length ? { ...l, words, text: cellTexts(words).join('  ') } : null);
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i];
    const next = lines[i + 1];
    const cut = next && next.page === head.page ? besideCut(head, next) : null;
    if (cut === null) {
      out.push(head);
      continue;
    }
    const halves = (l: Line) => [part(l, l.words.filter((w) => w.x0 < cut)), part(l, l.words.filter((w) => w.x0 >= cut))] as const;
    const left: Line[] = [];
    const right: Line[] = [];
    let j = i;
    for (; j < lines.length && lines[j].page === head.page; j++) {
      const l = lines[j];
      if (j > i && (l.words.some((w) => w.x0 < cut && w.x1 > cut + 2) || l.y - lines[j - 1].y > l.size * 3)) break;
      const [a, b] = halves(l);
      if (a) left.push(a);
      if (b) right.push(b);
    }
    out.push(...left, ...right);
    i = j - 1;
  }
  return out;
}

/** Where a heading line over a header line splits into two tables side by side (tablesBeside), or null. */
function besideCut(head: Line, next: Line): number | null {
  const ws = head.words;
  for (let k = 1; k < ws.length; k++) {
    // Two groups of words far apart (more than four letters' width between them).
    if (ws[k].x0 - ws[k - 1].x1 < head.size * 2.5) continue;
    const hl = headingOf(cellTexts(ws.slice(0, k)).join(' '));
    const hr = headingOf(cellTexts(ws.slice(k)).join(' '));
    if (!hl || !hr || hl.kind === hr.kind || hl.kind === 'ignore' || hr.kind === 'ignore') return null;
    const rightHeader = next.words.filter((w) => w.x0 >= ws[k].x0 - head.size * 2);
    const leftHeader = next.words.filter((w) => w.x0 < ws[k].x0 - head.size * 2);
    if (!rightHeader.length || !leftHeader.length || leftHeader.some((w) => w.x1 > rightHeader[0].x0 - 2)) return null;
    const asLine = (words: Line['words']): Line => ({ ...next, words, text: cellTexts(words).join('  ') });
    if (!headerOf(asLine(leftHeader)) || !headerOf(asLine(rightHeader))) return null;
    return Math.min(ws[k].x0, rightHeader[0].x0) - 2;
  }
  return null;
}
