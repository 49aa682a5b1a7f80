import type { Knex } from 'knex';
import type { Scope } from '../http/types';

/**
 * The deals a caller may see: its location, and for role `user` only the deals it created. The one
 * visibility rule every feature's SQL builds on (deals, offers, documents, tasks, activity, portal
 * links, lender matches), so no feature reaches into another's repository for it.
 */
export function visibleDeals(db: Knex | Knex.Transaction, scope: Pick<Scope, 'locationId' | 'role' | 'userId'>, alias = 'deals'): Knex.QueryBuilder {
  const q = db({ [alias]: 'deals' }).where(`${alias}.location_id`, scope.locationId);
  if (scope.role === 'user') {
    if (scope.userId) q.where(`${alias}.created_by_user_id`, scope.userId);
    else q.whereRaw('false');
  }
  return q;
}

/** The businesses a caller may see: its location's (every role). */
export function visibleBusinesses(db: Knex | Knex.Transaction, scope: Pick<Scope, 'locationId'>): Knex.QueryBuilder {
  return db('businesses').where('businesses.location_id', scope.locationId);
}
