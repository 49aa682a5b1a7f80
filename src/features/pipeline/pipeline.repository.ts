import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export type Phase = 'new' | 'submitted' | 'offers' | 'contracts' | 'funded' | 'dead';
export type StageEvent = 'deal_created' | 'submission_sent' | 'offer_received' | 'deal_funded' | 'deal_dead';

export const OPEN_PHASES: readonly Phase[] = ['new', 'submitted', 'offers', 'contracts'];
export const isOpenPhase = (phase: string) => (OPEN_PHASES as readonly string[]).includes(phase);

export interface StageRow {
  id: string;
  location_id: string;
  label: string;
  phase: Phase;
  sort_order: number;
  event: StageEvent | null;
  created_at: Date;
  updated_at: Date;
}

export function stagesQuery(db: Db, scope: Scope) {
  return db<StageRow>('pipeline_stages').where('pipeline_stages.location_id', scope.locationId);
}

/** Every stage of the location, in board order. */
export async function listStages(db: Db, scope: Scope): Promise<StageRow[]> {
  return stagesQuery(db, scope).orderBy([{ column: 'sort_order', order: 'asc' }, { column: 'id', order: 'asc' }]);
}

export async function findStage(db: Db, scope: Scope, id: string): Promise<StageRow | undefined> {
  return stagesQuery(db, scope).where('id', id).first();
}

export async function findStages(db: Db, scope: Scope, ids: string[]): Promise<Map<string, StageRow>> {
  if (!ids.length) return new Map();
  const rows = await stagesQuery(db, scope).whereIn('id', [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The first stage of a phase by sort_order (or of any of several phases). */
export async function firstStageOfPhase(db: Db, scope: Scope, phases: readonly Phase[]): Promise<StageRow | undefined> {
  return stagesQuery(db, scope).whereIn('phase', phases as Phase[]).orderBy([{ column: 'sort_order', order: 'asc' }, { column: 'id', order: 'asc' }]).first();
}

export async function findStageByEvent(db: Db, scope: Scope, event: StageEvent): Promise<StageRow | undefined> {
  return stagesQuery(db, scope).where('event', event).first();
}

export async function insertStage(db: Db, row: StageRow): Promise<void> {
  await db('pipeline_stages').insert(row);
}

export async function updateStageRow(db: Db, scope: Scope, id: string, patch: Partial<StageRow>): Promise<void> {
  await db('pipeline_stages').where({ id, location_id: scope.locationId }).update(patch);
}

/** Shifts the stages whose sort_order is in [from, to] by `delta` (keeps positions contiguous). */
export async function shiftStages(db: Db, scope: Scope, from: number, to: number | null, delta: 1 | -1, now: Date, exceptId?: string): Promise<void> {
  const q = db('pipeline_stages').where('location_id', scope.locationId).where('sort_order', '>=', from);
  if (to !== null) q.where('sort_order', '<=', to);
  if (exceptId) q.whereNot('id', exceptId);
  await q.update({ sort_order: db.raw('sort_order + ?', [delta]), updated_at: now });
}

/** Serialises pipeline edits of one location (positions are read, then shifted). */
export async function lockLocationStages(trx: Knex.Transaction, scope: Scope): Promise<void> {
  await trx('locations').where('id', scope.locationId).forUpdate().first('id');
}
