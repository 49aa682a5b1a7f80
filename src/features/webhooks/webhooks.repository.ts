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
  attempts: number;
  next_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  /** The stable category of last_error (CHECK-constrained to DeliveryErrorCode). */
  last_error_code: DeliveryErrorCode | null;
  payload: unknown;
  created_at: Date;
  updated_at: Date;
}

/** Every column but deleted_at. */
const SUBSCRIPTION_COLUMNS: string[] = [
  'id', 'location_id', 'url', 'events', 'description', 'secret_sealed', 'status', 'disabled_reason',
  'failing_since', 'last_success_at', 'last_failure_at', 'created_at', 'updated_at',
];

export function webhooksQuery(db: Db, scope: Scope) {
  return db<WebhookRow>('webhook_subscriptions').where('location_id', scope.locationId).whereNull('deleted_at').select(SUBSCRIPTION_COLUMNS);
}

export async function findWebhook(db: Db, scope: Scope, id: string): Promise<WebhookRow | undefined> {
  return (await webhooksQuery(db, scope).where('id', id).first()) as WebhookRow | undefined;
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db('webhook_subscriptions').insert({ ...row, events: JSON.stringify(row.events) });
}

export async function updateWebhookRow(db: Db, scope: Scope, id: string, patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'updated_at'>>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.events) values.events = JSON.stringify(patch.events);
  await db('webhook_subscriptions').where({ id, location_id: scope.locationId }).whereNull('deleted_at').update(values);
}

/** Soft delete: the row stays for the delivery history, its secret is wiped. */
export async function markWebhookDeleted(db: Db, scope: Scope, id: string, now: Date): Promise<number> {
  return db('webhook_subscriptions')
    .where({ id, location_id: scope.locationId })
    .whereNull('deleted_at')
    .update({ deleted_at: now, updated_at: now, secret_sealed: null });
}

/** Pending and failed deliveries of the subscription end as `dead`: no retry will run. */
export async function cancelOpenDeliveries(db: Db, scope: Scope, subscriptionId: string, now: Date, reason: string): Promise<number> {
  return db('webhook_deliveries')
    .where({ subscription_id: subscriptionId, location_id: scope.locationId })
    .whereIn('status', ['pending', 'failed'])
    .update({ status: 'dead', next_attempt_at: null, last_error: reason, updated_at: now });
}

export function deliveriesQuery(db: Db, scope: Scope, subscriptionId: string) {
  return db<DeliveryRow>('webhook_deliveries').where({ location_id: scope.locationId, subscription_id: subscriptionId });
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db('webhook_deliveries').insert({ ...row, payload: JSON.stringify(row.payload) });
}

/** The location's name, for the test event's message. */
export async function locationName(db: Db, scope: Scope): Promise<string | undefined> {
  return (await db('locations').where({ id: scope.locationId }).first('name'))?.name;
}
