import { describe, expect, it } from 'vitest';
import { categoryDoubt, dailyPulls, unknownFunderPositions } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';

// Review revx of sfix11's two rules (dailyPulls, paidForByWire): the misreads confirmed through the
// reader, each test failing without its fix. Invented payees and senders: no row can know them.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const weekdays = ['02', '03', '04', '05', '06', '09', '10', '11', '12', '13'].map((d) => `2026-03-${d}`);
const figures = (txns: Txn[]) => figuresOf({ ok: true, txns, period: { start: '2026-03-01', end: '2026-03-31' }, opening: 1_000_000, closing: 1_000_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);

describe('one sum every business day to a payee whose words name another trade: no position, still in doubt', () => {
  it.each([
    ['a state lottery sweep', 'ACH DEBIT STATE LOTTERY EFT'],
    ['a franchisor’s royalty', 'ACH DEBIT WRENFIELD ROYALTY'],
    ['a franchise’s ad fund', 'ACH DEBIT WRENFIELD AD FUND'],
    ['a fuel card’s prefunding', 'ACH DEBIT WRENFIELD FUEL PREFUND'],
    ['a fleet card', 'ACH DEBIT WRENFIELD FLEET'],
    ['an armored car', 'ACH DEBIT WRENFIELD ARMORED DAILY'],
    ['a department of revenue', 'ACH DEBIT FL DEPT REVENUE'],
    ['a comptroller', 'ACH DEBIT TX COMPTROLLER'],
    ['a floor plan', 'ACH DEBIT WRENFIELD FLOORING'],
    ['an investment account', 'ACH DEBIT WRENFIELD MONEYLINK'],
    ['a brokerage', 'ACH DEBIT WRENFIELD INVESTMENTS'],
    ['a card bill', 'ACH DEBIT WRENFIELD EPAYMENT'],
    ['the owner’s draw', 'ACH DEBIT WRENFIELD OWNER DRAW'],
    ['a support order', 'ACH DEBIT WRENFIELD CHILD SUPPORT'],
    ['a reserve', 'ACH DEBIT WRENFIELD RESERVE'],
    ['a debt settlement program', 'ACH DEBIT WRENFIELD DEBT RELIEF'],
    ['a bank spelled as one word', 'ACH DEBIT WRENFIELDBANK DAILY'],
  ])('%s', (_, words) => {
    const ds = weekdays.map((d, i) => tx(d, `${words} ${567366626 + i}`, -250));
    expect(dailyPulls([...sales, ...ds]).size).toBe(0);
    expect(unknownFunderPositions([...sales, ...ds]).size).toBe(0);
    expect(figures([...sales, ...ds]).mca_count).toBe(0);
    expect(categoryDoubt([...sales, ...ds])).toMatch(/recur like an advance's payments/);
  });

  it.each(['ACH DEBIT WRENFIELD A DAILY', 'ACH DEBIT WRENFIELD RIDGE FUND DAILY DEBIT'])('%s (no other trade’s words; FUND is FUNDING cut): still a position', (words) => {
    const ds = weekdays.map((d, i) => tx(d, `${words} ${567366626 + i}`, -250));
    expect(dailyPulls([...sales, ...ds]).size).toBe(10);
  });
});
