import type { Handler } from '../../http/types';
import * as service from './lender-matches.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const listDealLenderMatches: Handler<'listDealLenderMatches'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealLenderMatches(deps, scope, params.id, query),
});
