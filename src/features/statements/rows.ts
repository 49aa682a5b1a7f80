import type { Col } from './columns';
import { ivDist } from './lines';
import type { Reading, Row, SectionKind, Sign, Tok } from './reading-types';
import { isBalanceLabel } from './sections';
import { signedCents } from './tokens';

// Row reading and signs: one transaction row from its tokens and the table's columns, check
// registers several across, daily-balance pairs.

export function datePairs(tk: Tok[]): Reading['daily'] | null {
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

export function checkGroups(tk: Tok[]): Array<{ number: string; md: [number, number, number | null]; cents: number }> | null {
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

/** One transaction row (or 'balance' for a balance line in the table, or null). */
export function rowOf(tk: Tok[], cols: Col[] | null, sec: number, kind: SectionKind): { row: Row; descX: number } | 'balance' | null {
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
  // A reference column right of every amount column ("AMOUNT  BALANCE  SEQ", a line printer's
  // item sequence number after the balance): its number ends the row but is none of its amounts.
  const numericX1 = Math.max(...(cols ?? []).filter((c) => ['debit', 'credit', 'amount', 'balance'].includes(c.kind)).map((c) => c.x1));
  const after = cols?.find((c) => c.kind === 'other' && c.x0 > numericX1);
  let trail: Tok[] = [];
  if (after && tk.length > i + 1 && tk[tk.length - 1].k === 'int' && tk[tk.length - 1].x0 > numericX1 && tk[tk.length - 2].k === 'money') {
    trail = tk.slice(-1);
    tk = tk.slice(0, -1);
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
  let description = [...descParts, ...trail.map((t) => t.t)].join(' ').trim();
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
