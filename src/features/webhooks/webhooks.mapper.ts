import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.repository';

type S = components['schemas'];
export type Webhook = S['WebhookSubscription'];
export type WebhookWithSecret = S['WebhookSubscriptionWithSecret'];
export type WebhookDelivery = S['WebhookDelivery'];
export type WebhookDeliveryAttempt = S['WebhookDeliveryAttempt'];

/** Row -> wire shape, field by field. The sealed secret is not among them. */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as Webhook['events'],
    description: row.description,
    status: row.status as Webhook['status'],
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The creation response only: the subscription plus its secret in the clear. */
export function toWebhookWithSecret(row: WebhookRow, secret: string): WebhookWithSecret {
  const w = toWebhook(row);
  return {
    id: w.id, url: w.url, events: w.events, description: w.description, status: w.status, disabled_reason: w.disabled_reason,
    failing_since: w.failing_since, last_success_at: w.last_success_at, last_failure_at: w.last_failure_at,
    secret, created_at: w.created_at, updated_at: w.updated_at,
  };
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookDelivery['event_type'],
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: iso(row.next_attempt_at),
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    last_error_code: row.last_error_code ?? null,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

export function toAttempt(row: AttemptRow): WebhookDeliveryAttempt {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    attempt_number: row.attempt_number,
    attempted_at: isoRequired(row.created_at),
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    error_code: row.error_code ?? null,
    duration_ms: row.duration_ms,
  };
}
