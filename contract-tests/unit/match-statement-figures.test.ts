import { describe, expect, it } from 'vitest';
import { matchFigures, normalizeCriteria, scoreDeal, type DealFacts } from '../../src/features/lender-matches/scoring';
import { revenueCheck, statementEvidence, type StatementDoc } from '../../src/features/lender-matches/statement-figures';

// How lender matching combines a deal's statements (src/features/lender-matches/statement-figures.ts):
// revenue averaged per statement, balance day-weighted, negative days and NSFs from the worst month,
// positions and withhold from the most recent statement, one period counted once (the later upload),
// statements not read yet or failed never counted; a stated/analysed gap over 20% flagged.

let seq = 0;
function doc(period: [string, string] | null, f: Partial<Record<string, number>> = {}, status = 'processed'): StatementDoc {
  seq++;
  return {
    id: `doc_${String(seq).padStart(3, '0')}`,
    status,
    created_at: new Date(Date.UTC(2026, 10, 1, 0, 0, seq)),
    statement: period
      ? { period_start: period[0], period_end: period[1], bank_name: null, beginning_balance: 0, deposits_total: 0, deposit_count: 0, ending_balance: 0, has_recovery_activity: false,
          true_revenue: 0, average_daily_balance: 0, negative_days: 0, nsf_count: 0, mca_count: 0, mca_withhold_percent: 0, ...f }
      : null,
  };
}
const JAN: [string, string] = ['2026-01-01', '2026-01-31'];
const FEB: [string, string] = ['2026-02-01', '2026-02-28'];
const MAR: [string, string] = ['2026-03-01', '2026-03-31'];

const base: DealFacts = {
  monthlyRevenueCents: 3_000_000, timeInBusinessMonths: 40, state: 'CO', industry: 'Bakeries', positions: 0, creditScore: 700,
  requestedAmountCents: 5_000_000, productType: 'mca', paperGrade: 'A',
};

describe('statementEvidence (unit)', () => {
  it('averages revenue per statement, day-weights the balance, takes the worst month and the most recent positions', () => {
    const mar = doc(MAR, { true_revenue: 10000, average_daily_balance: 1000, negative_days: 1, nsf_count: 4, mca_count: 1, mca_withhold_percent: 12.5 });
    const jan = doc(JAN, { true_revenue: 20000.01, average_daily_balance: 4000, negative_days: 6, nsf_count: 0, mca_count: 3, mca_withhold_percent: 40 });
    const feb = doc(FEB, { true_revenue: 29700, average_daily_balance: 2000, negative_days: 2, nsf_count: 1, mca_count: 2, mca_withhold_percent: 20 });
    const e = statementEvidence([mar, jan, feb]);
    expect(e.used.map((p) => p.period_start)).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(e.revenueCents).toBe(Math.round((1_000_000 + 2_000_001 + 2_970_000) / 3));
    expect(e.averageDailyBalanceCents).toBe(Math.round((400_000 * 31 + 200_000 * 28 + 100_000 * 31) / 90));
    expect(e.negativeDays).toEqual({ value: 6, statement: { document_id: jan.id, period_start: JAN[0], period_end: JAN[1] } });
    expect(e.nsfCount).toEqual({ value: 4, statement: { document_id: mar.id, period_start: MAR[0], period_end: MAR[1] } });
    expect(e.latest).toEqual({ mcaCount: 1, withholdPercent: 12.5, statement: { document_id: mar.id, period_start: MAR[0], period_end: MAR[1] } });
  });

  it('statements not read yet or failed are listed, never counted; the same period counts once, the later upload', () => {
    const first = doc(FEB, { true_revenue: 10000 });
    const pending = doc(null, {}, 'uploaded');
    const processing = doc(null, {}, 'processing');
    const failed = doc(null, {}, 'failed');
    const replacement = doc(FEB, { true_revenue: 50000 });
    const e = statementEvidence([replacement, failed, processing, pending, first]);
    expect(e.used).toEqual([{ document_id: replacement.id, period_start: FEB[0], period_end: FEB[1] }]);
    expect(e.revenueCents).toBe(5_000_000);
    expect(e.notUsed).toEqual([{ document_id: pending.id, status: 'uploaded' }, { document_id: processing.id, status: 'processing' }, { document_id: failed.id, status: 'failed' }]);
    const none = statementEvidence([failed]);
    expect(none).toMatchObject({ used: [], revenueCents: null, averageDailyBalanceCents: null, negativeDays: null, latest: null });
  });

  it('revenue_check: gap relative to the stated revenue, flagged only beyond 20% either way', () => {
    const used = [{ document_id: 'doc_1', period_start: FEB[0], period_end: FEB[1] }];
    expect(revenueCheck(3_000_000, { revenueCents: 1_990_000, used })).toEqual({ stated_monthly_revenue: 30000, analyzed_monthly_revenue: 19900, gap_percent: 33.7, flagged: true, statements_used: 1 });
    expect(revenueCheck(3_000_000, { revenueCents: 2_400_000, used })).toMatchObject({ gap_percent: 20, flagged: false });
    expect(revenueCheck(3_000_000, { revenueCents: 2_399_999, used })).toMatchObject({ gap_percent: 20, flagged: true }); // 20.00003%: over the line
    expect(revenueCheck(3_000_000, { revenueCents: 3_700_000, used })).toMatchObject({ gap_percent: -23.3, flagged: true });
    expect(revenueCheck(null, { revenueCents: 1_000_000, used })).toEqual({ stated_monthly_revenue: null, analyzed_monthly_revenue: 10000, gap_percent: null, flagged: false, statements_used: 1 });
    expect(revenueCheck(3_000_000, { revenueCents: null, used: [] })).toBeNull();
  });
});

describe('scoreDeal with statements (unit)', () => {
  it('the bank replaces the stated revenue; the reason names the statements, the gap and what was not used', () => {
    const feb = doc(FEB, { true_revenue: 19900 });
    const failed = doc(null, {}, 'failed');
    const deal = { ...base, statements: statementEvidence([feb, failed]) };
    const r = scoreDeal(deal, normalizeCriteria({ min_monthly_revenue: 25000, hard_gates: ['min_monthly_revenue'] }));
    expect(r).toEqual({
      score: 0, eligible: false,
      reasons: [{
        criterion: 'min_monthly_revenue', passed: false, hard_gate: true, source: 'statements', statements: [{ document_id: feb.id, period_start: FEB[0], period_end: FEB[1] }],
        message: 'True monthly revenue $19,900 (read from 1 statement, 2026-02-01 to 2026-02-28, average per statement) is below the $25,000 minimum; stated $30,000 on the deal is 33.7% above the statements: flagged (over 20%); 1 statement that could not be read is not used',
      }],
    });
    // Without statements read, the stated figure, named as stated.
    const stated = scoreDeal({ ...base, statements: statementEvidence([failed]) }, normalizeCriteria({ min_monthly_revenue: 25000 }));
    expect(stated.reasons[0]).toMatchObject({ passed: true, source: 'deal', message: 'Monthly revenue $30,000 (stated on the deal) meets the $25,000 minimum; 1 statement that could not be read is not used' });
  });

  it('positions: the larger of recorded advances and the most recent statement, with its source', () => {
    const e = statementEvidence([doc(FEB, { mca_count: 1 })]);
    const k = normalizeCriteria({ max_positions: 1 });
    expect(scoreDeal({ ...base, positions: 2, statements: e }, k).reasons[0]).toMatchObject({ passed: false, source: 'advances', statements: [] });
    expect(scoreDeal({ ...base, positions: 0, statements: e }, k).reasons[0]).toMatchObject({ passed: true, source: 'statements', message: '1 open position (advance funders debiting the most recent statement, 2026-02-01 to 2026-02-28) is within the 1 position maximum' });
  });

  it('limits are inclusive: exactly the maximum negative days, NSFs and withhold pass, one more fails', () => {
    const k = normalizeCriteria({ max_negative_days: 5, max_nsf_count: 3, max_withhold_percent: 25, min_average_daily_balance: 1000 });
    const at = scoreDeal({ ...base, statements: statementEvidence([doc(FEB, { negative_days: 5, nsf_count: 3, mca_withhold_percent: 25, average_daily_balance: 1000 })]) }, k);
    expect(at.reasons.map((x) => x.passed)).toEqual([true, true, true, true]);
    const over = scoreDeal({ ...base, statements: statementEvidence([doc(FEB, { negative_days: 6, nsf_count: 4, mca_withhold_percent: 25.01, average_daily_balance: 999.99 })]) }, k);
    expect(over.reasons.map((x) => [x.criterion, x.passed])).toEqual([['min_average_daily_balance', false], ['max_negative_days', false], ['max_nsf_count', false], ['max_withhold_percent', false]]);
  });

  it('matchFigures: what a submission records', () => {
    const feb = doc(FEB, { true_revenue: 19900, average_daily_balance: 3000.5, negative_days: 2, nsf_count: 1, mca_count: 2, mca_withhold_percent: 18.2 });
    const pending = doc(null, {}, 'processing');
    expect(matchFigures({ ...base, statements: statementEvidence([feb, pending]) })).toEqual({
      monthly_revenue: { value: 19900, source: 'statements' },
      average_daily_balance: { value: 3000.5, source: 'statements' },
      negative_days: { value: 2, source: 'statements' },
      nsf_count: { value: 1, source: 'statements' },
      positions: { value: 2, source: 'statements' },
      withhold_percent: { value: 18.2, source: 'statements' },
      time_in_business_months: { value: 40, source: 'business' },
      statements: [{ document_id: feb.id, period_start: FEB[0], period_end: FEB[1] }],
      statements_not_used: [{ document_id: pending.id, status: 'processing' }],
      revenue_check: { stated_monthly_revenue: 30000, analyzed_monthly_revenue: 19900, gap_percent: 33.7, flagged: true, statements_used: 1 },
    });
    expect(matchFigures(base)).toMatchObject({ monthly_revenue: { value: 30000, source: 'deal' }, negative_days: { value: null, source: 'statements' }, positions: { value: 0, source: 'advances' }, statements: [], revenue_check: null });
  });
});
