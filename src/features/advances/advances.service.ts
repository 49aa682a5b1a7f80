import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import type { Clock } from '../../lib/clock';
import { dateOnly } from '../../lib/format';
import { toCents, toDollars } from '../../lib/money';
import { advanceFigures, toAdvance, toAdvanceSnapshot, toAdvanceSummary, type Advance, type AdvanceSummary } from './advances.mapper';
import {
  advanceContexts, advancesQuery, findAdvance, lenderName, locationThreshold, markRenewalNotified, RENEWAL_READY_SQL, updateAdvanceRow, type AdvanceRow, type AdvanceStatus, type Db,
} from './advances.repository';

type UpdateBody = components['schemas']['UpdateAdvanceRequest'];
type ListQuery = NonNullable<operations['listAdvances']['parameters']['query']>;

export type { AdvanceSummary };
// What funding a deal (deals/fund.ts) writes and reads of advances; a feature never imports another's repository.
export { insertAdvance, locationThreshold, type AdvanceRow } from './advances.repository';

export async function withContext(db: Db, scope: Scope, rows: AdvanceRow[]): Promise<Advance[]> {
  const ctx = await advanceContexts(db, scope, rows);
  return rows.map((r) => toAdvance(r, ctx.get(r.id)!));
}

/**
 * For `GET /v1/businesses/{id}?include=advances`: the business's advances, newest first, in the
 * contract's AdvanceSummary shape. Role `user` has no access to advances, so it gets none.
 */
export async function listAdvanceSummariesForBusiness(db: Db, scope: Scope, businessId: string): Promise<AdvanceSummary[]> {
  if (scope.role === 'user') return [];
  const rows: AdvanceRow[] = await advancesQuery(db, scope)
    .where('advances.business_id', businessId)
    .orderBy([{ column: 'advances.created_at', order: 'desc' }, { column: 'advances.id', order: 'desc' }])
    .select('advances.*');
  const ctx = await advanceContexts(db, scope, rows);
  return rows.map((r) => toAdvanceSummary(r, ctx.get(r.id)!));
}

export async function getAdvanceOr404(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<AdvanceRow> {
  const row = await findAdvance(db, scope, id, opts);
  if (!row) throw notFound('advance', id);
  return row;
}

export async function listAdvances(deps: Deps, scope: Scope, query: ListQuery) {
  const db = deps.db.knex;
  const q = advancesQuery(db, scope).select('advances.*');
  if (query.status) q.where('advances.status', query.status);
  if (query.lender_id) q.where('advances.lender_id', query.lender_id);
  if (query.business_id) q.where('advances.business_id', query.business_id);
  if (query.renewal_ready !== undefined) {
    const threshold = await locationThreshold(db, scope);
    if (String(query.renewal_ready) === 'true') q.whereRaw(RENEWAL_READY_SQL, [threshold]);
    else q.whereRaw(`not ${RENEWAL_READY_SQL}`, [threshold]);
  }
  const page = await paginate<AdvanceRow>(q, { key: deps.cursorKey, list: 'advances', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'advances.created_at', idColumn: 'advances.id' });
  return { data: await withContext(db, scope, page.rows), meta: page.meta };
}

export async function getAdvance(deps: Deps, scope: Scope, id: string): Promise<Advance> {
  const row = await getAdvanceOr404(deps.db.knex, scope, id);
  return (await withContext(deps.db.knex, scope, [row]))[0];
}

/**
 * Fires `advance.renewal_ready` the first time the advance is renewal ready (never again, even if it
 * drops below and rises again). Call after every change that can move percent_paid or the threshold.
 * Returns whether it fired.
 */
export async function notifyRenewalReadyOnce(trx: Knex.Transaction, clock: Clock, scope: Scope, row: AdvanceRow, threshold?: number): Promise<boolean> {
  if (row.renewal_ready_notified_at) return false;
  const locThreshold = threshold ?? (await locationThreshold(trx, scope));
  const f = advanceFigures(row, locThreshold);
  if (!f.renewal_ready) return false;
  const now = clock.now();
  if (!(await markRenewalNotified(trx, scope, row.id, now))) return false;
  row.renewal_ready_notified_at = now;
  await recordActivity(trx, clock, scope, {
    businessId: row.business_id, dealId: row.deal_id, entityType: 'advance', entityId: row.id, entityName: await lenderName(trx, scope, row.lender_id),
    action: 'advance.renewal_ready', description: `Advance is renewal ready: ${f.percent_paid}% paid, threshold ${f.renewal_threshold}%`,
    data: { deal_id: row.deal_id, percent_paid: f.percent_paid, renewal_threshold: f.renewal_threshold },
  });
  await recordEvent(trx, clock, scope.locationId, 'advance.renewal_ready', {
    advance_id: row.id, deal_id: row.deal_id, lender_id: row.lender_id, advance: toAdvanceSnapshot(row, locThreshold),
    percent_paid: f.percent_paid, renewal_threshold: f.renewal_threshold,
  });
  return true;
}

export async function updateAdvance(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Advance> {
  return deps.db.knex.transaction(async (trx) => {
    const row = await getAdvanceOr404(trx, scope, id, { forUpdate: true });
    const now = deps.clock.now();
    const threshold = await locationThreshold(trx, scope);
    const patch: Partial<AdvanceRow> = {};
    const fields: string[] = [];
    const payback = toCents(row.payback_amount);
    if (body.paid_amount !== undefined) {
      const paid = toCents(body.paid_amount);
      if (paid > payback) throw invalid(`paid_amount cannot exceed the payback amount (${toDollars(payback)})`, 'paid_amount');
      patch.paid_amount = toDollars(paid);
      fields.push('paid_amount');
    }
    if (body.payments_made !== undefined) {
      patch.payments_made = body.payments_made;
      fields.push('payments_made');
    }
    if (body.renewal_threshold_override !== undefined) {
      patch.renewal_threshold_override = body.renewal_threshold_override === null ? null : Math.round(body.renewal_threshold_override * 100) / 100;
      fields.push('renewal_threshold_override');
    }
    let status: AdvanceStatus = row.status;
    if (body.status) status = body.status;
    else if (patch.paid_amount !== undefined && toCents(patch.paid_amount) === payback) status = 'paid-off';
    if (status !== row.status) {
      patch.status = status;
      if (status === 'paid-off' && !row.actual_payoff_date) patch.actual_payoff_date = dateOnly(now);
      if (row.status === 'paid-off') patch.actual_payoff_date = null;
    }
    patch.updated_at = now;
    await updateAdvanceRow(trx, scope, id, patch);
    const next: AdvanceRow = { ...row, ...patch };
    const entityName = await lenderName(trx, scope, row.lender_id);
    let wrote = false;
    if (status !== row.status) {
      wrote = true;
      await recordActivity(trx, deps.clock, scope, {
        businessId: row.business_id, dealId: row.deal_id, entityType: 'advance', entityId: row.id, entityName,
        action: 'advance.status_changed', description: `Advance status changed from ${row.status} to ${status}`,
        data: { deal_id: row.deal_id, previous_status: row.status, status },
      });
      await recordEvent(trx, deps.clock, scope.locationId, 'advance.status_changed', {
        advance_id: row.id, deal_id: row.deal_id, lender_id: row.lender_id, advance: toAdvanceSnapshot(next, threshold), previous_status: row.status, status,
      });
    }
    if (await notifyRenewalReadyOnce(trx, deps.clock, scope, next, threshold)) wrote = true;
    if (!wrote) {
      // Every write leaves a line in the business's history (an open action: advance.updated).
      await recordActivity(trx, deps.clock, scope, {
        businessId: row.business_id, dealId: row.deal_id, entityType: 'advance', entityId: row.id, entityName,
        action: 'advance.updated', description: `Advance updated (${fields.join(', ') || 'no change'})`, data: { deal_id: row.deal_id, fields },
      });
    }
    return (await withContext(trx, scope, [next]))[0];
  });
}
