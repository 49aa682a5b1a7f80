import type { components } from '../../../generated/schema';
import { toCents, toDollars } from '../../lib/money';
import type { StatementFigures } from '../statements/analyze';

// What lender matching reads from a deal's bank statements. Pure: the caller loads the deal's
// bank-statement documents (lender-matches.repository.ts) and passes them in.
//
// How several statements combine (what an underwriter reads off a bank-statement summary):
// - Only statements READ (document `processed` with figures) count. Statements not read yet
//   (`uploaded`, `processing`) or that `failed` are listed as not used and change nothing.
// - Two statements of the same period (same start and end) count once: the later upload, so a
//   replacement supersedes the first copy.
// - True monthly revenue: the average of the statements' true revenue (a statement is a month), to
//   the cent. Stated revenue is never mixed in.
// - Average daily balance: day-weighted over every statement day (a 30-day statement weighs more
//   than a 28-day one), as the analysis summary computes it.
// - Negative days and NSFs: the worst single statement (month), because lenders write these limits
//   per month ("no more than 5 negative days / 3 NSFs in a month") and one bad month is what they
//   decline on; an average would hide it.
// - Open positions (MCA funders debiting the account) and withhold: the most recent statement (the
//   positions the merchant carries now); positions are the larger of that and the advances recorded
//   on the business.

type S = components['schemas'];
export type StatementPeriod = S['StatementPeriod'];
export type StatementNotUsed = S['StatementNotUsed'];
export type RevenueCheck = S['RevenueCheck'];

/** A bank-statement document of the deal, as stored. */
export interface StatementDoc {
  id: string;
  status: string;
  created_at: Date | string;
  statement: Record<string, unknown> | null;
}

type Read = StatementPeriod & { figures: StatementFigures };

export interface StatementEvidence {
  /** The statements read and used, oldest period first. */
  used: StatementPeriod[];
  notUsed: StatementNotUsed[];
  /** Average true revenue per statement, cents; null when none read. */
  revenueCents: number | null;
  averageDailyBalanceCents: number | null;
  /** The worst statement's negative days, and that statement. */
  negativeDays: { value: number; statement: StatementPeriod } | null;
  nsfCount: { value: number; statement: StatementPeriod } | null;
  /** The most recent statement's MCA funders and withhold. */
  latest: { mcaCount: number; withholdPercent: number; statement: StatementPeriod } | null;
}

const NOT_USED = new Set(['uploaded', 'processing', 'failed']);
const dayCount = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
const time = (d: Date | string) => new Date(d).getTime();

export function statementEvidence(docs: StatementDoc[]): StatementEvidence {
  const notUsed: StatementNotUsed[] = [];
  const byPeriod = new Map<string, Read & { at: number }>();
  const ordered = [...docs].sort((a, b) => time(a.created_at) - time(b.created_at) || (a.id < b.id ? -1 : 1));
  for (const d of ordered) {
    const f = d.status === 'processed' ? (d.statement as unknown as StatementFigures | null) : null;
    if (!f || typeof f.period_start !== 'string' || typeof f.period_end !== 'string') {
      if (NOT_USED.has(d.status)) notUsed.push({ document_id: d.id, status: d.status as StatementNotUsed['status'] });
      continue;
    }
    // The later upload of one period replaces the earlier (same key: the map keeps the last set).
    byPeriod.set(`${f.period_start}|${f.period_end}`, { document_id: d.id, period_start: f.period_start, period_end: f.period_end, figures: f, at: time(d.created_at) });
  }
  const read = [...byPeriod.values()].sort((a, b) => a.period_start.localeCompare(b.period_start) || a.period_end.localeCompare(b.period_end));
  const period = (r: Read): StatementPeriod => ({ document_id: r.document_id, period_start: r.period_start, period_end: r.period_end });
  if (!read.length) return { used: [], notUsed, revenueCents: null, averageDailyBalanceCents: null, negativeDays: null, nsfCount: null, latest: null };
  const revenue = read.reduce((s, r) => s + toCents(r.figures.true_revenue), 0);
  let weighted = 0;
  let days = 0;
  for (const r of read) {
    const n = dayCount(r.period_start, r.period_end);
    weighted += toCents(r.figures.average_daily_balance) * n;
    days += n;
  }
  // Worst month; ties go to the most recent statement.
  const worst = (pick: (f: StatementFigures) => number) => {
    let best = read[0];
    for (const r of read) if (pick(r.figures) >= pick(best.figures)) best = r;
    return { value: pick(best.figures), statement: period(best) };
  };
  const last = [...read].sort((a, b) => a.period_end.localeCompare(b.period_end) || a.at - b.at)[read.length - 1];
  return {
    used: read.map(period),
    notUsed,
    revenueCents: Math.round(revenue / read.length),
    averageDailyBalanceCents: days > 0 ? Math.round(weighted / days) : null,
    negativeDays: worst((f) => f.negative_days),
    nsfCount: worst((f) => f.nsf_count),
    latest: { mcaCount: last.figures.mca_count, withholdPercent: last.figures.mca_withhold_percent, statement: period(last) },
  };
}

/** A gap beyond this share of the stated revenue is flagged. */
export const REVENUE_GAP_LIMIT_PERCENT = 20;

/** Stated against analysed monthly revenue; null when no statement was read. */
export function revenueCheck(statedCents: number | null, e: Pick<StatementEvidence, 'revenueCents' | 'used'>): RevenueCheck | null {
  if (e.revenueCents == null || !e.used.length) return null;
  const raw = statedCents != null && statedCents > 0 ? ((statedCents - e.revenueCents) / statedCents) * 100 : null;
  const gap = raw == null ? null : Math.round(raw * 10) / 10;
  return {
    stated_monthly_revenue: statedCents == null ? null : toDollars(statedCents),
    analyzed_monthly_revenue: toDollars(e.revenueCents),
    gap_percent: gap,
    flagged: raw != null && Math.abs(raw) > REVENUE_GAP_LIMIT_PERCENT,
    statements_used: e.used.length,
  };
}
