import { norm } from './lines';
import type { Marker, Money, Tok, Word } from './reading-types';

// Dates and numbers: the words of a line as tokens (dates in any form banks print, amounts in any
// sign format, counts, text).

export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$/i;
// (No whole dollars before the point is none: a box's "Interest Paid  .00".)
/** A month's name or its usual cut, nothing longer ("Marketing" is no March). */
const FULL_MONTH = /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?)\.?$/i;
const MONEY_WORD = /^(\()?([-+])?\$?([-+])?(\d{1,3}(?:,\d{3})+|\d*)\.(\d{2})(\))?([-+])?(CR|DR|Cr|Dr|cr|dr)?$/;

export function parseMoney(word: string): Money | null {
  const m = MONEY_WORD.exec(norm(word).trim());
  if (!m) return null;
  if (Boolean(m[1]) !== Boolean(m[6])) return null;
  const cents = Number(m[4].replace(/,/g, '') || '0') * 100 + Number(m[5]);
  const suffix = m[8]?.toLowerCase();
  // A leading plus marks a credit as a CR does ("+4,867.93" beside unsigned debits).
  // A trailing plus is the same mark after the amount ("31,287.35+" on a mainframe summary's credit line).
  const marker: Marker = m[1] ? 'paren' : m[2] === '-' || m[3] === '-' || m[7] === '-' ? 'minus' : suffix === 'cr' || m[2] === '+' || m[3] === '+' || m[7] === '+' ? 'cr' : suffix === 'dr' ? 'dr' : null;
  return { cents, marker };
}
/** A money value with its printed sign applied (CR and unmarked positive). */
export const signedCents = (m: Money) => (m.marker === 'minus' || m.marker === 'paren' || m.marker === 'dr' ? -m.cents : m.cents);

/** Month, day and year (4 digits, or null) of one date word, or null. */
export function numericDate(w: string): [number, number, number | null] | null {
  let m = /^(\d{1,2})[/-](\d{1,2})(?:[/-](\d{2}|\d{4}))?$/.exec(w);
  if (m) {
    const mo = Number(m[1]);
    const d = Number(m[2]);
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
    return [mo, d, m[3] ? year4(m[3]) : null];
  }
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w);
  if (m) return [Number(m[2]), Number(m[3]), Number(m[1])];
  m = /^([A-Za-z]{3,4})[-.](\d{1,2})$/.exec(w);
  if (m && MONTH_WORD.test(m[1])) return [MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]), null];
  // The month's short name and the day run together, as a mainframe or credit union core prints
  // them: DEC11 / MAY01 / Sept3 (the year from the statement period). Only a month's usual cut of
  // 3 or 4 letters and a day of 1 to 31: "MARKET12", "JUNE2026" or "DEC45" are no dates.
  m = /^([A-Za-z]{3,4})(\d{1,2})$/.exec(w);
  if (m && FULL_MONTH.test(m[1]) && Number(m[2]) >= 1 && Number(m[2]) <= 31) return [MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, Number(m[2]), null];
  // The day first, then the month's name: 16-DEC / 16-Dec (the year from the statement period), or
  // with its year, 03-Apr-26 / 03-Apr-2026 (a spreadsheet's date cell format, blind-62's Calc register).
  m = /^(\d{1,2})-([A-Za-z]{3,4})(?:-(\d{2}|\d{4}))?$/.exec(w);
  if (m && FULL_MONTH.test(m[2]) && Number(m[1]) >= 1 && Number(m[1]) <= 31) return [MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, Number(m[1]), m[3] ? year4(m[3]) : null];
  return null;
}
export const year4 = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

const WEEKDAY = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day|sday|nesday|rsday|urday)?\.?,?$/i;

export function tokens(words: Word[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const t = w.t;
    // A month name and a day (and a year): Oct 02 / Oct 2, 2026 / October 2 2026
    if (MONTH_WORD.test(t) && i + 1 < words.length && /^\d{1,2},?$/.test(words[i + 1].t)) {
      const d = Number(words[i + 1].t.replace(',', ''));
      let y: number | null = null;
      let j = i + 1;
      // (A year is the date's only in the day's cell: "Sep 16  2291  578.29", a checks list's
      // date and check number in their own columns, is Sep 16 and check 2291, never the year 2291.)
      if (i + 2 < words.length && /^\d{4}$/.test(words[i + 2].t) && words[i + 2].cell === words[i + 1].cell) {
        y = Number(words[i + 2].t);
        j = i + 2;
      }
      if (d >= 1 && d <= 31) {
        out.push({ k: 'date', x0: w.x0, x1: words[j].x1, t: words.slice(i, j + 1).map((x) => x.t).join(' '), md: [MONTHS.indexOf(t.slice(0, 3).toLowerCase()) + 1, d, y] });
        i = j;
        continue;
      }
    }
    // A day and a month name (and a year): 14 Jan / 14 Jan 2026 (the day first, in one cell).
    if (/^\d{1,2}$/.test(t) && i + 1 < words.length && words[i + 1].cell === w.cell && FULL_MONTH.test(words[i + 1].t)) {
      const d = Number(t);
      let j = i + 1;
      let y: number | null = null;
      if (i + 2 < words.length && words[i + 2].cell === w.cell && /^\d{4}$/.test(words[i + 2].t)) {
        y = Number(words[i + 2].t);
        j = i + 2;
      }
      if (d >= 1 && d <= 31) {
        out.push({ k: 'date', x0: w.x0, x1: words[j].x1, t: words.slice(i, j + 1).map((x) => x.t).join(' '), md: [MONTHS.indexOf(words[i + 1].t.slice(0, 3).toLowerCase()) + 1, d, y] });
        i = j;
        continue;
      }
    }
    // A weekday before a numeric date ("Thu 04/02", "Wed. 4/1/26"): one date, the weekday part of it
    // (a register whose date column prints the day's name; read as text, the row had no date).
    if (WEEKDAY.test(t) && i + 1 < words.length && (words[i + 1].cell === undefined || words[i + 1].cell === w.cell)) {
      const next = words[i + 1].t.replace(/,$/, '');
      const wd = numericDate(next);
      if (wd && !MONEY_WORD.test(next)) {
        out.push({ k: 'date', x0: w.x0, x1: words[i + 1].x1, t: `${t} ${words[i + 1].t}`, md: wd });
        i++;
        continue;
      }
    }
    const nd = numericDate(t.replace(/,$/, ''));
    if (nd && !MONEY_WORD.test(t)) {
      out.push({ k: 'date', x0: w.x0, x1: w.x1, t, md: nd });
      continue;
    }
    // "$ 1,234.56", "- 125.00", "1,234.56 CR"
    let word = t;
    let x0 = w.x0;
    let x1 = w.x1;
    let j = i;
    if ((t === '$' || t === '-' || t === '+' || t === '-$' || t === '$-' || t === '+$') && i + 1 < words.length && parseMoney(t + words[i + 1].t)) {
      word = t + words[i + 1].t;
      x1 = words[i + 1].x1;
      j = i + 1;
    }
    // "... was $1,262.14." (a sentence's full stop after the amount)
    const m = parseMoney(word) ?? (j === i && /\d\.$/.test(word) ? parseMoney(word.slice(0, -1)) : null);
    if (m) {
      if (/^USD$/i.test(words[j + 1]?.t ?? '')) j++; // "1,234.56 USD"
      const next = words[j + 1]?.t;
      if (m.marker === null && next && /^(CR|DR|-|\+)$/i.test(next) && words[j + 1].x0 - x1 < 30) {
        m.marker = next === '-' ? 'minus' : next === '+' || next.toLowerCase() === 'cr' ? 'cr' : 'dr';
        x1 = words[j + 1].x1;
        j++;
      }
      // An overdrawn balance at the end of a line: "1,234.56 OD".
      else if (m.marker === null && next === 'OD' && j + 2 === words.length && words[j + 1].x0 - x1 < 30) {
        m.marker = 'minus';
        x1 = words[j + 1].x1;
        j++;
      }
      out.push({ k: 'money', x0, x1, t: words.slice(i, j + 1).map((x) => x.t).join(' '), m });
      i = j;
      continue;
    }
    const n = /^\(?(\d{1,7})\)?$/.exec(t);
    if (n) {
      out.push({ k: 'int', x0, x1, t, n: Number(n[1]), paren: t.startsWith('(') });
      continue;
    }
    out.push({ k: 'text', x0, x1, t });
  }
  return out;
}
