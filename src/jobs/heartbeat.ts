import type { Knex } from 'knex';

// Worker heartbeats (migration 0024): a running worker writes one every HEARTBEAT_EVERY_MS of the
// injected clock; /readyz and the start banner say `worker: not_seen` when none is newer than
// WORKER_SEEN_WITHIN_MS (email and webhooks then stay queued). Reporting, never failing readiness:
// an API process runs fine without a worker, its work just waits.

export const HEARTBEAT_EVERY_MS = 30_000;
export const WORKER_SEEN_WITHIN_MS = 2 * 60_000;
/** Rows of workers gone for this long are removed by the next heartbeat of any worker. */
const FORGET_AFTER_MS = 24 * 3600_000;

export async function writeHeartbeat(knex: Knex, workerId: string, now: Date, startedAt: Date): Promise<void> {
  await knex('worker_heartbeats').insert({ worker_id: workerId, started_at: startedAt, seen_at: now }).onConflict('worker_id').merge(['seen_at']);
  await knex('worker_heartbeats').where('seen_at', '<', new Date(now.getTime() - FORGET_AFTER_MS)).del();
}

export async function removeHeartbeat(knex: Knex, workerId: string): Promise<void> {
  await knex('worker_heartbeats').where({ worker_id: workerId }).del();
}

/** `seen` when some worker wrote a heartbeat in the last 2 minutes of `now`, else `not_seen`. */
export async function workerStatus(knex: Knex, now: Date): Promise<'seen' | 'not_seen'> {
  const row = await knex('worker_heartbeats').where('seen_at', '>=', new Date(now.getTime() - WORKER_SEEN_WITHIN_MS)).first('worker_id');
  return row ? 'seen' : 'not_seen';
}
