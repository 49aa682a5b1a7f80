import { describe, expect, it } from 'vitest';
import { depositKind } from '../../src/features/statements/rules';

// blind-62 (sf62): the first batch composed by LibreOffice (Calc and Writer). The cases here are
// lines and statements of our own (other names, numbers and words than the fixtures'). Each test
// fails without its rule.

describe('1. a dividend named by a type column and again by its details: the account\'s own dividend', () => {
  it('"Dividend | Dividend Earned" and its kin read as the account\'s interest', () => {
    for (const d of ['Dividend Dividend Earned 606427', 'DIVIDENDS DIVIDEND PAID', 'Dividend Dividends Credited 00912', 'Dividend Dividend APY 0.10%']) expect(depositKind(d), d).toBe('interest');
  });
  it('near misses: a payer\'s dividend, a dividend fund, "dividend" in a company\'s name stay what they were', () => {
    for (const d of ['Dividend Payment VANGUARD 500', 'ACH Credit DIVIDEND CAPITAL PARTNERS', 'Dividend Dividend Fund LLC invoice 22', 'Deposit DIVIDEND FOODS INC']) expect(depositKind(d), d).not.toBe('interest');
  });
});
