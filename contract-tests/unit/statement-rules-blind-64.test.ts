import { describe, expect, it } from 'vitest';
import { creditDoubt, depositKind } from '../../src/features/statements/rules';

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
