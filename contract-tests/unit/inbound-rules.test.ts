import { describe, expect, it } from 'vitest';
import { isLenderDomain } from '../../src/features/inbound/sender-domain';
import { isNsf } from '../../src/features/statements/rules';

// Two small rules that decide money-relevant outcomes and that a mutation spot-check showed the
// API tests would not notice breaking: the lender-domain comparison that lets a reply's answer be
// applied unseen, and the NSF rule of statement analysis.

describe('the lender-domain gate compares whole domains', () => {
  const lender = ['submissions@lender.example', 'uw@cc-partner.example'];
  it('accepts the lender\'s own domains, in any case', () => {
    expect(isLenderDomain('dana@lender.example', lender)).toBe(true);
    expect(isLenderDomain('Dana@LENDER.Example', lender)).toBe(true);
    expect(isLenderDomain('desk@cc-partner.example', lender)).toBe(true);
  });
  it('refuses a domain that merely ends with the lender\'s domain, or contains it', () => {
    for (const sender of [
      'desk@evil-lender.example', // a suffix without a label boundary
      'desk@notlender.example',
      'desk@lender.example.evil.example', // the lender's domain as a prefix
      'lender.example@evil.example', // the lender's domain in the local part
      'desk@xcc-partner.example',
      'desk@example',
      'lender.example',
      'desk@',
    ]) expect(isLenderDomain(sender, lender), sender).toBe(false);
  });
  it('a lender with no addresses accepts no one', () => {
    expect(isLenderDomain('dana@lender.example', [null, undefined, ''])).toBe(false);
  });
});

describe('NSF and returned items on statements', () => {
  it.each([
    'NSF FEE', 'NON-SUFFICIENT FUNDS CHARGE', 'INSUFFICIENT FUNDS FEE', 'RETURNED ITEM', 'RETURN ITEM FEE 34.00', 'Returned item chargeback', 'UNPAID ITEM',
  ])('%s is an NSF', (d) => expect(isNsf(d)).toBe(true));
  it.each([
    'RETURNED ITEM CREDIT', 'Returned Item Credit 1042', 'RETURN ITEM  CREDIT', 'ONLINE TRANSFER FROM SAVINGS', 'CARD SETTLEMENT',
  ])('%s is not an NSF (money back to the merchant is not a bounced item)', (d) => expect(isNsf(d)).toBe(false));
});
