import type { PageItems } from './extract';
import type { Reading, Row } from './reading-types';

// What a scan's printed figures prove about its misread ones (./analyze.ts, OCR readings only; a
// text layer is never changed). Nothing here is taken on its own: an amount written another way is
// only an alternative that the reconciliation must choose as the only one that reconciles
// (analyze.ts chooseAlternatives), and a running-balance correction stands only when the whole
// reading then reconciles (every running balance, total, count and the closing balance).

const GROUPED = '(?:\\d{1,3}(?:,\\d{3})+|\\d{1,3})';
const COMMA_POINT = new RegExp(`^(${GROUPED}),(\\d\\d)$`);
const SPACE_POINT = new RegExp(`^(${GROUPED}) (\\d\\d)$`);
const SWAPPED = /^(\d{1,3})\.(\d{3})(\d\d)$/;

/**
 * An item that is an amount printed with two decimals misread in a way only one amount explains,
 * written as that amount; else null: a comma read for the point ("269,00": its digits grouped by
 * three before it, two after it, so it is no amount with a thousands comma), a space read for the
 * point ("2,330 05"), or the point read where the thousands comma is and the point lost
 * ("7.49501": one digit group of three after the point and two more: no amount has five decimals).
 * The item must be the token alone (nothing else in the item).
 */
export function amountForm(s: string): string | null {
  const a = COMMA_POINT.exec(s) ?? SPACE_POINT.exec(s);
  if (a) return `${a[1]}.${a[2]}`;
  const b = SWAPPED.exec(s);
  if (b) return `${b[1]},${b[2]}.${b[3]}`;
  return null;
}

/**
 * Every item of a scan's reading that `amountForm` reads as an amount, and every unreadable amount
 * ("1,111.11?") left without alternatives (its readings alone were no amounts), gets the item as
 * read and that amount as its alternatives (`Item.alt`): chooseAlternatives takes the amount only
 * when the reading with it is the only one that reconciles, or all that do give the same figures.
 * Returns new pages; the items are not changed in place.
 */
export function amountFormAlternatives(items: PageItems[]): PageItems[] {
  return items.map((p) => ({
    ...p,
    items: p.items.map((it) => {
      if (it.alt?.length) return it;
      const form = amountForm(it.s);
      if (form) return { ...it, alt: [[it.s, it.s, form]] };
      const unread = /^(\(?-?\$?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d\d\)?-?)\?$/.exec(it.s);
      if (unread) return { ...it, alt: [[it.s, unread[1]]] };
      return it;
    }),
  }));
}

/**
 * A reading corrected by its running balances, or null when nothing is proven. The balances printed
 * (the opening balance, each row's, the closing balance) cut the rows (those outside check lists,
 * each with its sign decided) into runs; a run agrees when the balance before it plus its rows
 * gives the balance after it.
 * - A printed balance is misread when the runs before and after it both disagree and the balance
 *   before the first plus both runs' rows gives the balance after the second: it is the balance
 *   before plus the first run (the amounts of both runs prove it). A stray minus read on a balance
 *   is such a misreading.
 * A misread amount is not corrected from the balances around it: a row dropped beside it (its
 * amount read as nothing) gives the same difference, so the balances do not tell the two apart. A
 * row whose amount and balance are both misread agrees with neither run and stays as read. The
 * caller takes the correction only when the whole reading then reconciles.
 */
export function balanceProof(r: Reading): Reading | null {
  if (r.opening === null || r.closing === null) return null;
  const rows: Row[] = r.rows.map((x) => ({ ...x }));
  const chain = rows.filter((x) => r.sections[x.section]?.kind !== 'checks');
  if (!chain.length || chain.some((x) => x.sign === null) || !chain.some((x) => x.balance !== null)) return null;
  const runs: Row[][] = [];
  const at: Array<Row | null> = [null];
  let cur: Row[] = [];
  for (const x of chain) {
    cur.push(x);
    if (x.balance !== null) {
      runs.push(cur);
      at.push(x);
      cur = [];
    }
  }
  runs.push(cur);
  at.push(null);
  const bal = (k: number) => (k === 0 ? r.opening! : k === at.length - 1 ? r.closing! : at[k]!.balance!);
  const sum = (k: number) => runs[k].reduce((s, x) => s + x.sign! * x.cents, 0);
  const agrees = (k: number) => bal(k) + sum(k) === bal(k + 1);
  let changed = false;
  // (The equation below holds only when both runs disagree. A balance corrected here makes its next
  // run agree: the next one is not taken for misread too.)
  for (let k = 0; k + 1 < runs.length; k++) {
    const row = at[k + 1];
    if (!row || agrees(k)) continue;
    if (bal(k) + sum(k) + sum(k + 1) !== bal(k + 2)) continue;
    row.balance = bal(k) + sum(k);
    changed = true;
  }
  return changed ? { ...r, rows } : null;
}

const DATE_ALONE = /^\d{1,2}\/\d{1,2}(\/\d{2,4})?$/;

/**
 * The first reading of a scan (`first`) with the dates it did not read taken from a second reading
 * of the same pages (`second`), where the two read the same line: a date item alone in the second
 * reading, on a line whose other items the first reading read word for word (the same strings, each
 * within 3 pt of where the second put it), where the first has nothing left of the line's first word
 * (and ink it read as nothing there, `PageItems.unread`, when it recorded any). The first reading's
 * line then gets the second's date. Null when no date was taken. The dates are OCR readings like any
 * other (the reconciliation checks them against the period and the daily balances); only a line
 * both readings agree on takes one.
 */
export function datesFromOtherReading(first: PageItems[], second: PageItems[]): PageItems[] | null {
  if (first.length !== second.length) return null;
  let taken = false;
  const out = first.map((p, page) => {
    const other = second[page];
    const add: typeof p.items = [];
    for (const d of other.items) {
      if (!DATE_ALONE.test(d.s)) continue;
      const line = other.items.filter((x) => x !== d && Math.abs(x.y - d.y) <= d.h / 3 && x.x > d.x).sort((a, b) => a.x - b.x);
      if (!line.length) continue;
      const near = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.x - b.x) <= 3 && Math.abs(a.y - b.y) <= 3;
      const head = p.items.filter((x) => x.s === line[0].s && near(x, line[0]));
      if (head.length !== 1) continue;
      const mine = p.items.filter((x) => Math.abs(x.y - head[0].y) <= head[0].h / 3);
      if (mine.some((x) => x.x < head[0].x)) continue;
      const rest = mine.filter((x) => x !== head[0]).sort((a, b) => a.x - b.x);
      if (rest.length !== line.length - 1 || rest.some((x, i) => x.s !== line[i + 1].s || !near(x, line[i + 1]))) continue;
      if (p.unread?.length && !p.unread.some((u) => u.x1 >= d.x && u.x0 <= d.x + d.w && u.y1 >= d.y - d.h && u.y0 <= d.y)) continue;
      add.push({ x: d.x, y: head[0].y, w: d.w, h: d.h, s: d.s });
    }
    if (add.length) taken = true;
    return add.length ? { ...p, items: [...p.items, ...add] } : p;
  });
  return taken ? out : null;
}
