import type { components } from '../../../generated/schema';
import { isoRequired } from '../../lib/format';
import type { StageRow } from './pipeline.repository';

export type PipelineStage = components['schemas']['PipelineStage'];

export function toPipelineStage(row: StageRow): PipelineStage {
  return {
    id: row.id,
    label: row.label,
    phase: row.phase,
    sort_order: row.sort_order,
    event: row.event,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
