import { describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { depositKind, processorOf } from '../../src/features/statements/rules';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// blind-53 (sfix18): five statements refused by general gaps, written here as small statements and
// registers of our own (invented banks and payers; the trade's and the banks' words), read through the
// reader. Each test fails without its fix.


describe('1. a section whose every row repeats a row already read is a summary of them, not more transactions', () => {
  const register: PageSpec[number][] = [
    'Pinecrest Valley Bank', 'Business Checking  March 1, 2026 - March 31, 2026',
    'Account Summary',
    [[50, 'Beginning Balance'], R(300, '$2,000.00')],
    [[50, 'Deposits/Credits (3)'], R(300, '4,300.00')],
    [[50, 'Withdrawals/Debits (3)'], R(300, '-1,460.00')],
    [[50, 'Ending Balance'], R(300, '$4,840.00')],
    'Transactions by Date',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount'), R(540, 'Balance')],
    [[50, '03/02'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4410'], R(440, '1,500.00'), R(540, '3,500.00')],
    [[50, '03/03'], [100, 'ELECTRONIC WITHDRAWAL MAPLE ROW RENT 7781'], R(440, '-1,200.00'), R(540, '2,300.00')],
    [[50, '03/09'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4411'], R(440, '1,600.00'), R(540, '3,900.00')],
    [[50, '03/10'], [100, 'CARD PURCHASE HARDWARE HUT 0081'], R(440, '-60.00'), R(540, '3,840.00')],
    [[50, '03/16'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4412'], R(440, '1,200.00'), R(540, '5,040.00')],
    [[50, '03/17'], [100, 'ELECTRONIC WITHDRAWAL NORTHWIND POWER 5520'], R(440, '-200.00'), R(540, '4,840.00')],
  ];
  const summaryHead: PageSpec[number][] = ['Electronic Items', [[50, 'Date', { b: true }], [100, 'Company / Entry', { b: true }], R(440, 'Credits'), R(540, 'Debits')]];
  const repeats: PageSpec[number][] = [
    [[50, '03/02'], [100, 'SQUARE INC DEP 4410'], R(440, '1,500.00')],
    [[50, '03/03'], [100, 'MAPLE ROW RENT 7781'], R(540, '1,200.00')],
    [[50, '03/09'], [100, 'SQUARE INC DEP 4411'], R(440, '1,600.00')],
    [[50, '03/16'], [100, 'SQUARE INC DEP 4412'], R(440, '1,200.00')],
    [[50, '03/17'], [100, 'NORTHWIND POWER 5520'], R(540, '200.00')],
  ];

  it('an "Electronic Items" list after the register, each ACH item again with its total: read once', async () => {
    const r = await readPdf([[...register, ...summaryHead, ...repeats, [[100, 'Total Electronic Items (5)'], R(440, '4,300.00'), R(540, '1,400.00')]]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 2000, ending_balance: 4840, deposits_total: 4300, deposit_count: 3, true_revenue: 4300 });
  });

  it('a later list with one item the register does not hold is not a repeat: not dropped, and the statement refuses', async () => {
    const extra: PageSpec[number] = [[50, '03/20'], [100, 'SQUARE INC DEP 4413'], R(440, '900.00')];
    const r = await readPdf([[...register, ...summaryHead, ...repeats, extra]]);
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
});

describe("2. a box titled with this period's and year-to-date columns is a summary, not a section of fees", () => {
  it('a credit union\'s YEAR-TO-DATE DIVIDENDS / FEES CHARGED box over a trailing-minus register: deposits are credits', async () => {
    const r = await readPdf([[
      'Cottonwood Basin Credit Union', 'STATEMENT PERIOD  04/01/2026 - 04/30/2026',
      [[50, 'YEAR-TO-DATE DIVIDENDS'], [300, 'FEES CHARGED'], R(470, 'PERIOD'), R(540, 'YTD')],
      [[50, 'THIS PERIOD'], R(200, '0.42'), [300, 'OVERDRAFT FEES'], R(470, '0.00'), R(540, '30.00')],
      [[50, 'YEAR-TO-DATE'], R(200, '1.90'), [300, 'OTHER FEES'], R(470, '5.00'), R(540, '15.00')],
      [[50, 'PREVIOUS BALANCE'], R(300, '3,000.00')],
      [[50, '3 DEPOSITS AND CREDITS'], R(300, '2,500.42')],
      [[50, '2 WITHDRAWALS AND DEBITS'], R(300, '905.00-')],
      [[50, 'NEW BALANCE'], R(300, '4,595.42')],
      [[50, 'DATE', { b: true }], [100, 'TRANSACTION DESCRIPTION', { b: true }], R(440, 'AMOUNT'), R(540, 'BALANCE')],
      [[50, '04/02'], [100, 'ACH DEPOSIT STRIPE TRANSFER 7710'], R(440, '1,100.00'), R(540, '4,100.00')],
      [[50, '04/06'], [100, 'ACH WITHDRAWAL SAGEBRUSH PLAZA RENT'], R(440, '900.00-'), R(540, '3,200.00')],
      [[50, '04/13'], [100, 'ACH DEPOSIT STRIPE TRANSFER 7711'], R(440, '1,400.00'), R(540, '4,600.00')],
      [[50, '04/30'], [100, 'DIVIDEND DEPOSIT APY EARNED 0.15%'], R(440, '0.42'), R(540, '4,600.42')],
      [[50, '04/30'], [100, 'BUSINESS ACCOUNT FEE'], R(440, '5.00-'), R(540, '4,595.42')],
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 3000, ending_balance: 4595.42, deposits_total: 2500.42, deposit_count: 3, true_revenue: 2500 });
  });
  it('a dividend deposit saying the APY it earned is the account\'s own interest', () => {
    expect(depositKind('DIVIDEND DEPOSIT APY EARNED 0.15%')).toBe('interest');
    // A stock's dividend stays a credit the rules do not settle as the account's.
    expect(depositKind('DIVIDEND PAYMENT VANGUARD')).toBe('revenue');
  });
});

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT SQUARE INC DEP ${6610 + i}`, 3000));
const read = (txns: Txn[]) => {
  const doubt = categoryDoubt(txns);
  const f = figuresOf({ ok: true, txns, period: { start: '2026-03-01', end: '2026-03-31' }, opening: 1_000_000, closing: 1_000_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);
  return doubt ? { refused: doubt } : { true_revenue: f.true_revenue };
};

describe('3. childcare tuition billing platforms are processors: their payouts are sales', () => {
  it.each(['ACH Deposit BRIGHTWHEEL TUITION ID 8812004417', 'PREAUTHORIZED CREDIT PROCARE SOLUTIONS TUITION SETTLE', 'ACH DEPOSIT TUITION EXPRESS TUITION IND ID 5521'])('%s', (d) => {
    expect(processorOf(d)).toBe('Childcare and school tuition billing platforms (integrated payments)');
    // One payout of the month, a tenth of the credits or more: a processor's, settled.
    expect(read([...sales, tx('2026-03-25', d, 5200)])).toEqual({ true_revenue: 35200 });
  });
});
