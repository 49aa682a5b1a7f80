import { describe, expect, it } from 'vitest';
import { linesOf } from '../../src/features/statements/lines';

// Cells of a line (./lines.ts): pdf.js cuts a typewriter-font label at its spaces ("PREVIOUS"
// "BALANCE", blind-22's Provident-style landscape Courier summary). A Courier space is a whole
// character wide (0.6 of the size), wider than the gap that splits cells in a proportional font.
const item = (x: number, s: string, cw: number, h = 7) => ({ x, y: 124, w: s.length * cw, h, s });

describe('cells of a line set in a typewriter font', () => {
  it('items one character apart are one cell; labels far apart stay apart', () => {
    const cw = 4.2; // Courier at 7 pt
    const [l] = linesOf([{ width: 792, height: 612, items: [item(44, 'PREVIOUS', cw), item(81.8, 'BALANCE', cw), item(186.4, 'DEPOSITS/CREDITS', cw), item(257.8, '(36)', cw), item(613.6, 'CURRENT', cw), item(647.2, 'BALANCE', cw)] }]);
    expect(l.text).toBe('PREVIOUS BALANCE  DEPOSITS/CREDITS (36)  CURRENT BALANCE');
  });
  it('a proportional font with the same gap keeps its cells apart', () => {
    // Helvetica-like widths per character differ from item to item.
    const [l] = linesOf([{ width: 612, height: 792, items: [item(44, 'PREVIOUS', 4.9), item(87.4, 'BALANCE', 4.6), item(186.4, 'DEPOSITS/CREDITS', 4.4), item(260.6, '(36)', 3.3)] }]);
    expect(l.text).toBe('PREVIOUS  BALANCE  DEPOSITS/CREDITS  (36)');
  });
  it('a proportional font\'s digits, all as wide as each other, are no typewriter font', () => {
    const cw = 0.556 * 7; // Helvetica's digits
    const [l] = linesOf([{ width: 612, height: 792, items: [item(40, '3341', cw), item(60.6, '3342', cw), item(81.2, '3343', cw)] }]);
    expect(l.text).toBe('3341  3342  3343');
  });
});
