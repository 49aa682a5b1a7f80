import type { Handler } from '../../http/types';
import * as service from './notes.service';

export const createBusinessNote: Handler<'createBusinessNote'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createBusinessNote(deps, scope, params.id, body), meta: {} },
});

export const listBusinessNotes: Handler<'listBusinessNotes'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listBusinessNotes(deps, scope, params.id, query),
});

export const createDealNote: Handler<'createDealNote'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createDealNote(deps, scope, params.id, body), meta: {} },
});

export const listDealNotes: Handler<'listDealNotes'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealNotes(deps, scope, params.id, query),
});
