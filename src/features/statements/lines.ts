import { groupLines, type Item, type PageItems } from './extract';
import type { Line, Word } from './reading-types';

// Text items to lines: items on one baseline; each item cut into words at its spaces (x positions
// estimated along the item's width), words far apart starting a new cell. And the bank's name.

// ------------------------------------------------------------------------------------ lines

export const norm = (s: string) => s.replace(/[\u2212\u2012\u2013\u2014\u2015\uFE63\uFF0D]/g, '-').replace(/[\u00A0\u2007\u202F]/g, ' ').replace(/[\u200B-\u200D\uFEFF]/g, '');

/** The words of a line of items, with estimated positions, and the cell each belongs to. */
function wordsOf(items: Item[], pageMono: number[] = []): Word[] {
  const words: Word[] = [];
  let cell = -1;
  let lastX1 = -Infinity;
  // A typewriter font (Courier): every item of the line as wide per character. Its one space is a
  // whole character wide (0.6 of the size), wider than a proportional font's gap between cells, so
  // items one character apart ("PREVIOUS" "BALANCE" cut at their space) are one cell; two apart, two.
  // A line of one or two items ("OTHER" "DEBITS": a composer that sets each word apart) is too short
  // to show its font alone: it is the typewriter font another line of the page showed when each of
  // its items is exactly that wide per character.
  const mono = monoWidth(items) ?? samePageMono(items, pageMono);
  let prev: Item | null = null;
  for (const it of items) {
    // A word split across items sits on the item before's baseline (at its size or not: small caps'
    // larger initial); an item the PDF shows a space after, or one on a baseline of its own (an OCR
    // layer's words, each placed on its box, jittering), ends its word however close the next item sits.
    const apart = !!prev && (!!prev.sp || /\s$/.test(prev.s) || Math.abs(prev.y - it.y) > 0.05);
    prev = it;
    const s = norm(it.s);
    if (!s.trim()) continue;
    const size = it.h || 8;
    const cw = (it.w || s.length * size * 0.5) / s.length;
    let prevEnd = -1;
    for (const m of s.matchAll(/\S+/g)) {
      const x0 = it.x + m.index! * cw;
      const x1 = x0 + m[0].length * cw;
      const last = words[words.length - 1];
      if (last && last.t === m[0] && Math.abs(x0 - last.x0) < Math.max(1, cw * 0.5)) {
        // Bold by double striking: a line printer or PostScript program that shows the same word
        // again a fraction of a point to the right ("BALANCEBALANCE" when joined). The word over
        // itself is one word, read once.
        lastX1 = Math.max(lastX1, x1);
        prevEnd = m.index! + m[0].length;
        continue;
      }
      if (prevEnd < 0) {
        // The item's first word: a new cell unless it sits close to the previous item's text.
        const gap = x0 - lastX1;
        if (words.length && gap < size * 0.12 && m.index === 0 && !apart) {
          // A word split across items.
          const w = words[words.length - 1];
          w.t += m[0];
          w.x1 = x1;
          lastX1 = x1;
          prevEnd = m.index! + m[0].length;
          continue;
        }
        if (!(gap < size * 0.45) && !(mono !== null && gap < mono * 1.5)) cell++;
      } else if (m.index! - prevEnd >= 2) cell++; // two spaces or more inside an item
      words.push({ x0, x1, t: m[0], cell });
      lastX1 = x1;
      prevEnd = m.index! + m[0].length;
    }
  }
  return words;
}

/**
 * The width of one character when every item of a line of at least three items is set in a
 * typewriter font (the same width per character to 1%, 0.58 to 0.62 of its size: Courier is 0.6, while a proportional font's digits are 0.5 to 0.556), else null.
 */
export function monoWidth(items: Item[]): number | null {
  const ws = items.filter((it) => it.s.trim().length >= 2 && it.w > 0).map((it) => it.w / norm(it.s).length);
  if (ws.length < 3) return null;
  const w = ws[0];
  const size = items[0].h || 8;
  if (ws.some((x) => Math.abs(x - w) > w * 0.01) || w < size * 0.58 || w > size * 0.62) return null;
  return w;
}

/** The typewriter width per character of `pageMono` every item of the line (two characters or more) is set at, to 1%, else null. */
function samePageMono(items: Item[], pageMono: number[]): number | null {
  const ws = items.filter((it) => it.s.trim().length >= 2 && it.w > 0).map((it) => it.w / norm(it.s).length);
  if (ws.length < 2) return null;
  for (const w of pageMono) if (ws.every((x) => Math.abs(x - w) <= w * 0.01)) return w;
  return null;
}

export function linesOf(pages: PageItems[]): Line[] {
  const out: Line[] = [];
  pages.forEach((p, page) => {
    const grouped = groupLines(p.items);
    const pageMono = [...new Set(grouped.map(monoWidth).filter((w): w is number => w !== null).map((w) => Math.round(w * 1000) / 1000))];
    for (const items of grouped) {
      const words = wordsOf(items, pageMono);
      if (!words.length) continue;
      const size = Math.max(...items.map((i) => i.h || 8));
      out.push({ page, y: items[0].y, size, words, text: cellTexts(words).join('  ') });
    }
  });
  return out;
}

export function cellTexts(words: Word[]): string[] {
  const cells: string[] = [];
  let c = -1;
  for (const w of words) {
    if (w.cell !== c) {
      cells.push(w.t);
      c = w.cell;
    } else cells[cells.length - 1] += ` ${w.t}`;
  }
  return cells;
}
export function cellsOf(words: Word[]): Array<{ x0: number; x1: number; t: string }> {
  const cells: Array<{ x0: number; x1: number; t: string }> = [];
  let c = -1;
  for (const w of words) {
    if (w.cell !== c) {
      cells.push({ x0: w.x0, x1: w.x1, t: w.t });
      c = w.cell;
    } else {
      const last = cells[cells.length - 1];
      last.t += ` ${w.t}`;
      last.x1 = w.x1;
    }
  }
  return cells;
}

export const ivDist = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.max(a0, b0) - Math.min(a1, b1));

export function bankOf(lines: Line[]): string | null {
  // The bank: a cell near the top of page 1 that names one (a cell, not the whole line: a page
  // number or an address often shares its baseline).
  for (const l of lines.filter((x) => x.page === 0).slice(0, 12)) {
    // Cells a typewriter font spaces two apart ("FARMERS  &  DROVERS  BANK") are one name: cells
    // closer than two characters' width are joined first.
    const runs: Array<{ x1: number; t: string }> = [];
    for (const c of cellsOf(l.words)) {
      const last = runs[runs.length - 1];
      if (last && c.x0 - last.x1 < l.size * 1.3) {
        last.t += ` ${c.t}`;
        last.x1 = c.x1;
      } else runs.push({ x1: c.x1, t: c.t });
    }
    for (const c of runs.map((x) => x.t)) {
      if (/\b(bank|credit union|financial|savings|trust|n\.a\.|bancorp|fcu)(?=\W|$)/i.test(c) && !/statement|member fdic|^page\b/i.test(c) && !/\d+\.\d{2}/.test(c)) return c.replace(/\s+/g, ' ').trim();
    }
  }
  return null;
}

/**
 * A page's running footer: the last line of two pages or more, at the same height on each, with the
 * same words (numbers aside: "Page 2 of 3"). The bank's boilerplate ("... Member FDIC. To report a
 * lost or stolen card call ..."), never the description of the row above it on a page, however close
 * a composer sets it under the last row (blind-61: an FOP footer read into a claim payment's words).
 */
export function runningFooters(lines: Line[]): Set<Line> {
  const last = new Map<number, Line>();
  for (const l of lines) if (!last.has(l.page) || l.y > last.get(l.page)!.y) last.set(l.page, l);
  const key = (l: Line) => l.text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const out = new Set<Line>();
  const ends = [...last.values()];
  for (const l of ends) {
    if (key(l).split(' ').length < 3) continue;
    if (ends.some((o) => o !== l && o.page !== l.page && Math.abs(o.y - l.y) <= 1 && key(o) === key(l))) out.add(l);
  }
  return out;
}
