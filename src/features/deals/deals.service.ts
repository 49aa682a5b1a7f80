import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { phoneParam } from '../../lib/phone';
import { visibleBusinesses } from '../../db/visible';
import { findStage, findStageByEvent, firstStageOfPhase, isOpenPhase, OPEN_PHASES, type StageEvent, type StageRow } from '../pipeline/pipeline.service';
import { toDeal, toDealSnapshot, toStageRef, usd, type Deal } from './deals.mapper';
import {
  dealContexts, dealsQuery, findDealWithContext, whereDealSearch, findDeal, findDealInLocation, findUsers, insertDeal, primaryContactOwner, updateDealRow, type DealContext, type DealOwner, type DealRow, type Db,
} from './deals.repository';

// What lender matching reads of a deal's statements; a feature never imports another's repository.
export { statementDocsByDeal } from './deals.repository';

type S = components['schemas'];
type CreateBody = S['CreateDealRequest'];
type UpdateBody = S['UpdateDealRequest'];
type MoveBody = S['MoveDealStageRequest'];
type DeadBody = S['MarkDealDeadRequest'];
type ListQuery = NonNullable<operations['listDeals']['parameters']['query']>;

export async function withContext(db: Db, scope: Scope, rows: DealRow[], now: Date): Promise<Deal[]> {
  const ctx = await dealContexts(db, scope, rows);
  return rows.map((r) => toDeal(r, ctx.get(r.id)!, now));
}

export async function contextOf(db: Db, scope: Scope, row: DealRow): Promise<DealContext> {
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

/** The activity line's subject for a deal (deals/fund.ts too). */
export const dealActivity = (ctx: DealContext, row: DealRow) => ({ businessId: row.business_id, dealId: row.id, entityType: 'deal' as const, entityId: row.id, entityName: ctx.business.legal_name });

export async function createDeal(deps: Deps, scope: Scope, body: CreateBody): Promise<Deal> {
  const now = deps.clock.now();
  return deps.db.knex.transaction(async (trx) => {
    const business = (await visibleBusinesses(trx, scope).where('businesses.id', body.business_id).first('businesses.id')) as { id: string } | undefined;
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
  const found = await findDealWithContext(deps.db.knex, scope, id);
  if (!found) throw notFound('deal', id, 'id');
  return toDeal(found.row, found.ctx, deps.clock.now());
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
export async function applyStageMove(trx: Knex.Transaction, clock: Clock, scope: Scope, deal: DealRow, to: StageRow, move: StageMove): Promise<{ row: DealRow; from: StageRow }> {
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
