import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { conflict, invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newEventId, newId } from '../../lib/ids';
import { policyForLocation, vetUrl } from '../../outbound/policy';
import { signatureHeader, newSigningSecret } from './signing';
import { deliverWebhook, deliveryHeaders, DELIVERY_TIMEOUT_MS } from './webhooks.delivery';
import { toAttempt, toDelivery, toWebhook, toWebhookWithSecret, type Webhook, type WebhookDelivery, type WebhookWithSecret } from './webhooks.mapper';
import {
  attemptsQuery, cancelOpenDeliveries, deliveriesQuery, findDelivery, findWebhook, insertDelivery, insertWebhook, locationName,
  insertAttempt, markWebhookDeleted, requeueDeliveries, updateWebhookRow, webhooksQuery, type AttemptRow, type Db, type DeliveryRow, type WebhookRow,
} from './webhooks.repository';
import { afterRotation, liveSecrets, type PreviousSecret } from './webhooks.secrets';

type S = components['schemas'];
type CreateBody = S['CreateWebhookRequest'];
type UpdateBody = S['UpdateWebhookRequest'];
type ListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;
type DeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
type AttemptsQuery = NonNullable<operations['listWebhookDeliveryAttempts']['parameters']['query']>;

// Webhook subscriptions and their deliveries, as the API manages them. Events reach subscriptions
// through the outbox and the worker (webhooks.dispatch.ts); this module sends nothing but test
// events. Subscription changes are not business history and have no event type: they write no
// activity line and no outbox event.

let testTimeoutMs = DELIVERY_TIMEOUT_MS;
/** Tests shorten the test delivery's timeout (default 10 s). Returns a function restoring it. */
export function setTestDeliveryTimeout(ms: number | null): () => void {
  const previous = testTimeoutMs;
  testTimeoutMs = ms ?? DELIVERY_TIMEOUT_MS;
  return () => {
    testTimeoutMs = previous;
  };
}

/**
 * The outbound address policy (src/outbound/policy.ts) of the caller's location: public HTTPS only,
 * plus localhost and 127.0.0.1 for test locations. Malformed -> 400 invalid_request; against the
 * rule, unresolvable or resolving to a non-public address -> 400 invalid_webhook_url. Checked again
 * at send time (a host may be re-pointed after it was accepted).
 */
async function acceptableUrl(scope: Scope, url: string): Promise<string> {
  const verdict = await vetUrl(url, policyForLocation(scope), { signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
  if (verdict.ok) return url;
  throw verdict.malformed ? invalid(verdict.reason, 'url') : invalid(verdict.reason, 'url', 'invalid_webhook_url');
}

function uniqueEvents(events: string[] | undefined): S['EventType'][] {
  const list = (events ?? []) as S['EventType'][];
  if (new Set(list).size !== list.length) throw invalid('events must not list an event type twice', 'events');
  return list;
}

async function getWebhookOr404(db: Db, scope: Scope, id: string): Promise<WebhookRow> {
  const row = await findWebhook(db, scope, id);
  if (!row) throw notFound('webhook subscription', id);
  return row;
}

export async function createWebhook(deps: Deps, scope: Scope, body: CreateBody): Promise<WebhookWithSecret> {
  const events = uniqueEvents(body.events);
  const url = await acceptableUrl(scope, body.url); // DNS happens before the transaction opens
  const now = deps.clock.now();
  const secret = newSigningSecret();
  const row: WebhookRow = {
    id: newId('whk', now.getTime()),
    location_id: scope.locationId,
    url,
    events,
    description: body.description ?? null,
    secret_sealed: deps.secrets.seal(secret),
    status: 'active',
    disabled_reason: null,
    failing_since: null,
    last_success_at: null,
    last_failure_at: null,
    previous_secrets: [],
    created_at: now,
    updated_at: now,
  };
  await deps.db.knex.transaction((trx) => insertWebhook(trx, row));
  return toWebhookWithSecret(row, secret);
}

export async function listWebhooks(deps: Deps, scope: Scope, query: ListQuery) {
  const page = await paginate<WebhookRow>(webhooksQuery(deps.db.knex, scope), { key: deps.cursorKey, list: 'webhooks', limit: query.limit, cursor: query.cursor });
  return { data: page.rows.map(toWebhook), meta: page.meta };
}

export async function getWebhook(deps: Deps, scope: Scope, id: string): Promise<Webhook> {
  return toWebhook(await getWebhookOr404(deps.db.knex, scope, id));
}

export async function updateWebhook(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Webhook> {
  await getWebhookOr404(deps.db.knex, scope, id); // 404 before any DNS work
  const patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'updated_at' | 'status' | 'disabled_reason' | 'failing_since'>> = {};
  if (body.url !== undefined) patch.url = await acceptableUrl(scope, body.url);
  if (body.events !== undefined) patch.events = uniqueEvents(body.events);
  if (body.description !== undefined) patch.description = body.description;
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getWebhookOr404(trx, scope, id);
    const now = deps.clock.now();
    patch.updated_at = now;
    if (body.status === 'active' && existing.status !== 'active') {
      // Re-enabled: the health record starts over; events from now on are delivered.
      Object.assign(patch, { status: 'active', disabled_reason: null, failing_since: null });
    } else if (body.status === 'disabled' && existing.status !== 'disabled') {
      Object.assign(patch, { status: 'disabled', disabled_reason: 'Disabled through the API' });
      await cancelOpenDeliveries(trx, scope, id, now, 'Cancelled: the subscription was disabled');
    }
    await updateWebhookRow(trx, scope, id, patch);
    return toWebhook({ ...existing, ...patch });
  });
}

export async function deleteWebhook(deps: Deps, scope: Scope, id: string): Promise<{ deleted: true; id: string }> {
  return deps.db.knex.transaction(async (trx) => {
    await getWebhookOr404(trx, scope, id);
    const now = deps.clock.now();
    await markWebhookDeleted(trx, scope, id, now);
    await cancelOpenDeliveries(trx, scope, id, now, 'Cancelled: the subscription was deleted');
    return { deleted: true as const, id };
  });
}

/**
 * One signed `webhook.test` delivery, sent now and never retried. The attempt is recorded as a
 * delivery of kind `test`; the subscription's status and health fields do not change. No
 * transaction is open while the receiver is called.
 */
export async function testWebhook(deps: Deps, scope: Scope, id: string): Promise<S['WebhookTestResult']> {
  const db = deps.db.knex;
  const row = await getWebhookOr404(db, scope, id);
  const now = deps.clock.now();
  const sentAt = now.toISOString();
  const event: S['WebhookTestEvent'] = {
    id: newEventId(),
    type: 'webhook.test',
    created_at: sentAt,
    location_id: scope.locationId,
    data: { subscription_id: row.id, message: `Test event from ${(await locationName(db, scope)) ?? scope.locationId}`, sent_at: sentAt },
  };
  const rawBody = JSON.stringify(event);
  const deliveryId = newId('dlv', now.getTime());
  const t = Math.floor(now.getTime() / 1000);
  const secrets = liveSecrets(deps, row.secret_sealed, row.previous_secrets as PreviousSecret[], now);
  const headers = deliveryHeaders({ eventType: event.type, deliveryId, signature: signatureHeader(secrets, rawBody, t) });
  const outcome = await deliverWebhook(row.url, rawBody, headers, { policy: policyForLocation(scope), timeoutMs: testTimeoutMs });

  const delivery: DeliveryRow = {
    id: deliveryId,
    location_id: scope.locationId,
    subscription_id: row.id,
    event_id: event.id,
    event_type: event.type,
    kind: 'test',
    status: outcome.ok ? 'succeeded' : 'dead',
    attempts: 1,
    total_attempts: 1,
    next_attempt_at: null,
    last_response_status: outcome.responseStatus,
    last_error: outcome.error,
    last_error_code: outcome.errorCode,
    payload: event,
    created_at: now,
    updated_at: deps.clock.now(),
  };
  await db.transaction(async (trx) => {
    await insertDelivery(trx, delivery);
    await insertAttempt(trx, {
      id: newId('dla', now.getTime()),
      location_id: scope.locationId,
      delivery_id: deliveryId,
      attempt_number: 1,
      response_status: outcome.responseStatus,
      response_body: outcome.responseBody,
      error: outcome.error,
      error_code: outcome.errorCode,
      duration_ms: outcome.durationMs,
      created_at: now,
    });
  });
  deps.logger.info(
    { subscription_id: row.id, delivery_id: deliveryId, event_id: event.id, status: delivery.status, response_status: outcome.responseStatus, error_code: outcome.errorCode, duration_ms: outcome.durationMs },
    'webhook test delivery',
  );
  return {
    delivery_id: deliveryId,
    event_type: 'webhook.test',
    status: outcome.ok ? 'succeeded' : 'dead',
    response_status: outcome.responseStatus,
    response_body: outcome.responseBody,
    error: outcome.error,
    error_code: outcome.errorCode,
    duration_ms: outcome.durationMs,
  };
}

export async function listWebhookDeliveries(deps: Deps, scope: Scope, id: string, query: DeliveriesQuery) {
  const db = deps.db.knex;
  await getWebhookOr404(db, scope, id);
  const q = deliveriesQuery(db, scope, id).select('*');
  if (query.status) q.where('status', query.status);
  const page = await paginate<DeliveryRow>(q, { key: deps.cursorKey, list: `webhook_deliveries:${id}`, limit: query.limit, cursor: query.cursor });
  return { data: page.rows.map(toDelivery), meta: page.meta };
}

async function getDeliveryOr404(db: Db, scope: Scope, subscriptionId: string, deliveryId: string): Promise<DeliveryRow> {
  const row = await findDelivery(db, scope, subscriptionId, deliveryId);
  if (!row) throw notFound('delivery', deliveryId, 'deliveryId');
  return row;
}

export async function getWebhookDelivery(deps: Deps, scope: Scope, id: string, deliveryId: string): Promise<WebhookDelivery> {
  const db = deps.db.knex;
  await getWebhookOr404(db, scope, id);
  return toDelivery(await getDeliveryOr404(db, scope, id, deliveryId));
}

export async function listWebhookDeliveryAttempts(deps: Deps, scope: Scope, id: string, deliveryId: string, query: AttemptsQuery) {
  const db = deps.db.knex;
  await getWebhookOr404(db, scope, id);
  await getDeliveryOr404(db, scope, id, deliveryId);
  const page = await paginate<AttemptRow>(attemptsQuery(db, scope, deliveryId), { key: deps.cursorKey, list: `webhook_delivery_attempts:${deliveryId}`, limit: query.limit, cursor: query.cursor });
  return { data: page.rows.map(toAttempt), meta: page.meta };
}

/**
 * Replays one delivery now, dead ones included: `pending`, attempts reset, due at once, same delivery
 * and event ids. A delivery a worker is attempting right now is 409 `delivery_in_flight` (two
 * attempts of one delivery are never in flight at once).
 */
export async function retryWebhookDelivery(deps: Pick<Deps, 'clock'> & { db: Pick<Deps['db'], 'knex'> }, scope: Scope, id: string, deliveryId: string): Promise<WebhookDelivery> {
  return deps.db.knex.transaction(async (trx) => {
    const sub = await getWebhookOr404(trx, scope, id);
    const row = await getDeliveryOr404(trx, scope, id, deliveryId);
    if (sub.status !== 'active') throw conflict('The subscription is disabled and receives nothing; re-enable it with PATCH status active first', 'webhook_disabled', 'id');
    if (row.kind === 'test') throw conflict('Test deliveries are never retried; send a new one with POST /v1/webhooks/{id}/test', 'delivery_not_retryable', 'deliveryId');
    if (row.status === 'succeeded') throw conflict('This delivery already succeeded; it is not sent again', 'delivery_not_retryable', 'deliveryId');
    const now = deps.clock.now();
    if (row.locked_until && new Date(row.locked_until).getTime() > now.getTime()) {
      throw conflict('This delivery is being attempted right now; retry it once the attempt is recorded', 'delivery_in_flight', 'deliveryId');
    }
    await requeueDeliveries(trx, scope, id, now, { ids: [deliveryId] });
    return toDelivery((await getDeliveryOr404(trx, scope, id, deliveryId)));
  });
}

const EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** Every failed or dead event delivery created in [since, until) is replayed as by retryWebhookDelivery. */
export async function recoverWebhook(deps: Deps, scope: Scope, id: string, body: S['RecoverWebhookRequest']): Promise<S['WebhookRecovery']> {
  const now = deps.clock.now();
  const since = new Date(body.since);
  const until = body.until ? new Date(body.until) : null;
  if (since.getTime() < now.getTime() - EVENT_RETENTION_MS) throw invalid('since may be at most 30 days ago (events are kept 30 days)', 'since');
  if (until && until.getTime() <= since.getTime()) throw invalid('until must be after since', 'until');
  return deps.db.knex.transaction(async (trx) => {
    const sub = await getWebhookOr404(trx, scope, id);
    if (sub.status !== 'active') throw conflict('The subscription is disabled and receives nothing; re-enable it with PATCH status active first', 'webhook_disabled', 'id');
    const recovered = await requeueDeliveries(trx, scope, id, now, { since, until, statuses: ['failed', 'dead'] });
    return { subscription_id: id, since: since.toISOString(), until: until ? until.toISOString() : null, recovered };
  });
}

export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;

/** A new signing secret, returned once; the outgoing one signs for the grace period more. */
export async function rotateWebhookSecret(deps: Deps, scope: Scope, id: string, body: S['RotateWebhookSecretRequest'] | undefined): Promise<S['WebhookSecretRotation']> {
  const graceSeconds = body?.grace_period_seconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  return deps.db.knex.transaction(async (trx) => {
    // Locked: two rotations at once must not both start from the same list and lose a secret.
    const row = (await webhooksQuery(trx, scope).where('id', id).forUpdate().first()) as unknown as WebhookRow | undefined;
    if (!row) throw notFound('webhook subscription', id);
    const now = deps.clock.now();
    const secret = newSigningSecret();
    const previous = afterRotation(row.secret_sealed, row.previous_secrets as PreviousSecret[], now, graceSeconds * 1000);
    await trx('webhook_subscriptions')
      .where({ id, location_id: scope.locationId })
      .whereNull('deleted_at')
      .update({ secret_sealed: deps.secrets.seal(secret), previous_secrets: JSON.stringify(previous), updated_at: now });
    return {
      subscription_id: id,
      secret,
      previous_secret_expires_at: graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000).toISOString() : null,
    };
  });
}
