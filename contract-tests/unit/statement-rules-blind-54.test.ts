import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { categoryDoubt } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { creditDoubt, treasuryPaysOrder } from '../../src/features/statements/rules';
import { statementPdf, type PageSpec } from '../support/statement-builder';

// blind-54 (sfix20): four statements refused by general gaps, written here as registers and small
// statements of our own (invented banks, payers and amounts; the trade's and the banks' words). Each
// test fails without its fix.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $24,000 of sales, eight of them. */
const payouts = Array.from({ length: 8 }, (_, i) => tx(`2026-06-${String(i + 2).padStart(2, '0')}`, `ELECTRONIC CREDIT CLOVER SETTLEMENT ${4410 + i}`, 3000));
const read = (txns: Txn[]) => {
  const doubt = categoryDoubt(txns);
  const f = figuresOf({ ok: true, txns, period: { start: '2026-06-01', end: '2026-06-30' }, opening: 500_000, closing: 500_000 + txns.reduce((a, t) => a + t.cents, 0) }, null);
  return doubt ? { refused: doubt } : { true_revenue: f.true_revenue };
};

describe("1. a contractor's progress billing paid by a customer that pays the merchant's invoices in the same period is sales", () => {
  const builder = (d: string, dollars: number) => tx('2026-06-09', `ELECTRONIC CREDIT HARBORVIEW BUILDERS ${d}`, dollars);
  const progress = tx('2026-06-18', 'ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 REF 55102', 9400);

  it('the builder pays its accounts payable run and, once, a progress billing: all of it counted', () => {
    expect(read([...payouts, builder('ACCOUNTS PAYABLE 5521', 2100), progress])).toEqual({ true_revenue: 24000 + 2100 + 9400 });
  });
  it('the progress billing alone, no other payment from that builder in the period: still refused', () => {
    expect(read([...payouts, progress])).toMatchObject({ refused: expect.stringContaining('of a kind no rule knows') });
  });
  it('another company pays the invoices: no sign the billing is a customer\'s, refused', () => {
    expect(read([...payouts, tx('2026-06-09', 'ELECTRONIC CREDIT SEASIDE MILLWORK ACCOUNTS PAYABLE 7712', 2100), progress])).toMatchObject({ refused: expect.stringContaining('of a kind no rule knows') });
  });
  it('a billing entry with money held\'s words (escrow) is no price of work: refused', () => {
    const draw = tx('2026-06-18', 'ELECTRONIC CREDIT HARBORVIEW BUILDERS PROGRESS BILLING 7 ESCROW RELEASE', 9400);
    expect(read([...payouts, builder('ACCOUNTS PAYABLE 5521', 2100), draw])).toHaveProperty('refused');
  });
  it('the merchant pays that builder too in the period: money may be its own coming back, refused', () => {
    const paid = tx('2026-06-11', 'ELECTRONIC DEBIT HARBORVIEW BUILDERS EQUIP RENTAL 3301', -1800);
    expect(read([...payouts, builder('ACCOUNTS PAYABLE 5521', 2100), paid, progress])).toHaveProperty('refused');
  });
});

describe("2. the US Treasury disbursing a federal department's order is a customer's payment, no treasury account", () => {
  const order = 'INCOMING WIRE TRANSFER UNITED STATES TREASURY ORG DEPARTMENT OF THE ARMY DELIVERY ORDER W912DY25F0031';
  it('a delivery order paid through the Treasury: not read as an own-account transfer', () => {
    expect(treasuryPaysOrder(order)).toBe(true);
    expect(creditDoubt(order)).toBeNull();
  });
  it('and, though large and once, counted as sales', () => {
    expect(read([...payouts, tx('2026-06-24', order, 41000)])).toEqual({ true_revenue: 65000 });
  });
  it('the department printed as the originator without a colon ("ORG DEPT OF ..."), the Treasury by its short name: the sender is the department', () => {
    expect(read([...payouts, tx('2026-06-24', 'WIRE TRANSFER IN US TREAS 303 ORG DEPT OF ENERGY TASK ORDER 89243', 27500)])).toEqual({ true_revenue: 51500 });
  });
  it('the Treasury paying a refund, or naming no order, stays what it was', () => {
    expect(treasuryPaysOrder('INCOMING WIRE TRANSFER UNITED STATES TREASURY ORG DEPARTMENT OF LABOR REFUND DELIVERY ORDER 55')).toBe(false);
    expect(creditDoubt('INCOMING WIRE TRANSFER US TREASURY 310 BILL MATURITY')).toBe('transfer');
  });
});

const R = (x: number, t: string) => [x, t, { r: true }] as const;
const readPdf = async (pages: PageSpec[]) => analyzeStatementPdf(await statementPdf(pages));
function figures(r: StatementResult) {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('not parsed');
  return r.figures;
}

describe("3. a fee line only doubted as an overdraft fee counts as one when the bank's printed period total of overdraft fees takes it", () => {
  const statement = (feeBox: PageSpec[number][]): PageSpec[] => [[
    'Juniper Flats Credit Union', 'Statement Period  June 1, 2026 to June 30, 2026',
    [[50, 'Beginning Balance'], R(300, '$1,200.00')],
    [[50, 'Deposits & Credits (2)'], R(300, '3,000.00')],
    [[50, 'Withdrawals & Debits (3)'], R(300, '-4,320.00')],
    [[50, 'Ending Balance'], R(300, '$-120.00')],
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount'), R(540, 'Balance')],
    [[50, '06/03'], [100, 'Deposit ACH STRIPE TRANSFER 8801'], R(440, '1,500.00'), R(540, '2,700.00')],
    [[50, '06/10'], [100, 'Withdrawal ACH MESA VERDE LEASING RENT'], R(440, '-2,600.00'), R(540, '100.00')],
    [[50, '06/12'], [100, 'Withdrawal Check #1044'], R(440, '-1,690.00'), R(540, '-1,590.00')],
    [[50, '06/12'], [100, 'Courtesy Fee - Overdraft Transfer or Paid Item'], R(440, '-30.00'), R(540, '-1,620.00')],
    [[50, '06/20'], [100, 'Deposit ACH STRIPE TRANSFER 8802'], R(440, '1,500.00'), R(540, '-120.00')],
    ...feeBox,
  ]];
  it("the box's Total Overdraft Fees for the period is that line: one NSF event, parsed", async () => {
    const r = await readPdf(statement([[[50, 'Fees Summary'], R(470, 'Total for this period'), R(540, 'Total year-to-date')], [[50, 'Total Overdraft Fees'], R(470, '$30.00'), R(540, '$90.00')], [[50, 'Total Returned Item Fees'], R(470, '$0.00'), R(540, '$0.00')]]));
    expect(figures(r)).toMatchObject({ nsf_count: 1, true_revenue: 3000, ending_balance: -120 });
  });
  it('no such total printed: the line may be a protection transfer\'s fee, refused', async () => {
    expect(await readPdf(statement([]))).toMatchObject({ ok: false, code: 'uncertain_categories' });
  });
  it('the bank prints no overdraft fee this period: the line is not one by the bank\'s count, still doubted', async () => {
    const r = await readPdf(statement([[[50, 'Fees Summary'], R(470, 'Total for this period'), R(540, 'Total year-to-date')], [[50, 'Total Overdraft Fees'], R(470, '$0.00'), R(540, '$60.00')]]));
    expect(r).toMatchObject({ ok: false });
  });
});

describe('4. a company with the warranty word in its name paying the merchant as its vendor is a third-party payer', () => {
  it.each(['ACH CREDIT SUNBELT HOME WARRANTY ACCOUNTS PAYABLE 0419', 'PREAUTHORIZED CREDIT KEYSTONE HOME WARR AP PMT 22871', 'ACH CREDIT PRAIRIE SVC WRNTY PLAN VENDOR PAYMENT'])('%s: sales', (d) => {
    expect(creditDoubt(d)).toBeNull();
    expect(read([...payouts, tx('2026-06-15', d, 1850)])).toEqual({ true_revenue: 25850 });
  });
  it.each([
    'ACH CREDIT ORCHARD APPLIANCE WARRANTY CREDIT VENDOR PMT', // a maker's warranty credit, vendor words or not
    'ACH CREDIT SUNBELT HOME WARRANTY CLAIM AP PMT 0419', // a claim
    'ACH CREDIT RIDGELINE MOTORS AP PAYMENT WARRANTY PARTS', // the payment words before the warranty's: parts credited
    'ACH CREDIT SUNBELT HOME WARRANTY LABOR REIMB VENDOR PMT', // labour reimbursed
  ])('%s: still debatable', (d) => {
    expect(creditDoubt(d)).toBe('debatable');
  });
});
