import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface TaskRow {
  id: string;
  location_id: string;
  entity_type: 'business' | 'deal';
  entity_id: string;
  title: string;
  due_date: string | null;
  assignee_user_id: string | null;
  completed: boolean;
  completed_at: Date | null;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A task with the names of its assignee and creator. */
export type TaskWithNames = TaskRow & { assignee_name: string | null; created_by_name: string | null };

/**
 * Tasks the caller may see: its location's, and for role `user` only tasks on businesses or on
 * deals it created.
 */
export function tasksQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  const q = db('tasks')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assignee_user_id')
    .leftJoin('users as creator', 'creator.id', 'tasks.created_by_user_id')
    .where('tasks.location_id', scope.locationId)
    .select('tasks.*', 'assignee.name as assignee_name', 'creator.name as created_by_name');
  if (scope.role === 'user') {
    q.where((w) => w.whereNot('tasks.entity_type', 'deal').orWhereIn('tasks.entity_id', visibleDeals(db, scope).select('deals.id')));
  }
  return q;
}

export async function findTask(db: Db, scope: Scope, id: string): Promise<TaskWithNames | undefined> {
  return tasksQuery(db, scope).where('tasks.id', id).first();
}

/** Serialises concurrent updates of one task (so a completion is recorded once). */
export async function lockTask(db: Db, scope: Scope, id: string): Promise<void> {
  await db('tasks').where({ id, location_id: scope.locationId }).forUpdate().first('id');
}

export async function insertTask(db: Db, row: TaskRow): Promise<void> {
  await db('tasks').insert(row);
}

export async function updateTaskRow(db: Db, scope: Scope, id: string, patch: Partial<TaskRow>): Promise<void> {
  await db('tasks').where({ id, location_id: scope.locationId }).update(patch);
}

/** An active user of the caller's location, or undefined. */
export async function findLocationUser(db: Db, scope: Scope, userId: string): Promise<{ id: string; name: string } | undefined> {
  return db('users').where({ id: userId, location_id: scope.locationId, active: true }).first('id', 'name');
}

/** The business a task's parent belongs to (the deal's business for deal tasks). */
export async function taskBusiness(db: Db, scope: Scope, task: Pick<TaskRow, 'entity_type' | 'entity_id'>): Promise<{ id: string; legal_name: string } | undefined> {
  if (task.entity_type === 'business') {
    return db('businesses').where({ id: task.entity_id, location_id: scope.locationId }).first('id', 'legal_name');
  }
  return db('deals')
    .join('businesses', 'businesses.id', 'deals.business_id')
    .where({ 'deals.id': task.entity_id, 'deals.location_id': scope.locationId })
    .first('businesses.id', 'businesses.legal_name');
}
