import type { Handler } from '../../http/types';
import { getDealStatementAnalysis as analysis } from './analysis';
import * as service from './documents.service';

export const createDealDocumentUpload: Handler<'createDealDocumentUpload'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: { data: await service.createDealDocumentUpload(deps, scope, params.id, body), meta: {} },
});

export const finalizeDocument: Handler<'finalizeDocument'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.finalizeDocument(deps, scope, params.id), meta: {} },
});

export const getDocument: Handler<'getDocument'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getDocument(deps, scope, params.id), meta: {} },
});

export const listDealDocuments: Handler<'listDealDocuments'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealDocuments(deps, scope, params.id, query ?? {}),
});

export const getDealStatementAnalysis: Handler<'getDealStatementAnalysis'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await analysis(deps, scope, params.id), meta: {} },
});
