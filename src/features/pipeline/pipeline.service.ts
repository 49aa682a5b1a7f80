import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { invalid, notFound } from '../../http/errors';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { toPipelineStage, type PipelineStage } from './pipeline.mapper';
import { findStage, insertStage, listStages, lockLocationStages, shiftStages, updateStageRow, type Phase, type StageEvent, type StageRow } from './pipeline.repository';

// What other features use of the pipeline's data (deals move through its stages); a feature never imports another's repository.
export { findStage, findStageByEvent, findStages, firstStageOfPhase, isOpenPhase, OPEN_PHASES, type StageEvent, type StageRow } from './pipeline.repository';

type CreateBody = components['schemas']['CreatePipelineStageRequest'];
type UpdateBody = components['schemas']['UpdatePipelineStageRequest'];

export async function listPipelineStages(deps: Deps, scope: Scope) {
  const rows = await listStages(deps.db.knex, scope);
  return { data: rows.map(toPipelineStage), meta: { has_more: false, next_cursor: null } };
}

/**
 * `deal_funded` only on a funded stage, `deal_dead` only on a dead stage, and those two phases
 * take no other event; at most one stage per event.
 */
async function checkEvent(trx: Knex.Transaction, scope: Scope, phase: Phase, event: StageEvent | null, selfId?: string): Promise<void> {
  if (event === null) return;
  if (event === 'deal_funded' && phase !== 'funded') throw invalid('deal_funded fits only a funded-phase stage', 'event');
  if (event === 'deal_dead' && phase !== 'dead') throw invalid('deal_dead fits only a dead-phase stage', 'event');
  if ((phase === 'funded' && event !== 'deal_funded') || (phase === 'dead' && event !== 'deal_dead')) {
    throw invalid(`A ${phase}-phase stage accepts only the deal_${phase} event`, 'event');
  }
  const holder = (await listStages(trx, scope)).find((s) => s.event === event && s.id !== selfId);
  if (holder) throw invalid(`The event ${event} is already bound to the stage "${holder.label}" (${holder.id}); unbind it first`, 'event');
}

export async function createPipelineStage(deps: Deps, scope: Scope, body: CreateBody): Promise<PipelineStage> {
  return deps.db.knex.transaction(async (trx) => {
    await lockLocationStages(trx, scope);
    const now = deps.clock.now();
    const event = body.event ?? null;
    await checkEvent(trx, scope, body.phase, event);
    const stages = await listStages(trx, scope);
    const n = stages.length;
    let position: number;
    if (body.sort_order !== undefined) position = Math.min(body.sort_order, n + 1);
    else {
      const samePhase = stages.filter((s) => s.phase === body.phase);
      position = samePhase.length ? Math.max(...samePhase.map((s) => s.sort_order)) + 1 : n + 1;
    }
    await shiftStages(trx, scope, position, null, 1, now);
    const row: StageRow = { id: newId('stg', now.getTime()), location_id: scope.locationId, label: body.label.trim(), phase: body.phase, sort_order: position, event, created_at: now, updated_at: now };
    if (!row.label) throw invalid('label cannot be blank', 'label');
    await insertStage(trx, row);
    return toPipelineStage(row);
  });
}

export async function updatePipelineStage(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<PipelineStage> {
  return deps.db.knex.transaction(async (trx) => {
    await lockLocationStages(trx, scope);
    const existing = await findStage(trx, scope, id);
    if (!existing) throw notFound('pipeline stage', id);
    const now = deps.clock.now();
    const patch: Partial<StageRow> = { updated_at: now };
    if (body.label !== undefined) {
      patch.label = body.label.trim();
      if (!patch.label) throw invalid('label cannot be blank', 'label');
    }
    if (body.event !== undefined) {
      await checkEvent(trx, scope, existing.phase, body.event, id);
      patch.event = body.event;
    }
    if (body.sort_order !== undefined) {
      const n = (await listStages(trx, scope)).length;
      const to = Math.min(body.sort_order, n);
      const from = existing.sort_order;
      if (to < from) await shiftStages(trx, scope, to, from - 1, 1, now, id);
      else if (to > from) await shiftStages(trx, scope, from + 1, to, -1, now, id);
      patch.sort_order = to;
    }
    await updateStageRow(trx, scope, id, patch);
    return toPipelineStage({ ...existing, ...patch });
  });
}
