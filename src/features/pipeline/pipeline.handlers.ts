import type { Handler } from '../../http/types';
import * as service from './pipeline.service';

// One function per operationId: parse nothing (the validator did), decide nothing (the service does).

export const listPipelineStages: Handler<'listPipelineStages'> = async ({ deps, scope }) => ({
  status: 200,
  body: await service.listPipelineStages(deps, scope),
});

export const createPipelineStage: Handler<'createPipelineStage'> = async ({ deps, scope, body }) => ({
  status: 201,
  body: { data: await service.createPipelineStage(deps, scope, body), meta: {} },
});

export const updatePipelineStage: Handler<'updatePipelineStage'> = async ({ deps, scope, params, body }) => ({
  status: 200,
  body: { data: await service.updatePipelineStage(deps, scope, params.id, body), meta: {} },
});
