import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { TaskWithNames } from './tasks.repository';

export type Task = components['schemas']['Task'];

/** Row -> wire shape, field by field. */
export function toTask(row: TaskWithNames): Task {
  return {
    id: row.id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    title: row.title,
    due_date: row.due_date,
    assignee: row.assignee_user_id ? { id: row.assignee_user_id, name: row.assignee_name ?? '' } : null,
    completed: row.completed,
    completed_at: iso(row.completed_at),
    created_by: row.created_by_user_id ? { id: row.created_by_user_id, name: row.created_by_name ?? '' } : null,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
