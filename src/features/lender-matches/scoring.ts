import type { components } from '../../../generated/schema';
import { toCents, toDollars } from '../../lib/money';
import { revenueCheck, type StatementEvidence, type StatementPeriod } from './statement-figures';

// Lender matching as a pure function: the deal's facts against one lender's criteria. No I/O, no
// clock: the caller measures the deal (see lender-matches.service.ts) and the submissions feature
// snapshots the result (match_score, match_eligible) when it records a submission.

export type Criterion = components['schemas']['LenderCriterion'];
export type MatchReason = components['schemas']['LenderMatchReason'];
export type MatchFigures = components['schemas']['MatchFigures'];
type Source = components['schemas']['MatchFigureSource'];

/** A lender's criteria as stored (lenders.criteria): null limits and empty lists are not checked. */
export interface Criteria {
  min_monthly_revenue: number | null;
  min_time_in_business_months: number | null;
  min_credit_score: number | null;
  min_amount: number | null;
  max_amount: number | null;
  max_positions: number | null;
  min_average_daily_balance: number | null;
  max_negative_days: number | null;
  max_nsf_count: number | null;
  max_withhold_percent: number | null;
  allowed_states: string[];
  excluded_states: string[];
  excluded_industries: string[];
  product_types: string[];
  paper_grades: string[];
  hard_gates: Criterion[];
}

/** Every criterion, in the order reasons are listed. */
export const CRITERIA: readonly Criterion[] = [
  'min_monthly_revenue', 'min_time_in_business_months', 'min_credit_score', 'min_amount', 'max_amount', 'max_positions',
  'min_average_daily_balance', 'max_negative_days', 'max_nsf_count', 'max_withhold_percent', 'allowed_states', 'excluded_states', 'excluded_industries', 'product_types', 'paper_grades',
];

const LIMITS = [
  'min_monthly_revenue', 'min_time_in_business_months', 'min_credit_score', 'min_amount', 'max_amount', 'max_positions',
  'min_average_daily_balance', 'max_negative_days', 'max_nsf_count', 'max_withhold_percent',
] as const;
const LISTS = ['allowed_states', 'excluded_states', 'excluded_industries', 'product_types', 'paper_grades'] as const;

/** Reads stored criteria (tolerates `{}` and missing keys: a lender never given criteria has none). */
export function normalizeCriteria(raw: unknown): Criteria {
  const src = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const out = {} as Criteria;
  for (const k of LIMITS) out[k] = num(src[k]);
  for (const k of LISTS) out[k] = list(src[k]);
  out.hard_gates = list(src.hard_gates).filter((g): g is Criterion => (CRITERIA as readonly string[]).includes(g));
  return out;
}

/** What a deal is measured by. Null means unknown, which fails the criterion. */
export interface DealFacts {
  /** annual_revenue / 12, in cents: the revenue STATED on the deal. */
  monthlyRevenueCents: number | null;
  /** Whole months since the business's start date. */
  timeInBusinessMonths: number | null;
  /** The business's state (two-letter code). */
  state: string | null;
  industry: string | null;
  /** Advances recorded on the business (not paid off), other than this deal's own. */
  positions: number | null;
  /** The primary owner's credit score. */
  creditScore: number | null;
  requestedAmountCents: number | null;
  productType: string | null;
  paperGrade: string | null;
  /** What the deal's bank statements show (./statement-figures.ts); absent or empty: none read. */
  statements?: StatementEvidence;
}

export interface MatchResult {
  /** 0-100: the share of set criteria met, each counting equally, rounded; 100 with no criteria. */
  score: number;
  /** Every hard gate on a set criterion passed. */
  eligible: boolean;
  /** One per set criterion, in CRITERIA order. */
  reasons: MatchReason[];
}

/** `$85,000` or `$1,234.50`. */
export function formatDollars(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = abs % 100;
  return `${neg ? '-' : ''}$${whole}${frac ? `.${String(frac).padStart(2, '0')}` : ''}`;
}

const norm = (s: string) => s.trim().toLowerCase();
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type Check = { passed: boolean; message: string; source?: Source; statements?: StatementPeriod[] };

const SOURCE: Record<Criterion, Source> = {
  min_monthly_revenue: 'deal', min_time_in_business_months: 'business', min_credit_score: 'primary_owner', min_amount: 'deal', max_amount: 'deal',
  max_positions: 'advances', min_average_daily_balance: 'statements', max_negative_days: 'statements', max_nsf_count: 'statements',
  max_withhold_percent: 'statements', allowed_states: 'business', excluded_states: 'business', excluded_industries: 'business',
  product_types: 'deal', paper_grades: 'deal',
};

const range = (ps: StatementPeriod[]) => (ps.length ? `${ps[0].period_start} to ${ps[ps.length - 1].period_end}` : '');
/** `read from 2 statements, 2026-01-01 to 2026-02-28` */
const readFrom = (ps: StatementPeriod[]) => `read from ${plural(ps.length, 'statement')}, ${range(ps)}`;
/** `; 1 statement still processing and 1 that could not be read are not used`, or ''. */
function notUsedNote(e: StatementEvidence | undefined): string {
  if (!e?.notUsed.length) return '';
  const pending = e.notUsed.filter((n) => n.status !== 'failed').length;
  const failed = e.notUsed.length - pending;
  const parts = [pending ? `${plural(pending, 'statement')} still processing` : '', failed ? `${plural(failed, 'statement')} that could not be read` : ''].filter(Boolean);
  return `; ${parts.join(' and ')} ${e.notUsed.length === 1 ? 'is' : 'are'} not used`;
}
const noStatements = (e: StatementEvidence | undefined) => `no bank statement of the deal has been read${notUsedNote(e)}`;
const read = (e: StatementEvidence | undefined): e is StatementEvidence => !!e && e.used.length > 0;

/** `; stated $40,000 on the deal is 30.7% above the statements: flagged (over 20%)` when flagged. */
function gapNote(deal: DealFacts): string {
  const rc = read(deal.statements) ? revenueCheck(deal.monthlyRevenueCents, deal.statements) : null;
  if (!rc?.flagged || rc.gap_percent == null || rc.stated_monthly_revenue == null) return '';
  const dir = rc.gap_percent > 0 ? 'above' : 'below';
  return `; stated ${formatDollars(toCents(rc.stated_monthly_revenue))} on the deal is ${Math.abs(rc.gap_percent)}% ${dir} the statements: flagged (over 20%)`;
}

function check(c: Criterion, deal: DealFacts, k: Criteria): Check | null {
  const e = deal.statements;
  switch (c) {
    case 'min_monthly_revenue': {
      if (k.min_monthly_revenue == null) return null;
      const min = toCents(k.min_monthly_revenue);
      if (read(e) && e.revenueCents != null) {
        const v = e.revenueCents;
        const figure = `True monthly revenue ${formatDollars(v)} (${readFrom(e.used)}, average per statement)`;
        const note = `${gapNote(deal)}${notUsedNote(e)}`;
        return v >= min
          ? { passed: true, message: `${figure} meets the ${formatDollars(min)} minimum${note}`, source: 'statements', statements: e.used }
          : { passed: false, message: `${figure} is below the ${formatDollars(min)} minimum${note}`, source: 'statements', statements: e.used };
      }
      const v = deal.monthlyRevenueCents;
      const note = notUsedNote(e);
      if (v == null) return { passed: false, message: `Monthly revenue is unknown (the deal has no annual revenue and ${noStatements(undefined)}); the minimum is ${formatDollars(min)}${note}` };
      return v >= min
        ? { passed: true, message: `Monthly revenue ${formatDollars(v)} (stated on the deal) meets the ${formatDollars(min)} minimum${note}` }
        : { passed: false, message: `Monthly revenue ${formatDollars(v)} (stated on the deal) is below the ${formatDollars(min)} minimum${note}` };
    }
    case 'min_time_in_business_months': {
      const min = k.min_time_in_business_months;
      if (min == null) return null;
      const v = deal.timeInBusinessMonths;
      if (v == null) return { passed: false, message: `Time in business is unknown (the business has no start date); the minimum is ${min} months` };
      return v >= min
        ? { passed: true, message: `${plural(v, 'month')} in business (since the business start date) meets the ${min} month minimum` }
        : { passed: false, message: `${plural(v, 'month')} in business (since the business start date) is below the ${min} month minimum` };
    }
    case 'min_average_daily_balance': {
      if (k.min_average_daily_balance == null) return null;
      const min = toCents(k.min_average_daily_balance);
      if (!read(e) || e.averageDailyBalanceCents == null) return { passed: false, message: `Average daily balance is unknown (${noStatements(e)}); the minimum is ${formatDollars(min)}` };
      const v = e.averageDailyBalanceCents;
      const figure = `Average daily balance ${formatDollars(v)} (${readFrom(e.used)}, day-weighted)`;
      return v >= min
        ? { passed: true, message: `${figure} meets the ${formatDollars(min)} minimum${notUsedNote(e)}`, statements: e.used }
        : { passed: false, message: `${figure} is below the ${formatDollars(min)} minimum${notUsedNote(e)}`, statements: e.used };
    }
    case 'max_negative_days':
    case 'max_nsf_count': {
      const max = c === 'max_negative_days' ? k.max_negative_days : k.max_nsf_count;
      if (max == null) return null;
      const [one, many, limit] = c === 'max_negative_days' ? ['negative day', 'negative days', `${max} day`] : ['NSF', 'NSFs', `${max} NSF`];
      const worst = c === 'max_negative_days' ? e?.negativeDays : e?.nsfCount;
      if (!read(e) || !worst) return { passed: false, message: `${many[0].toUpperCase()}${many.slice(1)} per month are unknown (${noStatements(e)}); the maximum is ${max} a month` };
      const figure = `${plural(worst.value, one, many)} in the worst month (statement ${range([worst.statement])}, of ${plural(e.used.length, 'statement')} read)`;
      return worst.value <= max
        ? { passed: true, message: `${figure} is within the ${limit} a month maximum${notUsedNote(e)}`, statements: [worst.statement] }
        : { passed: false, message: `${figure} exceeds the ${limit} a month maximum${notUsedNote(e)}`, statements: [worst.statement] };
    }
    case 'max_withhold_percent': {
      const max = k.max_withhold_percent;
      if (max == null) return null;
      if (!read(e) || !e.latest) return { passed: false, message: `Existing advances' withhold is unknown (${noStatements(e)}); the maximum is ${max}%` };
      const v = e.latest.withholdPercent;
      const figure = `Existing advances withhold ${v}% of true revenue (most recent statement, ${range([e.latest.statement])})`;
      return v <= max
        ? { passed: true, message: `${figure} is within the ${max}% maximum${notUsedNote(e)}`, statements: [e.latest.statement] }
        : { passed: false, message: `${figure} exceeds the ${max}% maximum${notUsedNote(e)}`, statements: [e.latest.statement] };
    }
    case 'min_credit_score': {
      const min = k.min_credit_score;
      if (min == null) return null;
      const v = deal.creditScore;
      if (v == null) return { passed: false, message: `Credit score is unknown (no score on the primary owner); the minimum is ${min}` };
      return v >= min
        ? { passed: true, message: `Credit score ${v} meets the ${min} minimum` }
        : { passed: false, message: `Credit score ${v} is below the ${min} minimum` };
    }
    case 'min_amount': {
      if (k.min_amount == null) return null;
      const min = toCents(k.min_amount);
      const v = deal.requestedAmountCents;
      if (v == null) return { passed: false, message: `Requested amount is unknown; the minimum is ${formatDollars(min)}` };
      return v >= min
        ? { passed: true, message: `Requested ${formatDollars(v)} is at least the ${formatDollars(min)} minimum` }
        : { passed: false, message: `Requested ${formatDollars(v)} is below the ${formatDollars(min)} minimum` };
    }
    case 'max_amount': {
      if (k.max_amount == null) return null;
      const max = toCents(k.max_amount);
      const v = deal.requestedAmountCents;
      if (v == null) return { passed: false, message: `Requested amount is unknown; the maximum is ${formatDollars(max)}` };
      return v <= max
        ? { passed: true, message: `Requested ${formatDollars(v)} is within the ${formatDollars(max)} maximum` }
        : { passed: false, message: `Requested ${formatDollars(v)} exceeds the ${formatDollars(max)} maximum` };
    }
    case 'max_positions': {
      const max = k.max_positions;
      if (max == null) return null;
      const p = positionsOf(deal);
      const v = p.value;
      if (v == null) return { passed: false, message: `Existing advance positions are unknown; the maximum is ${max}` };
      const figure = p.source === 'statements'
        ? `${plural(v, 'open position')} (advance funders debiting the most recent statement, ${range(p.statements)})`
        : `${plural(v, 'existing position')} (advances recorded on the business)`;
      return v <= max
        ? { passed: true, message: `${figure} is within the ${max} position maximum`, source: p.source, statements: p.statements }
        : { passed: false, message: `${figure} exceeds the ${max} position maximum`, source: p.source, statements: p.statements };
    }
    case 'allowed_states': {
      if (!k.allowed_states.length) return null;
      const list = k.allowed_states.join(', ');
      if (!deal.state?.trim()) return { passed: false, message: `Business state is unknown; the lender funds only ${list}` };
      const s = deal.state.trim().toUpperCase();
      return k.allowed_states.some((a) => a.toUpperCase() === s)
        ? { passed: true, message: `State ${s} is among the funded states (${list})` }
        : { passed: false, message: `State ${s} is not among the funded states (${list})` };
    }
    case 'excluded_states': {
      if (!k.excluded_states.length) return null;
      if (!deal.state?.trim()) return { passed: false, message: `Business state is unknown; the lender excludes ${k.excluded_states.join(', ')}` };
      const s = deal.state.trim().toUpperCase();
      return k.excluded_states.some((a) => a.toUpperCase() === s)
        ? { passed: false, message: `State ${s} is excluded` }
        : { passed: true, message: `State ${s} is not excluded` };
    }
    case 'excluded_industries': {
      if (!k.excluded_industries.length) return null;
      if (!deal.industry?.trim()) return { passed: false, message: `Industry is unknown; the lender excludes ${k.excluded_industries.join(', ')}` };
      const ind = deal.industry.trim();
      return k.excluded_industries.some((x) => norm(x) === norm(ind))
        ? { passed: false, message: `Industry ${ind} is excluded` }
        : { passed: true, message: `Industry ${ind} is not excluded` };
    }
    case 'product_types': {
      if (!k.product_types.length) return null;
      const list = k.product_types.join(', ');
      if (!deal.productType?.trim()) return { passed: false, message: `Product type is unknown; the lender offers ${list}` };
      const p = deal.productType.trim();
      return k.product_types.some((x) => norm(x) === norm(p))
        ? { passed: true, message: `Product type ${p} is offered (${list})` }
        : { passed: false, message: `Product type ${p} is not offered (${list})` };
    }
    case 'paper_grades': {
      if (!k.paper_grades.length) return null;
      const list = k.paper_grades.join(', ');
      if (!deal.paperGrade?.trim()) return { passed: false, message: `Paper grade is unknown; the accepted grades are (${list})` };
      const g = deal.paperGrade.trim();
      return k.paper_grades.some((x) => norm(x) === norm(g))
        ? { passed: true, message: `Paper grade ${g} is in the accepted grades (${list})` }
        : { passed: false, message: `Paper grade ${g} is not in the accepted grades (${list})` };
    }
  }
}

/**
 * Scores a deal against one lender's criteria: `score` is the share of set criteria met (each
 * counting equally, rounded to a whole number; 100 with none set); `eligible` is false when any
 * hard gate on a set criterion fails; `reasons` has one entry per set criterion.
 */
export function scoreDeal(deal: DealFacts, criteria: Criteria): MatchResult {
  const gates = new Set(criteria.hard_gates);
  const reasons: MatchReason[] = [];
  for (const c of CRITERIA) {
    const r = check(c, deal, criteria);
    if (r) reasons.push({ criterion: c, passed: r.passed, hard_gate: gates.has(c), message: r.message, source: r.source ?? SOURCE[c], statements: r.statements ?? [] });
  }
  const passed = reasons.filter((r) => r.passed).length;
  return {
    score: reasons.length ? Math.round((passed * 100) / reasons.length) : 100,
    eligible: reasons.every((r) => r.passed || !r.hard_gate),
    reasons,
  };
}

/** Whole months from `startDate` (YYYY-MM-DD) to `now`, never negative; null when unknown. */
export function monthsSince(startDate: string | null | undefined, now: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(startDate ?? '');
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let months = (now.getUTCFullYear() - y) * 12 + (now.getUTCMonth() + 1 - mo);
  if (now.getUTCDate() < d) months -= 1;
  return Math.max(0, months);
}

/** annual revenue (dollars) -> monthly revenue in cents. */
export function monthlyRevenueCents(annualRevenue: number | string | null | undefined): number | null {
  if (annualRevenue == null || annualRevenue === '') return null;
  return Math.round(toCents(annualRevenue) / 12);
}

/** A credit score from a person's free-text `credit_score` ("712", "712 (Experian)"); null when none. */
export function parseCreditScore(raw: string | number | null | undefined): number | null {
  if (raw == null) return null;
  const m = /\d{3}/.exec(String(raw));
  if (!m) return null;
  const n = Number(m[0]);
  return n >= 300 && n <= 850 ? n : null;
}

/** Open positions: the larger of the advances recorded on the business and the most recent statement's MCA funders. */
function positionsOf(deal: DealFacts): { value: number | null; source: Source; statements: StatementPeriod[] } {
  const latest = read(deal.statements) ? deal.statements.latest : null;
  if (latest && (deal.positions == null || latest.mcaCount > deal.positions)) return { value: latest.mcaCount, source: 'statements', statements: [latest.statement] };
  return { value: deal.positions, source: 'advances', statements: [] };
}

/** The figures a deal is measured by, with their sources: what a submission records with its match snapshot. */
export function matchFigures(deal: DealFacts): MatchFigures {
  const e = deal.statements;
  const has = read(e);
  const fromStatements = (v: number | null | undefined) => ({ value: has && v != null ? v : null, source: 'statements' as const });
  const revenue = has && e.revenueCents != null;
  const p = positionsOf(deal);
  return {
    monthly_revenue: revenue
      ? { value: toDollars(e.revenueCents!), source: 'statements' }
      : { value: deal.monthlyRevenueCents == null ? null : toDollars(deal.monthlyRevenueCents), source: 'deal' },
    average_daily_balance: fromStatements(e?.averageDailyBalanceCents == null ? null : toDollars(e.averageDailyBalanceCents)),
    negative_days: fromStatements(e?.negativeDays?.value),
    nsf_count: fromStatements(e?.nsfCount?.value),
    positions: { value: p.value, source: p.source },
    withhold_percent: fromStatements(e?.latest?.withholdPercent),
    time_in_business_months: { value: deal.timeInBusinessMonths, source: 'business' },
    statements: e?.used ?? [],
    statements_not_used: e?.notUsed ?? [],
    revenue_check: has ? revenueCheck(deal.monthlyRevenueCents, e) : null,
  };
}
