import type { Handler } from '../../http/types';
import * as service from './offers.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const createDealOffer: Handler<'createDealOffer'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createDealOffer(deps, scope, params.id, body), meta: {} },
});

export const listDealOffers: Handler<'listDealOffers'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealOffers(deps, scope, params.id, query),
});

export const listOffers: Handler<'listOffers'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listOffers(deps, scope, query),
});

export const getOffer: Handler<'getOffer'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getOffer(deps, scope, params.id), meta: {} },
});

export const updateOffer: Handler<'updateOffer'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updateOffer(deps, scope, params.id, body), meta: {} },
});

export const setOfferPrimary: Handler<'setOfferPrimary'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: await service.setOfferPrimary(deps, scope, params.id),
});
