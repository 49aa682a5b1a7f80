import { expect } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from './statement-builder';

// What the reading-rule tests (contract-tests/unit/statement-rules-*.test.ts) share: a statement of
// our own read through the reader, its figures when parsed, a right-aligned cell, and a one-page
// register statement built around the rows a test gives.

/** The statement the pages make, read through the reader. */
export const readPdf = async (pages: PageSpec[]) => analyzeStatementPdf(await statementPdf(pages));

/** The figures of a parsed statement; the test fails (with the result) when it was not parsed. */
export function figures(r: StatementResult) {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('not parsed');
  return r.figures;
}

/** A cell right-aligned at x (an amount column). */
export const R = (x: number, t: string) => [x, t, { r: true }] as const;

/**
 * A one-page June register (additions and subtractions in their own columns, a running balance, a
 * summary and a totals line that add up): three sales and payroll lines, the rows given, a check.
 * Read landscape (`readRegister`).
 */
export function registerStatement(bank: string, business: string, extra: Array<[string, string, number]>): PageSpec {
  const rows: Array<[string, string, number]> = [
    ['06/02', 'Direct Deposit, STRIPE TRANSFER 4411', 2_500],
    ['06/03', 'Direct Withdrawal, GUSTO PAYROLL 8812', -6_000],
    ['06/09', 'Direct Deposit, SQUARE INC 7781', 3_000],
    ...extra,
    ['06/27', 'Check 2207', -1_200],
  ];
  const fmt = (c: number) => (c < 0 ? `(${Math.abs(c).toLocaleString('en-US', { minimumFractionDigits: 2 })})` : c.toLocaleString('en-US', { minimumFractionDigits: 2 }));
  let bal = 10_000;
  const lines = rows.map(([d, desc, a]) => {
    bal += a;
    return [[40, d], [90, desc], a > 0 ? R(560, fmt(a)) : R(650, fmt(a)), R(740, fmt(bal))] as PageSpec[number];
  });
  const ins = rows.filter((r) => r[2] > 0);
  const outs = rows.filter((r) => r[2] < 0);
  const sum = (rs: typeof rows) => rs.reduce((s, r) => s + r[2], 0);
  return [
    [[40, `${bank} Business Statement`], [520, 'Page 1 of 1']],
    [[40, business], [480, 'Beginning balance'], R(740, '$10,000.00')],
    [[40, 'Statement period: June 1, 2026 - June 30, 2026'], [480, `${ins.length} Additions`], R(740, fmt(sum(ins)))],
    [[480, `${outs.length} Subtractions`], R(740, fmt(sum(outs)))],
    [[480, 'Ending balance'], R(740, `$${fmt(bal)}`)],
    [[40, 'Activity']],
    [[40, 'Date'], [90, 'Description'], [520, 'Additions'], [600, 'Subtractions'], [700, 'Balance']],
    [[40, '06/01'], [90, 'Beginning balance'], R(740, '10,000.00')],
    ...lines,
    [[90, `Total additions (${ins.length}) and subtractions (${outs.length})`], R(560, fmt(sum(ins))), R(650, fmt(sum(outs)))],
    [[40, '06/30'], [90, 'Ending balance'], R(740, fmt(bal))],
  ];
}

/** `registerStatement` read through the reader (landscape, as its columns need). */
export const readRegister = async (bank: string, business: string, extra: Array<[string, string, number]>) =>
  analyzeStatementPdf(await statementPdf([registerStatement(bank, business, extra)], { landscape: true }));
