import { describe, expect, it } from 'vitest';
import { sectionName } from '../../src/features/statements/sections';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// scont: a section printed over two pages, its totals and counts, written here as small statements
// of our own (invented bank and payers), read through the reader. Each test fails without its rule.

type L = PageSpec[number];
const hdr: L = [[50, 'Date', { b: true }], [110, 'Description', { b: true }], R(500, 'Amount')];
const row = (d: string, s: string, a: string): L => [[50, d], [110, s], R(500, a)];
const summary: L[] = [
  'Granite Hollow Bank', 'Business Checking  Statement Period 05/01/2026 - 05/31/2026',
  'ACCOUNT SUMMARY',
  [[50, 'Beginning Balance'], R(300, '1,000.00')],
  [[50, 'Deposits and Credits'], R(300, '5,400.00')],
  [[50, 'Withdrawals and Debits'], R(300, '1,200.00')],
  [[50, 'Ending Balance'], R(300, '5,200.00')],
];
const page1Deposits = [row('05/02', 'CUSTOMER DEPOSIT', '1,000.00'), row('05/05', 'MOBILE DEPOSIT', '500.00'), row('05/09', 'BRANCH DEPOSIT', '1,500.00')];
const page2Deposits = [row('05/16', 'ACH CREDIT SQUARE INC 0516', '1,250.00'), row('05/23', 'ACH CREDIT SHOPIFY PAYOUT 0523', '750.00')];
// A second section of credits closes page 1, so "DEPOSITS (continued)" opens page 2 under it.
const electronic: L[] = ['ELECTRONIC CREDITS', hdr, row('05/12', 'ACH CREDIT STRIPE TRANSFER 1101', '400.00'), [[50, 'Total Electronic Credits'], R(500, '400.00')]];
const withdrawals: L[] = ['WITHDRAWALS AND DEBITS', hdr, row('05/10', 'ACH DEBIT OAKMONT PROPERTIES RENT', '1,000.00'), row('05/20', 'ACH DEBIT NORTHWIND INSURANCE', '200.00'), [[50, 'Total Withdrawals and Debits'], R(500, '1,200.00')]];
const parsed = { beginning_balance: 1000, ending_balance: 5200, deposits_total: 5400, deposit_count: 6 };

describe('1. a section continued on the next page is one section: its printed total and count cover its rows on every page', () => {
  it('a section\'s name leaves out "(continued)", "continued from previous page" and the count it prints', () => {
    for (const h of ['DEPOSITS (continued)', 'Deposits - continued from previous page', "Deposits cont'd", 'DEPOSITS (CONT.)', 'DEPOSITS (5 items)', 'Deposits  Items: 5']) expect(sectionName(h)).toBe('deposits');
    expect(sectionName('Electronic Credits')).toBe('electronic credits');
  });

  for (const [continued, total] of [['DEPOSITS (continued)', 'Total Deposits'], ['Deposits - continued from previous page', 'Total Deposits (5)']]) {
    it(`"${continued}" under another section of credits goes on with DEPOSITS: "${total}" at its end is all five deposits`, async () => {
      const r = await readPdf([[...summary, 'DEPOSITS', hdr, ...page1Deposits, ...electronic], [continued, hdr, ...page2Deposits, [[50, total], R(500, '5,000.00')], ...withdrawals]]);
      expect(figures(r)).toMatchObject(parsed);
    });
    it(`the same total off by ten dollars is refused (${continued})`, async () => {
      const r = await readPdf([[...summary, 'DEPOSITS', hdr, ...page1Deposits, ...electronic], [continued, hdr, ...page2Deposits, [[50, total], R(500, '5,010.00')], ...withdrawals]]);
      expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
    });
  }

  it('a count in the heading on page 1, "DEPOSITS (5 items)", counts the rows on page 2 too', async () => {
    const r = await readPdf([[...summary, 'DEPOSITS (5 items)', hdr, ...page1Deposits, ...electronic], ['DEPOSITS (continued)', hdr, ...page2Deposits, ...withdrawals]]);
    expect(figures(r)).toMatchObject(parsed);
    const wrong = await readPdf([[...summary, 'DEPOSITS (4 items)', hdr, ...page1Deposits, ...electronic], ['DEPOSITS (continued)', hdr, ...page2Deposits, ...withdrawals]]);
    expect(wrong).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });

  const subtotals = (first: string, second: string): PageSpec[] => [
    [...summary, 'DEPOSITS', hdr, ...page1Deposits, [[50, 'Subtotal this page'], R(500, first)]],
    ['DEPOSITS (continued)', hdr, ...page2Deposits, [[50, 'Subtotal this page'], R(500, second)], [[50, 'Total Deposits'], R(500, '5,000.00')], ...electronic, ...withdrawals],
  ];
  it('"Subtotal this page" is that page\'s rows of the section only: 3,000.00 then 2,000.00, and the section\'s total all five', async () => {
    expect(figures(await readPdf(subtotals('3,000.00', '2,000.00')))).toMatchObject(parsed);
  });
  it('a page subtotal its page\'s rows do not make is refused, even when the two pages still add up', async () => {
    expect(await readPdf(subtotals('3,100.00', '1,900.00'))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
});

describe('2. a count alone on its line right under a section\'s rows ("Total items: 5") is the section\'s count', () => {
  const stmt = (count: string, after: L[] = []): PageSpec[] => [[...summary, 'DEPOSITS', hdr, ...page1Deposits, ...page2Deposits, count, ...after, ...electronic, ...withdrawals]];
  it('"Total items: 5" under the five deposits: parsed', async () => {
    expect(figures(await readPdf(stmt('Total items: 5')))).toMatchObject(parsed);
    expect(figures(await readPdf(stmt('Number of items 5')))).toMatchObject(parsed);
  });
  it('"Total items: 4" under five deposits is refused', async () => {
    expect(await readPdf(stmt('Total items: 4'))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
  it('a bare count under each deposit ("ITEMS 2": the deposit\'s own items) is no count of the section', async () => {
    const each = [...page1Deposits, ...page2Deposits].flatMap((x) => [x, [[110, 'ITEMS 2']] as L]);
    expect(figures(await readPdf([[...summary, 'DEPOSITS', hdr, ...each, ...electronic, ...withdrawals]]))).toMatchObject(parsed);
  });
  it('a count on another page than the section\'s rows (the top of the next page) is not plainly the section\'s: not read', async () => {
    expect(figures(await readPdf([[...summary, 'DEPOSITS', hdr, ...page1Deposits, ...page2Deposits], ['Total items: 4', ...electronic, ...withdrawals]]))).toMatchObject(parsed);
  });
});
