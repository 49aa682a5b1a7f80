import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from '../support/statement-builder';

// Review of sfix17/sfix18 (revt): attacks written as small statements of our own (invented bank and
// payers), read through the reader. Each test fails without its fix.

const readPdf = async (pages: PageSpec[]) => analyzeStatementPdf(await statementPdf(pages));
const R = (x: number, t: string) => [x, t, { r: true }] as const;
type Line = PageSpec[number];

describe('a later section repeating earlier rows to a net of nothing: the balances cannot tell a second listing from more items', () => {
  const head = (sides: Line[]): Line[] => [
    'Pinecrest Valley Bank', 'Business Checking  March 1, 2026 - March 31, 2026', 'Account Summary',
    [[50, 'Beginning Balance'], R(300, '$10,000.00')],
    ...sides,
    [[50, 'Ending Balance'], R(300, '$14,500.00')],
    'Deposits and Other Credits', [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(540, 'Amount')],
    [[50, '03/02'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4410'], R(540, '1,500.00')],
    [[50, '03/09'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4411'], R(540, '1,500.00')],
    [[50, '03/16'], [100, 'ELECTRONIC DEPOSIT SQUARE INC DEP 4412'], R(540, '1,500.00')],
    [[100, 'Total Deposits and Other Credits'], R(540, '4,500.00')],
  ];
  const moves: Array<[string, string, number]> = [['03/05', 'TRANSFER FROM SAVINGS 1234', 500], ['03/06', 'TRANSFER TO SAVINGS 1234', -500], ['03/07', 'TRANSFER FROM SAVINGS 1234', 200], ['03/08', 'TRANSFER TO SAVINGS 1234', -200]];
  const section = (title: string, words: string, list: typeof moves): Line[] => [
    title, [[50, 'Date', { b: true }], [100, 'Description', { b: true }], R(440, 'Credits'), R(540, 'Debits')],
    ...list.map(([d, t, a]): Line => [[50, d], [100, `${words}${t}`], R(a > 0 ? 440 : 540, Math.abs(a).toFixed(2))]),
  ];

  it('four transfers in and out listed again under "Electronic Items", no side totals printed: refused, not read with either count', async () => {
    const r: StatementResult = await readPdf([[...head([]), ...section('Other Credits and Debits', 'ONLINE ', moves), ...section('Electronic Items', '', moves)]]);
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  });

  it('a repeat that moves the balance is still one listing, read once (the balances decide)', async () => {
    const lop = moves.slice(0, 3);
    const r = await readPdf([[...head([]).map((l) => (Array.isArray(l) && l[0][1] === 'Ending Balance' ? [[50, 'Ending Balance'], R(300, '$14,700.00')] as Line : l)), ...section('Other Credits and Debits', 'ONLINE ', lop), ...section('Electronic Items', '', lop)]]);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) expect(r.figures).toMatchObject({ beginning_balance: 10000, ending_balance: 14700, deposits_total: 5200, deposit_count: 5 });
  });
});
