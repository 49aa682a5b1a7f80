import type { components } from '../../../generated/schema';
import { isoRequired } from '../../lib/format';
import type { ActivityRow } from './activity.repository';

export type ActivityEntry = components['schemas']['ActivityEntry'];

/** Row -> wire shape, field by field. */
export function toActivityEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    entity_type: row.entity_type as ActivityEntry['entity_type'],
    entity_id: row.entity_id,
    entity_name: row.entity_name,
    action: row.action,
    description: row.description,
    actor: { user_id: row.actor_user_id, user_name: row.actor_user_id ? row.actor_name : null },
    data: row.data ?? {},
    created_at: isoRequired(row.created_at),
  };
}
