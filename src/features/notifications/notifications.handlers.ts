import type { Handler } from '../../http/types';
import * as service from './notifications.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const getNotificationSettings: Handler<'getNotificationSettings'> = async ({ deps, scope }) => ({
  status: 200,
  body: { data: await service.getNotificationSettings(deps, scope), meta: {} },
});

export const updateNotificationSettings: Handler<'updateNotificationSettings'> = async ({ deps, scope, body }) => ({
  status: 200,
  body: { data: await service.updateNotificationSettings(deps, scope, body), meta: {} },
});
