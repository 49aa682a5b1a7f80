import { expect } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from './statement-builder';

// What the reading-rule tests (contract-tests/unit/statement-rules-*.test.ts) share: a statement of
// our own read through the reader, its figures when parsed, and a right-aligned cell.

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
