import type { PageItems } from './extract';
import { linesOf } from './lines';
import { addDays, periodOf, stackedPeriods } from './period';

// A PDF that holds more than one statement: two monthly statements of one account joined back to
// back (a broker's "merged" upload), each with its own header, summary and page numbering. Read as
// one, the reader takes the first statement's period and balances and the figures of one month are
// reported as the file's. So the file is cut where a statement starts again, each part is read and
// reconciled on its own (analyze.ts), and the parts are combined only when they follow one another
// (the next period starts the day after the last one ends, its opening balance is the last one's
// closing balance); otherwise the file is refused, never read as its first part.

const PAGE_OF_RE = /\bpage\s*:?\s*(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\b/gi;

/** The page's own "Page n of m" (the only one it prints), else null. */
export function pageNumberOf(page: PageItems): [number, number] | null {
  const text = linesOf([page]).map((l) => l.text).join('\n');
  const seen = new Set<string>();
  let found: [number, number] | null = null;
  for (const m of text.matchAll(PAGE_OF_RE)) {
    const n = Number(m[1]);
    const of = Number(m[2]);
    if (n < 1 || n > of) continue;
    seen.add(`${n}/${of}`);
    found = [n, of];
  }
  return seen.size === 1 ? found : null;
}

/** The statement period a page prints, else null. */
export function pagePeriodOf(page: PageItems): { start: string; end: string } | null {
  const lines = linesOf([page]);
  return periodOf([...lines.map((l) => l.text), ...stackedPeriods(lines)]);
}

/**
 * The first page of every statement the file holds (always [0] for one statement): a page whose
 * numbering starts again ("Page 1 of 2" after a page "Page n of n") and that prints a statement
 * period of its own, or a page printing a period that starts the day after the period printed
 * before it ends. A page numbered again but printing no period (an insert, a disclosure) is no
 * statement of its own.
 */
export function statementStarts(pages: PageItems[]): number[] {
  const starts = [0];
  if (pages.length < 2) return starts;
  const nums = pages.map(pageNumberOf);
  const periods = pages.map(pagePeriodOf);
  let last = periods[0];
  for (let k = 1; k < pages.length; k++) {
    const p = periods[k];
    const prev = nums[k - 1];
    const restart = !!nums[k] && nums[k]![0] === 1 && !!prev && prev[0] === prev[1];
    const follows = !!p && !!last && p.start === addDays(last.end, 1);
    if (p && (follows || (restart && (!last || p.start !== last.start || p.end !== last.end)))) starts.push(k);
    else if (restart && !p) {
      // Numbered again without a period of its own: a later page of the part may print it.
      const own = periods.slice(k, nextRestart(nums, k)).find((x) => !!x);
      if (own && (!last || own.start !== last.start || own.end !== last.end)) starts.push(k);
    }
    if (p) last = p;
  }
  return starts;
}

function nextRestart(nums: Array<[number, number] | null>, k: number): number {
  for (let j = k + 1; j < nums.length; j++) if (nums[j] && nums[j]![0] === 1) return j;
  return nums.length;
}
