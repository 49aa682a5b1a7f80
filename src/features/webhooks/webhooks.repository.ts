import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import type { DeliveryErrorCode } from './webhooks.delivery';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.
// A deleted subscription (deleted_at set) is invisible to every read.

export type Db = Knex | Knex.Transaction;

export interface WebhookRow {
  id: string;
  location_id: string;
  url: string;
  events: string[];
  description: string | null;
  /** SecretBox-sealed signing secret; never leaves the service unopened, never reaches the wire. */
  secret_sealed: string;
  status: string;
  disabled_reason: string | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  /** Secrets still signing during a rotation's grace period, sealed: [{ sealed, expires_at }]. */
  previous_secrets: unknown;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  location_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  kind: 'event' | 'test';
  status: 'pending' | 'succeeded' | 'failed' | 'dead';
  /** Attempts in the current round (0-6): a retry or recovery starts a new round at 0. */
  attempts: number;
  /** Attempts ever made, across rounds (numbers the attempt log). */
  total_attempts: number;
  next_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  /** The stable category of last_error (CHECK-constrained to DeliveryErrorCode). */
  last_error_code: DeliveryErrorCode | null;
  payload: unknown;
  /** Set while a worker attempts the delivery (its lease). */
  locked_until?: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column but deleted_at. */
const SUBSCRIPTION_COLUMNS: string[] = [
  'id', 'location_id', 'url', 'events', 'description', 'secret_sealed', 'status', 'disabled_reason',
  'failing_since', 'last_success_at', 'last_failure_at', 'previous_secrets', 'created_at', 'updated_at',
];

export function webhooksQuery(db: Db, scope: Scope) {
  return db<WebhookRow>('webhook_subscriptions').where('location_id', scope.locationId).whereNull('deleted_at').select(SUBSCRIPTION_COLUMNS);
}

export async function findWebhook(db: Db, scope: Scope, id: string): Promise<WebhookRow | undefined> {
  return (await webhooksQuery(db, scope).where('id', id).first()) as WebhookRow | undefined;
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db('webhook_subscriptions').insert({ ...row, events: JSON.stringify(row.events), previous_secrets: JSON.stringify(row.previous_secrets ?? []) });
}

export async function updateWebhookRow(
  db: Db,
  scope: Scope,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'updated_at' | 'status' | 'disabled_reason' | 'failing_since'>>,
): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.events) values.events = JSON.stringify(patch.events);
  await db('webhook_subscriptions').where({ id, location_id: scope.locationId }).whereNull('deleted_at').update(values);
}

/** Soft delete: the row stays for the delivery history, its secret is wiped. */
export async function markWebhookDeleted(db: Db, scope: Scope, id: string, now: Date): Promise<number> {
  return db('webhook_subscriptions')
    .where({ id, location_id: scope.locationId })
    .whereNull('deleted_at')
    .update({ deleted_at: now, updated_at: now, secret_sealed: null, previous_secrets: '[]' });
}

/** Pending and failed deliveries of the subscription end as `dead`: no retry will run. */
export async function cancelOpenDeliveries(db: Db, scope: Scope, subscriptionId: string, now: Date, reason: string): Promise<number> {
  return db('webhook_deliveries')
    .where({ subscription_id: subscriptionId, location_id: scope.locationId })
    .whereIn('status', ['pending', 'failed'])
    // The lease goes too: an attempt in flight cannot record over the cancellation.
    .update({ status: 'dead', next_attempt_at: null, last_error: reason, updated_at: now, locked_by: null, lease_id: null, locked_until: null });
}

export function deliveriesQuery(db: Db, scope: Scope, subscriptionId: string) {
  return db<DeliveryRow>('webhook_deliveries').where({ location_id: scope.locationId, subscription_id: subscriptionId });
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db('webhook_deliveries').insert({ ...row, payload: JSON.stringify(row.payload) });
}

export async function findDelivery(db: Db, scope: Scope, subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
  return (await deliveriesQuery(db, scope, subscriptionId).where('id', id).first()) as DeliveryRow | undefined;
}

export interface AttemptRow {
  id: string;
  location_id: string;
  delivery_id: string;
  attempt_number: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  error_code: DeliveryErrorCode | null;
  duration_ms: number;
  /** When the request was sent. */
  created_at: Date;
}

export function attemptsQuery(db: Db, scope: Scope, deliveryId: string) {
  return db<AttemptRow>('webhook_delivery_attempts').where({ location_id: scope.locationId, delivery_id: deliveryId }).select('*');
}

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await db('webhook_delivery_attempts').insert(row);
}

/**
 * Event deliveries of the subscription back to `pending`, due at `now`, attempts reset. A delivery
 * being attempted right now (its lease runs) is left alone, so no two attempts of it are ever in
 * flight at once; an expired lease is voided, so its late outcome cannot record over the new round.
 * By ids, or every one in `statuses` created in [since, until). Returns how many.
 */
export async function requeueDeliveries(
  db: Db,
  scope: Scope,
  subscriptionId: string,
  now: Date,
  which: { ids: string[] } | { since: Date; until: Date | null; statuses: DeliveryRow['status'][] },
): Promise<number> {
  const q = db('webhook_deliveries')
    .where({ location_id: scope.locationId, subscription_id: subscriptionId, kind: 'event' })
    .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<=', now));
  if ('ids' in which) q.whereIn('id', which.ids);
  else {
    q.whereIn('status', which.statuses).where('created_at', '>=', which.since);
    if (which.until) q.where('created_at', '<', which.until);
  }
  return q.update({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now, locked_by: null, lease_id: null, locked_until: null });
}

/** The location's name, for the test event's message. */
export async function locationName(db: Db, scope: Scope): Promise<string | undefined> {
  return (await db('locations').where({ id: scope.locationId }).first('name'))?.name;
}
