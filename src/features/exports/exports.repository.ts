import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

type Db = Knex | Knex.Transaction;

/**
 * Of these deals of the location, the ones that have at least one note, task, document or document
 * request: the export asks each deal's lists only for those, so a deal with none costs no query.
 */
export async function dealsWithChildren(db: Db, scope: Scope, dealIds: string[]): Promise<Set<string>> {
  if (dealIds.length === 0) return new Set();
  const loc = scope.locationId;
  const rows = (await db
    .select('deal_id')
    .from(
      db('notes').where({ location_id: loc, entity_type: 'deal' }).whereIn('entity_id', dealIds).distinct('entity_id as deal_id')
        .union((q) => q.from('tasks').where({ location_id: loc, entity_type: 'deal' }).whereIn('entity_id', dealIds).distinct('entity_id as deal_id'))
        .union((q) => q.from('documents').where({ location_id: loc }).whereIn('deal_id', dealIds).distinct('deal_id'))
        .union((q) => q.from('document_requests').where({ location_id: loc }).whereIn('deal_id', dealIds).distinct('deal_id'))
        .as('c'),
    )) as { deal_id: string }[];
  return new Set(rows.map((r) => r.deal_id));
}

/** Of these businesses of the location, the ones with at least one note of their own. */
export async function businessesWithNotes(db: Db, scope: Scope, businessIds: string[]): Promise<Set<string>> {
  if (businessIds.length === 0) return new Set();
  const rows = (await db('notes').where({ location_id: scope.locationId, entity_type: 'business' }).whereIn('entity_id', businessIds).distinct('entity_id')) as { entity_id: string }[];
  return new Set(rows.map((r) => r.entity_id));
}

/** Of these people of the location, the ones linked to at least one business. */
export async function peopleWithAssociations(db: Db, scope: Scope, personIds: string[]): Promise<Set<string>> {
  if (personIds.length === 0) return new Set();
  const rows = (await db('business_people').where({ location_id: scope.locationId }).whereIn('person_id', personIds).distinct('person_id')) as { person_id: string }[];
  return new Set(rows.map((r) => r.person_id));
}
