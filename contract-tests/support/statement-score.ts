import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatementFigures, StatementResult } from '../../src/features/statements/analyze';

// Scoring statement analysis against a corpus directory: `<dir>/truth.json` lists each PDF with the
// figures computed from its generated transactions (never from the PDF). The truth is mapped to the
// API's figures; a statement is "fully right" when every figure matches, and "parsed but wrong"
// (the worst outcome) when the reader reported figures and any of them is wrong.

export interface TruthStatement {
  file: string;
  layout?: string;
  bank?: string;
  pages?: number;
  periodStart: string;
  periodEnd: string;
  openingBalance: number;
  closingBalance: number;
  totalCredits: number;
  totalDebits?: number;
  creditCount: number;
  debitCount?: number;
  nsfCount: number;
  mcaFunders: Array<{ funder: string; count?: number; totalPaid?: number; returnedCount?: number; returnedTotal?: number; netPaid: number }>;
  trueRevenue: number;
  averageDailyBalance: number;
  negativeBalanceDays: number;
  calendarDays?: number;
  hasRecoveryActivity?: boolean;
  has_recovery_activity?: boolean;
  expected?: 'failed';
  failureCode?: string;
}

export const FIGURES = ['period_start', 'period_end', 'beginning_balance', 'ending_balance', 'deposits_total', 'deposit_count', 'true_revenue', 'average_daily_balance', 'negative_days', 'nsf_count', 'mca_count', 'mca_withhold_percent', 'has_recovery_activity'] as const;
export type Figure = (typeof FIGURES)[number];

/** The API figures a truth entry stands for (has_recovery_activity only when the truth has it). */
export function expectedFigures(t: TruthStatement): Partial<Record<Figure, string | number | boolean>> {
  const net = t.mcaFunders.reduce((s, f) => s + Math.round(f.netPaid * 100), 0);
  const revenueCents = Math.round(t.trueRevenue * 100);
  const out: Partial<Record<Figure, string | number | boolean>> = {
    period_start: t.periodStart,
    period_end: t.periodEnd,
    beginning_balance: t.openingBalance,
    ending_balance: t.closingBalance,
    deposits_total: t.totalCredits,
    deposit_count: t.creditCount,
    true_revenue: t.trueRevenue,
    average_daily_balance: t.averageDailyBalance,
    negative_days: t.negativeBalanceDays,
    nsf_count: t.nsfCount,
    mca_count: t.mcaFunders.length,
    mca_withhold_percent: revenueCents > 0 ? Math.round((net / revenueCents) * 10_000) / 100 : 0,
  };
  const rec = t.hasRecoveryActivity ?? t.has_recovery_activity;
  if (typeof rec === 'boolean') out.has_recovery_activity = rec;
  return out;
}

const TOLERANCE: Partial<Record<Figure, number>> = { average_daily_balance: 0.01, mca_withhold_percent: 0.01 };
export function figureRight(k: Figure, got: unknown, want: unknown): boolean {
  if (typeof want === 'number' && typeof got === 'number') return Math.abs(got - want) <= (TOLERANCE[k] ?? 0) + 1e-9;
  return got === want;
}

export interface StatementScore {
  file: string;
  layout: string;
  pages: number;
  ms: number;
  expectedFailed: boolean;
  result: StatementResult;
  /** Figures compared (none when the statement failed). */
  wrong: Array<{ figure: Figure; got: unknown; want: unknown }>;
  right: Figure[];
  figuresExpected: number;
}
export interface CorpusScore {
  statements: StatementScore[];
  parsed: number;
  fullyRight: number;
  /** Statements reported parsed with at least one wrong figure (or parsed when they should fail). */
  parsedWrong: StatementScore[];
  correctlyFailed: number;
  perFigure: Record<Figure, { right: number; of: number }>;
  figuresRight: number;
  figuresTotal: number;
  medianMsPerStatement: number;
  medianMsPerPage: number;
}

export async function scoreCorpus(dir: string, analyze: (bytes: Uint8Array) => Promise<StatementResult>): Promise<CorpusScore> {
  const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as { statements: TruthStatement[] };
  const statements: StatementScore[] = [];
  const perFigure = Object.fromEntries(FIGURES.map((k) => [k, { right: 0, of: 0 }])) as CorpusScore['perFigure'];
  for (const t of truth.statements) {
    const bytes = new Uint8Array(readFileSync(join(dir, t.file)));
    const s = performance.now();
    const result = await analyze(bytes);
    const ms = performance.now() - s;
    const expectedFailed = t.expected === 'failed';
    const exp = expectedFailed ? {} : expectedFigures(t);
    const wrong: StatementScore['wrong'] = [];
    const right: Figure[] = [];
    for (const k of Object.keys(exp) as Figure[]) {
      perFigure[k].of++;
      const got = result.ok ? (result.figures as StatementFigures)[k] : undefined;
      if (result.ok && figureRight(k, got, exp[k])) {
        perFigure[k].right++;
        right.push(k);
      } else if (result.ok) wrong.push({ figure: k, got, want: exp[k] });
    }
    statements.push({ file: t.file, layout: t.layout ?? '', pages: result.pages ?? t.pages ?? 1, ms, expectedFailed, result, wrong, right, figuresExpected: Object.keys(exp).length });
  }
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
  };
  const figuresTotal = statements.reduce((n, s) => n + s.figuresExpected, 0);
  return {
    statements,
    parsed: statements.filter((s) => s.result.ok).length,
    fullyRight: statements.filter((s) => !s.expectedFailed && s.result.ok && !s.wrong.length).length,
    parsedWrong: statements.filter((s) => s.result.ok && (s.wrong.length || s.expectedFailed)),
    correctlyFailed: statements.filter((s) => s.expectedFailed && !s.result.ok).length,
    perFigure,
    figuresRight: statements.reduce((n, s) => n + s.right.length, 0),
    figuresTotal,
    medianMsPerStatement: med(statements.map((s) => s.ms)),
    medianMsPerPage: med(statements.map((s) => s.ms / Math.max(1, s.pages))),
  };
}

/** The score as the scripts print it. */
export function formatScore(dir: string, c: CorpusScore): string {
  const out: string[] = [];
  const expectedStatements = c.statements.filter((s) => !s.expectedFailed).length;
  out.push(`\n${dir}: ${c.statements.length} statements (${expectedStatements} readable, ${c.statements.length - expectedStatements} expected to fail), ${c.statements.reduce((n, s) => n + s.pages, 0)} pages\n`);
  for (const s of c.statements) {
    const what = s.result.ok
      ? s.expectedFailed ? 'PARSED BUT SHOULD FAIL' : s.wrong.length ? `WRONG ${s.wrong.map((w) => `${w.figure}: ${String(w.got)} != ${String(w.want)}`).join('; ')}` : 'all figures right'
      : `failed ${s.result.code}${s.expectedFailed ? ' (expected)' : `: ${s.result.reason}`}`;
    out.push(`  ${s.file.padEnd(34)} ${s.layout.padEnd(16)} ${String(s.pages).padStart(2)}p ${s.ms.toFixed(0).padStart(5)} ms  ${what}`);
  }
  out.push(`\nStatements parsed: ${c.parsed}/${c.statements.length}; fully right: ${c.fullyRight}/${expectedStatements}; expected failures that failed: ${c.correctlyFailed}/${c.statements.length - expectedStatements}`);
  out.push(`Figures right: ${c.figuresRight}/${c.figuresTotal} (${((100 * c.figuresRight) / Math.max(1, c.figuresTotal)).toFixed(1)}%)`);
  out.push('Per figure:');
  for (const [k, v] of Object.entries(c.perFigure)) if (v.of) out.push(`  ${k.padEnd(24)} ${v.right}/${v.of}`);
  if (c.parsedWrong.length) {
    out.push(`\n!!!!!! ${c.parsedWrong.length} STATEMENT(S) MARKED PARSED WITH A WRONG FIGURE !!!!!!`);
    for (const s of c.parsedWrong) out.push(`  !!! ${s.file}: ${s.expectedFailed ? 'should have failed' : s.wrong.map((w) => `${w.figure} ${String(w.got)} != ${String(w.want)}`).join('; ')}`);
  } else out.push('\nParsed with a wrong figure: 0');
  out.push(`Time: median ${c.medianMsPerStatement.toFixed(0)} ms per statement, ${c.medianMsPerPage.toFixed(0)} ms per page\n`);
  return out.join('\n');
}
