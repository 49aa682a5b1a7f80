import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface ActivityRow {
  id: string;
  location_id: string;
  business_id: string | null;
  deal_id: string | null;
  entity_type: string;
  entity_id: string;
  entity_name: string;
  action: string;
  description: string;
  actor_user_id: string | null;
  actor_name: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

/** A deal as far as its sub-resources (notes, tasks) need it. */
export interface DealRef {
  id: string;
  business_id: string;
  business_name: string;
  created_by_user_id: string | null;
}

/**
 * The deals the caller may see: those of its location and, for role `user`, only the ones it
 * created (a user key without a user sees none).
 */
export function visibleDealsQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  return visibleDeals(db, scope);
}

export async function findVisibleDeal(db: Db, scope: Scope, id: string): Promise<DealRef | undefined> {
  return visibleDealsQuery(db, scope)
    .join('businesses', 'businesses.id', 'deals.business_id')
    .where('deals.id', id)
    .first('deals.id', 'deals.business_id', 'businesses.legal_name as business_name', 'deals.created_by_user_id');
}

/**
 * A business's history. Role `user` gets the entries about the business itself and about deals
 * it created, never `advance.*` entries.
 */
export function businessActivityQuery(db: Db, scope: Scope, businessId: string): Knex.QueryBuilder {
  const q = db('activities').where('activities.location_id', scope.locationId).where('activities.business_id', businessId).select('activities.*');
  if (scope.role === 'user') {
    q.whereNot('activities.entity_type', 'advance').whereRaw(`activities.action not like 'advance.%'`);
    q.where((w) => w.whereNull('activities.deal_id').orWhereIn('activities.deal_id', visibleDealsQuery(db, scope).select('deals.id')));
  }
  return q;
}
