import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface NoteRow {
  id: string;
  location_id: string;
  entity_type: 'business' | 'deal';
  entity_id: string;
  body: string;
  pinned: boolean;
  author_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A note with its author's display name. */
export type NoteWithAuthor = NoteRow & { author_name: string | null };

export function notesQuery(db: Db, scope: Scope, entityType: NoteRow['entity_type'], entityId: string): Knex.QueryBuilder {
  return db('notes')
    .leftJoin('users', 'users.id', 'notes.author_user_id')
    .where('notes.location_id', scope.locationId)
    .where('notes.entity_type', entityType)
    .where('notes.entity_id', entityId)
    .select('notes.*', 'users.name as author_name');
}

export async function findNote(db: Db, scope: Scope, id: string): Promise<NoteWithAuthor | undefined> {
  return db('notes')
    .leftJoin('users', 'users.id', 'notes.author_user_id')
    .where('notes.location_id', scope.locationId)
    .where('notes.id', id)
    .first('notes.*', 'users.name as author_name');
}

export async function insertNote(db: Db, row: NoteRow): Promise<void> {
  await db('notes').insert(row);
}
