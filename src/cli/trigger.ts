import type { Knex } from 'knex';
import type { Clock } from '../lib/clock';
import { AccountError } from '../features/accounts/accounts.service';
import { recordEvent, type EventDataMap, type EventType } from '../events/outbox';
import { loadSpec } from '../http/spec';

// `trigger EVENT_TYPE --location ID` (as `stripe trigger`): records one event of that type for the
// location, its `data` the first example of the type in openapi.yaml's `webhooks` section, in the
// ordinary outbox. The worker then fans it out and delivers it like any event: only to the
// location's active subscriptions that receive the type, signed, with the same retries. It is an
// ordinary event (the envelope admits no marker): listed by GET /v1/events, with a new event id
// and the example's data, whose ids (deal_01JD1B4D..., biz_01JD1A2B...) name no record of yours.

export class TriggerUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
export type TriggerCommand = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;

/** Each stored event type with the `data` of its first example in the contract's webhooks section. */
export function sampleEvents(spec: Record<string, unknown> = loadSpec()): Map<string, unknown> {
  const schemas = (spec.components as { schemas: Record<string, { enum?: string[] }> }).schemas;
  const types = schemas.StoredEventType.enum ?? []; // webhook.test is POST /v1/webhooks/{id}/test's
  const webhooks = spec.webhooks as Record<string, { post: { requestBody: { content: Record<string, { examples?: Record<string, { value: { data: unknown } }> }> } } }>;
  const out = new Map<string, unknown>();
  for (const type of types) {
    const examples = webhooks[type]?.post.requestBody.content['application/json']?.examples;
    const first = examples && Object.values(examples)[0];
    if (first) out.set(type, first.value.data);
  }
  return out;
}

export const TRIGGER_COMMANDS: Record<string, TriggerCommand> = {
  trigger: (v, p) => {
    const samples = sampleEvents();
    const type = p[0];
    if (!type || !samples.has(type)) {
      throw new TriggerUsageError(`${type ? `Unknown event type: ${type}` : 'EVENT_TYPE is required'}. Event types: ${[...samples.keys()].join(', ')}`);
    }
    const location = v.location;
    if (typeof location !== 'string' || !location) throw new TriggerUsageError('--location is required');
    return (knex, clock) =>
      knex.transaction(async (trx) => {
        if (!(await trx('locations').where({ id: location }).first('id'))) throw new AccountError(`No location ${location}`);
        const event = await recordEvent(trx, clock, location, type as EventType, structuredClone(samples.get(type)) as EventDataMap[EventType]);
        // Who will get it (the worker decides the same way when it fans the event out).
        const subs = (await trx('webhook_subscriptions').where({ location_id: location, status: 'active' }).whereNull('deleted_at').select('id', 'events')) as { id: string; events: string[] }[];
        const to = subs.filter((s) => !s.events.length || s.events.includes(type)).map((s) => s.id);
        return { event, subscriptions: to, delivered_by: 'the worker (npm run worker, or the embedded start), like every event' };
      });
  },
};

export const TRIGGER_USAGE = `  trigger EVENT_TYPE --location ID               record a sample event of that type (the contract's example data) for the
                                                  location; the worker delivers it, signed, to the location's subscriptions
                                                  that receive the type. An ordinary event: GET /v1/events lists it`;
