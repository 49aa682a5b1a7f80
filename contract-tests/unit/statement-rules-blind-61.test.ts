import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/features/statements/extract';
import { linesOf, runningFooters } from '../../src/features/statements/lines';
import { read } from '../../src/features/statements/read';
import { bothSidesTotal } from '../../src/features/statements/read-totals';
import { tokens } from '../../src/features/statements/tokens';
import { figures, R } from '../support/statement-read';
import type { PageSpec } from '../support/statement-builder';
import { statementPdf } from '../support/statement-builder';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';

// blind-61 (sf61): the first batch from Apache FOP (XSL-FO), PDFKit and jsPDF. The cases here are
// statements and lines of our own (other names, numbers and words than the fixtures'). Each test
// fails without its rule.

const toks = (s: string) => tokens(s.split(' ').map((t, k) => ({ x0: k * 40, x1: k * 40 + 30, t, cell: k })));

describe('1. "Total <side> (n) and <side> (n)" with two amounts: each side\'s total', () => {
  it('a register\'s closing line names each side with its count, the amounts in that order', () => {
    const line = 'Total credits (14) and debits (31) 22,905.10 (19,442.06)';
    expect(bothSidesTotal(toks(line), line)).toEqual([
      { label: 'Total credits', money: expect.objectContaining({ cents: 2290510 }), count: 14 },
      { label: 'Total debits', money: expect.objectContaining({ cents: 1944206 }), count: 31 },
    ]);
  });
  it('"Totals: withdrawals and deposits" (debit side first, no counts) keeps the printed order', () => {
    const line = 'Totals: withdrawals and deposits 7,500.00 9,000.00';
    const b = bothSidesTotal(toks(line), line);
    expect(b?.map((x) => [x.label, x.money.cents, x.count])).toEqual([
      ['Total withdrawals', 750000, null],
      ['Total deposits', 900000, null],
    ]);
  });
  it('near misses: both of one side, one amount, three amounts, no "Total" word: no such line', () => {
    for (const line of ['Total checks and withdrawals 1,200.00 3,400.00', 'Total additions (3) and subtractions (4) 7,000.00', 'Total additions and subtractions 1.00 2.00 3.00', 'Deposits and withdrawals 7,000.00 6,000.00']) expect(bothSidesTotal(toks(line), line)).toBeNull();
  });
});

describe('2. a landscape register with Additions and Subtractions columns, debits in parentheses, closed by one line of both totals', () => {
  const statement = (subtractions: string): PageSpec => [
    [[40, 'MAPLE RIDGE BANK Business Statement'], [520, 'Page 1 of 1']],
    [[40, 'Ridgeline Bakery LLC'], [480, 'Beginning balance'], R(740, '$10,000.00')],
    [[40, 'Statement period: June 1, 2026 - June 30, 2026'], [480, '3 Additions'], R(740, '7,000.00')],
    [[480, '4 Subtractions'], R(740, '(16,036.00)')],
    [[480, 'Ending balance'], R(740, '$964.00')],
    [[40, 'Activity']],
    [[40, 'Date'], [90, 'Description'], [520, 'Additions'], [600, 'Subtractions'], [700, 'Balance']],
    [[40, '06/01'], [90, 'Beginning balance'], R(740, '10,000.00')],
    [[40, '06/02'], [90, 'Direct Deposit, STRIPE TRANSFER 4411'], R(560, '2,500.00'), R(740, '12,500.00')],
    [[40, '06/03'], [90, 'Direct Withdrawal, GUSTO PAYROLL 8812'], R(650, '(6,000.00)'), R(740, '6,500.00')],
    [[40, '06/05'], [90, 'Check 2207'], R(650, '(1,200.00)'), R(740, '5,300.00')],
    [[40, '06/09'], [90, 'Direct Deposit, SQUARE INC 7781'], R(560, '3,000.00'), R(740, '8,300.00')],
    [[40, '06/12'], [90, 'Debit Card Purchase, HOME DEPOT 5512'], R(650, '(8,800.00)'), R(740, '(500.00)')],
    [[40, '06/15'], [90, 'Overdraft Item Fee'], R(650, '(36.00)'), R(740, '(536.00)')],
    [[40, '06/18'], [90, 'Direct Deposit, STRIPE TRANSFER 4420'], R(560, '1,500.00'), R(740, '964.00')],
    [[90, 'Total additions (3) and subtractions (4)'], R(560, '7,000.00'), R(650, subtractions)],
    [[40, '06/30'], [90, 'Ending balance'], R(740, '964.00')],
  ];
  it('reads: the closing line checks each side, not one total of both', async () => {
    const f = figures(await analyzeStatementPdf(await statementPdf([statement('(16,036.00)')], { landscape: true })));
    expect(f).toMatchObject({ period_start: '2026-06-01', period_end: '2026-06-30', beginning_balance: 10000, ending_balance: 964, deposits_total: 7000, deposit_count: 3, nsf_count: 1 });
  });
  it('near miss: a subtractions total the rows do not make is refused', async () => {
    const r = await analyzeStatementPdf(await statementPdf([statement('(16,063.00)')], { landscape: true }));
    expect(r.ok).toBe(false);
  });
});

describe('3. a page\'s running footer is never the last row\'s description', () => {
  const word = (x: number, y: number, s: string): Item => ({ x, y, w: s.length * 4.2, h: 8, s });
  const cells = (y: number, cs: Array<[number, string]>) => cs.map(([x, s]) => word(x, y, s));
  const footer = (y: number, page: number) => cells(y, [[100, 'Prairie State Bank. Member FDIC. Report a lost or stolen card at 1-800-555-0199.'], [480, `Page ${page} of 2`]]);
  const pageOf = (rows: Item[], foot: Item[]) => ({ width: 612, height: 792, items: [...cells(60, [[40, 'Date'], [86, 'Description'], [520, 'Amount']]), ...rows, ...foot] });
  const pages = (secondFooterY: number) => [
    pageOf([...cells(80, [[40, '03/02'], [86, 'ACH CREDIT ACME INS CLAIM PMT 5512'], [520, '1,250.00']]), ...cells(92, [[40, '03/03'], [86, 'ACH CREDIT LAKE COUNTY SCHOOLS AP 7781'], [520, '980.00']])], footer(112, 1)),
    pageOf([...cells(80, [[40, '03/09'], [86, 'ACH CREDIT NORTHWIND FOODS AP 2201'], [520, '410.00']])], footer(secondFooterY, 2)),
  ];
  it('the footer repeated at the foot of each page is found, and the row above it keeps its own words', () => {
    const p = pages(112);
    expect([...runningFooters(linesOf(p))].map((l) => l.page)).toEqual([0, 1]);
    const row = read(p).rows.find((r) => r.cents === 98000);
    expect(row?.description).not.toMatch(/FDIC|stolen/);
  });
  it('near miss: a line under the last row that is not repeated at the foot of another page goes on as its description', () => {
    const p = pages(112);
    p[0].items.push(...cells(104, [[86, 'INV 40512 MARCH SERVICE']]));
    p[0].items = p[0].items.filter((i) => i.y !== 112);
    expect([...runningFooters(linesOf(p))]).toEqual([]);
    expect(read(p).rows.find((r) => r.cents === 98000)?.description).toContain('INV 40512');
  });
  it('near miss: the same words at another height on the other page are no running footer', () => {
    expect([...runningFooters(linesOf(pages(300)))]).toEqual([]);
  });
});
