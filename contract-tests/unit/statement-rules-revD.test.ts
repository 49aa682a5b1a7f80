import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { depositKind } from '../../src/features/statements/rules';
import { statementPdf, type PageSpec } from '../support/statement-builder';

// Review revD (attacking sfix21): a credit union's dividend on its own share, printed "SHARE DIVIDEND"
// or the word alone, was counted as sales on a parsed statement. Invented credit union and payers.

const readPdf = async (pages: PageSpec[]) => analyzeStatementPdf(await statementPdf(pages));
function figures(r: StatementResult) {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('not parsed');
  return r.figures;
}
const R = (x: number, t: string) => [x, t, { r: true }] as const;

describe("a share's dividend said by the account's kind, or the word alone, is the account's interest", () => {
  it('depositKind: SHARE DIVIDEND / SHARE DRAFT DIVIDEND / DIVIDEND are interest; a named payer\'s dividend is not', () => {
    for (const d of ['SHARE DIVIDEND', 'Share Draft Dividend', 'REGULAR SHARE DIVIDEND', 'SAVINGS DIVIDEND', 'DIVIDEND', 'Dividends']) expect(depositKind(d), d).toBe('interest');
    for (const d of ['DIVIDEND PAYMENT VANGUARD', 'ACH CREDIT MAPLEWOOD DIVIDEND FUND', 'SHAREPOINT DESIGNS DIVIDEND']) expect(depositKind(d), d).not.toBe('interest');
  });

  const statement = (summary: PageSpec[number][], desc: string): PageSpec => [
    'Cedar Fork Community Credit Union', 'STATEMENT PERIOD  05/01/2026 - 05/31/2026',
    ...summary,
    'SHARE DRAFT 0412 ACTIVITY',
    [[50, 'DATE', { b: true }], [100, 'TRANSACTION DESCRIPTION', { b: true }], R(380, 'WITHDRAWALS'), R(460, 'DEPOSITS'), R(540, 'BALANCE')],
    [[50, '05/01'], [100, 'PREVIOUS BALANCE'], R(540, '2,000.00')],
    [[50, '05/04'], [100, 'ACH CREDIT SQUARE INC SETTLEMENT 5521'], R(460, '1,300.00'), R(540, '3,300.00')],
    [[50, '05/11'], [100, 'ACH WITHDRAWAL HOLLOWAY PROPERTIES RENT'], R(380, '800.00'), R(540, '2,500.00')],
    [[50, '05/18'], [100, 'ACH CREDIT SQUARE INC SETTLEMENT 5522'], R(460, '1,700.00'), R(540, '4,200.00')],
    [[50, '05/31'], [100, desc], R(460, '0.37'), R(540, '4,200.37')],
    [[50, '05/31'], [100, 'NEW BALANCE'], R(540, '4,200.37')],
  ];
  const lines = (deposits: string, dividends?: string): PageSpec[number][] => [
    [[50, 'Previous Balance'], R(300, '2,000.00')],
    [[50, 'Deposits'], R(300, deposits)],
    ...(dividends ? [[[50, 'Dividends'], R(300, dividends)] as PageSpec[number]] : []),
    [[50, 'Withdrawals'], R(300, '800.00')],
    [[50, 'New Balance'], R(300, '4,200.37')],
  ];

  for (const desc of ['SHARE DIVIDEND', 'DIVIDEND']) {
    it(`"${desc}" under a deposits line that includes it: not sales`, async () => {
      const r = await readPdf([statement(lines('3,000.37'), desc)]);
      expect(figures(r)).toMatchObject({ deposits_total: 3000.37, true_revenue: 3000 });
    });
    it(`"${desc}" under a DIVIDENDS line of its own: the dividend rows, read`, async () => {
      const r = await readPdf([statement(lines('3,000.00', '0.37'), desc)]);
      expect(figures(r)).toMatchObject({ deposits_total: 3000.37, true_revenue: 3000 });
    });
  }
});
