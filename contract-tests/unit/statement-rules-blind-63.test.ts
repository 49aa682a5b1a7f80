import { describe, expect, it } from 'vitest';
import { categoryDoubt, MAX_LOAN_CREDITS, recurringLoanCredits } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { statementRules } from '../../src/features/statements/rule-table';
import { depositKind } from '../../src/features/statements/rules';
import { figures, readRegister } from '../support/statement-read';

// blind-63 (sf63): the first batch from pdflatex, WeasyPrint and wkhtmltopdf. Its one wrong figure
// was no typesetting fault (pdf.js gives TeX's fi / ff / ffi / fl ligatures as letters, and the
// rules upper-case a description, which turns U+FB01 into "FI" too): a solar installer's customers'
// loan fundings ("GOODLEAP LLC Loan Funding Settlement", thirteen in a month) were settled as the
// merchant's own loan proceeds, and nothing doubted a true revenue a quarter of the credits. The
// cases here are lines and statements of our own. Each test fails without its rule.

describe('ligatures: an upper-cased description spells them out', () => {
  it('U+FB01 / U+FB03 / U+FB02 read as FI / FFI / FL, so a ligature set by TeX matches the rows', () => {
    expect('O\uFB03ce Insu\uFB03cient \uFB02oor'.toUpperCase()).toBe('OFFICE INSUFFICIENT FLOOR');
    expect(depositKind('Transfer \uFB01rst from Savings xxxxxx7720')).toBe(depositKind('Transfer first from Savings xxxxxx7720'));
  });
});

describe('1. a consumer-financing program\'s payout worded as its loan\'s funding is sales', () => {
  it('the table still has the two rows the rule names', () => {
    const rows = statementRules().builtIn;
    expect(rows.some((r) => r.class === 'loan' && r.name === 'Loan proceeds')).toBe(true);
    expect(rows.some((r) => r.class === 'processor' && r.name?.startsWith('Consumer financing programs'))).toBe(true);
  });
  it('new phrasings: the customer\'s lender paying the contractor for the job', () => {
    for (const d of [
      'ACH CREDIT GREENSKY LLC LOAN FUNDING 20260311 JOB 4471',
      'Electronic Deposit SERVICE FINANCE CO Loan Disbursement Cust 88120',
      'ACH Credit Sunlight Financial loan funding settlement ID 5512098833',
      'ORIG CO NAME:SOLAR MOSAIC LLC ENTRY DESCR:LOAN FUND',
      'Deposit WISETACK loan deposit project 22-0918',
    ]) expect(depositKind(d), d).toBe('revenue');
  });
  it('near misses: a lender no program row knows, a funder\'s loan, an SBA loan, "Mosaic" alone stay loan proceeds', () => {
    for (const d of [
      'ACH CREDIT HARBORVIEW LLC LOAN FUNDING SETTLEMENT ID 33120',
      'ACH Credit SHOPIFY LOAN FUNDING 88231',
      'SBA EIDL LOAN FUNDING TREAS 310 GREENSKY',
      'ACH Credit MOSAIC TILE WORKS LOAN FUNDING 4410',
    ]) expect(depositKind(d), d).toBe('loan');
  });
});

const txn = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
const sales = [txn('2026-05-04', 'ACH CREDIT STRIPE TRANSFER ST-88123', 4_200), txn('2026-05-11', 'Mobile Deposit Ref 7781230011', 1_900), txn('2026-05-18', 'ACH CREDIT SQUARE INC 260518', 2_600)];
const rent = txn('2026-05-01', 'ACH DEBIT LANDLORD PROPERTIES RENT MAY', -3_000);

describe('2. more than two credits settled as loan or advance proceeds in one statement are doubted', () => {
  it('three "loan funding" credits from a lender no row knows: the statement refuses', () => {
    const loans = ['2026-05-05', '2026-05-12', '2026-05-19'].map((d, i) => txn(d, `ACH CREDIT HARBORVIEW LLC LOAN FUNDING SETTLEMENT ID 3312${i}`, 9_000 + i * 1_000));
    const txns = [rent, ...sales, ...loans];
    expect(recurringLoanCredits(txns)).toHaveLength(3);
    expect(categoryDoubt(txns)).toMatch(/^3 credits \(.*% of the credits\) are worded as loan or advance proceeds/);
  });
  it('new phrasings of every kind counted together: an SBA disbursement, an unknown funder\'s funding, loan proceeds', () => {
    const txns = [rent, ...sales, txn('2026-05-06', 'SBA LOAN DISBURSEMENT 7A 0091', 50_000), txn('2026-05-13', 'INCOMING WIRE HOLLIS BAY FUNDING LLC FUNDING 4420', 30_000), txn('2026-05-20', 'LOAN PROCEEDS NOTE 88120 EQUIPMENT', 12_000)];
    expect(categoryDoubt(txns)).toMatch(/^3 credits .* worded as loan or advance proceeds/);
  });
  it('near miss: three known funders\' fundings in one period (stacked advances) are settled by the table, not doubted by this rule', () => {
    const stacked = [txn('2026-05-04', 'INCOMING WIRE LIBERTAS FUNDING LLC FUNDING 4420', 30_000), txn('2026-05-11', 'ACH CREDIT KAPITUS FUNDING 2231', 25_000), txn('2026-05-19', 'ONDECK CAPITAL FUNDING 7781', 20_000)];
    expect(recurringLoanCredits([rent, ...sales, ...stacked])).toEqual([]);
    expect(categoryDoubt([rent, ...sales, ...stacked]) ?? '').not.toMatch(/worded as loan or advance proceeds/);
    // ... but a third credit of the generic loan words beside two of them is counted with the rest
    expect(recurringLoanCredits([rent, ...sales, ...stacked.slice(0, 1), ...['05', '12', '20'].map((d) => txn(`2026-05-${d}`, 'LOAN PROCEEDS NOTE 4410', 9_000))])).toHaveLength(3);
  });
  it(`near miss: ${MAX_LOAN_CREDITS} such credits (a loan and an advance in one period) are not doubted by this rule`, () => {
    const txns = [rent, ...sales, txn('2026-05-06', 'SBA LOAN DISBURSEMENT 7A 0091', 50_000), txn('2026-05-13', 'INCOMING WIRE LIBERTAS FUNDING LLC FUNDING 4420', 30_000)];
    expect(recurringLoanCredits(txns)).toEqual([]);
    expect(categoryDoubt(txns) ?? '').not.toMatch(/worded as loan or advance proceeds/);
  });
  it('near miss: a line of credit drawn five times is the merchant\'s own line, drawn as it needs', () => {
    const draws = ['05', '08', '12', '19', '26'].map((d) => txn(`2026-05-${d}`, 'Loan Advance From Commercial Line Of Credit 0042', 5_000));
    expect(recurringLoanCredits([rent, ...sales, ...draws])).toEqual([]);
  });
  it('near miss: consumer-financing payouts, however many, are sales and not counted', () => {
    const payouts = ['05', '08', '12', '19'].map((d, i) => txn(`2026-05-${d}`, `ACH CREDIT GREENSKY LLC LOAN FUNDING JOB 55${i}`, 7_000 + i));
    expect(recurringLoanCredits([rent, ...sales, ...payouts])).toEqual([]);
  });
});

describe('3. a whole statement: recurring loan-worded credits refuse it, never a confident low revenue', () => {
  const readIt = (lender: string, n: number) =>
    readRegister('MAPLE RIDGE BANK', 'Ridgeline Solar LLC', Array.from({ length: n }, (_, i): [string, string, number] => [`06/${String(10 + i * 3).padStart(2, '0')}`, `ACH Credit ${lender} Loan Funding Settlement ${5501 + i}`, 8_000 + i * 250]));
  it('three settlements from a lender no row knows: refused, uncertain_categories', async () => {
    const r = await readIt('BRIGHTPATH HOME LLC', 3);
    expect(r).toMatchObject({ ok: false, code: 'uncertain_categories', reason: expect.stringMatching(/^3 credits .* worded as loan or advance proceeds/) });
  });
  it('the same from a consumer-financing program: read, the settlements as sales', async () => {
    const f = figures(await readIt('GREENSKY LLC', 3));
    expect(f).toMatchObject({ deposits_total: 2_500 + 3_000 + 8_000 + 8_250 + 8_500, deposit_count: 5, true_revenue: 2_500 + 3_000 + 8_000 + 8_250 + 8_500 });
  });
  it('near miss: one such settlement from the unknown lender is its own loan\'s proceeds, read as before', async () => {
    const f = figures(await readIt('BRIGHTPATH HOME LLC', 1));
    expect(f).toMatchObject({ deposits_total: 13_500, deposit_count: 3, true_revenue: 5_500 });
  });
});
