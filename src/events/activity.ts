import type { Knex } from 'knex';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import type { Scope } from '../http/types';

export interface ActivityInput {
  businessId: string | null;
  dealId?: string | null;
  /** The last three are the location's settings (the app): no business, so in no business's history. */
  entityType: 'deal' | 'business' | 'note' | 'task' | 'submission' | 'offer' | 'advance' | 'document' | 'api_key' | 'user' | 'oauth_grant';
  entityId: string;
  entityName: string;
  action: string;
  description: string;
  data?: Record<string, unknown>;
}

/** One line of a business's history, written in the same transaction as the change it describes. */
export async function recordActivity(trx: Knex.Transaction, clock: Clock, scope: Scope, input: ActivityInput): Promise<void> {
  const now = clock.now();
  let actorName: string | null = null;
  if (scope.userId) actorName = (await trx('users').where({ id: scope.userId, location_id: scope.locationId }).first('name'))?.name ?? null;
  await trx('activities').insert({
    id: newId('act', now.getTime()),
    location_id: scope.locationId,
    business_id: input.businessId,
    deal_id: input.dealId ?? null,
    entity_type: input.entityType,
    entity_id: input.entityId,
    entity_name: input.entityName,
    action: input.action,
    description: input.description,
    actor_user_id: scope.userId,
    actor_name: actorName,
    data: JSON.stringify(input.data ?? {}),
    created_at: now,
  });
}
