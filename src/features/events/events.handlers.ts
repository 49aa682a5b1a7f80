import type { Handler } from '../../http/types';
import * as service from './events.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const listEvents: Handler<'listEvents'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listEvents(deps, scope, query),
});

export const getEvent: Handler<'getEvent'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getEvent(deps, scope, params.id), meta: {} },
});
