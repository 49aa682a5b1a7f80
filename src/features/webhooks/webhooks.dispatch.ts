import type { Deps } from '../../deps';
import { toEnvelope } from '../../events/outbox';
import { newId } from '../../lib/ids';
import { claimRows, type Db } from '../../jobs/queue';
import { policyForLocation } from '../../outbound/policy';
import { queueEmail } from '../../mail/mail.outbox';
import { webhookDeliveryFailedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { signatureHeader } from './signing';
import { deliverWebhook, deliveryHeaders, type DeliveryOutcome } from './webhooks.delivery';
import type { AttemptRow, DeliveryRow } from './webhooks.repository';
import { liveSecrets } from './webhooks.secrets';

// The delivery side of webhooks, run by the worker (src/jobs/worker.ts) as a poll source (webhooks.source.ts):
//  1. dispatchEvents: each outbox event not yet dispatched becomes one delivery per matching active
//     subscription of its location, in one transaction with its dispatch mark (a crash redoes the
//     whole batch; the (subscription_id, event_id) key makes that harmless).
//  2. claimDueDeliveries + attemptDelivery: a due delivery is claimed under a lease, POSTed with
//     no transaction open, and its outcome recorded only while the lease is still ours.

/** Delays after failed attempts 1-5; the sixth failure is final (`dead`). */
export const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** A subscription whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600_000;
/** A day without any failed attempt ends a failure run (the longest retry gap is 6 hours). */
export const RUN_BREAK_MS = 24 * 3600_000;

interface EventRow {
  id: string;
  location_id: string;
  type: string;
  data: unknown;
  created_at: Date;
}

interface SubscriptionTarget {
  id: string;
  location_id: string;
  events: string[];
  created_at: Date;
}

/** Fans out up to `limit` undispatched events; returns how many events were dispatched. */
export async function dispatchEvents(deps: Deps, limit = 200): Promise<{ events: number; deliveries: number }> {
  return deps.db.knex.transaction(async (trx) => {
    const events = (await trx('events')
      .whereNull('dispatched_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select('id', 'location_id', 'type', 'data', 'created_at')) as EventRow[];
    if (!events.length) return { events: 0, deliveries: 0 };
    const now = deps.clock.now();
    const locations = [...new Set(events.map((e) => e.location_id))];
    const subs = (await trx('webhook_subscriptions')
      .whereIn('location_id', locations)
      .where('status', 'active')
      .whereNull('deleted_at')
      .select('id', 'location_id', 'events', 'created_at')) as SubscriptionTarget[];
    const rows: Record<string, unknown>[] = [];
    for (const e of events) {
      const envelope = JSON.stringify(toEnvelope(e));
      for (const s of subs) {
        if (s.location_id !== e.location_id) continue;
        if (new Date(s.created_at).getTime() > new Date(e.created_at).getTime()) continue; // subscribed after it happened
        if (s.events.length && !s.events.includes(e.type)) continue;
        rows.push({
          id: newId('dlv', now.getTime()),
          location_id: e.location_id,
          subscription_id: s.id,
          event_id: e.id,
          event_type: e.type,
          kind: 'event',
          status: 'pending',
          attempts: 0,
          total_attempts: 0,
          next_attempt_at: now,
          payload: envelope,
          created_at: now,
          updated_at: now,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 500) {
      await trx('webhook_deliveries').insert(rows.slice(i, i + 500)).onConflict(['subscription_id', 'event_id']).ignore();
    }
    await trx('events').whereIn('id', events.map((e) => e.id)).update({ dispatched_at: now });
    return { events: events.length, deliveries: rows.length };
  });
}

export type ClaimedDelivery = DeliveryRow & { lease_id: string; total_attempts: number };

export async function claimDueDeliveries(db: Db, o: { now: Date; limit: number; workerId: string; checkLiveness: boolean; leaseMs?: number }): Promise<ClaimedDelivery[]> {
  return claimRows<ClaimedDelivery>(db, {
    table: 'webhook_deliveries',
    due: `status IN ('pending','failed') AND next_attempt_at <= ?`,
    dueBindings: [o.now],
    orderBy: 'next_attempt_at',
    limit: o.limit,
    now: o.now,
    workerId: o.workerId,
    checkLiveness: o.checkLiveness,
    leaseMs: o.leaseMs,
  });
}

export interface Target {
  url: string;
  status: string;
  secret_sealed: string | null;
  previous_secrets: { sealed: string; expires_at: string }[];
  deleted_at: Date | null;
  is_test: boolean;
}

const TARGET_COLUMNS = ['s.id', 's.url', 's.status', 's.secret_sealed', 's.previous_secrets', 's.deleted_at', 'l.is_test'];

/** The targets of a claimed batch's subscriptions in one query (subscription id -> target). */
export async function loadTargets(db: Db, subscriptionIds: string[]): Promise<Map<string, Target>> {
  const ids = [...new Set(subscriptionIds)];
  if (!ids.length) return new Map();
  const rows = (await db('webhook_subscriptions as s').join('locations as l', 'l.id', 's.location_id').whereIn('s.id', ids).select(TARGET_COLUMNS)) as (Target & { id: string })[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** A 2xx attempt waiting to be recorded with others (recordSuccesses). */
export interface PendingSuccess {
  d: ClaimedDelivery;
  outcome: DeliveryOutcome;
  attemptedAt: Date;
}

/**
 * One attempt of a claimed delivery: POST, then record. Returns the delivery's new status, or null
 * when the lease had been lost (another worker owns the delivery now; nothing is recorded).
 * `opts.targets` (loadTargets of the claimed batch) replaces the per-delivery lookup;
 * `opts.recordSuccess` records a 2xx instead (the worker's group commit, through recordSuccesses).
 */
export async function attemptDelivery(
  deps: Deps,
  d: ClaimedDelivery,
  opts: { targets?: Map<string, Target>; recordSuccess?: (s: PendingSuccess) => Promise<DeliveryRow['status'] | null> } = {},
): Promise<DeliveryRow['status'] | null> {
  const knex = deps.db.knex;
  const target = opts.targets
    ? opts.targets.get(d.subscription_id)
    : ((await knex('webhook_subscriptions as s').join('locations as l', 'l.id', 's.location_id').where('s.id', d.subscription_id).first(TARGET_COLUMNS)) as Target | undefined);
  const attemptedAt = deps.clock.now();
  if (!target || target.deleted_at || target.status !== 'active' || !target.secret_sealed) {
    // Deleted or disabled after this delivery was queued: it ends without an attempt.
    const reason = target?.deleted_at || !target ? 'Cancelled: the subscription was deleted' : 'Cancelled: the subscription is disabled';
    const n = await knex('webhook_deliveries')
      .where({ id: d.id, lease_id: d.lease_id })
      .update({ status: 'dead', next_attempt_at: null, last_error: reason, last_error_code: null, updated_at: attemptedAt, locked_by: null, lease_id: null, locked_until: null });
    return n ? 'dead' : null;
  }
  const rawBody = JSON.stringify(toEnvelope(d.payload as never));
  const t = Math.floor(attemptedAt.getTime() / 1000);
  let headers: Record<string, string>;
  try {
    const secrets = liveSecrets(deps, target.secret_sealed, target.previous_secrets, attemptedAt);
    headers = deliveryHeaders({ eventType: d.event_type, deliveryId: d.id, signature: signatureHeader(secrets, rawBody, t) });
  } catch (err) {
    // Our failure, not the receiver's (a secret that no longer opens: SECRET_KEY changed). Counted as
    // a failed attempt, so the delivery ends `dead` instead of being claimed forever; health untouched.
    deps.logger.error({ err, delivery_id: d.id, subscription_id: d.subscription_id }, 'webhook delivery could not be signed');
    return recordAttempt(deps, d, UNSIGNABLE, attemptedAt);
  }
  const outcome = await deliverWebhook(target.url, rawBody, headers, { policy: policyForLocation({ locationIsTest: target.is_test }) });
  if (outcome.ok && opts.recordSuccess) return opts.recordSuccess({ d, outcome, attemptedAt });
  return recordAttempt(deps, d, outcome, attemptedAt);
}

/**
 * Records successful attempts together, in one transaction, exactly as recordAttempt records each:
 * a delivery becomes `succeeded` only while its lease is still ours (the others are left alone and
 * reported missing from the result), gets its attempt row, and each subscription's health
 * (last_success_at = its latest success here, failing_since cleared) is written once, in id order
 * (concurrent workers lock subscriptions in the same order). Returns the ids recorded.
 */
export async function recordSuccesses(deps: Deps, items: PendingSuccess[]): Promise<Set<string>> {
  if (!items.length) return new Set();
  const now = deps.clock.now();
  return deps.db.knex.transaction(async (trx) => {
    const values = items.map(({ d, outcome }) => ({ id: d.id, lease_id: d.lease_id, attempts: d.attempts + 1, total_attempts: d.total_attempts + 1, response_status: outcome.responseStatus }));
    const updated = (
      await trx.raw(
        `UPDATE webhook_deliveries AS d
            SET status = 'succeeded', attempts = v.attempts, total_attempts = v.total_attempts, next_attempt_at = NULL,
                last_response_status = v.response_status, last_error = NULL, last_error_code = NULL, updated_at = ?,
                locked_by = NULL, lease_id = NULL, locked_until = NULL
           FROM jsonb_to_recordset(?::jsonb) AS v(id text, lease_id text, attempts int, total_attempts int, response_status int)
          WHERE d.id = v.id AND d.lease_id = v.lease_id
          RETURNING d.id`,
        [now, JSON.stringify(values)],
      )
    ).rows as { id: string }[];
    const recorded = new Set(updated.map((r) => r.id));
    const mine = items.filter((i) => recorded.has(i.d.id));
    if (!mine.length) return recorded;
    await trx('webhook_delivery_attempts').insert(mine.map(({ d, outcome, attemptedAt }) => attemptRow(d, outcome, attemptedAt)));
    const latest = new Map<string, Date>();
    for (const { d, attemptedAt } of mine) {
      const t = latest.get(d.subscription_id);
      if (!t || t < attemptedAt) latest.set(d.subscription_id, attemptedAt);
    }
    for (const id of [...latest.keys()].sort()) await recordSuccessHealth(trx, id, latest.get(id)!);
    return recorded;
  });
}

/** The attempt log's row for one recorded attempt (numbered across rounds). */
function attemptRow(d: ClaimedDelivery, outcome: DeliveryOutcome, attemptedAt: Date): AttemptRow {
  return {
    id: newId('dla', attemptedAt.getTime()),
    location_id: d.location_id,
    delivery_id: d.id,
    attempt_number: d.total_attempts + 1,
    response_status: outcome.responseStatus,
    response_body: outcome.responseBody,
    error: outcome.error,
    error_code: outcome.errorCode,
    duration_ms: outcome.durationMs,
    created_at: attemptedAt,
  };
}

/** The outcome of an attempt that could not be made on our side: nothing was sent. */
const UNSIGNABLE: DeliveryOutcome = {
  ok: false,
  responseStatus: null,
  responseBody: null,
  error: 'Not sent: the delivery could not be signed on our side; it is retried like any failure',
  errorCode: null,
  durationMs: 0,
};

async function recordAttempt(deps: Deps, d: ClaimedDelivery, outcome: DeliveryOutcome, attemptedAt: Date): Promise<DeliveryRow['status'] | null> {
  const now = deps.clock.now();
  const attempts = d.attempts + 1;
  const status: DeliveryRow['status'] = outcome.ok ? 'succeeded' : attempts >= MAX_ATTEMPTS ? 'dead' : 'failed';
  const next = status === 'failed' ? new Date(attemptedAt.getTime() + RETRY_SCHEDULE_MS[attempts - 1]) : null;
  return deps.db.knex.transaction(async (trx) => {
    const n = await trx('webhook_deliveries').where({ id: d.id, lease_id: d.lease_id }).update({
      status,
      attempts,
      total_attempts: d.total_attempts + 1,
      next_attempt_at: next,
      last_response_status: outcome.responseStatus,
      last_error: outcome.error,
      last_error_code: outcome.errorCode,
      updated_at: now,
      locked_by: null,
      lease_id: null,
      locked_until: null,
    });
    if (n === 0) return null; // the lease ran out and another worker took the delivery over
    await trx('webhook_delivery_attempts').insert(attemptRow(d, outcome, attemptedAt));
    if (outcome !== UNSIGNABLE) await recordHealth(deps, trx, d, outcome, attemptedAt);
    if (status === 'dead' && d.kind === 'event') {
      // Its last attempt failed: the location's admins are told (by their preference), in this transaction.
      const sub = (await trx('webhook_subscriptions').where({ id: d.subscription_id }).first('url')) as { url: string } | undefined;
      await notify(trx, deps, {
        locationId: d.location_id, kind: 'webhook_delivery_failed', dealId: null, actorUserId: null,
        ...webhookDeliveryFailedMessage({ url: sub?.url ?? '', subscriptionId: d.subscription_id, deliveryId: d.id, eventType: d.event_type, eventId: d.event_id, error: outcome.error }),
      });
    }
    return status;
  });
}

/**
 * A success at `at`: last_success_at moves forward only, and it ends the failure run unless a
 * failure was recorded after it (attempts of one subscription finish and are recorded out of order).
 */
async function recordSuccessHealth(trx: Db, subscriptionId: string, at: Date): Promise<void> {
  await trx('webhook_subscriptions')
    .where({ id: subscriptionId })
    .update({
      last_success_at: trx.raw('GREATEST(COALESCE(last_success_at, ?::timestamptz), ?::timestamptz)', [at, at]),
      failing_since: trx.raw('CASE WHEN last_failure_at > ?::timestamptz THEN failing_since ELSE NULL END', [at]),
    });
}

/**
 * The subscription's health fields: a success clears `failing_since`; a failure starts it (if not
 * running). A run of failures 3 days long disables the subscription: its open deliveries end, and
 * the location's admins are emailed (in this transaction: the email exists only if the disabling does).
 */
async function recordHealth(deps: Deps, trx: Db, d: ClaimedDelivery, outcome: DeliveryOutcome, at: Date): Promise<void> {
  if (outcome.ok) {
    await recordSuccessHealth(trx, d.subscription_id, at);
    return;
  }
  // A failure run starts at the first failure after a success, or after a quiet day (a failure long
  // after the last one, with no attempt between, is not 3 days of failing). A failure recorded after
  // a newer success leaves the run as the success left it.
  const [sub] = (await trx('webhook_subscriptions')
    .where({ id: d.subscription_id })
    .update({
      last_failure_at: trx.raw('GREATEST(COALESCE(last_failure_at, ?::timestamptz), ?::timestamptz)', [at, at]),
      failing_since: trx.raw(
        `CASE WHEN last_success_at IS NOT NULL AND last_success_at > ?::timestamptz THEN failing_since
              WHEN failing_since IS NULL OR last_failure_at IS NULL OR last_failure_at < ?::timestamptz THEN ?::timestamptz
              ELSE failing_since END`,
        [at, new Date(at.getTime() - RUN_BREAK_MS), at],
      ),
    })
    .returning(['id', 'location_id', 'url', 'description', 'status', 'failing_since'])) as { id: string; location_id: string; url: string; description: string | null; status: string; failing_since: Date | null }[];
  if (!sub || sub.status !== 'active' || !sub.failing_since || at.getTime() - new Date(sub.failing_since).getTime() < DISABLE_AFTER_MS) return;
  const reason = `Deliveries failed for 3 days; last error: ${outcome.error ?? 'unknown'}`.slice(0, 500);
  await trx('webhook_subscriptions').where({ id: sub.id }).update({ status: 'disabled', disabled_reason: reason, updated_at: at });
  await trx('webhook_deliveries')
    .where({ subscription_id: sub.id })
    .whereIn('status', ['pending', 'failed'])
    .whereNot('id', d.id)
    .update({ status: 'dead', next_attempt_at: null, last_error: 'Cancelled: the subscription was disabled', updated_at: at, locked_by: null, lease_id: null, locked_until: null });
  await trx('webhook_deliveries')
    .where({ id: d.id, status: 'failed' })
    .update({ status: 'dead', next_attempt_at: null });
  const admins = (await trx('users').where({ location_id: sub.location_id, role: 'admin', active: true }).orderBy('email').pluck('email')) as string[];
  deps.logger.warn({ subscription_id: sub.id, location_id: sub.location_id, admins: admins.length }, 'webhook subscription disabled after 3 days of failures');
  if (!admins.length) return;
  await queueEmail(trx, deps.clock, {
    locationId: sub.location_id,
    kind: 'webhook_subscription_disabled',
    to: admins,
    subject: `Webhook endpoint disabled: ${sub.url}`.slice(0, 300),
    text: [
      `Your webhook subscription ${sub.id}${sub.description ? ` (${sub.description})` : ''} was disabled.`,
      ``,
      `Endpoint: ${sub.url}`,
      `Failing since: ${sub.failing_since.toISOString()}`,
      `Reason: ${reason}`,
      ``,
      `No events are delivered to it while it is disabled. Fix the endpoint, check it with`,
      `POST /v1/webhooks/${sub.id}/test, then re-enable it with PATCH /v1/webhooks/${sub.id} {"status":"active"}.`,
      `Deliveries that failed can be sent again with POST /v1/webhooks/${sub.id}/recover; events created while`,
      `it was disabled are listed by GET /v1/events.`,
    ].join('\n'),
  });
}
