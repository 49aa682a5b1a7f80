import type { Handler } from '../../http/types';
import * as service from './tasks.service';

export const createDealTask: Handler<'createDealTask'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createDealTask(deps, scope, params.id, body), meta: {} },
});

export const listDealTasks: Handler<'listDealTasks'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealTasks(deps, scope, params.id, query),
});

export const getTask: Handler<'getTask'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getTask(deps, scope, params.id), meta: {} },
});

export const updateTask: Handler<'updateTask'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateTask(deps, scope, params.id, body), meta: {} },
});
