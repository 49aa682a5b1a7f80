import type { components } from '../../../generated/schema';
import { isoRequired } from '../../lib/format';
import type { NoteWithAuthor } from './notes.repository';

export type Note = components['schemas']['Note'];

/** Row -> wire shape, field by field. */
export function toNote(row: NoteWithAuthor): Note {
  return {
    id: row.id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    body: row.body,
    author: row.author_user_id ? { id: row.author_user_id, name: row.author_name ?? '' } : null,
    pinned: row.pinned,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
