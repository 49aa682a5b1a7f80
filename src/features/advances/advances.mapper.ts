import type { components } from '../../../generated/schema';
import { isoRequired } from '../../lib/format';
import { toCents, toDollars } from '../../lib/money';
import type { AdvanceContext, AdvanceRow } from './advances.repository';

type S = components['schemas'];
export type Advance = S['Advance'];
export type AdvanceSummary = S['AdvanceSummary'];
export type AdvanceSnapshot = S['AdvanceSnapshot'];

/** Figures derived at read time from the stored ones (never stored, so never stale). */
export interface AdvanceFigures {
  remaining_balance: number;
  percent_paid: number;
  payments_expected: number;
  expected_payoff_date: string;
  renewal_threshold: number;
  renewal_ready: boolean;
}

const MAX_DATE = Date.UTC(9999, 11, 31);

function addDaysUtc(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

/** `YYYY-MM-DD` plus `k` payment periods (daily = business days Monday to Friday). */
export function addPaymentPeriods(firstPaymentDate: string, frequency: string, k: number): string {
  let d = new Date(`${firstPaymentDate}T00:00:00Z`);
  if (k > 0) {
    if (frequency === 'weekly') d = addDaysUtc(d, 7 * k);
    else if (frequency === 'bi-weekly') d = addDaysUtc(d, 14 * k);
    else if (frequency === 'monthly') {
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth() + k;
      const day = d.getUTCDate();
      const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      d = new Date(Date.UTC(y, m, Math.min(day, lastDay)));
    } else {
      // daily: business days. From a weekend the first step lands on Monday.
      let left = k;
      const wd = d.getUTCDay();
      if (wd === 6 || wd === 0) {
        d = addDaysUtc(d, wd === 6 ? 2 : 1);
        left -= 1;
      }
      d = addDaysUtc(d, Math.floor(left / 5) * 7);
      for (let i = 0; i < left % 5; i++) {
        d = addDaysUtc(d, 1);
        while (d.getUTCDay() === 6 || d.getUTCDay() === 0) d = addDaysUtc(d, 1);
      }
    }
  }
  if (Number.isNaN(d.getTime()) || d.getTime() > MAX_DATE) d = new Date(MAX_DATE);
  return d.toISOString().slice(0, 10);
}

/** percent paid, rounded to two decimals (the same rounding as RENEWAL_READY_SQL). */
export function percentPaid(paidCents: number, paybackCents: number): number {
  if (paybackCents <= 0) return 0;
  return Math.min(100, Math.round((paidCents * 10000) / paybackCents) / 100);
}

export function advanceFigures(row: Pick<AdvanceRow, 'payback_amount' | 'paid_amount' | 'payment_amount' | 'payment_frequency' | 'first_payment_date' | 'renewal_threshold_override' | 'status'>, locationThreshold: number): AdvanceFigures {
  const payback = toCents(row.payback_amount);
  const paid = toCents(row.paid_amount);
  const payment = toCents(row.payment_amount);
  const pct = percentPaid(paid, payback);
  const threshold = row.renewal_threshold_override ?? locationThreshold;
  const expected = payment > 0 ? Math.ceil(payback / payment) : 0;
  return {
    remaining_balance: toDollars(Math.max(0, payback - paid)),
    percent_paid: pct,
    payments_expected: expected,
    expected_payoff_date: addPaymentPeriods(row.first_payment_date, row.payment_frequency, Math.max(0, expected - 1)),
    renewal_threshold: Number(threshold),
    renewal_ready: row.status !== 'paid-off' && payback > 0 && pct >= Number(threshold),
  };
}

export function toAdvance(row: AdvanceRow, ctx: AdvanceContext): Advance {
  const f = advanceFigures(row, ctx.location_threshold);
  return {
    id: row.id,
    deal_id: row.deal_id,
    business_id: row.business_id,
    business_name: ctx.business_name,
    lender_id: row.lender_id,
    lender_name: ctx.lender_name,
    offer_id: row.offer_id,
    status: row.status,
    funded_amount: row.funded_amount,
    factor_rate: row.factor_rate,
    term: row.term,
    payment_frequency: row.payment_frequency as Advance['payment_frequency'],
    payment_amount: row.payment_amount,
    payback_amount: row.payback_amount,
    paid_amount: row.paid_amount,
    remaining_balance: f.remaining_balance,
    percent_paid: f.percent_paid,
    payments_made: row.payments_made,
    payments_expected: f.payments_expected,
    position: row.position,
    renewal_ready: f.renewal_ready,
    renewal_threshold: f.renewal_threshold,
    renewal_threshold_override: row.renewal_threshold_override,
    funded_at: isoRequired(row.funded_at),
    first_payment_date: row.first_payment_date,
    expected_payoff_date: f.expected_payoff_date,
    actual_payoff_date: row.actual_payoff_date,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

export function toAdvanceSummary(row: AdvanceRow, ctx: AdvanceContext): AdvanceSummary {
  const f = advanceFigures(row, ctx.location_threshold);
  return {
    id: row.id,
    deal_id: row.deal_id,
    lender: { id: row.lender_id, name: ctx.lender_name },
    status: row.status,
    funded_amount: row.funded_amount,
    payback_amount: row.payback_amount,
    paid_amount: row.paid_amount,
    remaining_balance: f.remaining_balance,
    factor_rate: row.factor_rate,
    payment_amount: row.payment_amount,
    payment_frequency: row.payment_frequency,
    percent_paid: f.percent_paid,
    renewal_threshold: f.renewal_threshold,
    renewal_ready: f.renewal_ready,
    funded_at: isoRequired(row.funded_at),
  };
}

/** The fixed subset sent in webhook payloads. */
export function toAdvanceSnapshot(row: AdvanceRow, locationThreshold: number): AdvanceSnapshot {
  const f = advanceFigures(row, locationThreshold);
  return {
    id: row.id,
    deal_id: row.deal_id,
    business_id: row.business_id,
    lender_id: row.lender_id,
    status: row.status,
    funded_amount: row.funded_amount,
    payback_amount: row.payback_amount,
    paid_amount: row.paid_amount,
    remaining_balance: f.remaining_balance,
    percent_paid: f.percent_paid,
    renewal_ready: f.renewal_ready,
    funded_at: isoRequired(row.funded_at),
    updated_at: isoRequired(row.updated_at),
  };
}

