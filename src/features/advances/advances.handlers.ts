import type { Handler } from '../../http/types';
import * as service from './advances.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const listAdvances: Handler<'listAdvances'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listAdvances(deps, scope, query),
});

export const getAdvance: Handler<'getAdvance'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getAdvance(deps, scope, params.id), meta: {} },
});

export const updateAdvance: Handler<'updateAdvance'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateAdvance(deps, scope, params.id, body), meta: {} },
});
