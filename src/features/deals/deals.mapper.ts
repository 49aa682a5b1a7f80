import type { components } from '../../../generated/schema';
import { iso, isoRequired, type TimesAsText } from '../../lib/format';
import type { StageRow } from '../pipeline/pipeline.service';
import { monthlyRevenueCents } from '../lender-matches/scoring';
import { revenueCheck, statementEvidence } from '../lender-matches/statement-figures';
import type { DealContext, DealRow } from './deals.repository';

type S = components['schemas'];
export type Deal = S['Deal'];
export type DealSnapshot = S['DealSnapshot'];
export type StageRef = S['StageRef'];

const DAY_MS = 86_400_000;

/** `$75,000.00`, for activity descriptions. */
export const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** Whole days since the deal entered its stage, at `now` (the injected clock). */
export function daysInStage(enteredAt: Date | string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(enteredAt).getTime()) / DAY_MS));
}

export function toDealStage(s: StageRow): S['DealStage'] {
  return { id: s.id, label: s.label, phase: s.phase, sort_order: s.sort_order, event: s.event };
}

/** The stage as webhook payloads carry it (no sort_order). */
export function toStageRef(s: StageRow): StageRef {
  return { id: s.id, label: s.label, phase: s.phase, event: s.event };
}

/** Row -> wire shape, field by field (allow-list). Business fields come from the business row at read time. */
export function toDeal(row: TimesAsText<DealRow>, ctx: DealContext, now: Date): Deal {
  const b = ctx.business;
  return {
    id: row.id,
    business_id: row.business_id,
    business: { id: b.id, legal_name: b.legal_name, dba: b.dba },
    business_name: b.legal_name,
    dba: b.dba,
    entity_type: b.entity_type,
    industry: b.industry,
    business_address: b.address,
    business_city: b.city,
    business_state: b.state,
    business_zip: b.zip,
    business_phone: b.phone,
    business_start_date: b.business_start_date,
    state_incorporated: row.state_incorporated,
    owner: {
      first_name: row.owner?.first_name ?? null,
      last_name: row.owner?.last_name ?? null,
      email: row.owner?.email ?? null,
      phone: row.owner?.phone ?? null,
    },
    requested_amount: row.requested_amount,
    annual_revenue: row.annual_revenue,
    use_of_funds: row.use_of_funds,
    product_type: row.product_type as Deal['product_type'],
    desired_term_months: row.desired_term_months,
    desired_frequency: row.desired_frequency as Deal['desired_frequency'],
    paper_grade: row.paper_grade as Deal['paper_grade'],
    paper_grade_source: row.paper_grade_source,
    risk_flags: row.risk_flags ?? {},
    status: row.status,
    stage: toDealStage(ctx.stage),
    stage_entered_at: isoRequired(row.stage_entered_at),
    days_in_stage: daysInStage(row.stage_entered_at, now),
    primary_offer: ctx.primary_offer
      ? {
          id: ctx.primary_offer.id,
          lender_id: ctx.primary_offer.lender_id,
          lender_name: ctx.primary_offer.lender_name,
          amount: ctx.primary_offer.amount,
          factor_rate: ctx.primary_offer.factor_rate,
          status: ctx.primary_offer.status as NonNullable<Deal['primary_offer']>['status'],
        }
      : null,
    originator: ctx.originator ? { id: ctx.originator.id, name: ctx.originator.name } : null,
    closer: ctx.closer ? { id: ctx.closer.id, name: ctx.closer.name } : null,
    source: row.source,
    lead_source: row.lead_source,
    form_data: row.form_data ?? {},
    submissions_count: ctx.submissions_count,
    offers_count: ctx.offers_count,
    revenue_check: revenueCheck(monthlyRevenueCents(row.annual_revenue), statementEvidence(ctx.statements)),
    renewal_of_deal_id: row.renewal_of_deal_id,
    renewal_of_advance_id: row.renewal_of_advance_id,
    manually_closed: row.manually_closed,
    closed_at: iso(row.closed_at),
    closed_reason: row.closed_reason,
    ghl_contact_id: row.ghl_contact_id,
    ghl_opportunity_id: row.ghl_opportunity_id,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The fixed subset sent in webhook payloads: never form_data, owner details or CRM ids. */
export function toDealSnapshot(row: DealRow, ctx: DealContext): DealSnapshot {
  return {
    id: row.id,
    business_id: row.business_id,
    business_name: ctx.business.legal_name,
    requested_amount: row.requested_amount,
    status: row.status,
    stage: toStageRef(ctx.stage),
    originator_id: row.originator_id,
    closer_id: row.closer_id,
    primary_offer_id: row.primary_offer_id,
    submissions_count: ctx.submissions_count,
    offers_count: ctx.offers_count,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
