import { describe, expect, it } from 'vitest';
import { creditDoubt, depositKind } from '../../src/features/statements/rules';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// blind-64 (sf64): the first batch composed by Cairo/Pango and by Chromium printing a web app's
// CSS grid / flexbox view. A neobank's own-account transfer ("Fathom Reserve ••8113 Transfer ·
// Between your accounts": the counterparty, its category chip and its grey method line read as one
// description) was doubted as a transfer no row settled. The cases here are lines of our own.
// Each test fails without its rule.

describe('1. a transfer the bank describes as between the customer\'s accounts is the merchant\'s own money', () => {
  it('new phrasings: the bank saying the money moved between the customer\'s accounts', () => {
    for (const d of [
      'Fathom Reserve \u2022\u20228113 Transfer Transfer \u00b7 Between your accounts',
      'Tax Vault \u2022\u20220417 Transfer \u00b7 Between your accounts',
      'Rainy Day \u2022\u20229021 Transfer between your accounts',
      'TRANSFER BETWEEN ACCOUNTS REF 88120455',
      'Moved money between my accounts 0311',
      'Payroll pot Transfer between own accounts',
    ]) {
      expect(depositKind(d), d).toBe('transfer');
      expect(creditDoubt(d), d).toBeNull();
    }
  });
  it('near misses: money between a customer and the merchant, or "between" with no accounts, is not settled as own', () => {
    for (const d of [
      'Zelle payment from Rita Gomez Transfer between accounts', // a person paying by Zelle: the unless
      'Between the Lines Bookstore ACH CREDIT INV 1043', // "between", no accounts
      'ACH CREDIT BETWEEN RIVERS CONSTRUCTION ACCOUNTS PAYABLE', // a customer's AP, words apart
      'Deposit from customer account 4471 between jobs',
    ]) expect(depositKind(d), d).not.toBe('transfer');
  });
  it('a third party\'s words after the mask still leave it doubted, not settled', () => {
    // "Between your accounts" is the bank's own wording; a line that only says "between" near a
    // stranger's name is no such wording.
    expect(depositKind('Transfer from \u2022\u20229921 Lina Ortega between jobs')).not.toBe('transfer');
  });
});

describe('2. a day\'s heading carrying the day\'s closing balance heads that day\'s rows, its amount no transaction', () => {
  // A web app's view grouping each day's rows under "Apr 1 ... End of day balance $6,700.00": no
  // column titles, no balance per row, the rows' amounts signed.
  const statement = (label: string, dayX = 40): PageSpec[] => [
    [
      [[40, 'ANVIL PEAK COMMUNITY CREDIT UNION'], [420, 'Account statement']],
      [[40, 'Statement period: 04/01/2026 - 04/30/2026']],
      [[40, 'TALLGRASS PLUMBING CO']],
      [[300, 'Beginning balance'], R(560, '$5,000.00')],
      [[300, 'Deposits & credits (2)'], R(560, '+2,800.00')],
      [[300, 'Withdrawals & debits (2)'], R(560, '-1,500.00')],
      [[300, 'Ending balance'], R(560, '$6,300.00')],
      [],
      [[40, 'Activity']],
      [[dayX, 'Apr 1'], [330, label], R(560, '$6,700.00')],
      [[50, 'ACH Deposit HARBOR CATERING · INV 2210'], R(560, '+2,000.00')],
      [[50, 'Card ACE HARDWARE 0412'], R(560, '-300.00')],
      [[dayX, 'Apr 2'], [330, label], R(560, '$5,500.00')],
      [[50, 'ACH Payment CITY WATER UTILITY · ACCT 7781'], R(560, '-1,200.00')],
      [[dayX, 'Apr 3'], [330, label], R(560, '$6,300.00')],
      [[50, 'Mobile check deposit · Check 1043'], R(560, '+800.00')],
    ],
  ].map((p) => [...p, ...Array.from({ length: 30 - p.length }, () => []), [[40, 'Anvil Peak Community Credit Union'], [300, 'Page 1 of 1']]] as PageSpec);
  it.each(['End of day balance', 'End-of-day balance', 'Balance at end of day', 'Daily balance', "Day's closing balance"])('"%s": the rows read, the balances the days\'', async (label) => {
    const f = figures(await readPdf(statement(label)));
    expect([f.beginning_balance, f.deposits_total, f.deposit_count, f.ending_balance, f.negative_days]).toEqual([5000, 2800, 2, 6300, 0]);
  });
  it('near misses: a dated line with a balance but no day\'s words is no day heading, so the statement is not read as one', async () => {
    for (const label of ['Available balance', 'Ledger balance', 'Balance forward']) {
      const r = await readPdf(statement(label));
      if (r.ok) expect([r.figures.deposits_total, r.figures.deposit_count], label).not.toEqual([2800, 2]);
    }
  });
});
