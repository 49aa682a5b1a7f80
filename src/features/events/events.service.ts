import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { toEnvelope } from '../../events/outbox';
import { hasScope } from '../../http/access';
import { notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { eventsQuery, findEvent, type EventRow } from './events.repository';

type S = components['schemas'];
type StoredEventType = S['StoredEventType'];
type ListQuery = NonNullable<operations['listEvents']['parameters']['query']>;

// The event log: the outbox rows of the caller's location of the last 30 days, exactly as webhooks
// deliver them (toEnvelope). Which types a credential sees follows the contract (GET /v1/events):
// `webhooks:manage` sees every type, otherwise each type needs the scope that reads its resource.
// A type the credential cannot read is simply absent: filtered out of lists, 404 on get.

export const EVENT_LOG_DAYS = 30;
const WINDOW_MS = EVENT_LOG_DAYS * 24 * 3600_000;

/** The reading scope of each stored type; a type added to the contract fails `tsc` until listed. */
export const READ_SCOPE: Record<StoredEventType, string> = {
  'deal.created': 'deals:read',
  'deal.stage_changed': 'deals:read',
  'deal.funded': 'deals:read',
  'deal.dead': 'deals:read',
  'submission.sent': 'deals:read',
  'submission.responded': 'deals:read',
  'offer.received': 'offers:read',
  'offer.primary_changed': 'offers:read',
  'offer.accepted': 'offers:read',
  'document.uploaded': 'documents:read',
  'document.processed': 'documents:read',
  'document_request.fulfilled': 'documents:read',
  'statement.analyzed': 'documents:read',
  'advance.renewal_ready': 'advances:read',
  'advance.status_changed': 'advances:read',
  'business.created': 'businesses:read',
  'person.created': 'people:read',
};
const STORED_TYPES = Object.keys(READ_SCOPE) as StoredEventType[];

/** The stored types the caller's scopes read (a credential without scopes has every scope). */
export function readableTypes(scope: Pick<Scope, 'scopes'>): StoredEventType[] {
  if (hasScope(scope, 'webhooks:manage')) return STORED_TYPES;
  return STORED_TYPES.filter((t) => hasScope(scope, READ_SCOPE[t]));
}

/** `type` as the validator hands it over: an array, or (defensively) comma-separated text. */
function requestedTypes(type: ListQuery['type'] | string | undefined): string[] | undefined {
  if (type === undefined) return undefined;
  return (Array.isArray(type) ? type : [type]).flatMap((t) => String(t).split(',')).map((t) => t.trim()).filter(Boolean);
}

const since = (deps: Deps) => new Date(deps.clock.now().getTime() - WINDOW_MS);
const toEvent = (row: EventRow) => toEnvelope(row) as unknown as S['Event'];

export async function listEvents(deps: Deps, scope: Scope, query: ListQuery) {
  const readable = readableTypes(scope);
  const asked = requestedTypes(query.type);
  const types = asked ? readable.filter((t) => asked.includes(t)) : readable;
  const q = eventsQuery(deps.db.knex, scope, {
    since: since(deps),
    types,
    createdAfter: query.created_after ? new Date(query.created_after) : undefined,
    createdBefore: query.created_before ? new Date(query.created_before) : undefined,
  });
  const page = await paginate<EventRow>(q, { key: deps.cursorKey, list: 'events', limit: query.limit, cursor: query.cursor });
  return { data: page.rows.map(toEvent), meta: page.meta };
}

export async function getEvent(deps: Deps, scope: Scope, id: string): Promise<S['Event']> {
  const row = await findEvent(deps.db.knex, scope, id, { since: since(deps), types: readableTypes(scope) });
  if (!row) throw notFound('event', id);
  return toEvent(row);
}
