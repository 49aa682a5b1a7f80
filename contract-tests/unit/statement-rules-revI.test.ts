import { describe, expect, it } from 'vitest';
import { creditSettled } from '../../src/features/statements/rules';
import type { PageSpec } from '../support/statement-builder';
import { figures, R, readPdf } from '../support/statement-read';

// revI (outside review of sfix23/sfix24): statements and lines of our own against the rules of that batch.

/** A one-page statement: summary, then a register with a running balance; the credits' descriptions given. */
const statement = (credits: Array<[string, string, string]>): PageSpec => {
  const begin = 4000;
  const debits: Array<[string, string, number]> = [['06/09', 'ACH DEBIT COMCAST BUSINESS 7719', 300], ['06/20', 'ACH DEBIT GUSTO PAYROLL 5521', 2000]];
  const rows: Array<[string, string, number]> = [...credits.map(([d, t, a]) => [d, t, Number(a.replace(/,/g, ''))] as [string, string, number]), ...debits.map(([d, t, a]) => [d, t, -a] as [string, string, number])].sort((a, b) => a[0].localeCompare(b[0]));
  const fmt = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  let bal = begin;
  const lines = rows.map(([d, t, a]) => {
    bal += a;
    return [[50, d], [100, t], a > 0 ? R(400, fmt(a)) : R(470, fmt(-a)), R(550, fmt(bal))] as PageSpec[number];
  });
  const cr = rows.filter((r) => r[2] > 0).reduce((s, r) => s + r[2], 0);
  const dr = -rows.filter((r) => r[2] < 0).reduce((s, r) => s + r[2], 0);
  return [
    'Quarry Hill Community Bank',
    'Statement Period 06/01/2026 - 06/30/2026',
    'BRIGHTWATER LANDSCAPE CO',
    [[50, 'Beginning Balance'], R(300, fmt(begin))],
    [[50, 'Deposits and Credits'], R(300, fmt(cr))],
    [[50, 'Withdrawals and Debits'], R(300, fmt(dr))],
    [[50, 'Ending Balance'], R(300, fmt(bal))],
    'ACCOUNT ACTIVITY',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(400, 'Credits'), R(470, 'Debits'), R(550, 'Balance')],
    ...lines,
  ];
};

const customers: Array<[string, string, string]> = [
  ['06/02', 'ACH CREDIT STRIPE TRANSFER 1182', '1,500.00'],
  ['06/05', 'ACH CREDIT STRIPE TRANSFER 1183', '1,700.00'],
  ['06/12', 'ACH CREDIT STRIPE TRANSFER 1184', '1,600.00'],
];

describe('1. a corporate (CCD) ACH credit worded PAYMENT is a customer\'s payment only when its words name no insurer, tax body, funder, claim or refund', () => {
  // A single credit of a kind no rule knows, over a tenth of the credits, is refused; the CCD PAYMENT
  // row took such credits as sales whatever company paid. An insurer's claim, a tax authority's
  // refund or a funder's disbursement entered as PAYMENT ... CCD was counted as revenue.
  it.each([
    'HARTFORD INS CO PAYMENT 88120 CCD',
    'GREENLINE CAP PAYMENT 4471 CCD',
    'OHIO DEPT TAXATION PAYMENT 20931 CCD',
    'MAPLE MUTUAL CASUALTY PMT CCD',
    'NORTHPOINT FIN PYMT 55102 CCD',
  ])('a large single one is refused, never counted as sales: %s', async (d) => {
    expect(creditSettled(d)).toBe(false);
    const r = await readPdf([statement([...customers, ['06/15', d, '4,000.00']])]);
    expect(r.ok).toBe(false);
  });
  it.each(['LAKEVIEW ACADEMY PAYMENT 0417733 CCD', 'TOWN OF GREENFIELD PMT 88120 CCD', 'ORCHARD HILLS HOA PAYMENT 582393 CCD'])('near miss: a customer\'s is still sales: %s', async (d) => {
    expect(creditSettled(d)).toBe(true);
    const f = figures(await readPdf([statement([...customers, ['06/15', d, '4,000.00']])]));
    expect(f).toMatchObject({ deposits_total: 8800, deposit_count: 4, true_revenue: 8800 });
  });
  it('a facilities department\'s payment is sales; a lender\'s credit or loan facility is not settled as one', () => {
    expect(creditSettled('ST LUKES FACILITIES PAYMENTS 7781')).toBe(true);
    expect(creditSettled('BRIGHTON MALL FACILITIES PMT CCD')).toBe(true);
    expect(creditSettled('CREDIT FACILITIES PAYMENT 2210')).toBe(false);
    expect(creditSettled('REVOLVING FACILITIES PYMT 2210')).toBe(false);
  });
});

describe('2. an account\'s heading right under a section\'s heading names the account of that section', () => {
  // The rule that an account's heading before any row starts a register of both sides (a fee box above
  // it ends there) took the first section's own side away when the account's name is its sub-title:
  // the deposits, unmarked, could not be signed and the statement was refused.
  const head = (h: string, sub: string | null): PageSpec[number][] => [h, ...(sub ? [sub] : []), [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Amount')]];
  const pg = (sub: string | null): PageSpec => [
    'Dunmore Plains Bank', 'Statement Period 06/01/2026 - 06/30/2026',
    [[50, 'Beginning Balance'], R(300, '5,000.00')],
    [[50, 'Deposits and Credits'], R(300, '3,600.00')],
    [[50, 'Withdrawals and Debits'], R(300, '1,200.00')],
    [[50, 'Ending Balance'], R(300, '7,400.00')],
    ...head('DEPOSITS AND CREDITS', sub),
    [[50, '06/03'], [100, 'ACH CREDIT STRIPE TRANSFER 1182'], R(440, '3,000.00')],
    [[50, '06/09'], [100, 'ACH CREDIT SQUARE INC 6610'], R(440, '600.00')],
    ...head('WITHDRAWALS AND DEBITS', sub),
    [[50, '06/04'], [100, 'ACH DEBIT PRAIRIE GAS UTIL'], R(440, '400.00')],
    [[50, '06/15'], [100, 'ACH DEBIT MILLBROOK INSURANCE'], R(440, '800.00')],
  ];
  it.each([null, 'Business Checking 7720', 'BUSINESS CHECKING ACCOUNT 7720'])('read: %s', async (sub) => {
    expect(figures(await readPdf([pg(sub)]))).toMatchObject({ beginning_balance: 5000, ending_balance: 7400, deposits_total: 3600, deposit_count: 2 });
  });
});
