import type { Knex } from 'knex';
import type { Clock } from '../lib/clock';
import { AccountError } from '../features/accounts/accounts.service';
import { toDelivery, toWebhook } from '../features/webhooks/webhooks.mapper';
import type { DeliveryRow, WebhookRow } from '../features/webhooks/webhooks.repository';
import { retryWebhookDelivery } from '../features/webhooks/webhooks.service';
import type { Scope } from '../http/types';

// Operator commands for webhook delivery (support work across locations, no API key needed):
//   webhook enable ID                          re-enable a disabled subscription (as PATCH status active)
//   delivery list --webhook ID [--status S] [--limit N]
//   delivery retry ID                          as POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry

export class WebhookUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
export type WebhookCommand = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;

const STATUSES = ['pending', 'succeeded', 'failed', 'dead'] as const;

function operatorScope(locationId: string): Scope {
  return { locationId, role: 'admin', userId: null, scopes: [] };
}

async function subscription(knex: Knex, id: string): Promise<WebhookRow> {
  const row = (await knex('webhook_subscriptions').where({ id }).whereNull('deleted_at').first()) as WebhookRow | undefined;
  if (!row) throw new AccountError(`No webhook subscription ${id}`);
  return row;
}

export const WEBHOOK_COMMANDS: Record<string, WebhookCommand> = {
  'webhook list': (v) => {
    const location = v.location;
    if (typeof location !== 'string' || !location) throw new WebhookUsageError('--location is required');
    return async (knex) => {
      if (!(await knex('locations').where({ id: location }).first('id'))) throw new AccountError(`No location ${location}`);
      const rows = (await knex('webhook_subscriptions').where({ location_id: location }).whereNull('deleted_at').orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }])) as WebhookRow[];
      return { data: rows.map(toWebhook) }; // never the signing secret
    };
  },
  'webhook enable': (_, p) => {
    const id = p[0];
    if (!id) throw new WebhookUsageError('webhook id is required');
    return async (knex, clock) => {
      const row = await subscription(knex, id);
      if (row.status === 'active') return toWebhook(row);
      const patch = { status: 'active', disabled_reason: null, failing_since: null, updated_at: clock.now() };
      await knex('webhook_subscriptions').where({ id }).update(patch);
      return toWebhook({ ...row, ...patch });
    };
  },
  'delivery list': (v) => {
    const webhook = v.webhook;
    if (typeof webhook !== 'string' || !webhook) throw new WebhookUsageError('--webhook is required');
    const status = v.status;
    if (status !== undefined && !STATUSES.includes(status as (typeof STATUSES)[number])) {
      throw new WebhookUsageError(`--status must be one of ${STATUSES.join(', ')}`);
    }
    const limit = v.limit === undefined ? 50 : Number(v.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new WebhookUsageError('--limit must be 1-1000');
    return async (knex) => {
      await subscription(knex, webhook);
      const q = knex('webhook_deliveries').where({ subscription_id: webhook }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
      if (typeof status === 'string') q.where({ status });
      return { data: ((await q) as DeliveryRow[]).map(toDelivery) };
    };
  },
  'delivery retry': (_, p) => {
    const id = p[0];
    if (!id) throw new WebhookUsageError('delivery id is required');
    return async (knex, clock) => {
      const d = (await knex('webhook_deliveries').where({ id }).first('subscription_id', 'location_id')) as { subscription_id: string; location_id: string } | undefined;
      if (!d) throw new AccountError(`No webhook delivery ${id}`);
      return retryWebhookDelivery({ db: { knex }, clock }, operatorScope(d.location_id), d.subscription_id, id);
    };
  },
};

export const WEBHOOK_OPTIONS = { webhook: { type: 'string' }, limit: { type: 'string' } } as const;

export const WEBHOOK_USAGE = `  webhook list --location ID                      the location's webhook subscriptions (status, events; never the secret)
  webhook enable ID                               re-enable a disabled webhook subscription
  delivery list --webhook ID [--status pending|succeeded|failed|dead] [--limit N]
  delivery retry ID                               send a delivery again now (dead ones included)`;
