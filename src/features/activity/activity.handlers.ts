import type { Handler } from '../../http/types';
import * as service from './activity.service';

export const listBusinessActivity: Handler<'listBusinessActivity'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listBusinessActivity(deps, scope, params.id, query),
});
