import type { Handler } from '../../http/types';
import * as service from './deals.service';
import * as fund from './fund';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const createDeal: Handler<'createDeal'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createDeal(deps, scope, body), meta: {} },
});

export const listDeals: Handler<'listDeals'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listDeals(deps, scope, query),
});

export const getDeal: Handler<'getDeal'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getDeal(deps, scope, params.id), meta: {} },
});

export const updateDeal: Handler<'updateDeal'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateDeal(deps, scope, params.id, body), meta: {} },
});

export const moveDealStage: Handler<'moveDealStage'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.moveDealStage(deps, scope, params.id, body), meta: {} },
});

export const markDealDead: Handler<'markDealDead'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.markDealDead(deps, scope, params.id, body), meta: {} },
});

export const fundDeal: Handler<'fundDeal'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await fund.fundDeal(deps, scope, params.id, body), meta: {} },
});
