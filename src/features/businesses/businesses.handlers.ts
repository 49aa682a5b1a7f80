import type { Handler } from '../../http/types';
import * as service from './businesses.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const createBusiness: Handler<'createBusiness'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createBusiness(deps, scope, body), meta: {} },
});

export const listBusinesses: Handler<'listBusinesses'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listBusinesses(deps, scope, query),
});

export const getBusiness: Handler<'getBusiness'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: { data: await service.getBusiness(deps, scope, params.id, query.include), meta: {} },
});

export const updateBusiness: Handler<'updateBusiness'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateBusiness(deps, scope, params.id, body), meta: {} },
});
