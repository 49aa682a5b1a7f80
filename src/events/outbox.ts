import type { Knex } from 'knex';
import type { components } from '../../generated/schema';
import type { Clock } from '../lib/clock';
import { newEventId } from '../lib/ids';

type S = components['schemas'];
export type EventType = S['EventType'];

/** The `data` of each event type, straight from the contract's webhook section. */
export interface EventDataMap {
  'deal.created': S['DealCreatedEventData'];
  'deal.stage_changed': S['DealStageChangedEventData'];
  'deal.funded': S['DealFundedEventData'];
  'deal.dead': S['DealDeadEventData'];
  'submission.sent': S['SubmissionSentEventData'];
  'submission.responded': S['SubmissionRespondedEventData'];
  'offer.received': S['OfferReceivedEventData'];
  'offer.primary_changed': S['OfferPrimaryChangedEventData'];
  'offer.accepted': S['OfferAcceptedEventData'];
  'document.uploaded': S['DocumentUploadedEventData'];
  'document.processed': S['DocumentProcessedEventData'];
  'document_request.fulfilled': S['DocumentRequestFulfilledEventData'];
  'statement.analyzed': S['StatementAnalyzedEventData'];
  'advance.renewal_ready': S['AdvanceRenewalReadyEventData'];
  'advance.status_changed': S['AdvanceStatusChangedEventData'];
  'business.created': S['BusinessCreatedEventData'];
  'person.created': S['PersonCreatedEventData'];
  'webhook.test': S['WebhookTestEventData'];
}

export interface StoredEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  created_at: string;
  location_id: string;
  data: EventDataMap[T];
}

/**
 * Writes an event to the outbox in the caller's transaction: the change and its event commit
 * together or not at all. Delivery reads the outbox later.
 */
export async function recordEvent<T extends EventType>(trx: Knex.Transaction | Knex, clock: Clock, locationId: string, type: T, data: EventDataMap[T]): Promise<StoredEvent<T>> {
  const { query, event } = eventInsert(trx, clock, locationId, type, data);
  await query;
  return event;
}

/** The outbox INSERT of one event, not yet run (for `writeTogether`), and the event as it will be stored. */
export function eventInsert<T extends EventType>(db: Knex.Transaction | Knex, clock: Clock, locationId: string, type: T, data: EventDataMap[T]): { query: Knex.QueryBuilder; event: StoredEvent<T> } {
  const event = { id: newEventId(), type, created_at: clock.now(), location_id: locationId, data };
  return { query: db('events').insert({ ...event, data: JSON.stringify(data) }), event: { ...event, created_at: event.created_at.toISOString() } };
}

/** The envelope as delivered: `{ id, type, created_at, location_id, data }`. */
export function toEnvelope(row: { id: string; type: string; created_at: Date | string; location_id: string; data: unknown }): StoredEvent {
  return { id: row.id, type: row.type as EventType, created_at: new Date(row.created_at).toISOString(), location_id: row.location_id, data: row.data as never };
}
