import { describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { mcaFunder, processorOf } from '../../src/features/statements/rules';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// blind-59 (sf59): the first batch composed with ReportLab. Three statements were refused by general
// gaps, written here as small statements and rows of our own (invented banks and payees; the trade's
// and the banks' words). Each test fails without its fix.

describe("1. before any row, an account's heading starts its register: a one-sided box above it ends", () => {
  // A credit union's first page: the summary, then a fee box under its own FEES heading; the
  // register follows under the account's heading, one Amount column with a trailing minus on debits
  // and a running balance.
  const summary: PageSpec[number][] = [
    'Bayside Harbor Federal Credit Union',
    'Statement Period 05/01/26 - 05/31/26',
    'SUMMARY OF YOUR ACCOUNTS',
    [[50, 'Commercial Checking 4410'], R(260, '$6,200.00'), R(340, '$3,950.00'), R(420, '$2,380.00'), R(500, '$7,770.00')],
    'FEES',
    [[50, 'Total Courtesy Pay Fees'], [200, 'This Period $25.00'], [330, 'Year-to-Date $75.00']],
  ];
  const register: PageSpec[number][] = [
    [[50, 'Date', { b: true }], [100, 'Transaction Detail', { b: true }], R(440, 'Amount($)'), R(540, 'Balance($)')],
    [[50, '05-01'], [100, 'Beginning Balance'], R(540, '6,200.00')],
    [[50, '05-04'], [100, 'Deposit - ACH Paid From Clover Settle 2231'], R(440, '1,850.00'), R(540, '8,050.00')],
    [[50, '05-05'], [100, 'Paid To - Harborline Property Rent'], R(440, '2,100.00-'), R(540, '5,950.00')],
    [[50, '05-11'], [100, 'Deposit - ACH Paid From Clover Settle 2232'], R(440, '2,100.00'), R(540, '8,050.00')],
    [[50, '05-14'], [100, 'POS Debit- Debit Card 7781 Seaside Ice Supply'], R(440, '255.00-'), R(540, '7,795.00')],
    [[50, '05-18'], [100, 'Courtesy Pay Fee'], R(440, '25.00-'), R(540, '7,770.00')],
    [[50, '05-31'], [100, 'Ending Balance'], R(540, '7,770.00')],
  ];

  it('"COMMERCIAL CHECKING" over the register on the next page: its unmarked amounts are credits, not fees', async () => {
    const r = await readPdf([summary, ['COMMERCIAL CHECKING', ...register]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 6200, ending_balance: 7770, deposits_total: 3950, deposit_count: 2, true_revenue: 3950, nsf_count: 1 });
  });
  it('the same under "Business Checking Account" on the same page', async () => {
    const r = await readPdf([[...summary, 'Business Checking Account', ...register]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 6200, ending_balance: 7770, deposits_total: 3950, deposit_count: 2 });
  });
  it('no account heading between the fee box and the register: the fee section is not ended by guess, and the statement is refused', async () => {
    const r = await readPdf([summary, register]);
    expect(r.ok).toBe(false);
  });
  it('after rows were read, an account heading going on ("continued") keeps the section: the debits stay debits', async () => {
    // A withdrawals section with no markers and no balances, carried onto the next page under the
    // account's heading "continued": the rows there are still withdrawals.
    const r = await readPdf([
      [
        'Dunmore Plains Bank', 'Statement Period 06/01/2026 - 06/30/2026',
        [[50, 'Beginning Balance'], R(300, '5,000.00')],
        [[50, 'Deposits and Credits'], R(300, '3,000.00')],
        [[50, 'Withdrawals and Debits'], R(300, '1,200.00')],
        [[50, 'Ending Balance'], R(300, '6,800.00')],
        'DEPOSITS AND CREDITS',
        [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount')],
        [[50, '06/03'], [100, 'ACH CREDIT STRIPE TRANSFER 1182'], R(440, '3,000.00')],
        'WITHDRAWALS AND DEBITS',
        [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount')],
        [[50, '06/04'], [100, 'ACH DEBIT PRAIRIE GAS UTIL'], R(440, '400.00')],
      ],
      [
        'Business Checking 7720 - continued',
        [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount')],
        [[50, '06/15'], [100, 'ACH DEBIT MILLBROOK INSURANCE'], R(440, '800.00')],
      ],
    ]);
    expect(figures(r)).toMatchObject({ beginning_balance: 5000, ending_balance: 6800, deposits_total: 3000, deposit_count: 1 });
  });
});

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $24,000 of sales, eight of them. */
const sales = Array.from({ length: 8 }, (_, i) => tx(`2026-07-${String(i + 2).padStart(2, '0')}`, `ACH CREDIT SHOPIFY PAYMENTS ${4410 + i}`, 3000));
const read = (txns: Txn[]) => {
  const doubt = categoryDoubt(txns);
  const f = figuresOf({ ok: true, txns, period: { start: '2026-07-01', end: '2026-07-31' }, opening: 500_000, closing: 500_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);
  return doubt ? { refused: doubt } : { true_revenue: f.true_revenue };
};

describe("2. Amazon's seller payout printed under its ACH company name cut at 16 characters (AMAZON.COM SVCS)", () => {
  it.each(['ACH CREDIT AMAZON.COM SVCS PAYMENTS 88120044', 'Amazon ACH credit - AMAZON.COM SVCS 4471', 'AMAZON SVCS DEPOSIT 2210'])('%s is the Amazon marketplace', (d) => {
    expect(processorOf(d)).toBe('Amazon marketplace');
  });
  it('a payout beside card purchases on Amazon is sales, not the return of a purchase', () => {
    const txns = [...sales, tx('2026-07-06', 'Amazon Card ...5512', -212.4), tx('2026-07-20', 'Amazon ACH credit - AMAZON.COM SVCS 60871', 1840.25)];
    expect(read(txns)).toEqual({ true_revenue: 25840.25 });
  });
  it('near misses: Amazon Web Services is no marketplace, and a credit from Amazon without a payout\'s name beside purchases there stays doubted', () => {
    expect(processorOf('AMAZON WEB SVCS AWS BILL')).toBeNull();
    const txns = [...sales, tx('2026-07-06', 'Amazon Card ...5512', -212.4), tx('2026-07-20', 'Amazon Card credit ...5512', 212.4)];
    expect(read(txns)).toHaveProperty('refused');
  });
});

describe('3. Fundfi Merchant Funding is a known funder', () => {
  it.each(['Paid To - FUNDFI MERCHANT Debit ID 8812', 'ACH WD FUNDFI MERCHANT WEEKLY 55102', 'FUNDFI ACH DEBIT'])('%s', (d) => {
    expect(mcaFunder(d)).toBe('Fundfi Merchant Funding');
  });
  it('near misses: another word beginning FUNDFI is no funder of that name', () => {
    expect(mcaFunder('FUNDFIRST COMMUNITY BANK LOAN PMT')).not.toBe('Fundfi Merchant Funding');
  });
});
