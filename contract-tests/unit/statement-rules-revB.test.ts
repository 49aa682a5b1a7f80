import { describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from '../support/statement-builder';
import { creditDoubt, treasuryPaysOrder } from '../../src/features/statements/rules';

// revB (outside review of sfix20): lines the new rules read into a parsed statement with a wrong true
// revenue. Invented payers and amounts; each test fails without its fix.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $24,000 of sales, eight of them. */
const payouts = Array.from({ length: 8 }, (_, i) => tx(`2026-06-${String(i + 2).padStart(2, '0')}`, `ELECTRONIC CREDIT CLOVER SETTLEMENT ${4410 + i}`, 3000));
const read = (txns: Txn[]) => {
  const doubt = categoryDoubt(txns);
  const f = figuresOf({ ok: true, txns, period: { start: '2026-06-01', end: '2026-06-30' }, opening: 500_000, closing: 500_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);
  return doubt ? { refused: doubt } : { true_revenue: f.true_revenue };
};

describe("1. a home-warranty company's payables run saying what it pays is no vendor's price of work", () => {
  it.each([
    'ACH CREDIT SUNBELT HOME WARRANTY VENDOR PMT CASH IN LIEU', // the homeowner paid instead of a repair
    'ACH CREDIT SUNBELT HOME WARRANTY AP PMT BUYOUT CCD 0419117',
    'ACH CREDIT SUNBELT HOME WARRANTY ACCOUNTS PAYABLE PRORATED', // a cancelled plan's refund
    'ACH CREDIT SUNBELT HOME WARRANTY ACCOUNTS PAYABLE COMMISSION', // an agent's commission
    'ACH CREDIT SUNBELT HOME WARRANTY AP PAYMENT SETTLEMENT',
  ])('%s: still debatable, refused', (d) => {
    expect(creditDoubt(d)).toBe('debatable');
    expect(read([...payouts, tx('2026-06-15', d, 1850)])).toHaveProperty('refused');
  });
  it.each(['ACH CREDIT CHOICE HOME WARRANTY VENDOR PMT CCD 0419117', 'PREAUTHORIZED CREDIT KEYSTONE HOME WARR AP PMT 22871', 'ACH CREDIT PRAIRIE SVC WRNTY PLAN VENDOR PAYMENT'])('%s: references only after the vendor words, sales', (d) => {
    expect(read([...payouts, tx('2026-06-15', d, 1850)])).toEqual({ true_revenue: 25850 });
  });
});

describe("2. the Treasury's order payment is the order's price only when nothing after the order says otherwise", () => {
  it.each([
    'INCOMING WIRE TRANSFER US TREASURY 310 ORG DEPT OF ENERGY TASK ORDER 89243 CREDIT',
    'INCOMING WIRE TRANSFER US TREASURY 310 ORG DEPT OF COMMERCE TASK ORDER 1333 INTEREST PENALTY', // a late payment's interest
    'INCOMING WIRE TRANSFER US TREASURY 310 ORG DEPT OF ENERGY TASK ORDER 89243 SBIR PHASE II',
  ])('%s: not taken as an order paid, refused', (d) => {
    expect(treasuryPaysOrder(d)).toBe(false);
    expect(read([...payouts, tx('2026-06-24', d, 41000)])).toHaveProperty('refused');
  });
  it('the order number ends the entry, references before it: still the order paid', () => {
    const d = 'Incoming Wire Transfer US TREASURY 310 FED REF 20260331XY00714 ORG DEPT OF VETERANS AFFAIRS TASK ORDER 36C10B';
    expect(treasuryPaysOrder(d)).toBe(true);
    expect(read([...payouts, tx('2026-06-24', d, 41000)])).toEqual({ true_revenue: 65000 });
  });
});

describe("3. a progress billing from a customer that pays in the period is sales only when references alone follow the billing's words", () => {
  const ap = tx('2026-06-09', 'ELECTRONIC CREDIT HARBORVIEW BUILDERS ACCOUNTS PAYABLE 5521', 2100);
  it.each([
    'ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 BOND RELEASE', // the merchant's own bond money back
    'ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 SURETY',
    'ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 PERSONAL',
  ])('%s: refused', (d) => {
    expect(read([...payouts, ap, tx('2026-06-18', d, 9400)])).toHaveProperty('refused');
  });
  it.each(['ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 REF 55102', 'ACH DEPOSIT HARBORVIEW BUILDERS PROGRESS PMT 3 CCD 004417190032117'])('%s: sales', (d) => {
    expect(read([...payouts, ap, tx('2026-06-18', d, 9400)])).toEqual({ true_revenue: 24000 + 2100 + 9400 });
  });
});

describe("4. a section's printed count of checks among other debits is its checks", () => {
  const R = (x: number, t: string) => [x, t, { r: true }] as const;
  type Line = PageSpec[number];
  const top: Line[] = ['Pinecrest Valley Bank', 'Business Checking  March 1, 2026 - March 31, 2026', 'Account Summary', [[50, 'Beginning Balance'], R(300, '$10,000.00')], [[50, 'Ending Balance'], R(300, '$11,300.00')]];
  const hdr: Line = [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(540, 'Amount')];
  const dep = (n: number, a: string): Line => [[50, `03/0${n}`], [100, `ELECTRONIC DEPOSIT SQUARE INC DEP 44${n}`], R(540, a)];
  const wds: Line[] = [[[50, '03/03'], [100, 'ACH DEBIT VERIZON WIRELESS PAYMENT'], R(540, '1,200.00')], [[50, '03/10'], [100, 'ACH DEBIT CITY WATER UTILITY BILL'], R(540, '2,000.00')]];
  const checks = (n: number): PageSpec[] => [[...top, 'DEPOSITS AND OTHER CREDITS', hdr, dep(2, '1,500.00'), dep(3, '1,250.00'), dep(4, '1,750.00'), `CHECKS AND OTHER DEBITS  No. Checks: ${n}`, hdr, [[50, '03/03'], [100, 'CHECK 1041'], R(540, '1,200.00')], wds[1]]];
  it('"No. Checks: 1" over one check and an ACH debit: read', async () => {
    const r = await analyzeStatementPdf(await statementPdf(checks(1)));
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });
  it('"No. Checks: 3" there: refused', async () => {
    expect(await analyzeStatementPdf(await statementPdf(checks(3)))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });
});
