import type { Handler } from '../../http/types';
import * as service from './lenders.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const createLender: Handler<'createLender'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createLender(deps, scope, body), meta: {} },
});

export const listLenders: Handler<'listLenders'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listLenders(deps, scope, query),
});

export const getLender: Handler<'getLender'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getLender(deps, scope, params.id), meta: {} },
});

export const updateLender: Handler<'updateLender'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateLender(deps, scope, params.id, body), meta: {} },
});

export const getLenderCriteria: Handler<'getLenderCriteria'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getLenderCriteria(deps, scope, params.id), meta: {} },
});

export const replaceLenderCriteria: Handler<'replaceLenderCriteria'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.replaceLenderCriteria(deps, scope, params.id, body), meta: {} },
});

export const listFunderApiSpecs: Handler<'listFunderApiSpecs'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: service.listFunderApiSpecs(deps, scope, query),
});

export const getLenderApiConfig: Handler<'getLenderApiConfig'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getLenderApiConfig(deps, scope, params.id), meta: {} },
});

export const updateLenderApiConfig: Handler<'updateLenderApiConfig'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateLenderApiConfig(deps, scope, params.id, body), meta: {} },
});
