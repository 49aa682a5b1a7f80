import { describe, expect, it } from 'vitest';
import { spacingTwin } from '../../src/features/statements/doubt';
import type { Item } from '../../src/features/statements/extract';
import { linesOf } from '../../src/features/statements/lines';
import { statementStarts } from '../../src/features/statements/parts';
import type { Txn } from '../../src/features/statements/reconcile';
import { statementPdf, type PageSpec } from '../support/statement-builder';
import { figures, R } from '../support/statement-read';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';

// blind-66 (sf66): statements composed by other software. A merged PDF of two monthly statements
// was read as its first month alone and parsed; an OCR'd scan's invisible word-per-Tm layer had
// words glued ("LIBERTASFUNDING") and a funder's pulls missed, parsed with a low withhold. The cases
// here are statements and lines of our own. Each test fails without its rule.

const fmt = (c: number) => c.toLocaleString('en-US', { minimumFractionDigits: 2 });

/** One month's statement of account 5512 (pages: the register split over `pageCount` pages, "Page n of m"). */
function month(mo: number, opening: number, rows: Array<[number, string, number]>, o: { pageCount?: number; account?: string; numbered?: boolean } = {}): PageSpec[] {
  const y = 2026;
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const mm = String(mo).padStart(2, '0');
  const ins = rows.filter((r) => r[2] > 0);
  const outs = rows.filter((r) => r[2] < 0);
  const sum = (rs: typeof rows) => rs.reduce((s, r) => s + r[2], 0);
  const closing = opening + sum(rows);
  const n = o.pageCount ?? 1;
  let bal = opening;
  const lines = rows.map(([d, desc, a]) => {
    bal += a;
    return [[40, `${mm}/${String(d).padStart(2, '0')}`], [90, desc], a > 0 ? R(400, fmt(a)) : R(470, fmt(-a)), R(550, fmt(bal))] as PageSpec[number];
  });
  const per = Math.ceil(lines.length / n);
  const pages: PageSpec[] = [];
  for (let p = 0; p < n; p++) {
    const head: PageSpec = [[[40, 'HIGH PLAINS SAVINGS BANK'], ...(o.numbered === false ? [] : [[480, `Page ${p + 1} of ${n}`] as const])]];
    if (p === 0) {
      head.push(
        [[40, `Account ${o.account ?? '5512'}`]],
        [[40, `Statement Period: ${mm}/01/${y} - ${mm}/${last}/${y}`]],
        [[300, 'Beginning Balance'], R(550, fmt(opening))],
        [[300, `Deposits (${ins.length})`], R(550, fmt(sum(ins)))],
        [[300, `Withdrawals (${outs.length})`], R(550, fmt(-sum(outs)))],
        [[300, 'Ending Balance'], R(550, fmt(closing))],
        [[40, 'Date'], [90, 'Description'], [360, 'Deposits'], [420, 'Withdrawals'], [510, 'Balance']],
      );
    } else head.push([[40, 'Date'], [90, 'Description'], [360, 'Deposits'], [420, 'Withdrawals'], [510, 'Balance']]);
    head.push(...lines.slice(p * per, (p + 1) * per));
    if (p === n - 1) head.push([[90, 'Ending Balance'], R(550, fmt(closing))]);
    pages.push(head);
  }
  return pages;
}
const APRIL: Array<[number, string, number]> = [
  [2, 'SQUARE INC DEPOSIT 4411', 3_000],
  [6, 'GUSTO PAYROLL 8812', -2_000],
  [14, 'SQUARE INC DEPOSIT 7781', 4_000],
  [22, 'CITY UTILITIES 0031', -500],
];
const MAY: Array<[number, string, number]> = [
  [4, 'SQUARE INC DEPOSIT 1120', 2_500],
  [11, 'GUSTO PAYROLL 9911', -3_000],
  [19, 'SQUARE INC DEPOSIT 5521', 1_500],
];
const aprClose = 10_000 + 3_000 - 2_000 + 4_000 - 500; // 14,500

describe('1. a PDF holding two statements of one account back to back is read as both, or refused', () => {
  it('two months merged, each numbered "Page 1 of n" again: one record from the first opening to the last closing', async () => {
    const r = await analyzeStatementPdf(await statementPdf([...month(4, 10_000, APRIL, { pageCount: 2 }), ...month(5, aprClose, MAY)]));
    const f = figures(r);
    expect(f.period_start).toBe('2026-04-01');
    expect(f.period_end).toBe('2026-05-31');
    expect(f.beginning_balance).toBe(10_000);
    expect(f.ending_balance).toBe(aprClose + 2_500 - 3_000 + 1_500);
    expect(f.deposits_total).toBe(11_000);
    expect(f.deposit_count).toBe(4);
  });
  it('merged without page numbers: the second period starting the day after the first ends splits the file', async () => {
    const r = await analyzeStatementPdf(await statementPdf([...month(4, 10_000, APRIL, { numbered: false }), ...month(5, aprClose, MAY, { numbered: false })]));
    const f = figures(r);
    expect([f.period_start, f.period_end, f.deposit_count]).toEqual(['2026-04-01', '2026-05-31', 4]);
  });
  it('two statements that do not chain (a gap in the balances) are refused, never one read as the file', async () => {
    const r = await analyzeStatementPdf(await statementPdf([...month(4, 10_000, APRIL), ...month(5, aprClose + 100, MAY)]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe('does_not_reconcile');
  });
  it('near misses: a page numbered again with no period of its own (an insert) and page numbers that run on are one statement', async () => {
    const insert: PageSpec = [[[40, 'HIGH PLAINS SAVINGS BANK'], [480, 'Page 1 of 1']], [[40, 'Important information about your account']], [[40, 'In case of errors or questions about your electronic transfers, call us.']]];
    const pages = [...month(4, 10_000, APRIL, { pageCount: 2 }), insert];
    const pdf = await statementPdf(pages);
    const f = figures(await analyzeStatementPdf(pdf));
    expect([f.period_start, f.period_end]).toEqual(['2026-04-01', '2026-04-30']);
    const { extractItems } = await import('../../src/features/statements/extract');
    const x = await extractItems(pdf, { maxPages: 10, timeoutMs: 20_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 1e8 });
    if (!x.ok) throw new Error('not read');
    expect(statementStarts(x.items)).toEqual([0]);
    const two = await statementPdf([...month(4, 10_000, APRIL), ...month(5, aprClose, MAY)]);
    const y = await extractItems(two, { maxPages: 10, timeoutMs: 20_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 1e8 });
    if (!y.ok) throw new Error('not read');
    expect(statementStarts(y.items)).toEqual([0, 1]);
  });
});

describe('2. an OCR layer\'s words, each placed and sized on its own, are never glued into one word', () => {
  const page = (items: Item[]) => [{ width: 612, height: 792, items }];
  const text = (items: Item[]) => linesOf(page(items))[0].text;
  it('new: words touching each other but on jittered baselines, or with a space shown between, stay apart', () => {
    expect(text([{ x: 130, y: 300.2, w: 38.9, h: 8.5, s: 'KALAMATA' }, { x: 169.1, y: 300.9, w: 33, h: 8, s: 'CAPITAL' }])).toBe('KALAMATA CAPITAL');
    expect(text([{ x: 130, y: 300.4, w: 38.9, h: 8.8, s: 'PEARL' }, { x: 169.1, y: 299.6, w: 33, h: 8.3, s: 'CAPITAL' }])).toBe('PEARL CAPITAL');
    // A space the PDF showed between them (pdf.js gives it as an item of its own: `sp`).
    expect(text([{ x: 130, y: 300, w: 38.9, h: 8, s: 'LIBERTAS', sp: 1 }, { x: 169.1, y: 300, w: 33, h: 8, s: 'FUNDING' }])).toBe('LIBERTAS FUNDING');
  });
  it('near misses: a word split across two items on one baseline (at one size, or small caps) is still one word', () => {
    expect(text([{ x: 130, y: 300, w: 20, h: 8, s: 'BAL' }, { x: 150.2, y: 300, w: 25, h: 8, s: 'ANCE' }])).toBe('BALANCE');
    // Small caps: a larger initial on the same baseline.
    expect(text([{ x: 40, y: 72, w: 7.6, h: 10, s: 'B' }, { x: 47.6, y: 72, w: 37.9, h: 7.8, s: 'USINESS' }])).toBe('BUSINESS');
  });
  it('the extraction marks an item followed by a space of its own', async () => {
    const { extractItems } = await import('../../src/features/statements/extract');
    // pdf-lib draws each cell as its own text object: "WORD " then the next word.
    const pdf = await statementPdf([[[[100, 'FORA '], [128, 'FINANCIAL']]]]);
    const x = await extractItems(pdf, { maxPages: 10, timeoutMs: 20_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 1e8 });
    if (!x.ok) throw new Error('not read');
    expect(linesOf(x.items)[0].text).toMatch(/FORA\s+FINANCIAL/);
  });
});

describe('3. a debit that is a known funder\'s with other spacing, but names none, is doubted', () => {
  const t = (date: string, description: string, cents: number): Txn => ({ date, description, cents }) as Txn;
  it('new: the same payee read with and without a space (or with one more) is caught', () => {
    for (const [a, b] of [
      ['ACH DEBIT KALAMATA CAPITAL DAILY 7679718', 'ACH DEBIT KALAMATACAPITAL DAILY 2808527'],
      ['ACH DEBIT LIBERTAS FUNDING DAILY 5561708', 'ACH DEBIT LIBERTASFUNDING DAILY5561709'],
      ['LIBERTAS FUNDING ACH PMT 0412', 'LIBERTASFUNDING ACH PMT 0419'],
    ]) {
      const twin = spacingTwin([t('2026-03-02', a, -44_500), t('2026-03-03', b, -44_500), t('2026-03-03', 'SQUARE INC DEPOSIT', 900_000)]);
      expect(twin?.description, b).toBe(b);
    }
  });
  it('near misses: other payees, or the funder always read right, raise no doubt', () => {
    expect(spacingTwin([t('2026-03-02', 'ACH DEBIT KALAMATA CAPITAL DAILY 1', -28_900), t('2026-03-03', 'ACH DEBIT KALAMATA CAPITAL DAILY 2', -28_900)])).toBeNull();
    expect(spacingTwin([t('2026-03-02', 'ACH DEBIT KALAMATA CAPITAL DAILY 1', -28_900), t('2026-03-03', 'POS DEBIT HEB 0622 WACO', -28_900)])).toBeNull();
    expect(spacingTwin([t('2026-03-02', 'POS DEBIT SHELL 57441', -1_000), t('2026-03-03', 'POS DEBIT SHELL57441', -1_000)])).toBeNull();
  });
});
