import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.
// Offers belong to deals: role `user` sees only the offers of the deals it created.

export type Db = Knex | Knex.Transaction;

export type OfferStatus = 'pending' | 'accepted' | 'declined' | 'expired' | 'withdrawn';

export interface OfferRow {
  id: string;
  location_id: string;
  deal_id: string;
  lender_id: string;
  submission_id: string | null;
  amount: number;
  factor_rate: number;
  term: number;
  term_unit: string;
  payment_amount: number;
  payment_frequency: string;
  payback_amount: number;
  position: number;
  status: OfferStatus;
  is_primary: boolean;
  is_selected: boolean;
  source: string;
  notes: string | null;
  received_at: Date;
  expires_at: Date | null;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The offers this caller may see: its location, and for role user only offers on deals it created. */
export function offersQuery(db: Db, scope: Scope) {
  const q = db<OfferRow>('offers').where('offers.location_id', scope.locationId);
  // Role user: only offers on deals it may see (one rule: src/db/visible.ts).
  if (scope.role === 'user') q.whereIn('offers.deal_id', visibleDeals(db, scope).select('deals.id'));
  return q;
}

export async function findOffer(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<OfferRow | undefined> {
  const q = offersQuery(db, scope).where('offers.id', id).first('offers.*');
  if (opts.forUpdate) q.forUpdate();
  return q;
}

const COLUMNS = [
  'id', 'location_id', 'deal_id', 'lender_id', 'submission_id', 'amount', 'factor_rate', 'term', 'term_unit', 'payment_amount', 'payment_frequency',
  'payback_amount', 'position', 'status', 'is_primary', 'is_selected', 'source', 'notes', 'received_at', 'expires_at', 'created_by_user_id', 'updated_at',
];

/**
 * A deal's offers for `paginate`, which pages on `created_at`: this list is ordered by
 * `received_at`, so the query exposes received_at under that name and the record's own
 * created_at as `record_created_at` (see `fromPageRow`).
 */
export function dealOffersPageQuery(db: Db, scope: Scope, dealId: string) {
  return offersPageQuery(db, scope).where('offers.deal_id', dealId);
}

/** Every visible deal's offers (`GET /v1/offers`), shaped for `paginate` as `dealOffersPageQuery`. */
export function offersPageQuery(db: Db, scope: Scope) {
  return offersQuery(db, scope)
    .select(COLUMNS.map((c) => `offers.${c}`))
    .select('offers.received_at as created_at', 'offers.created_at as record_created_at');
}

export function fromPageRow(r: OfferRow & { record_created_at: Date }): OfferRow {
  const { record_created_at, ...rest } = r;
  return { ...rest, created_at: record_created_at };
}

export async function insertOffer(db: Db, row: OfferRow): Promise<void> {
  await db('offers').insert(row);
}

export async function updateOfferRow(db: Db, scope: Scope, id: string, patch: Partial<OfferRow>): Promise<void> {
  await db('offers').where({ id, location_id: scope.locationId }).update(patch);
}

/** Makes `offerId` the deal's only primary offer (offers.is_primary and deals.primary_offer_id). */
export async function setPrimaryOfferRow(db: Db, scope: Scope, dealId: string, offerId: string, now: Date): Promise<void> {
  await db('offers').where({ deal_id: dealId, location_id: scope.locationId, is_primary: true }).whereNot('id', offerId).update({ is_primary: false, updated_at: now });
  await db('offers').where({ id: offerId, location_id: scope.locationId }).update({ is_primary: true, updated_at: now });
  await db('deals').where({ id: dealId, location_id: scope.locationId }).update({ primary_offer_id: offerId, updated_at: now });
}

/** The business of an offer's deal, and the deal's status. */
export async function dealOfOffer(db: Db, scope: Scope, dealId: string): Promise<{ business_id: string; legal_name: string; status: string }> {
  return db('deals as d')
    .join('businesses as b', 'b.id', 'd.business_id')
    .where({ 'd.id': dealId, 'd.location_id': scope.locationId })
    .first('d.business_id', 'b.legal_name', 'd.status');
}

/** The funded offer's submission becomes `funded`. */
export async function markSubmissionFunded(db: Db, scope: Scope, submissionId: string, now: Date): Promise<void> {
  await db('submissions').where({ id: submissionId, location_id: scope.locationId }).update({ status: 'funded', updated_at: now });
}

export async function lenderNames(db: Db, scope: Scope, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows: { id: string; name: string }[] = await db('lenders').where('location_id', scope.locationId).whereIn('id', [...new Set(ids)]).select('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function findLender(db: Db, scope: Scope, id: string): Promise<{ id: string; name: string } | undefined> {
  return db('lenders').where({ id, location_id: scope.locationId }).first('id', 'name');
}

export async function findSubmission(db: Db, scope: Scope, id: string): Promise<{ id: string; deal_id: string; lender_id: string } | undefined> {
  return db('submissions').where({ id, location_id: scope.locationId }).first('id', 'deal_id', 'lender_id');
}
