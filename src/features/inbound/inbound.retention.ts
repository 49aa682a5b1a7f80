import type { Deps } from '../../deps';
import { registerMaintenance } from '../../jobs/maintenance';
import { sweepStorageIntents } from './email-documents';

// Retention of raw messages nobody claimed (M6): an `unmatched` reply keeps its raw message for
// INBOUND_UNMATCHED_RAW_DAYS (default 30) after it arrived; then the hourly maintenance sweep empties
// it (the record, its text and classification stay for the review queue). Matched, assigned and
// dismissed replies keep theirs: they are the record of an answer. Bounded batches, on the
// injected clock.

export const DEFAULT_UNMATCHED_RAW_DAYS = 30;
const BATCH = 200;

/** Empties the raw message of unmatched replies older than the retention; returns how many. */
export async function sweepUnmatchedRaw(deps: Deps): Promise<number> {
  const days = deps.config.inboundUnmatchedRawDays ?? DEFAULT_UNMATCHED_RAW_DAYS;
  const before = new Date(deps.clock.now().getTime() - days * 24 * 3600_000);
  const knex = deps.db.knex;
  let total = 0;
  for (;;) {
    const ids = (await knex('inbound_emails')
      .where({ status: 'unmatched' })
      .where('created_at', '<', before)
      .whereRaw('octet_length(raw) > 0')
      .orderBy('created_at')
      .limit(BATCH)
      .pluck('id')) as string[];
    if (!ids.length) return total;
    total += await knex('inbound_emails').whereIn('id', ids).where({ status: 'unmatched' }).update({ raw: Buffer.alloc(0) });
  }
}

export function registerInboundMaintenance(): void {
  registerMaintenance('inbound.unmatched_raw', (deps) => sweepUnmatchedRaw(deps));
  // files an inbound email stored before its transaction died with the process (email-documents.ts)
  registerMaintenance('inbound.storage_intents', (deps) => sweepStorageIntents(deps));
}
