import { describe, expect, it } from 'vitest';
import { depositKind } from '../../src/features/statements/rules';
import { bothSidesTotal } from '../../src/features/statements/read-totals';
import { tokens } from '../../src/features/statements/tokens';

const toks = (s: string) => tokens(s.split(' ').map((t, k) => ({ x0: k * 40, x1: k * 40 + 30, t, cell: k })));

// blind-62 (sf62): the first batch composed by LibreOffice (Calc and Writer). The cases here are
// lines and statements of our own (other names, numbers and words than the fixtures'). Each test
// fails without its rule.

describe('1. a dividend named by a type column and again by its details: the account\'s own dividend', () => {
  it('"Dividend | Dividend Earned" and its kin read as the account\'s interest', () => {
    for (const d of ['Dividend Deposit Savings Dividend', 'DIVIDEND CREDIT SHARE DIVIDEND 0.04% APY', 'Dividend Dividend Earned 606427', 'DIVIDENDS DIVIDEND PAID', 'Dividend Dividends Credited 00912', 'Dividend Dividend APY 0.10%']) expect(depositKind(d), d).toBe('interest');
  });
  it('near misses: a payer\'s dividend, a dividend fund, "dividend" in a company\'s name stay what they were', () => {
    for (const d of ['Dividend Payment VANGUARD 500', 'ACH Credit DIVIDEND CAPITAL PARTNERS', 'Dividend Dividend Fund LLC invoice 22', 'Deposit DIVIDEND FOODS INC', 'Dividend Deposit ACME HOLDINGS', 'Dividend Deposit Share Capital Partners LLC']) expect(depositKind(d), d).not.toBe('interest');
  });
});

describe('2. "Totals: <n> <side>, <n> <side>" with two amounts: each side\'s total, split at the comma', () => {
  it('a register\'s closing line counts each side, split by a comma, the amounts in that order', () => {
    const line = 'Totals: 61 debits, 18 credits 40,112.09 38,500.00';
    expect(bothSidesTotal(toks(line), line)?.map((x) => [x.label, x.money.cents, x.count])).toEqual([
      ['Total debits', 4011209, 61],
      ['Total credits', 3850000, 18],
    ]);
    const amp = 'Total deposits & withdrawals 9,000.00 7,500.00';
    expect(bothSidesTotal(toks(amp), amp)?.map((x) => [x.label, x.money.cents])).toEqual([
      ['Total deposits', 900000],
      ['Total withdrawals', 750000],
    ]);
  });
  it('near misses: two commas, both of one side, no separator, one amount: no such line', () => {
    for (const line of ['Totals: 5 checks, 4 withdrawals 1,200.00 3,400.00', 'Totals: 3 deposits, 2 credits, 4 debits 1.00 2.00', 'Totals: 52 debits 42 credits 1.00 2.00', 'Totals: 52 debits, 42 credits 58,831.28']) expect(bothSidesTotal(toks(line), line), line).toBeNull();
  });
});
