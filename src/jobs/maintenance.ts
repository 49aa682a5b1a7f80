import type { Knex } from 'knex';

// Retention, run by every worker at most once an hour (on the injected clock): what the API no
// longer shows is deleted in bounded batches, so the tables the worker scans stay small.
//  - events: 30 days (the event log's window), once fanned out;
//  - webhook deliveries and their attempts: 30 days after their last change, once finished
//    (succeeded or dead; pending and failed ones are kept however old);
//  - finished jobs: 30 days.
// Outgoing emails are the record of what was sent and are kept. Features add their own hourly
// sweeps with registerMaintenance (documents: uploads whose bytes never came, after 24 hours).

export const RETENTION_MS = 30 * 24 * 3600_000;
export const MAINTENANCE_EVERY_MS = 3600_000;
const BATCH = 1000;

type Sweep = (deps: import('../deps').Deps) => Promise<unknown>;
const sweeps = new Map<string, Sweep>();

/** An hourly sweep of a feature, run by every worker with the retention below (once per name). */
export function registerMaintenance(name: string, sweep: Sweep): void {
  sweeps.set(name, sweep);
}

export async function runSweeps(deps: import('../deps').Deps): Promise<void> {
  for (const [name, sweep] of sweeps) {
    await sweep(deps).catch((err: unknown) => deps.logger.warn({ sweep: name, err: err instanceof Error ? err.message : String(err) }, 'maintenance sweep failed'));
  }
}

/** Deletes one batch of each kind; returns how many rows went (call again while it returns > 0). */
export async function purgeExpired(knex: Knex, now: Date): Promise<number> {
  const before = new Date(now.getTime() - RETENTION_MS);
  let total = 0;
  total += await knex.transaction(async (trx) => {
    const ids = (await trx('webhook_deliveries')
      .whereIn('status', ['succeeded', 'dead'])
      .where('updated_at', '<', before)
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .pluck('id')) as string[];
    if (!ids.length) return 0;
    const attempts = await trx('webhook_delivery_attempts').whereIn('delivery_id', ids).del();
    return attempts + (await trx('webhook_deliveries').whereIn('id', ids).del());
  });
  total += await knex('events')
    .whereIn('id', knex('events').whereNotNull('dispatched_at').where('created_at', '<', before).limit(BATCH).select('id'))
    .del();
  total += await knex('jobs')
    .whereIn('id', knex('jobs').whereIn('status', ['succeeded', 'dead']).where('finished_at', '<', before).limit(BATCH).select('id'))
    .del();
  return total;
}
