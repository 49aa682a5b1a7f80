import type { Handler } from '../../http/types';
import * as service from './inbound.service';

// One function per operationId. receiveInboundEmail is reached through inbound.route.ts (a raw
// body and the inbound secret instead of the JSON pipeline and an API key).

export const receiveInboundEmail: Handler<'receiveInboundEmail'> = async ({ deps, scope, body }) => {
  const { email, created } = await service.receiveInboundEmail(deps, scope.locationId, body as unknown as Buffer);
  return created ? { status: 201, body: { data: email, meta: {} } } : { status: 200, body: { data: email, meta: {} } };
};

export const listInboundEmails: Handler<'listInboundEmails'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listInboundEmails(deps, scope, query),
});

export const getInboundEmail: Handler<'getInboundEmail'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getInboundEmail(deps, scope, params.id), meta: {} },
});

export const assignInboundEmail: Handler<'assignInboundEmail'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.assignInboundEmail(deps, scope, params.id, body), meta: {} },
});

export const dismissInboundEmail: Handler<'dismissInboundEmail'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.dismissInboundEmail(deps, scope, params.id, body?.reason), meta: {} },
});

export const rotateInboundEmailSecret: Handler<'rotateInboundEmailSecret'> = async ({ deps, scope }) => ({
  status: 201,
  body: { data: await service.rotateInboundSecret(deps, scope), meta: {} },
});
