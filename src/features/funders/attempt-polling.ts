import type { Deps } from '../../deps';
import { claimRows, newLeaseId, type Db } from '../../jobs/queue';
import { ATTEMPT_STATE, type FunderResult, type InternalStatus } from './adapter';
import { nextPollAt, parseRow, POLLED, REQUEST_LEASE_MS, type AttemptRow } from './attempt-state';
import { callContext, redacted, safely } from './attempt-call';
import { followFunder, isLatest, lockSubmission } from './attempt-outcome';

// Polling (attempts.ts): due attempts claimed under a lease, the funder asked, the answer recorded
// under that lease; check-status takes the same lease for a request.

/** Claims up to `limit` attempts whose next poll is due, under one lease. */
export async function claimDuePolls(db: Db, o: { now: Date; limit: number; workerId: string; checkLiveness: boolean }): Promise<AttemptRow[]> {
  const rows = await claimRows<AttemptRow>(db, {
    table: 'api_submissions', due: `next_poll_at IS NOT NULL AND next_poll_at <= ?`, dueBindings: [o.now], orderBy: 'next_poll_at',
    limit: o.limit, now: o.now, workerId: o.workerId, checkLiveness: o.checkLiveness,
  });
  return rows.map(parseRow);
}

/**
 * Asks the funder for a claimed attempt's status and records the answer under the claim's lease.
 * `reschedule`: the poller moves next_poll_at along the schedule (or to stale); check-status leaves
 * the schedule alone. Returns false when the lease was lost (nothing recorded).
 */
export async function pollAttempt(deps: Deps, a: AttemptRow, opts: { reschedule: boolean }): Promise<boolean> {
  const sub = (await deps.db.knex('submissions').where({ id: a.submission_id }).first('status')) as { status: string } | undefined;
  let result: FunderResult | null = null;
  if (sub && sub.status !== 'withdrawn' && a.external_id && POLLED.concat(opts.reschedule ? [] : ['stale', 'errored', 'declined', 'funded', 'expired']).includes(a.internal_status)) {
    const call = await callContext(deps, a);
    result = 'ok' in call ? call : redacted(await safely(() => call.spec.adapter.status(call.ctx, a.external_id!)), call.secrets());
  }
  return deps.db.knex.transaction(async (trx) => {
    const current = await lockSubmission(trx, a.location_id, a.submission_id);
    const fresh = (await trx('api_submissions').where({ id: a.id, lease_id: a.lease_id }).forUpdate().first()) as AttemptRow | undefined;
    if (!fresh) return false;
    const now = deps.clock.now();
    const release = { locked_by: null, lease_id: null, locked_until: null };
    const row = parseRow(fresh);
    if (!result || !current) {
      // Withdrawn, or nothing to ask: polling ends.
      await trx('api_submissions').where({ id: a.id }).update({ ...release, next_poll_at: null, updated_at: now });
      return true;
    }
    const schedule = (final: boolean): { next_poll_at?: Date | null; internal_status?: InternalStatus } => {
      if (!opts.reschedule) return final ? { next_poll_at: null } : {};
      if (final) return { next_poll_at: null };
      const next = nextPollAt(new Date(row.submitted_at ?? row.created_at), now);
      return next ? { next_poll_at: next } : { next_poll_at: null, internal_status: 'stale' };
    };
    if (!result.ok) {
      if (result.error_code === 'auth_failed' || result.error_code === 'config') {
        await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_error: result.error_message.slice(0, 500) });
      }
      // The funder may still have the application: the error is recorded, the schedule goes on.
      await trx('api_submissions').where({ id: a.id }).update({
        ...release, ...schedule(false), error_code: result.error_code, error_message: result.error_message.slice(0, 2000), last_polled_at: now, updated_at: now,
      });
      return true;
    }
    const state = ATTEMPT_STATE[result.state];
    await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_verified_at: now, api_last_error: null });
    const latest = await isLatest(trx, row);
    if (latest && current.status !== 'withdrawn') await followFunder(trx, deps, row, current, result);
    const sched = schedule(state.final);
    await trx('api_submissions').where({ id: a.id }).update({
      ...release,
      funder_status: result.funder_status,
      internal_status: state.final || sched.internal_status !== 'stale' ? state.internal : 'stale',
      ...(sched.next_poll_at !== undefined ? { next_poll_at: sched.next_poll_at } : {}),
      deep_link_url: result.deep_link_url ?? row.deep_link_url,
      error_code: null,
      error_message: null,
      poll_count: row.poll_count + 1,
      offer_keys: JSON.stringify(row.offer_keys),
      last_polled_at: now,
      updated_at: now,
    });
    return true;
  });
}

/** Takes the lease of one attempt for a request (check-status); null when a poll holds it now. */
export async function leaseForRequest(db: Db, attemptId: string, now: Date, requestId: string): Promise<AttemptRow | null> {
  const leaseId = newLeaseId();
  const rows = (await db('api_submissions')
    .where({ id: attemptId })
    .andWhere((w) => w.whereNull('locked_until').orWhere('locked_until', '<=', now))
    .update({ locked_by: requestId, lease_id: leaseId, locked_until: new Date(now.getTime() + REQUEST_LEASE_MS) })
    .returning('*')) as AttemptRow[];
  return rows[0] ? parseRow(rows[0]) : null;
}
