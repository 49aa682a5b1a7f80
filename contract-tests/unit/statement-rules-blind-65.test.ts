import { describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { classify, creditDoubt, creditSettled, depositKind, factoringSale } from '../../src/features/statements/rules';
import { figures, readRegister } from '../support/statement-read';

// blind-65 (sf65): a rancher's sale barn paying for cattle ("ACH CREDIT SALINA LIVESTOCK PROCEEDS",
// "RUSSELL LIVESTOC PROCEEDS", the name cut at 16 characters) was doubted as a loan's proceeds; and
// three blind batches (blind-62, -64, -66) label a factoring company's payment for a trucker's
// invoices as sales, which the reader doubted (a factor's every credit). The lines here are our own.
// Each test fails without its rule.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));

describe('1. the proceeds of a sale of the merchant\'s goods (livestock, grain, timber, produce, an auction) are sales', () => {
  it.each([
    'ACH CREDIT DODGE CITY LIVESTOCK PROCEEDS 4471023',
    'ACH CREDIT ABILENE LIVESTOC PROCEEDS 0098812', // the name cut at 16 characters
    'ACH CREDIT MIDWEST CATTLE SALE PROCEEDS',
    'ELECTRONIC DEPOSIT WINTER SALE BARN PROCEEDS 7781',
    'ACH CREDIT PRAIRIE STOCKYARDS PROCEEDS 4410',
    'ACH CREDIT CO-OP GRAIN ELEVATOR WHEAT PROCEEDS',
    'ACH CREDIT HILLTOP TIMBER PROCEEDS 2231',
    'ACH DEPOSIT VALLEY PRODUCE AUCTION PROCEEDS',
    'ACH CREDIT OZARK HOG PROCEEDS 1102 INDN:PRUITT FARMS LLC',
    'ACH CREDIT SOYBEAN COMMODITY PROCEEDS 8812',
  ])('%s', (d) => {
    expect(depositKind(d), d).toBe('revenue');
    expect(creditDoubt(d), d).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', d, 2400)]), d).toBeNull();
  });

  it.each([
    ['ACH CREDIT LOAN PROCEEDS 4471', 'loan'], // a loan row
    ['PROCEEDS OF NOTE 88213', 'funding'],
    ['SBA EIDL PROCEEDS', 'loan'],
    ['ACH CREDIT XYZ PROCEEDS 7781', 'funding'], // proceeds of what? unknown
    ['ACH CREDIT LIVESTOCK LOAN PROCEEDS 4471', 'loan'],
    ['ACH CREDIT CATTLE NOTE PROCEEDS', 'loan'],
    ['ACH CREDIT FARM CREDIT SVCS CATTLE PROCEEDS', 'funding'], // a farm lender
    ['ACH CREDIT USDA CCC COMMODITY PROCEEDS', 'funding'], // a government commodity loan
    ['ACH CREDIT COMMODITY CREDIT CORP GRAIN PROCEEDS', 'funding'],
    ['ACH CREDIT CROP INS PROCEEDS 2231', 'funding'], // crop insurance's indemnity
    ['ACH CREDIT RITCHIE EQUIPMENT AUCTION PROCEEDS', 'funding'], // the business's assets sold
    ['ACH CREDIT FARM MACHINERY AUCTION PROCEEDS', 'funding'],
    ['ACH CREDIT LAND AUCTION PROCEEDS', 'funding'],
    ['ACH CREDIT GRAIN FINANCE PROCEEDS', 'funding'], // a funder's word
  ])('%s: stays a loan or doubted', (d, kind) => {
    if (kind === 'loan') expect(depositKind(d), d).toBe('loan');
    else {
      expect(depositKind(d), d).toBe('revenue');
      expect(creditDoubt(d), d).toBe('funding');
      expect(categoryDoubt([...sales, tx('2026-03-16', d, 2400)]), d).toMatch(/reads like a loan or an advance's funding/);
    }
  });

  it('a statement with a sale barn\'s proceeds is read, its proceeds sales', async () => {
    const f = figures(await readRegister('Flint Hills State Bank', 'PRUITT CATTLE CO', [['06/12', 'ACH CREDIT ELLSWORTH LIVESTOCK PROCEEDS 4471023', 4_000]]));
    expect([f.deposits_total, f.true_revenue]).toEqual([9_500, 9_500]);
  });
  it('near miss: a statement with a loan\'s proceeds worded the same way is refused or not counted as sales', async () => {
    const r = await readRegister('Flint Hills State Bank', 'PRUITT CATTLE CO', [['06/12', 'ACH CREDIT ELLSWORTH PROCEEDS OF NOTE 4471023', 4_000]]);
    if (r.ok) expect(r.figures.true_revenue).toBe(5_500);
  });
});

describe('2. a factoring company\'s payment for the merchant\'s invoices is sales; its advance, fuel advance or loan stays doubted', () => {
  it.each([
    'ACH CR RTS FINANCIAL FACTORING 88213', // a known factor, worded factoring
    'ELECTRONIC DEPOSIT ORIG CO NAME:OTR SOLUTIONS CO ENTRY DESCR:FACTORING SEC:CCD TRACE#:0412 IND NAME:PRUITT TRUCKING',
    'ACH CREDIT APEX CAPITAL CORP INV 4471', // a known factor by its name alone
    'ACH CREDIT TAFS INC SCHEDULE 2231',
    'ACH CREDIT RIVIERA FINANCE PAYMENT 7781',
    'ACH CREDIT ECAPITAL FREIGHT PMT',
    'ACH CREDIT PORTER FREIGHT FUNDING 0098',
    'Triumph Business Cap freight payment | ID 5561',
    'ACH CREDIT TRIUMPH PAY FACTORING CCD ID 2231', // TriumphPay is no factor row; the word says it
    'ACH CREDIT WRENFIELD FACTORING 4471', // an unknown payee, explicitly factoring
    'ACH CREDIT WRENFIELD COMMERCIAL INVOICE PURCHASE 2231', // an invoice purchase
    'ACH CREDIT DENIM FACTORING 7781',
    'ACH CREDIT DENIM INC 7781', // a factor row added by sf65
    'ACH CREDIT COMPASS FUNDING SOLUTIONS 2231',
    'ACH CREDIT FLEET ONE FACTORING 5512',
  ])('%s', (d) => {
    expect(factoringSale(d), d).toBe(true);
    expect(depositKind(d), d).toBe('revenue');
    expect(creditDoubt(d), d).toBeNull();
    expect(creditSettled(d), d).toBe(true);
    // Settled, however large (a quarter of the credits, once in the period).
    expect(categoryDoubt([...sales, tx('2026-03-16', d, 9850)]), d).toBeNull();
  });

  it.each([
    'ACH CREDIT RTS FINANCIAL FACTORING ADV 88213', // the factor's advance: a loan to some underwriters
    'ACH CREDIT TRIUMPH BUSINESS CAP FACTORING ADVANCE ID 4471',
    'ACH CREDIT TAFS INC FUEL ADVANCE 2231',
    'ACH CREDIT OTR SOLUTIONS FUEL ADV 7781',
    'ACH CREDIT APEX CAPITAL CORP LOAN 4471',
    'ACH CREDIT RIVIERA FINANCE RESERVE RELEASE 2231',
    'ACH CREDIT RTS FINANCIAL REBATE 7781',
    'ACH CREDIT WRENFIELD FACTORING CASH ADVANCE', // an unknown financier's advance
    'ACH CREDIT WRENFIELD CAPITAL FUTURE RECEIVABLES PURCHASE', // an MCA's words
    'ACH CREDIT WRENFIELD FACTORING LINE OF CREDIT DRAW',
  ])('%s: doubted', (d) => {
    expect(factoringSale(d), d).toBe(false);
    expect(creditDoubt(d), d).not.toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', d, 2400)]), d).not.toBeNull();
  });

  it('an unknown financier with no factoring words stays doubted', () => {
    for (const d of ['ACH CREDIT WRENFIELD CAPITAL INV 4471', 'ACH CREDIT WRENFIELD FUNDING 2231', 'ACH CREDIT WRENFIELD FINANCIAL PMT']) {
      expect(factoringSale(d), d).toBe(false);
      expect(creditDoubt(d), d).toBe('funding');
    }
  });

  it('the merchant\'s own name in the receiver\'s field says nothing of the factor\'s credit', () => {
    expect(factoringSale('ACH CREDIT RTS FINANCIAL FACTORING 88213 INDN:ADVANCE TRUCKING LLC')).toBe(true);
    expect(factoringSale('ACH CREDIT RTS FINANCIAL ADVANCE 88213 INDN:PRUITT TRUCKING LLC')).toBe(false);
  });

  it('a funder\'s row naming the line too keeps it out of sales', () => {
    // A merchant cash advance funder that also factors: its credit is never settled as sales.
    const d = 'ACH CREDIT FORA FINANCIAL FACTORING 4471';
    expect(classify(d).map((c) => c.class)).toContain('mca_funder');
    expect(factoringSale(d)).toBe(false);
  });

  it('a factor\'s debit is still no position and no sale', () => {
    expect(factoringSale('ACH DEBIT RTS FINANCIAL FEE 4471')).toBe(false);
  });

  it('a statement with a factor\'s payments is read, its payments sales', async () => {
    const f = figures(await readRegister('Salina Savings Bank', 'PRUITT TRUCKING LLC', [
      ['06/12', 'ACH CR RTS FINANCIAL FACTORING 4471023', 4_000],
      ['06/19', 'ACH CR RTS FINANCIAL FACTORING 4471099', 3_000],
    ]));
    expect([f.deposits_total, f.true_revenue]).toEqual([12_500, 12_500]);
  });
  it('near miss: a statement with a factor\'s fuel advance is refused', async () => {
    const r = await readRegister('Salina Savings Bank', 'PRUITT TRUCKING LLC', [['06/12', 'ACH CR RTS FINANCIAL FUEL ADVANCE 4471023', 4_000]]);
    expect(r.ok).toBe(false);
  });
});
