import { afterEach, describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { funderRowsDisagree, mcaFunder, setOperatorRules } from '../../src/features/statements/rules';

// blind-52 (sfix17): two statements refused as uncertain_categories, each by a general gap, written
// here as small registers of our own (invented payers; the trade's and the banks' words), run through
// the reader (categoryDoubt, then figuresOf). Each test fails without its fix.

afterEach(() => setOperatorRules([]));

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT SQUARE INC DEP ${5510 + i}`, 3000));
const read = (txns: Txn[]) => {
  const doubt = categoryDoubt(txns);
  const f = figuresOf({ ok: true, txns, period: { start: '2026-03-01', end: '2026-03-31' }, opening: 1_000_000, closing: 1_000_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);
  return doubt ? { refused: doubt } : { mca_count: f.mca_count, true_revenue: f.true_revenue };
};
const weekly = (words: string, dollars: number) => ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30'].map((d, i) => tx(d, `${words} ${77120 + i}`, -dollars));

describe('1. a known funder\'s debit worded as an EQUIPMENT LEASE is the lease\'s payment, not a position nor the rows\' disagreement', () => {
  // Funders also lease equipment (as they lend on credit lines): "TOAST CAPITAL EQUIP LEASE" is named by
  // Toast Capital's funder row and by the lessors' row's "EQUIP LEAS*"; the line says what it pays.
  it.each(['ACH Withdrawal TOAST CAPITAL EQUIP LEASE Trace', 'ACH DEBIT NATIONAL FUNDING EQUIPMENT LEASE PMT CO ID'])('%s', (words) => {
    const d = `${words} 4410`;
    expect(funderRowsDisagree(d)).toBe(false);
    expect(mcaFunder(d)).toBeNull();
    expect(read([...sales, tx('2026-03-15', d, -1024.5)])).toEqual({ mca_count: 0, true_revenue: 30000 });
    // Beside the same funder's real pulls, those are still its position.
    expect(read([...sales, tx('2026-03-15', d, -1024.5), ...weekly(words.replace(/EQUIP(MENT)? LEASE/, 'WEEKLY'), 800)])).toEqual({ mca_count: 1, true_revenue: 30000 });
  });

  it('the disagreement still refuses when another not_funder phrase names the payee, and a funder\'s pull worded otherwise is still its position', () => {
    // An operator's row saying Fora Financial is no funder: both rows name it, lease wording or not.
    setOperatorRules([{ class: 'not_funder', name: 'Not Fora', match: ['FORA FINANCIAL'] }]);
    expect(funderRowsDisagree('ACH DEBIT FORA FINANCIAL EQUIP LEASE 3301')).toBe(true);
    expect(read([...sales, tx('2026-03-15', 'ACH DEBIT FORA FINANCIAL EQUIP LEASE 3301', -900)])).toMatchObject({ refused: expect.stringMatching(/named by a funder's row and by a row of payees that are no funder/) });
    setOperatorRules([]);
    expect(mcaFunder('ACH Withdrawal TOAST CAPITAL DAILY PMT Trace 4410')).toBe('Toast Capital');
  });
});

describe('2. a check the merchant deposits is not a payee\'s credit because the merchant pays checks', () => {
  // A paid check prints no payee ("Check 5120": its counterparty is the word CHECK), so it named as a
  // payee every credit beginning CHECK, among them a customer's check deposited ("Deposit Check 1043 <payer>").
  const checks = [tx('2026-03-12', 'Check 5120', -400), tx('2026-03-13', 'Check 5121', -1250)];
  it.each(['Deposit Check 1043 Wrenfield Youth Hockey Physicals', 'DEPOSIT CHECK 88 HALVERSON ROOFING', 'Mobile Deposit Check Ref 3713754884'])('%s: revenue', (words) => {
    expect(read([...sales, ...checks, tx('2026-03-20', words, 950)])).toEqual({ mca_count: 0, true_revenue: 30950 });
  });
  it.each(['CHECK 5121', 'CHECK CORRECTION 7702', 'CHECK STOP PAYMENT CREDIT 7702', 'Deposit Check 5121 Wrenfield Youth Hockey'])('%s: may be the merchant\'s own check come back, still refused', (words) => {
    expect(read([...sales, ...checks, tx('2026-03-20', words, 950)])).toMatchObject({ refused: expect.stringMatching(/counterparty the merchant pays/) });
  });
  it('a paid check whose payee the bank prints still names that payee: its deposited check is doubted', () => {
    const paid = tx('2026-03-12', 'CHECK 5130 WRENFIELD YOUTH HOCKEY', -950);
    expect(read([...sales, paid, tx('2026-03-20', 'Deposit Check 1043 Wrenfield Youth Hockey Physicals', 950)])).toMatchObject({ refused: expect.stringMatching(/counterparty the merchant pays/) });
  });
});
