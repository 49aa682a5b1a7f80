import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.
// The outbox table `events` (written by src/events/outbox.ts) is the event log: the index
// events_location_keyset (location_id, created_at, id) serves both reads.

export type Db = Knex | Knex.Transaction;

export interface EventRow {
  id: string;
  location_id: string;
  type: string;
  data: unknown;
  created_at: Date;
}

export interface EventFilter {
  /** Oldest created_at still listed (inclusive): the 30-day window. */
  since: Date;
  /** Only these types; an empty list matches nothing. */
  types: readonly string[];
  /** Exclusive bounds. */
  createdAfter?: Date;
  createdBefore?: Date;
}

const COLUMNS = ['id', 'location_id', 'type', 'data', 'created_at'];

/** The caller's location's events matching `filter`, unordered (the paginator orders). */
export function eventsQuery(db: Db, scope: Scope, filter: EventFilter): Knex.QueryBuilder {
  const q = db('events').where('location_id', scope.locationId).where('created_at', '>=', filter.since).whereIn('type', [...filter.types]).select(COLUMNS);
  if (filter.createdAfter) q.where('created_at', '>', filter.createdAfter);
  if (filter.createdBefore) q.where('created_at', '<', filter.createdBefore);
  return q;
}

export async function findEvent(db: Db, scope: Scope, id: string, filter: Pick<EventFilter, 'since' | 'types'>): Promise<EventRow | undefined> {
  return (await eventsQuery(db, scope, filter).where('id', id).first()) as EventRow | undefined;
}
