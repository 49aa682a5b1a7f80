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
export async function recordActivity(trx: Knex.Transaction | Knex, clock: Clock, scope: Scope, input: ActivityInput): Promise<void> {
  await activityInsert(trx, clock, scope, input).query;
}

/**
 * The INSERT of one activity line, not yet run (for `writeTogether`, or awaited by recordActivity):
 * the actor's name is read by the statement itself. `createdAt` is the line's time.
 */
export function activityInsert(db: Knex.Transaction | Knex, clock: Clock, scope: Scope, input: ActivityInput): { query: Knex.QueryBuilder; createdAt: Date } {
  const now = clock.now();
  const query = db('activities').insert({
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
    actor_name: scope.userId ? db.raw('(SELECT name FROM users WHERE id = ? AND location_id = ?)', [scope.userId, scope.locationId]) : null,
    data: JSON.stringify(input.data ?? {}),
    created_at: now,
  });
  return { query, createdAt: now };
}
