import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import type { Db } from '../activity/activity.service';
import { getVisibleDealOr404 } from '../notes/notes.service';
import { toTask, type Task } from './tasks.mapper';
import { findLocationUser, findTask, lockTask, insertTask, taskBusiness, tasksQuery, updateTaskRow, type TaskRow, type TaskWithNames } from './tasks.repository';

type CreateBody = components['schemas']['CreateDealTaskRequest'];
type UpdateBody = components['schemas']['UpdateTaskRequest'];
type ListQuery = NonNullable<operations['listDealTasks']['parameters']['query']>;

async function assigneeOr400(db: Db, scope: Scope, userId: string): Promise<string> {
  const user = await findLocationUser(db, scope, userId);
  if (!user) throw invalid(`assignee_id ${userId} is not an active user of this location`, 'assignee_id');
  return user.id;
}

async function getTaskOr404(db: Db, scope: Scope, id: string): Promise<TaskWithNames> {
  const task = await findTask(db, scope, id);
  if (!task) throw notFound('task', id);
  return task;
}

export async function createDealTask(deps: Deps, scope: Scope, dealId: string, body: CreateBody): Promise<Task> {
  const now = deps.clock.now();
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getVisibleDealOr404(trx, scope, dealId);
    const assignee = body.assignee_id ? await assigneeOr400(trx, scope, body.assignee_id) : null;
    const row: TaskRow = {
      id: newId('task', now.getTime()),
      location_id: scope.locationId,
      entity_type: 'deal',
      entity_id: deal.id,
      title: body.title,
      due_date: body.due_date ?? null,
      assignee_user_id: assignee,
      completed: false,
      completed_at: null,
      created_by_user_id: scope.userId,
      created_at: now,
      updated_at: now,
    };
    await insertTask(trx, row);
    await recordActivity(trx, deps.clock, scope, {
      businessId: deal.business_id, dealId: deal.id,
      entityType: 'task', entityId: row.id, entityName: row.title,
      action: 'task.created', description: `Task created: ${row.title}`,
      data: { title: row.title, due_date: row.due_date, assignee_id: row.assignee_user_id },
    });
    return toTask((await findTask(trx, scope, row.id))!);
  });
}

export async function listDealTasks(deps: Deps, scope: Scope, dealId: string, query: ListQuery) {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const q = tasksQuery(deps.db.knex, scope).where('tasks.entity_type', 'deal').where('tasks.entity_id', dealId);
  if (query.completed !== undefined) q.where('tasks.completed', String(query.completed) === 'true');
  const page = await paginate<TaskWithNames>(q, {
    key: deps.cursorKey, list: `tasks:${dealId}`, limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'tasks.created_at', idColumn: 'tasks.id',
  });
  return { data: page.rows.map(toTask), meta: page.meta };
}

export async function getTask(deps: Deps, scope: Scope, id: string): Promise<Task> {
  return toTask(await getTaskOr404(deps.db.knex, scope, id));
}

export async function updateTask(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Task> {
  return deps.db.knex.transaction(async (trx) => {
    await lockTask(trx, scope, id);
    const task = await getTaskOr404(trx, scope, id);
    const now = deps.clock.now();
    const patch: Partial<TaskRow> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.due_date !== undefined) patch.due_date = body.due_date;
    if (body.assignee_id !== undefined) patch.assignee_user_id = body.assignee_id === null ? null : await assigneeOr400(trx, scope, body.assignee_id);
    const completing = body.completed === true && !task.completed;
    if (body.completed === true) {
      patch.completed = true;
      patch.completed_at = task.completed_at ?? now; // the first completion time is kept
    } else if (body.completed === false) {
      patch.completed = false;
      patch.completed_at = null;
    }
    patch.updated_at = now;
    await updateTaskRow(trx, scope, id, patch);
    if (completing) {
      const business = await taskBusiness(trx, scope, task);
      const title = patch.title ?? task.title;
      await recordActivity(trx, deps.clock, scope, {
        businessId: business?.id ?? null, dealId: task.entity_type === 'deal' ? task.entity_id : null,
        entityType: 'task', entityId: task.id, entityName: title,
        action: 'task.completed', description: `Task completed: ${title}`,
        data: { title },
      });
    }
    return toTask((await findTask(trx, scope, id))!);
  });
}
