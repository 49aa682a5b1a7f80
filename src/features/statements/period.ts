import { cellsOf } from './lines';
import type { Line } from './reading-types';
import { MONTHS, tokens, year4 } from './tokens';

// The statement's period (printed ranges, closing dates, stacked header boxes) and a row's date
// with its year taken from the period.

const MONTH_NAME = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
// (A year is never the first digits of an amount: "Beginning balance on Feb 1 22041.77" is Feb 1
// and 22,041.77, not Feb 1, 2204 and 1.77.)
export const DATE_Y = `(?:\\d{1,2}[/-]\\d{1,2}[/-](?:\\d{4}|\\d{2})(?![\\d/])|${MONTH_NAME}\\s+\\d{1,2},?\\s+\\d{4}(?!\\.?\\d)|\\d{1,2}\\s+${MONTH_NAME}\\s+\\d{4}(?!\\.?\\d)|\\d{1,2}-${MONTH_NAME}-\\d{4}(?!\\.?\\d)|\\d{4}-\\d{2}-\\d{2})`;
export const DATE_NOY = `(?:${MONTH_NAME}\\s+\\d{1,2}|\\d{1,2}/\\d{1,2})`;
const RANGE_RE = new RegExp(`(${DATE_Y})\\s*(?:-|to|through|thru|until)\\s*(${DATE_Y})`, 'i');
const RANGE_NOY_RE = new RegExp(`(${DATE_NOY})\\s*(?:-|to|through|thru)\\s*(${DATE_Y})`, 'i');
const RANGE_SAME_MONTH_RE = new RegExp(`(${MONTH_NAME})\\s+(\\d{1,2})\\s*(?:-|to|through|thru)\\s*(\\d{1,2}),?\\s+(\\d{4})`, 'i');
/** The statement's closing date, strongest wording first ("as of" last, and never a balance's). */
const CLOSING_DATE_RES = [
  // (Words a typewriter print spaces apart: "STATEMENT  DATE 06/30/26"; the balance of this
  // statement dated: "BALANCE THIS STATEMENT  06/30/26  2,902.58".)
  new RegExp(`\\b(?:statement\\s+(?:closing\\s+)?date|closing\\s+date|statement\\s+ending|period\\s+ending|ending\\s+date|end\\s+date|statement\\s+through|balance\\s+this\\s+statement)\\s*:?\\s*(${DATE_Y})`, 'i'),
  // "Last statement: June 30, 2026" / "This statement: July 31, 2026" (a Zions-style header, blind-30):
  // the label with its colon, the previous one read by PREVIOUS_DATE_RE.
  new RegExp(`\\bthis\\s+statement\\s*:\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bfor (?:the period ending )?:?\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bthrough\\s*:?\\s*(${DATE_Y})`, 'i'),
  new RegExp(`\\bas of\\s*:?\\s*(${DATE_Y})`, 'i'),
];
const PREVIOUS_DATE_RE = new RegExp(`\\b(?:previous|prior|last)\\s+statement(?:\\s+date|\\s+closing\\s+date|\\s+ending)?\\s*:?\\s*(${DATE_Y})`, 'i');
const DAYS_IN_PERIOD_RE = /\b(?:number of )?days in (?:the |this )?(?:statement |billing )?(?:period|cycle)\s*:?\s*(\d{1,3})\b/i;
const OPEN_ON_RE = new RegExp(`\\b(beginning|opening|starting|previous) balance (?:on|as of)\\s+(${DATE_Y})`, 'i');
const CLOSE_ON_RE = new RegExp(`\\b(?:ending|closing|new) balance (?:on|as of)\\s+(${DATE_Y})`, 'i');

export function isoOf(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return date.toISOString().slice(0, 10);
}
export function fullDate(text: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(t);
  if (m) return isoOf(year4(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return isoOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = new RegExp(`^(${MONTH_NAME})\\s+(\\d{1,2})\\s+(\\d{4})$`, 'i').exec(t);
  if (m) return isoOf(Number(m[3]), MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]));
  // The day first: "14 Jan 2026", or a mainframe's "16-DEC-2026".
  m = new RegExp(`^(\\d{1,2})(?:\\s+|-)(${MONTH_NAME})(?:\\s+|-)(\\d{4})$`, 'i').exec(t);
  if (m) return isoOf(Number(m[3]), MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, Number(m[1]));
  return null;
}
export const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
function monthBefore(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
  const prev = new Date(Date.UTC(y, m - 2, Math.min(d, last)));
  // The day after the same day a month earlier; a month-end statement starts on the 1st.
  const endOfMonth = d === new Date(Date.UTC(y, m, 0)).getUTCDate();
  return endOfMonth ? `${iso.slice(0, 8)}01` : addDays(prev.toISOString().slice(0, 10), 1);
}

export function periodOf(texts: string[]): { start: string; end: string } | null {
  for (const l of texts) {
    let m = RANGE_RE.exec(l);
    if (m) {
      const start = fullDate(m[1]);
      const end = fullDate(m[2]);
      if (start && end && start <= end && days(start, end) <= 120) return { start, end };
    }
    m = RANGE_SAME_MONTH_RE.exec(l);
    if (m) {
      const mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
      const start = isoOf(Number(m[4]), mo, Number(m[2]));
      const end = isoOf(Number(m[4]), mo, Number(m[3]));
      if (start && end && start <= end) return { start, end };
    }
    m = RANGE_NOY_RE.exec(l);
    if (m) {
      const end = fullDate(m[2]);
      const md = tokens(m[1].split(/\s+/).map((t, i) => ({ x0: i, x1: i, t, cell: 0 })))[0];
      if (end && md?.k === 'date') {
        const y = Number(end.slice(0, 4));
        let start = isoOf(y, md.md[0], md.md[1]);
        if (start && start > end) start = isoOf(y - 1, md.md[0], md.md[1]);
        if (start && days(start, end) <= 120) return { start, end };
      }
    }
  }
  let open: string | null = null;
  let close: string | null = null;
  for (const l of texts) {
    // "Beginning balance on 10/01" opens the period; "previous balance as of 09/30" closes the one before.
    const o = OPEN_ON_RE.exec(l);
    const od = o ? fullDate(o[2]) : null;
    if (od) open ??= /previous/i.test(o![1]) ? addDays(od, 1) : od;
    close ??= fullDate(CLOSE_ON_RE.exec(l)?.[1] ?? '');
  }
  if (open && close && open <= close) return { start: open, end: close };
  let end: string | null = null;
  let prev: string | null = null;
  for (const l of texts) {
    const p = PREVIOUS_DATE_RE.exec(l);
    if (p) prev ??= fullDate(p[1]);
  }
  for (const re of CLOSING_DATE_RES) {
    for (const l of texts) {
      if (end) break;
      if (/\bbalance\b/i.test(l) && re === CLOSING_DATE_RES[3]) continue;
      const c = re.exec(l.replace(PREVIOUS_DATE_RE, ' '));
      if (c) end = fullDate(c[1]);
    }
  }
  if (end) {
    // "Days in period 28" (or "Number of days in this statement period: 28") beside the closing date.
    let span: number | null = null;
    for (const l of texts) {
      const d = DAYS_IN_PERIOD_RE.exec(l);
      if (d && Number(d[1]) >= 1 && Number(d[1]) <= 62) {
        span = Number(d[1]);
        break;
      }
    }
    const start = open && open < end && days(open, end) <= 62 ? open : prev && prev < end && days(prev, end) <= 62 ? addDays(prev, 1) : span ? addDays(end, 1 - span) : monthBefore(end);
    return { start, end };
  }
  // A calendar month named as the period, and nothing more precise: "Statement Period: April
  // 2026", "Statement for April 2026", "April 2026 Statement" (its first to its last day).
  for (const l of texts) {
    const m = MONTH_PERIOD_RE.exec(l) ?? MONTH_PERIOD_AFTER_RE.exec(l);
    if (!m) continue;
    const mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    const y = Number(m[2]);
    const first = isoOf(y, mo, 1);
    if (first) return { start: first, end: addDays(isoOf(mo === 12 ? y + 1 : y, mo === 12 ? 1 : mo + 1, 1)!, -1) };
  }
  return null;
}
const MONTH_PERIOD_RE = new RegExp(`\\b(?:statement(?:\\s+(?:period|month|for))?|period|for(?:\\s+the\\s+month\\s+of)?|month\\s+of)\\s*:?\\s*(${MONTH_NAME}),?\\s+(\\d{4})(?![\\d/,-]|\\s*(?:-|to\\b|through\\b|thru\\b))`, 'i');
const MONTH_PERIOD_AFTER_RE = new RegExp(`^\\s*(${MONTH_NAME}),?\\s+(\\d{4})\\s+(?:account\\s+|bank\\s+|business\\s+)?statement\\b`, 'i');
/**
 * A period printed down a header box ("Statement Period:" / "Dec 16, 2025" / "through" /
 * "Jan 15, 2026"), each part on its own line beside other text (the address): the label's cell and
 * the cells under it, left-aligned with it, on the next few lines, as one text.
 */
export function stackedPeriods(lines: Line[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (const c of cellsOf(lines[i].words)) {
      // The label alone ("Statement Period:", "Period", "Statement Dates"), never a table's "Date".
      if (!/^(statement |account |billing )?period( covered)?:?$|^statement dates?:?$/i.test(c.t.trim())) continue;
      const parts = [c.t];
      let prev = lines[i];
      for (let j = i + 1; j < lines.length && j <= i + 5; j++) {
        const l = lines[j];
        if (l.page !== prev.page || l.y - prev.y > prev.size * 2.4) break;
        const under = cellsOf(l.words).filter((x) => Math.abs(x.x0 - c.x0) <= 20 || (x.x0 >= c.x0 && x.x1 <= c.x1 + 40));
        if (!under.length) break;
        parts.push(...under.map((x) => x.t));
        prev = l;
      }
      if (parts.length > 1) out.push(parts.join(' '));
    }
  }
  return out;
}
export const days = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/** A row's date with its year: the year that puts it inside the period (or nearest to it). */
export function dateIn(md: [number, number, number | null], period: { start: string; end: string }): string | null {
  const [mo, d, y] = md;
  if (y) return isoOf(y, mo, d);
  const ys = [...new Set([Number(period.start.slice(0, 4)), Number(period.end.slice(0, 4))])];
  let best: string | null = null;
  let bestDist = Infinity;
  for (const yy of [...ys, ys[0] - 1, ys[ys.length - 1] + 1]) {
    const iso = isoOf(yy, mo, d);
    if (!iso) continue;
    const dist = iso < period.start ? days(iso, period.start) : iso > period.end ? days(period.end, iso) : 0;
    if (dist < bestDist) {
      best = iso;
      bestDist = dist;
    }
  }
  return best;
}
