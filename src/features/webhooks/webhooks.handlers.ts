import type { Handler } from '../../http/types';
import * as service from './webhooks.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const createWebhook: Handler<'createWebhook'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createWebhook(deps, scope, body), meta: {} },
});

export const listWebhooks: Handler<'listWebhooks'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listWebhooks(deps, scope, query),
});

export const getWebhook: Handler<'getWebhook'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getWebhook(deps, scope, params.id), meta: {} },
});

export const updateWebhook: Handler<'updateWebhook'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateWebhook(deps, scope, params.id, body), meta: {} },
});

export const deleteWebhook: Handler<'deleteWebhook'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.deleteWebhook(deps, scope, params.id), meta: {} },
});

export const testWebhook: Handler<'testWebhook'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.testWebhook(deps, scope, params.id), meta: {} },
});

export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listWebhookDeliveries(deps, scope, params.id, query),
});

export const getWebhookDelivery: Handler<'getWebhookDelivery'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getWebhookDelivery(deps, scope, params.id, params.deliveryId), meta: {} },
});

export const listWebhookDeliveryAttempts: Handler<'listWebhookDeliveryAttempts'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listWebhookDeliveryAttempts(deps, scope, params.id, params.deliveryId, query),
});

export const retryWebhookDelivery: Handler<'retryWebhookDelivery'> = async ({ deps, scope, params }) => ({
  status: 202,
  body: { data: await service.retryWebhookDelivery(deps, scope, params.id, params.deliveryId), meta: {} },
});

export const recoverWebhook: Handler<'recoverWebhook'> = async ({ deps, scope, params, body }) => ({
  status: 202,
  body: { data: await service.recoverWebhook(deps, scope, params.id, body), meta: {} },
});

export const rotateWebhookSecret: Handler<'rotateWebhookSecret'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.rotateWebhookSecret(deps, scope, params.id, body), meta: {} },
});
