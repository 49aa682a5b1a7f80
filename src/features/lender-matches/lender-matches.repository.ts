import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

/** The deal and its business, as lender matching measures them. */
export interface MatchDealRow {
  id: string;
  business_id: string;
  requested_amount: number | string | null;
  annual_revenue: number | string | null;
  product_type: string | null;
  paper_grade: string | null;
  business_start_date: string | null;
  state: string | null;
  industry: string | null;
}

/** A deal the caller may see: in its location and, for role `user`, created by it. */
export async function findVisibleDeal(db: Db, scope: Scope, dealId: string): Promise<MatchDealRow | undefined> {
  return visibleDeals(db, scope, 'd')
    .join('businesses as b', function joinBusiness() {
      this.on('b.id', '=', 'd.business_id').andOn('b.location_id', '=', 'd.location_id');
    })
    .where('d.id', dealId)
    .first<MatchDealRow | undefined>(
      'd.id', 'd.business_id', 'd.requested_amount', 'd.annual_revenue', 'd.product_type', 'd.paper_grade',
      'b.business_start_date', 'b.state', 'b.industry',
    );
}

/**
 * The primary owner's credit score (as stored, free text): among the business's active people, the
 * primary contact first, then owners before co-owners before others, then the largest ownership,
 * then the earliest linked.
 */
export async function primaryOwnerCreditScore(db: Db, scope: Scope, businessId: string): Promise<string | null> {
  const row = await db('business_people as bp')
    .join('people as p', function joinPerson() {
      this.on('p.id', '=', 'bp.person_id').andOn('p.location_id', '=', 'bp.location_id');
    })
    .where('bp.location_id', scope.locationId)
    .where('bp.business_id', businessId)
    .where('bp.active', true)
    .orderByRaw(`bp.is_primary_contact desc, case bp.role when 'owner' then 0 when 'co-owner' then 1 else 2 end, bp.ownership_percent desc nulls last, bp.created_at asc, bp.id asc`)
    .first<{ credit_score: string | null } | undefined>('p.credit_score');
  return row?.credit_score ?? null;
}

/** Advances the business already carries (not paid off), other than the one funded from this deal. */
export async function existingPositions(db: Db, scope: Scope, businessId: string, dealId: string): Promise<number> {
  const row = await db('advances')
    .where('location_id', scope.locationId)
    .where('business_id', businessId)
    .whereNot('deal_id', dealId)
    .whereNot('status', 'paid-off')
    .count<{ n: number | string }[]>('* as n');
  return Number(row[0]?.n ?? 0);
}

export interface MatchLenderRow {
  id: string;
  name: string;
  criteria: Record<string, unknown>;
}

/** The location's active lenders. */
export async function activeLenders(db: Db, scope: Scope): Promise<MatchLenderRow[]> {
  return db('lenders').where('location_id', scope.locationId).where('active', true).select('id', 'name', 'criteria');
}

/** Some of the location's lenders, active or not. */
export async function lendersById(db: Db, scope: Scope, ids: string[]): Promise<MatchLenderRow[]> {
  if (!ids.length) return [];
  return db('lenders').where('location_id', scope.locationId).whereIn('id', ids).select('id', 'name', 'criteria');
}

/** lender id -> the deal's submission to it. */
export async function submissionsByLender(db: Db, scope: Scope, dealId: string): Promise<Map<string, string>> {
  const rows = await db('submissions').where('location_id', scope.locationId).where('deal_id', dealId).select('id', 'lender_id');
  return new Map(rows.map((r: { id: string; lender_id: string }) => [r.lender_id, r.id]));
}
