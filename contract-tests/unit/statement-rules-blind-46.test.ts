import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from '../support/statement-builder';
import { categoryDoubt, namesFunder, unknownFunderFundings, unknownFunderPositions, unknownFunderPulls } from '../../src/features/statements/doubt';
import { figuresOf } from '../../src/features/statements/figures';
import type { Txn } from '../../src/features/statements/reconcile';
import { debatableCredit } from '../../src/features/statements/rules';

// The rules statements-blind-46 asked for (each test fails when its rule is removed). Invented
// payees throughout: no row can know them.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const reconciled = (txns: Txn[]) => ({ ok: true as const, txns, period: { start: '2026-03-01', end: '2026-03-31' }, opening: 1_000_000, closing: 1_000_000 + txns.reduce((a, t) => a + t.cents, 0) });
/** Business days of March 2026 (weekends skipped). */
const businessDays = [2, 3, 4, 5, 6, 9, 10, 11, 12, 13];
/** A different sum every day: a share of that day's sales. */
const sums = [242, 342.2, 366.94, 209.9, 192.98, 191.44, 384.94, 429.47, 273.9, 187.89];
const split = (words: string, days = businessDays) => days.map((d, i) => tx(`2026-03-${String(d).padStart(2, '0')}`, `${words} ${2891763118 + i}`, -sums[i]));

describe('a split advance: a share of each day sales, a different sum every day', () => {
  // A funder that takes a share of each day's sales pulls a different sum every business day, entered
  // as its SPLIT or HOLDBACK: an advance's position, counted, every pull (blind-46 N03: "QUARRY LANE
  // CAPITAL LLC SPLIT 11%", neither counted nor doubted, gave a parsed statement with a wrong MCA
  // count and withholding).
  it("a processor's split FEE, a different sum each business day: no position, in doubt (a fee is the processor's, not a funder's pull)", () => {
    // rev-v: "PAYARC MERCHANT SPLIT FEE" (a processor no row knows) was counted as an advance.
    const pulls = split('ACH DEBIT PAYARC MERCHANT SPLIT FEE');
    expect(unknownFunderPositions([...sales, ...pulls]).size).toBe(0);
    expect(categoryDoubt([...sales, ...pulls])).not.toBeNull();
  });

  it.each([
    ['ACH Payment WILLOWBROOK CAPITAL LLC DR SPLIT 11% CCD ID', 'WILLOWBROOK CAPITAL'],
    ['ACH DEBIT OSPREY FUNDING HOLDBACK 9%', 'OSPREY FUNDING'],
    ['ACH DEBIT TARN RIVER MERCHANT SPLIT', 'TARN RIVER'],
  ])('%s every business day: a position of %s, no doubt', (words, name) => {
    const pulls = split(words);
    const p = unknownFunderPositions([...sales, ...pulls]);
    expect([...p.keys()]).toEqual(pulls);
    expect(new Set(p.values())).toEqual(new Set([name]));
    expect(categoryDoubt([...sales, ...pulls])).toBeNull();
    const f = figuresOf(reconciled([...sales, ...pulls]), null);
    expect(f.mca_count).toBe(1);
    expect(f.mca_withhold_percent).toBe(9.41); // 2,823.66 of 30,000
  });

  it('a bare CAPITAL names a funder beside SPLIT or HOLDBACK as beside a remittance word', () => {
    expect(namesFunder('ACH DEBIT WILLOWBROOK CAPITAL SPLIT 11%')).toBe(true);
    expect(namesFunder('ACH DEBIT WILLOWBROOK CAPITAL HOLDBACK')).toBe(true);
    expect(namesFunder('ACH DEBIT WILLOWBROOK CAPITAL 11%')).toBe(false);
    // A bare CAPITAL that begins the name is a place or a brand, split or not.
    expect(namesFunder('ACH DEBIT CAPITAL CITY SPLIT')).toBe(false);
  });

  it('split pulls off schedule, or to a payee with a vendor\'s or a lease\'s words: no position, doubted when on schedule', () => {
    const scattered = split('ACH DEBIT WILLOWBROOK CAPITAL SPLIT 11%', [2, 11, 23]);
    expect(unknownFunderPositions([...sales, ...scattered]).size).toBe(0);
    for (const words of ['ACH DEBIT WILLOWBROOK CAPITAL SUPPLY SPLIT 8%', 'ACH DEBIT OSPREY FUNDING LEASE SPLIT']) {
      const pulls = split(words);
      expect(unknownFunderPositions([...sales, ...pulls]).size).toBe(0);
      expect(categoryDoubt([...sales, ...pulls])).toMatch(/^10 debits to one payee with a funder's words or a share of sales \(the first on 2026-03-02\) recur on an advance's schedule/);
    }
  });
});

describe("pulls of differing sums to a payee with a funder's words, on an advance's schedule: doubted, never dropped", () => {
  // The doubt of an unknown funder's pulls grouped them by amount only: a split advance's pulls, a
  // different sum every day, were neither counted nor doubted (blind-46 N03). Any sums to one payee
  // with the funding trade's words, a funder's name or a share of sales, three or more on an
  // advance's schedule, are doubted when no rule counts them.
  it.each([
    'ACH DEBIT KESTREL CAPITAL DAILY PMT', // a bare CAPITAL without a remittance word: no position
    'ACH DEBIT KESTREL FINANCIAL', // the funding trade's words only
    'ACH DEBIT NORTHWIND 11% OF SALES', // a share of sales only
    'ACH DEBIT OSPREY FUNDING', // a funder's name, no schedule word
  ])('%s, a different sum every business day: doubted', (words) => {
    const pulls = split(words);
    expect(unknownFunderPositions([...sales, ...pulls]).size).toBe(0);
    expect([...unknownFunderPulls([...sales, ...pulls]).debits]).toEqual(pulls);
    expect(categoryDoubt([...sales, ...pulls])).toMatch(/^10 debits to one payee with a funder's words or a share of sales \(the first on 2026-03-02\) recur on an advance's schedule, in amounts that may differ/);
  });
  it('off schedule (a loan paid now and then), or a vendor billed daily without those words: not doubted by this rule', () => {
    expect(categoryDoubt([...sales, ...split('ACH DEBIT KESTREL FINANCIAL', [2, 12, 27])])).toBeNull();
    expect(categoryDoubt([...sales, ...split('ACH DEBIT SYSCO NORTH TEXAS INVOICES')])).toBeNull();
  });
});

describe("FIRE in an insurer's name is no loss named", () => {
  // Fire is the old name of property insurance: "STATE FARM FIRE" (State Farm Fire and Casualty, its
  // ACH name cut at 16 characters) paying a claim names the payer, and a plain claim payment stays a
  // customer's payment (blind-46 N01: a roofer's insurers' claim payments refused as a loss named).
  it.each(['ACH CREDIT STATE FARM FIRE CLAIM PMT 993440358', 'ACH CREDIT ALLSTATE FIRE AND CAS CLAIM PMT 5512', 'ACH DEPOSIT FIRE INSURANCE EXCH CLAIM PMT 8812'])('%s: a claim payment, not debatable', (d) => {
    expect(debatableCredit(d)).toBe(false);
  });
  it.each(['ACH CREDIT STATE FARM FIRE CLAIM PMT FIRE LOSS', 'ACH CREDIT ERIE INSURANCE CLAIM FIRE 4471', 'ACH CREDIT STATE FARM FIRE CLAIM HAIL DAMAGE', 'ACH CREDIT HAIL DAMAGE CLAIM PMT 2210', 'KY FARM BUREAU INS CLAIM 44120 FREEZER LOSS'])('%s: the loss named after the claim word, or another loss word anywhere: debatable', (d) => {
    expect(debatableCredit(d)).toBe(true);
  });
});

describe('MERCHANT cut to MERCHA where the ACH company name ends', () => {
  // The 16 characters of an ACH company name cut MERCHANT to MERCHA ("HALVORSEN MERCHA"), as they cut
  // it to MERCHAN: one sum every week entered so is a position (blind-46 N05, refused).
  const weekly = [3, 10, 17, 24].map((d, i) => tx(`2026-03-${String(d).padStart(2, '0')}`, `ACH WITHDRAWAL HALVORSEN MERCHA WEEKLY IND ID ${4410 + i}`, -1350));
  it('HALVORSEN MERCHA WEEKLY, one sum every week: a position, no doubt', () => {
    expect(namesFunder(weekly[0].description)).toBe(true);
    expect(new Set(unknownFunderPositions([...sales, ...weekly]).values())).toEqual(new Set(['HALVORSEN MERCHA']));
    expect(categoryDoubt([...sales, ...weekly])).toBeNull();
    expect(figuresOf(reconciled([...sales, ...weekly]), null).mca_count).toBe(1);
  });
  it('MERCHA not ending a name of 14 to 16 characters is no cut: doubted', () => {
    for (const d of ['ACH DEBIT ACME MERCHA WEEKLY', 'ACH DEBIT MERCHA WEEKLY', 'ACH DEBIT NORTHERN PLAINS MERCHA WEEKLY']) expect(namesFunder(d)).toBe(false);
    const acme = weekly.map((x) => ({ ...x, description: x.description.replace('HALVORSEN', 'ACME') }));
    expect(unknownFunderPositions([...sales, ...acme]).size).toBe(0);
    expect(categoryDoubt([...sales, ...acme])).toMatch(/^4 debits of \$1350\.00 to one payee/);
  });
  it("its funding under the whole name (MERCHANT, MERCHANT GROUP) is the position's funding", () => {
    const funding = tx('2026-03-02', 'INCOMING WIRE HALVORSEN MERCHANT GROUP LLC REF 0302', 30000);
    expect([...unknownFunderFundings([...sales, funding, ...weekly])]).toEqual([funding]);
  });
});

describe('a summary of cells, each balance labelled by its date only, over a register newest first', () => {
  // A fintech's statement: "Balance on Jun 01 | Money in (2) | Money out (1) | Balance on Jun 30" over
  // their amounts. Each balance is the balance on its date, opening or closing by that date in the
  // period (blind-46 N07/N08: both read as the opening by their words, the second then dropped as
  // another account's: no closing, not_a_statement).
  const stmt = (closingLabel = 'Balance on Jun 30'): PageSpec[] => [[
    [[430, 'Business Checking Statement']],
    [[40, 'ledgerly'], [462, 'June 1, 2026 - June 30, 2026']],
    [[48, 'Balance on Jun 01'], [181, 'Money in (2)'], [314, 'Money out (1)'], [447, closingLabel]],
    [[48, '$1,000.00'], [181, '+$800.00'], [314, '-$300.00'], [447, '$1,500.00']],
    [[40, 'Account activity'], [483, 'Most recent transactions first']],
    [[40, 'DATE'], [96, 'DESCRIPTION'], [447, 'AMOUNT'], [534, 'BALANCE']],
    [[40, 'Jun 22'], [96, 'Square Inc'], [480, '+$500.00', { r: true }], [570, '$1,500.00', { r: true }]],
    [[96, 'ACH credit | SQUARE DEPOSIT | ID 0622']],
    [[40, 'Jun 10'], [96, 'Texas Comptroller'], [480, '-$300.00', { r: true }], [570, '$1,000.00', { r: true }]],
    [[96, 'ACH debit | SALES TAX | ID 0610']],
    [[40, 'Jun 03'], [96, 'Square Inc'], [480, '+$300.00', { r: true }], [570, '$1,300.00', { r: true }]],
    [[96, 'ACH credit | SQUARE DEPOSIT | ID 0603']],
  ]];
  it('opening on the first day, closing on the last: parsed and reconciled', async () => {
    const r = await analyzeStatementPdf(await statementPdf(stmt()));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) expect(r.figures).toMatchObject({ period_start: '2026-06-01', period_end: '2026-06-30', beginning_balance: 1000, ending_balance: 1500, deposits_total: 800, deposit_count: 2 });
  });
  it('a balance on a day inside the period is neither: no closing, not read', async () => {
    const r = await analyzeStatementPdf(await statementPdf(stmt('Balance on Jun 15')));
    expect(r.ok).toBe(false);
  });
});
