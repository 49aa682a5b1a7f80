import { describe, expect, it } from 'vitest';
import { labelOf } from '../../src/features/statements/sections';
import { tokens } from '../../src/features/statements/tokens';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// blind-55 (sfix21): two layouts refused by general gaps, written here as small statements of our own
// (invented banks and payers, other wording than the fixtures), read through the reader. Each test
// fails without its rule.


describe("1. a month-and-day date takes a year only from its own cell: a checks list's number column is no year", () => {
  it('"Sep 16" then "2291" in the next column is Sep 16 and the number 2291; "Oct 2, 2026" in one cell keeps its year', () => {
    const tk = tokens([{ x0: 50, x1: 62, t: 'Sep', cell: 0 }, { x0: 64, x1: 72, t: '16', cell: 0 }, { x0: 100, x1: 118, t: '2291', cell: 1 }, { x0: 200, x1: 225, t: '578.29', cell: 2 }]);
    expect(tk.map((t) => t.k)).toEqual(['date', 'int', 'money']);
    expect(tk[0]).toMatchObject({ md: [9, 16, null] });
    const one = tokens([{ x0: 50, x1: 62, t: 'Oct', cell: 0 }, { x0: 64, x1: 72, t: '2,', cell: 0 }, { x0: 74, x1: 92, t: '2026', cell: 0 }]);
    expect(one).toMatchObject([{ k: 'date', md: [10, 2, 2026] }]);
  });

  // A Bank of Colorado-style statement in other words: a summary with the account's fees apart from
  // its debits, one register dated "Oct 6", and its checks listed again by number with a gap mark.
  const page = (list: PageSpec[number][]): PageSpec => [
    'Timberline Ridge Bank', 'Statement Dates 10/01/2026 thru 10/31/2026',
    [[50, 'Balance Last Statement'], R(300, '5,000.00')],
    [[50, '3 Credits'], R(300, '6,200.00')],
    [[50, '4 Debits'], R(300, '2,285.50')],
    [[50, 'Account Fees'], R(300, '15.00')],
    [[50, 'Balance This Statement'], R(300, '8,899.50')],
    'ACCOUNT ACTIVITY',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(380, 'Debits'), R(460, 'Credits'), R(540, 'Balance')],
    [[50, 'Oct 1'], [100, 'Beginning Balance'], R(540, '5,000.00')],
    [[50, 'Oct 2'], [100, 'ACH Credit STRIPE TRANSFER 7701'], R(460, '2,400.00'), R(540, '7,400.00')],
    [[50, 'Oct 6'], [100, 'Check 1041'], R(380, '-250.00'), R(540, '7,150.00')],
    [[50, 'Oct 9'], [100, 'ACH Credit STRIPE TRANSFER 7702'], R(460, '1,800.00'), R(540, '8,950.00')],
    [[50, 'Oct 14'], [100, 'Check 1043'], R(380, '-410.00'), R(540, '8,540.00')],
    [[50, 'Oct 15'], [100, 'ACH Debit RIVERBEND LEASING RENT'], R(380, '-1,500.00'), R(540, '7,040.00')],
    [[50, 'Oct 20'], [100, 'Check 1044'], R(380, '-125.50'), R(540, '6,914.50')],
    [[50, 'Oct 23'], [100, 'ACH Credit STRIPE TRANSFER 7703'], R(460, '2,000.00'), R(540, '8,914.50')],
    [[50, 'Oct 31'], [100, 'Monthly Account Fee'], R(380, '-15.00'), R(540, '8,899.50')],
    [[50, 'Oct 31'], [100, 'Ending Balance'], R(540, '8,899.50')],
    'CHECKS PAID BY NUMBER',
    [[50, 'Date', { b: true }], [100, 'Number', { b: true }], R(220, 'Amount'), [300, 'Date', { b: true }], [350, 'Number', { b: true }], R(470, 'Amount')],
    ...list,
    '* Gap in check sequence',
  ];

  it('each check of the list is the register\'s check of that number, date and amount: counted once, and the fees apart from the debits reconcile', async () => {
    const r = await readPdf([page([
      [[50, 'Oct 6'], [100, '1041'], R(220, '250.00'), [300, 'Oct 14'], [350, '1043*'], R(470, '410.00')],
      [[50, 'Oct 20'], [100, '1044'], R(220, '125.50')],
    ])]);
    expect(figures(r)).toMatchObject({ beginning_balance: 5000, ending_balance: 8899.5, deposits_total: 6200, deposit_count: 3, true_revenue: 6200 });
  });

  it('a listed check the register does not hold (another number) is no second listing: refused', async () => {
    const r = await readPdf([page([
      [[50, 'Oct 6'], [100, '1041'], R(220, '250.00'), [300, 'Oct 14'], [350, '1043*'], R(470, '410.00')],
      [[50, 'Oct 20'], [100, '1045'], R(220, '125.50')],
    ])]);
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });

  it('a listed check of the same number but another amount is not the same item: refused', async () => {
    const r = await readPdf([page([
      [[50, 'Oct 6'], [100, '1041'], R(220, '250.00'), [300, 'Oct 14'], [350, '1043*'], R(470, '401.00')],
      [[50, 'Oct 20'], [100, '1044'], R(220, '125.50')],
    ])]);
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
});

describe("2. a credit union's dividends printed beside a deposits figure that leaves them out", () => {
  it('"DIVIDENDS", "Dividends Earned", "Total dividends paid this period" are the interest credited; year-to-date ones are not', () => {
    for (const l of ['DIVIDENDS', 'Dividends Earned', 'Total dividends paid this period', 'Dividend Credited']) expect(labelOf(l)).toEqual({ role: 'total', kind: 'credit', category: 'interest' });
    expect(labelOf('Dividends year-to-date')?.role ?? null).not.toBe('total');
    expect(labelOf('YTD Dividends')?.role ?? null).not.toBe('total');
  });

  const register: PageSpec[number][] = [
    [[50, 'DATE', { b: true }], [100, 'TRANSACTION DESCRIPTION', { b: true }], R(380, 'WITHDRAWALS'), R(460, 'DEPOSITS'), R(540, 'BALANCE')],
    [[50, '04/01'], [100, 'PREVIOUS BALANCE'], R(540, '3,000.00')],
    [[50, '04/02'], [100, 'ACH CREDIT STRIPE TRANSFER 7710'], R(460, '1,100.00'), R(540, '4,100.00')],
    [[50, '04/06'], [100, 'ACH WITHDRAWAL SAGEBRUSH PLAZA RENT'], R(380, '900.00'), R(540, '3,200.00')],
    [[50, '04/13'], [100, 'ACH CREDIT STRIPE TRANSFER 7711'], R(460, '1,400.00'), R(540, '4,600.00')],
    [[50, '04/30'], [100, 'DIVIDEND CREDIT APY 0.10%'], R(460, '0.42'), R(540, '4,600.42')],
    [[50, '04/30'], [100, 'BUSINESS ACCOUNT FEE'], R(380, '5.00'), R(540, '4,595.42')],
    [[50, '04/30'], [100, 'NEW BALANCE'], R(540, '4,595.42')],
  ];
  const table = (deposits: string, dividends: string): PageSpec => [
    'Buckeye Lakes Credit Union', 'STATEMENT PERIOD  04/01/2026 - 04/30/2026',
    'SUMMARY OF YOUR ACCOUNTS',
    [[50, 'ACCOUNT'], [170, 'BEGINNING BALANCE'], [275, 'DEPOSITS'], [340, 'WITHDRAWALS'], [420, 'DIVIDENDS'], [490, 'ENDING BALANCE']],
    [[50, 'SHARE DRAFT 0090'], [170, '3,000.00'], [275, deposits], [340, '905.00'], [420, dividends], [490, '4,595.42']],
    'SHARE DRAFT 0090 ACTIVITY',
    ...register,
  ];

  it('a one-row summary table whose DIVIDENDS column stands apart from DEPOSITS: the two make the credits', async () => {
    const r = await readPdf([table('2,500.00', '0.42')]);
    expect(figures(r)).toMatchObject({ beginning_balance: 3000, ending_balance: 4595.42, deposits_total: 2500.42, deposit_count: 3, true_revenue: 2500 });
  });

  it('a summary box of lines with "Dividends Earned" below "Deposits": the same', async () => {
    const r = await readPdf([[
      'Buckeye Lakes Credit Union', 'STATEMENT PERIOD  04/01/2026 - 04/30/2026',
      [[50, 'Previous Balance'], R(300, '3,000.00')],
      [[50, 'Deposits'], R(300, '2,500.00')],
      [[50, 'Dividends Earned'], R(300, '0.42')],
      [[50, 'Withdrawals'], R(300, '905.00')],
      [[50, 'New Balance'], R(300, '4,595.42')],
      'SHARE DRAFT 0090 ACTIVITY',
      ...register,
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 3000, ending_balance: 4595.42, deposits_total: 2500.42, true_revenue: 2500 });
  });

  it('printed dividends that are not the dividend rows read refuse, even when deposits and dividends together make the credits', async () => {
    const r = await readPdf([table('2,499.58', '0.84')]);
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
});
