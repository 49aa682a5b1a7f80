import { describe, expect, it } from 'vitest';
import { creditDoubt, depositKind } from '../../src/features/statements/rules';

// revG (outside review of sfix22/scont): attack lines of our own against the rules of that batch.

describe('1. a "Transfer in" naming a masked account is own only when the line says it comes from one of the merchant\'s accounts', () => {
  // A bank masks every account number it prints, a customer's or another party's too: a masked number
  // alone does not make a credit the merchant's own money moved. Such a line stays a doubted credit
  // (creditDoubt 'transfer' -> uncertain_categories), never silently out of revenue.
  it.each([
    'ACH transfer in ••7788 from customer',
    'ACME SUPPLY Transfer in ••1234',
    'Transfer in **5521 Invoice 1043 Baker Dental',
    'Transfer in XX6610 Harbor Plumbing LLC',
    'Savings ••2201 Transfer in · Payment from Lina Ortega',
  ])('a counterparty or a sale after the number, or no account kind: doubted, not a transfer: %s', (d) => {
    expect(depositKind(d)).toBe('revenue');
    expect(creditDoubt(d)).toBe('transfer');
  });
  // An account named by its kind before the transfer's words ("Keelson Treasury ••3388 Transfer in") stays doubted too
  // (statement-doubt.test.ts; blind-58 N02 is refused for it): only "from <the kind>" says whose money it is.
  it.each([
    'TRANSFER IN FROM OPERATING **2290',
    'Transfer in ••4411 from Savings',
    'Online transfer in from Checking xx5120 Ref 88213',
  ])('from the account\'s kind: a transfer: %s', (d) => {
    expect(depositKind(d)).toBe('transfer');
    expect(creditDoubt(d)).toBeNull();
  });
});

describe('2. a transfer from a masked account that names no kind of account, with a party\'s words after the number, is doubted', () => {
  it.each(['Transfer from xx1234 ACME SUPPLY', 'Transfer from XX1234 Baker Dental invoice 1043', 'Transfer from ••9921 Lina Ortega'])('%s', (d) => {
    expect(depositKind(d)).toBe('revenue');
    expect(creditDoubt(d)).toBe('transfer');
  });
  it.each(['FUNDS TRANSFER CREDIT FROM ACCOUNT ******0153 BUSINESS ONLINE', 'ONLINE XFER FROM PERSONAL XXXX6632 OWNER', 'Online Transfer From Chk ...4411 Transaction#: 123'])('a bank\'s own words or the account\'s kind: still a transfer: %s', (d) => {
    expect(depositKind(d)).toBe('transfer');
  });
});
