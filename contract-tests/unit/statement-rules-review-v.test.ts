import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from '../support/statement-builder';
import { categoryDoubt, fundingCredit, unknownFunderPositions } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { creditDoubt, debatableCredit, mcaFunder } from '../../src/features/statements/rules';

// Review v of the sfix9/sfix10 rules (split pulls, FIRE in an insurer's name, MERCHA, "Balance on
// <date>" cells, not_funder rows, newspaper columns, cross-reference notes): each test fails when
// its fix is removed. Invented funders and merchants throughout, in the ACH wordings banks print.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
const reconciled = (txns: Txn[]) => ({ ok: true as const, txns, period: { start: '2026-03-01', end: '2026-03-31' }, opening: 1_000_000, closing: 1_000_000 + txns.reduce((a, t) => a + t.cents, 0) });
const mondays = [2, 9, 16, 23, 30];
const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;

describe("a not_funder phrase names the payee only in the payee's own name, never in the receiver's (the merchant's) name", () => {
  // Bank of America ("INDN:"), Chase ("IND NAME:") and Wells Fargo (the receiver's name after the
  // date and ID) print the merchant's own name on every ACH line. A merchant called "Gusto
  // Trattoria", "Upstart Brewing" or "Transamerica Trucking" carries a payroll company's, a consumer
  // lender's or an insurer's name: its funder's pulls were read as that payee's (never a position,
  // no doubt), so an advance's weekly pulls gave a parsed statement with no MCA position.
  const formats: Array<[string, (payee: string, entry: string, merchant: string, d: number) => string]> = [
    ['INDN', (payee, entry, merchant, d) => `${payee} DES:${entry} ID:XXXXX4417${d} INDN:${merchant} CO ID:XXXXX88213 CCD`],
    ['IND NAME', (payee, entry, merchant, d) => `ORIG CO NAME:${payee} ORIG ID:9876543210 DESC DATE:2603${d} CO ENTRY DESCR:${entry} SEC:CCD TRACE#:02100002${d} EED:2603${d} IND ID:ST-X4K9 IND NAME:${merchant}`],
    ['receiver last', (payee, entry, merchant, d) => `${payee} ${entry} 2603${String(d).padStart(2, '0')} 7YF${d}H4K ${merchant}`],
  ];
  const merchants = ['GUSTO TRATTORIA LLC', 'UPSTART BREWING CO', 'TRANSAMERICA TRUCKING LLC', 'BEST EGG CAFE INC'];
  const sales = (merchant: string) => Array.from({ length: 10 }, (_, i) => tx(day(i + 2), `BANKCARD DES:MTOT DEP ID:55${i} INDN:${merchant} CO ID:1234 CCD`, 3000));
  for (const [name, fmt] of formats) {
    it.each(merchants)(`${name}: an unknown funder's weekly pulls to %s are its position`, (merchant) => {
      const pulls = mondays.map((d) => tx(day(d), fmt('OAKMONT FUNDING', 'WEEKLY', merchant, d), -750));
      const all = [...sales(merchant), ...pulls];
      expect([...unknownFunderPositions(all).keys()]).toEqual(pulls);
      expect(categoryDoubt(all)).toBeNull();
      const f = figuresOf(reconciled(all), null);
      expect(f.mca_count).toBe(1);
      expect(f.mca_withhold_percent).toBe(12.5);
    });
    it.each(merchants)(`${name}: a known funder's pulls to %s are its position, not a disagreement of rows`, (merchant) => {
      const pulls = mondays.map((d) => tx(day(d), fmt('LIBERTAS FUNDING', 'ACH PMT', merchant, d), -750));
      expect(mcaFunder(pulls[0].description)).toBe('Libertas Funding');
      const all = [...sales(merchant), ...pulls];
      expect(categoryDoubt(all)).toBeNull();
      expect(figuresOf(reconciled(all), null).mca_count).toBe(1);
    });
    it(`${name}: a payroll company's FUNDING pulls stay no position, the merchant's name aside`, () => {
      const pulls = mondays.map((d) => tx(day(d), fmt('GUSTO', 'FUNDING', 'BLUE DUCK TAVERN LLC', d), -4200));
      const all = [...sales('BLUE DUCK TAVERN LLC'), ...pulls];
      expect(unknownFunderPositions(all).size).toBe(0);
      expect(figuresOf(reconciled(all), null).mca_count).toBe(0);
    });
  }
  it("an unknown funder's funding credit to such a merchant is its funding, not a payee that is no funder", () => {
    expect(fundingCredit('OAKMONT FUNDING DES:FUNDING ID:XXXXX4417 INDN:GUSTO TRATTORIA LLC CO ID:XXXXX88213 CCD')).toBe(true);
    expect(fundingCredit('GUSTO FUNDING DES:FUNDING ID:XXXXX4417 INDN:BLUE DUCK TAVERN LLC CO ID:XXXXX88213 CCD')).toBe(false);
  });
});

describe("a payee no funder passes over its own debits, never another payee's that its first words share", () => {
  // Banks that open every ACH line with words of their own ("Direct Withdrawal", "ACH Corp Debit",
  // "Debit Memo ACH") give every payee the same first two words, the key debits are grouped by: a
  // payroll company's pull (a not_funder row) vetoed that key, so an unknown funder's weekly pulls
  // were neither counted nor left alone, and the statement was refused on them.
  it.each(['Direct Withdrawal', 'ACH Corp Debit', 'Debit Memo ACH', 'DDA ACH DEBIT'])('%s: payroll beside an unknown funder, the funder still a position', (lead) => {
    const sales = Array.from({ length: 10 }, (_, i) => tx(day(i + 2), `DEPOSIT SQUARE INC SETTLEMENT ${i}`, 3000));
    const pulls = mondays.map((d) => tx(day(d), `${lead} OAKMONT FUNDING WEEKLY ${d}77`, -750));
    const payroll = [tx(day(13), `${lead} GUSTO PAYROLL 0313`, -4200.12), tx(day(27), `${lead} GUSTO PAYROLL 0327`, -4310.5)];
    const all = [...sales, ...pulls, ...payroll];
    expect([...unknownFunderPositions(all).keys()]).toEqual(pulls);
    expect(categoryDoubt(all)).toBeNull();
    expect(figuresOf(reconciled(all), null).mca_count).toBe(1);
  });
});

describe("FIRE before the claim word is the insurer's name only right after that name; after an insurer's word or another word it is the loss", () => {
  // sfix9 read any FIRE before the claim word as an insurer's name (State Farm Fire and Casualty):
  // an insurer's fire claim paid to the merchant ("ERIE INSURANCE FIRE CLAIM PMT", "HARTFORD INS CO
  // FIRE CLAIM", "... INS KITCHEN FIRE CLAIM") was then counted as sales with no doubt.
  it.each([
    'ACH CREDIT ERIE INSURANCE FIRE CLAIM PMT 2231',
    'ACH CREDIT HARTFORD INS CO FIRE CLAIM 88213',
    'ACH CREDIT CINCINNATI INS KITCHEN FIRE CLAIM',
    'ACH CREDIT HISCOX INS FIRE CLAIM ADV 4471',
    'ACH CREDIT STATE FARM KITCHEN FIRE CLAIM',
    'DEPOSIT AMTRUST NORTH AMERICA FIRE CLM PMT',
  ])('%s: a fire claim, debatable', (d) => {
    expect(debatableCredit(d)).toBe(true);
    expect(creditDoubt(d)).toBe('debatable');
  });
  it.each(['ACH CREDIT STATE FARM FIRE CLAIM PMT 993440358', 'ACH CREDIT ALLSTATE FIRE CLAIM PMT 5512', 'ACH CREDIT LIBERTY MUTUAL FIRE CLAIM 2210', 'ACH DEPOSIT FIRE INSURANCE EXCH CLAIM PMT 8812'])('%s: the insurer named FIRE, a plain claim payment', (d) => {
    expect(debatableCredit(d)).toBe(false);
  });
});

describe("a merchant named like a payroll company, its funder's pulls printed with its name (INDN:), read from a PDF", () => {
  // End to end: a restaurant called "Gusto Trattoria", its bank printing the receiver's name on every
  // ACH line, an unknown funder pulling $750.00 every Monday. Before review v: parsed, MCA 0.
  const money = (c: number) => `${c < 0 ? '-' : '+'}$${(Math.abs(c) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  const stmt = (merchant: string): PageSpec[] => {
    const rows: Array<[string, string, number]> = [];
    for (const d of [2, 9, 16, 23]) {
      rows.push([`Jun ${String(d).padStart(2, '0')}`, `OAKMONT FUNDING DES:WEEKLY ID:XXXXX44${d} INDN:${merchant} CO ID:XXXXX88213 CCD`, -75000]);
      rows.push([`Jun ${String(d + 1).padStart(2, '0')}`, `BANKCARD DES:MTOT DEP ID:55${d} INDN:${merchant} CO ID:1234 CCD`, 150000]);
    }
    let bal = 100000;
    const lines = rows.flatMap(([date, desc, c]) => {
      bal += c;
      const [name, rest] = desc.split(' DES:');
      return [[[40, date], [96, name], [480, money(c), { r: true }], [570, `$${(bal / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`, { r: true }]], [[96, `DES:${rest}`]]] as PageSpec[number][];
    });
    return [[
      [[430, 'Business Checking Statement']],
      [[40, 'ledgerly'], [462, 'June 1, 2026 - June 30, 2026']],
      [[48, 'Balance on Jun 01'], [181, 'Money in (4)'], [314, 'Money out (4)'], [447, 'Balance on Jun 30']],
      [[48, '$1,000.00'], [181, '+$6,000.00'], [314, '-$3,000.00'], [447, `$${(bal / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`]],
      [[40, 'Account activity']],
      [[40, 'DATE'], [96, 'DESCRIPTION'], [447, 'AMOUNT'], [534, 'BALANCE']],
      ...lines,
    ]];
  };
  it.each(['GUSTO TRATTORIA LLC', 'BLUE DUCK TAVERN LLC'])('%s: one position, half the deposits withheld', async (merchant) => {
    const r = await analyzeStatementPdf(await statementPdf(stmt(merchant)));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) expect(r.figures).toMatchObject({ beginning_balance: 1000, ending_balance: 4000, deposits_total: 6000, mca_count: 1, mca_withhold_percent: 50 });
  });
});
