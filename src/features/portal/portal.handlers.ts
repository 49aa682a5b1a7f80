import type { Handler } from '../../http/types';
import * as service from './portal.service';

export const createPortalLink: Handler<'createPortalLink'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createPortalLink(deps, scope, params.id, body), meta: {} },
});

export const listPortalLinks: Handler<'listPortalLinks'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listPortalLinks(deps, scope, params.id, query ?? {}),
});

export const revokePortalLink: Handler<'revokePortalLink'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.revokePortalLink(deps, scope, params.id), meta: {} },
});

export const createDocumentRequest: Handler<'createDocumentRequest'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createDocumentRequest(deps, scope, params.id, body), meta: {} },
});

export const listDocumentRequests: Handler<'listDocumentRequests'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDocumentRequests(deps, scope, params.id, query ?? {}),
});
