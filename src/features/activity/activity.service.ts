import type { operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { getBusinessOr404 } from '../businesses/businesses.service';
import { toActivityEntry } from './activity.mapper';
import { businessActivityQuery, type ActivityRow } from './activity.repository';

// What notes read of a deal through the activity feed's visibility (a feature never imports another's repository).
export { findVisibleDeal, type Db } from './activity.repository';

type ListQuery = NonNullable<operations['listBusinessActivity']['parameters']['query']>;

/** One history of the business, newest first (every deal event, notes, tasks, CRM messages). */
export async function listBusinessActivity(deps: Deps, scope: Scope, businessId: string, query: ListQuery) {
  await getBusinessOr404(deps.db.knex, scope, businessId);
  const page = await paginate<ActivityRow>(businessActivityQuery(deps.db.knex, scope, businessId), {
    key: deps.cursorKey, list: `activity:${businessId}`, limit: query.limit, cursor: query.cursor, filters: query,
    createdAtColumn: 'activities.created_at', idColumn: 'activities.id',
  });
  return { data: page.rows.map(toActivityEntry), meta: page.meta };
}
