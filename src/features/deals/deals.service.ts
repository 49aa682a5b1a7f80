import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import type { Clock } from '../../lib/clock';
import { dateOnly } from '../../lib/format';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { phoneParam } from '../../lib/phone';
import { insertAdvance, locationThreshold, type AdvanceRow } from '../advances/advances.repository';
import { notifyRenewalReadyOnce, withContext as advancesWithContext } from '../advances/advances.service';
import type { Advance } from '../advances/advances.mapper';
import { findBusiness } from '../businesses/businesses.repository';
import { offerPrimaryChanged } from '../offers/offers.events';
import { findOffer, markSubmissionFunded, setPrimaryOfferRow, updateOfferRow, type OfferRow } from '../offers/offers.repository';
import { findStage, findStageByEvent, firstStageOfPhase, isOpenPhase, OPEN_PHASES, type StageEvent, type StageRow } from '../pipeline/pipeline.repository';
import { toDeal, toDealSnapshot, toStageRef, usd, type Deal } from './deals.mapper';
import {
  dealContexts, dealsQuery, whereDealSearch, findDeal, findDealInLocation, findUsers, insertDeal, primaryContactOwner, updateDealRow, type DealContext, type DealOwner, type DealRow, type Db,
} from './deals.repository';

type S = components['schemas'];
type CreateBody = S['CreateDealRequest'];
type UpdateBody = S['UpdateDealRequest'];
type MoveBody = S['MoveDealStageRequest'];
type DeadBody = S['MarkDealDeadRequest'];
type FundBody = S['FundDealRequest'];
type ListQuery = NonNullable<operations['listDeals']['parameters']['query']>;

export async function withContext(db: Db, scope: Scope, rows: DealRow[], now: Date): Promise<Deal[]> {
  const ctx = await dealContexts(db, scope, rows);
  return rows.map((r) => toDeal(r, ctx.get(r.id)!, now));
}

async function contextOf(db: Db, scope: Scope, row: DealRow): Promise<DealContext> {
  return (await dealContexts(db, scope, [row])).get(row.id)!;
}

/** The deal as this caller may see it (role user: only its own), else 404. Use for every deal sub-resource. */
export async function getDealOr404(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean; param?: string } = {}): Promise<DealRow> {
  const row = await findDeal(db, scope, id, opts);
  if (!row) throw notFound('deal', id, opts.param ?? 'id');
  return row;
}

/**
 * For `GET /v1/businesses/{id}?include=deals`: the business's deals this caller may see (role user:
 * only its own), newest first, up to `limit`. `now` (pass `deps.clock.now()`) is the time `days_in_stage`
 * is computed at.
 */
export async function listDealsForBusiness(db: Db, scope: Scope, businessId: string, limit: number, now: Date): Promise<Deal[]> {
  const rows: DealRow[] = await dealsQuery(db, scope)
    .where('deals.business_id', businessId)
    .orderBy([{ column: 'deals.created_at', order: 'desc' }, { column: 'deals.id', order: 'desc' }])
    .limit(limit)
    .select('deals.*');
  return withContext(db, scope, rows, now);
}


const money = (v: number | null | undefined) => (v == null ? null : toDollars(toCents(v)));

function wholeMonths(v: number | null | undefined): number | null {
  if (v == null) return null;
  if (!Number.isInteger(v)) throw invalid('desired_term_months must be a whole number of months', 'desired_term_months');
  return v;
}

async function userOr404(db: Db, scope: Scope, id: string, param: string): Promise<void> {
  if (!(await findUsers(db, scope, [id])).has(id)) throw notFound('user', id, param);
}

/** Where a new deal starts: the stage bound to `deal_created` when it is open, else the first open stage. */
async function startingStage(db: Db, scope: Scope): Promise<StageRow> {
  const bound = await findStageByEvent(db, scope, 'deal_created');
  if (bound && isOpenPhase(bound.phase)) return bound;
  const first = await firstStageOfPhase(db, scope, OPEN_PHASES);
  if (!first) throw conflict('The pipeline has no open-phase stage to start a deal in', 'invalid_state_transition', 'stage_id');
  return first;
}

const dealActivity = (ctx: DealContext, row: DealRow) => ({ businessId: row.business_id, dealId: row.id, entityType: 'deal' as const, entityId: row.id, entityName: ctx.business.legal_name });

export async function createDeal(deps: Deps, scope: Scope, body: CreateBody): Promise<Deal> {
  const now = deps.clock.now();
  return deps.db.knex.transaction(async (trx) => {
    const business = await findBusiness(trx, scope, body.business_id);
    if (!business) throw notFound('business', body.business_id, 'business_id');
    let stage: StageRow;
    if (body.stage_id) {
      const s = await findStage(trx, scope, body.stage_id);
      if (!s) throw notFound('pipeline stage', body.stage_id, 'stage_id');
      if (!isOpenPhase(s.phase)) throw invalid(`A deal cannot start in a ${s.phase} stage; use fundDeal or markDealDead to close a deal`, 'stage_id');
      stage = s;
    } else stage = await startingStage(trx, scope);
    if (body.originator_id) await userOr404(trx, scope, body.originator_id, 'originator_id');
    if (body.closer_id) await userOr404(trx, scope, body.closer_id, 'closer_id');
    const owner: DealOwner = body.owner
      ? { first_name: body.owner.first_name ?? null, last_name: body.owner.last_name ?? null, email: body.owner.email ?? null, phone: phoneParam(body.owner.phone, 'owner.phone') }
      : await primaryContactOwner(trx, scope, business.id);
    const row: DealRow = {
      id: newId('deal', now.getTime()),
      location_id: scope.locationId,
      business_id: business.id,
      requested_amount: money(body.requested_amount),
      annual_revenue: money(body.annual_revenue),
      use_of_funds: body.use_of_funds ?? null,
      product_type: body.product_type ?? 'mca',
      desired_term_months: wholeMonths(body.desired_term_months),
      desired_frequency: body.desired_frequency ?? null,
      paper_grade: body.paper_grade ?? null,
      paper_grade_source: body.paper_grade ? 'api' : null,
      source: body.source ?? 'api',
      lead_source: body.lead_source ?? null,
      state_incorporated: body.state_incorporated ?? null,
      closed_reason: null,
      ghl_contact_id: null,
      ghl_opportunity_id: null,
      renewal_of_deal_id: null,
      renewal_of_advance_id: null,
      risk_flags: {},
      form_data: body.form_data ?? {},
      owner,
      status: 'open',
      stage_id: stage.id,
      stage_entered_at: now,
      primary_offer_id: null,
      originator_id: body.originator_id ?? scope.userId ?? null,
      closer_id: body.closer_id ?? null,
      created_by_user_id: scope.userId ?? null,
      manually_closed: false,
      closed_at: null,
      created_at: now,
      updated_at: now,
    };
    await insertDeal(trx, row);
    const ctx = await contextOf(trx, scope, row);
    await recordActivity(trx, deps.clock, scope, {
      ...dealActivity(ctx, row),
      action: 'deal.created',
      description: row.requested_amount != null ? `Deal created for ${usd(row.requested_amount)}` : 'Deal created',
      data: { requested_amount: row.requested_amount, source: row.source },
    });
    await recordEvent(trx, deps.clock, scope.locationId, 'deal.created', { deal_id: row.id, business_id: row.business_id, deal: toDealSnapshot(row, ctx) });
    return toDeal(row, ctx, now);
  });
}

/** `search` as the contract defines it: trimmed, 3 to 100 characters, no control characters. */
function searchTerm(raw: string): string {
  const term = raw.trim();
  if (term.length < 3) throw invalid('search must have at least 3 characters (spaces at either end do not count)', 'search');
  if (/[\u0000-\u001f\u007f]/.test(term)) throw invalid('search may not contain control characters', 'search');
  return term;
}

export async function listDeals(deps: Deps, scope: Scope, query: ListQuery) {
  const q = dealsQuery(deps.db.knex, scope).select('deals.*');
  if (query.status) q.where('deals.status', query.status);
  if (query.stage_id) q.where('deals.stage_id', query.stage_id);
  if (query.business_id) q.where('deals.business_id', query.business_id);
  if (query.originator_id) q.where('deals.originator_id', query.originator_id);
  if (query.search !== undefined) whereDealSearch(q, searchTerm(query.search));
  const page = await paginate<DealRow>(q, { key: deps.cursorKey, list: 'deals', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'deals.created_at', idColumn: 'deals.id' });
  return { data: await withContext(deps.db.knex, scope, page.rows, deps.clock.now()), meta: page.meta };
}

export async function getDeal(deps: Deps, scope: Scope, id: string): Promise<Deal> {
  const row = await getDealOr404(deps.db.knex, scope, id);
  return (await withContext(deps.db.knex, scope, [row], deps.clock.now()))[0];
}

export async function updateDeal(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Deal> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getDealOr404(trx, scope, id, { forUpdate: true });
    const now = deps.clock.now();
    const patch: Partial<DealRow> = {};
    const fields: string[] = [];
    const set = <K extends keyof DealRow>(k: K, v: DealRow[K]) => {
      patch[k] = v;
      fields.push(k);
    };
    if (body.requested_amount !== undefined) set('requested_amount', money(body.requested_amount));
    if (body.annual_revenue !== undefined) set('annual_revenue', money(body.annual_revenue));
    if (body.use_of_funds !== undefined) set('use_of_funds', body.use_of_funds);
    if (body.product_type !== undefined) set('product_type', body.product_type);
    if (body.desired_term_months !== undefined) set('desired_term_months', wholeMonths(body.desired_term_months));
    if (body.desired_frequency !== undefined) set('desired_frequency', body.desired_frequency);
    if (body.paper_grade !== undefined) {
      set('paper_grade', body.paper_grade);
      patch.paper_grade_source = body.paper_grade === null ? null : 'api';
    }
    if (body.originator_id !== undefined) {
      if (body.originator_id) await userOr404(trx, scope, body.originator_id, 'originator_id');
      set('originator_id', body.originator_id);
    }
    if (body.closer_id !== undefined) {
      if (body.closer_id) await userOr404(trx, scope, body.closer_id, 'closer_id');
      set('closer_id', body.closer_id);
    }
    if (body.source !== undefined) set('source', body.source);
    if (body.lead_source !== undefined) set('lead_source', body.lead_source);
    if (body.state_incorporated !== undefined) set('state_incorporated', body.state_incorporated);
    if (body.form_data !== undefined) set('form_data', body.form_data);
    if (body.owner !== undefined) {
      const owner: DealOwner = { ...existing.owner };
      for (const k of ['first_name', 'last_name', 'email'] as const) if (body.owner[k] !== undefined) owner[k] = body.owner[k] ?? null;
      if (body.owner.phone !== undefined) owner.phone = phoneParam(body.owner.phone, 'owner.phone');
      set('owner', owner);
    }
    patch.updated_at = now;
    await updateDealRow(trx, scope, id, patch);
    const row: DealRow = { ...existing, ...patch };
    const ctx = await contextOf(trx, scope, row);
    // Every write leaves a line in the business's history (an open action: deal.updated).
    await recordActivity(trx, deps.clock, scope, { ...dealActivity(ctx, row), action: 'deal.updated', description: `Deal updated (${fields.join(', ')})`, data: { fields } });
    return toDeal(row, ctx, now);
  });
}

interface StageMove {
  trigger: 'system' | 'board' | 'api';
  event: StageEvent | null;
  reason: string | null;
  /** Record the deal.stage_changed activity line (false when a deal.dead / deal.funded line says it). */
  activity: boolean;
  extra?: Partial<DealRow>;
}

/** Moves a locked deal into `to`, and writes deal.stage_changed (event and, optionally, activity). */
async function applyStageMove(trx: Knex.Transaction, clock: Clock, scope: Scope, deal: DealRow, to: StageRow, move: StageMove): Promise<{ row: DealRow; from: StageRow }> {
  const now = clock.now();
  const from = (await findStage(trx, scope, deal.stage_id))!;
  const patch: Partial<DealRow> = { stage_id: to.id, stage_entered_at: now, updated_at: now, ...move.extra };
  await updateDealRow(trx, scope, deal.id, patch);
  const row: DealRow = { ...deal, ...patch };
  if (move.activity) {
    const ctx = await contextOf(trx, scope, row);
    await recordActivity(trx, clock, scope, {
      ...dealActivity(ctx, row),
      action: 'deal.stage_changed',
      description: `Deal moved from ${from.label} to ${to.label}`,
      data: { from_stage: toStageRef(from), to_stage: toStageRef(to), trigger: move.trigger, reason: move.reason },
    });
  }
  await recordEvent(trx, clock, scope.locationId, 'deal.stage_changed', {
    deal_id: row.id, from_stage: toStageRef(from), to_stage: toStageRef(to), trigger: move.trigger, event: move.event, reason: move.reason, changed_at: now.toISOString(),
  });
  return { row, from };
}

/**
 * A system event (`submission_sent`, `offer_received`) moves an open deal into the stage bound to
 * it, forwards only (a higher sort_order than its current stage). Fires deal.stage_changed with
 * trigger `system`. For use inside the caller's transaction; returns whether the deal moved.
 */
export async function moveDealOnSystemEvent(trx: Knex.Transaction, clock: Clock, scope: Scope, dealId: string, event: 'submission_sent' | 'offer_received'): Promise<boolean> {
  const target = await findStageByEvent(trx, scope, event);
  if (!target || !isOpenPhase(target.phase)) return false;
  const deal = await findDealInLocation(trx, scope, dealId, { forUpdate: true });
  if (!deal || deal.status !== 'open' || deal.stage_id === target.id) return false;
  const current = await findStage(trx, scope, deal.stage_id);
  if (current && current.sort_order >= target.sort_order) return false;
  await applyStageMove(trx, clock, scope, deal, target, { trigger: 'system', event, reason: null, activity: true });
  return true;
}

export async function moveDealStage(deps: Deps, scope: Scope, id: string, body: MoveBody): Promise<Deal> {
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getDealOr404(trx, scope, id, { forUpdate: true });
    const to = await findStage(trx, scope, body.stage_id);
    if (!to) throw notFound('pipeline stage', body.stage_id, 'stage_id');
    if (!isOpenPhase(to.phase)) {
      throw conflict(`Deals cannot be moved into a ${to.phase} stage: use ${to.phase === 'funded' ? 'fundDeal' : 'markDealDead'}`, 'invalid_state_transition', 'stage_id');
    }
    if (deal.status === 'funded') throw conflict('A funded deal cannot be moved', 'invalid_state_transition');
    let row = deal;
    if (deal.stage_id !== to.id) {
      // A dead deal moved into an open stage is reopened.
      const extra: Partial<DealRow> = deal.status === 'dead' ? { status: 'open', closed_at: null, closed_reason: null, manually_closed: false } : {};
      row = (await applyStageMove(trx, deps.clock, scope, deal, to, { trigger: 'api', event: null, reason: body.reason ?? null, activity: true, extra })).row;
    }
    return (await withContext(trx, scope, [row], deps.clock.now()))[0];
  });
}

export async function markDealDead(deps: Deps, scope: Scope, id: string, body: DeadBody): Promise<Deal> {
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getDealOr404(trx, scope, id, { forUpdate: true });
    let to: StageRow | undefined;
    if (body.stage_id) {
      to = await findStage(trx, scope, body.stage_id);
      if (!to) throw notFound('pipeline stage', body.stage_id, 'stage_id');
      if (to.phase !== 'dead') throw invalid(`stage_id must be a dead-phase stage (this one is ${to.phase})`, 'stage_id');
    }
    if (deal.status !== 'open') throw conflict(`The deal is already ${deal.status}`, 'invalid_state_transition');
    to ??= await firstStageOfPhase(trx, scope, ['dead']);
    if (!to) throw conflict('The pipeline has no dead-phase stage', 'invalid_state_transition', 'stage_id');
    const now = deps.clock.now();
    const reason = body.reason;
    const { row } = await applyStageMove(trx, deps.clock, scope, deal, to, {
      trigger: 'api', event: null, reason, activity: false,
      extra: { status: 'dead', closed_at: now, closed_reason: reason, manually_closed: true },
    });
    const ctx = await contextOf(trx, scope, row);
    await recordActivity(trx, deps.clock, scope, {
      ...dealActivity(ctx, row), action: 'deal.dead', description: `Deal marked dead: ${reason}`, data: { stage: { id: to.id, label: to.label }, reason },
    });
    await recordEvent(trx, deps.clock, scope.locationId, 'deal.dead', { deal_id: row.id, stage: toStageRef(to), reason, changed_at: now.toISOString(), deal: toDealSnapshot(row, ctx) });
    return toDeal(row, ctx, now);
  });
}

/** The first business day (Monday to Friday) after a UTC date. */
export function nextBusinessDay(d: Date): string {
  let t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
  while (t.getUTCDay() === 0 || t.getUTCDay() === 6) t = new Date(t.getTime() + 86_400_000);
  return dateOnly(t);
}

export async function fundDeal(deps: Deps, scope: Scope, id: string, body: FundBody): Promise<Advance> {
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getDealOr404(trx, scope, id, { forUpdate: true });
    // Locked: a concurrent updateOffer must not change the terms the advance copies.
    const offer = await findOffer(trx, scope, body.offer_id, { forUpdate: true });
    if (!offer) throw notFound('offer', body.offer_id, 'offer_id');
    if (deal.status !== 'open') throw conflict(`The deal is already ${deal.status}`, 'invalid_state_transition');
    if (offer.deal_id !== deal.id) throw conflict('offer_id is an offer of another deal', 'invalid_state_transition', 'offer_id');
    if (offer.status !== 'accepted') throw conflict(`Only an accepted offer can fund the deal (this one is ${offer.status})`, 'invalid_state_transition', 'offer_id');
    const now = deps.clock.now();
    const fundedAt = body.funded_at ? new Date(body.funded_at) : now;
    if (fundedAt.getTime() > now.getTime()) throw invalid('funded_at cannot be in the future', 'funded_at');
    const firstPaymentDate = body.first_payment_date ?? nextBusinessDay(fundedAt);
    if (firstPaymentDate < dateOnly(fundedAt)) throw invalid('first_payment_date cannot be before the funding date', 'first_payment_date');
    const fundedStage = await firstStageOfPhase(trx, scope, ['funded']);
    if (!fundedStage) throw conflict('The pipeline has no funded-phase stage', 'invalid_state_transition');

    // 1. the offer is selected, and becomes primary if it was not.
    const previousPrimary = deal.primary_offer_id;
    const becamePrimary = !offer.is_primary;
    if (becamePrimary) await setPrimaryOfferRow(trx, scope, deal.id, offer.id, now);
    await updateOfferRow(trx, scope, offer.id, { is_selected: true, updated_at: now });
    const selected: OfferRow = { ...offer, is_selected: true, is_primary: true, updated_at: now };
    // 2. its submission (if any) is funded.
    if (offer.submission_id) await markSubmissionFunded(trx, scope, offer.submission_id, now);
    // 3. the advance, copied from the offer.
    const advance: AdvanceRow = {
      id: newId('adv', now.getTime()),
      location_id: scope.locationId,
      deal_id: deal.id,
      business_id: deal.business_id,
      lender_id: offer.lender_id,
      offer_id: offer.id,
      status: 'on-track',
      funded_amount: offer.amount,
      factor_rate: offer.factor_rate,
      term: offer.term,
      payment_frequency: offer.payment_frequency,
      payment_amount: offer.payment_amount,
      payback_amount: offer.payback_amount,
      paid_amount: 0,
      payments_made: 0,
      position: body.position ?? offer.position,
      renewal_threshold_override: null,
      renewal_ready_notified_at: null,
      funded_at: fundedAt,
      first_payment_date: firstPaymentDate,
      actual_payoff_date: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await insertAdvance(trx, advance);
    } catch (e) {
      // One advance per deal (unique deal_id): a concurrent funding won.
      if ((e as { code?: string }).code === '23505') throw conflict('The deal already has an advance', 'invalid_state_transition');
      throw e;
    }
    // 4. the deal enters the funded phase.
    const { row } = await applyStageMove(trx, deps.clock, scope, { ...deal, primary_offer_id: offer.id }, fundedStage, {
      trigger: 'api', event: null, reason: null, activity: false,
      extra: { status: 'funded', closed_at: now, manually_closed: true, primary_offer_id: offer.id },
    });
    const ctx = await contextOf(trx, scope, row);
    if (becamePrimary) await offerPrimaryChanged(trx, deps.clock, scope, selected, previousPrimary);
    const lender = ctx.primary_offer?.lender_name ?? 'the lender';
    await recordActivity(trx, deps.clock, scope, {
      ...dealActivity(ctx, row),
      action: 'deal.funded',
      description: `Deal funded with ${lender} for ${usd(advance.funded_amount)}`,
      data: { stage: { id: fundedStage.id, label: fundedStage.label }, advance_id: advance.id, funded_amount: advance.funded_amount },
    });
    await recordEvent(trx, deps.clock, scope.locationId, 'deal.funded', { deal_id: row.id, stage: toStageRef(fundedStage), reason: null, changed_at: now.toISOString(), deal: toDealSnapshot(row, ctx) });
    // A location default of 0% makes a new advance renewal ready at once.
    await notifyRenewalReadyOnce(trx, deps.clock, scope, advance, await locationThreshold(trx, scope));
    return (await advancesWithContext(trx, scope, [advance]))[0];
  });
}

