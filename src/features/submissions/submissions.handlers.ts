import type { Handler } from '../../http/types';
import * as attempts from '../funders/attempts.service';
import * as service from './submissions.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const listDealSubmissions: Handler<'listDealSubmissions'> = async ({ deps, scope, params, query }) => ({
  status: 200,
  body: await service.listDealSubmissions(deps, scope, params.dealId, query),
});

export const listSubmissions: Handler<'listSubmissions'> = async ({ deps, scope, query }) => ({
  status: 200,
  body: await service.listSubmissions(deps, scope, query),
});

export const createDealSubmissions: Handler<'createDealSubmissions'> = async ({ deps, scope, params, body }) => ({
  status: 201,
  body: await service.createDealSubmissions(deps, scope, params.dealId, body),
});

export const getSubmission: Handler<'getSubmission'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getSubmission(deps, scope, params.id), meta: {} },
});

export const getSubmissionByReference: Handler<'getSubmissionByReference'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await service.getSubmissionByReference(deps, scope, params.code), meta: {} },
});

export const recordSubmissionResponse: Handler<'recordSubmissionResponse'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: await service.recordSubmissionResponse(deps, scope, params.id, body),
});

export const withdrawSubmission: Handler<'withdrawSubmission'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.withdrawSubmission(deps, scope, params.id, body), meta: {} },
});

export const checkSubmissionStatus: Handler<'checkSubmissionStatus'> = async ({ deps, scope, params, req }) => ({
  status: 200,
  body: { data: await attempts.checkSubmissionStatus(deps, scope, params.id, req.requestId), meta: {} },
});

export const retrySubmission: Handler<'retrySubmission'> = async ({ deps, scope, params }) => ({
  status: 200,
  body: { data: await attempts.retrySubmission(deps, scope, params.id), meta: {} },
});
