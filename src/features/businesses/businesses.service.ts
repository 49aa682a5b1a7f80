import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { activityInsert, recordActivity } from '../../events/activity';
import { eventInsert } from '../../events/outbox';
import { writeTogether } from '../../db/together';
import { hasScope } from '../../http/access';
import { conflict, forbidden, invalid, notFound } from '../../http/errors';
import { wireTimes } from '../../db/wire-time';
import { paginate } from '../../http/pagination';
import type { TimesAsText, WireTimes } from '../../lib/format';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { phoneParam } from '../../lib/phone';
import { listAdvanceSummariesForBusiness } from '../advances/advances.service';
import { listDealsForBusiness } from '../deals/deals.service';
import { listBusinessPeople } from '../people/people.service';
import { toBusiness, toBusinessSnapshot, type Business } from './businesses.mapper';
import { businessesQuery, businessInsert, businessStats, findBusiness, findBusinessByEin, updateBusinessRow, type BusinessRow, type Db } from './businesses.repository';

type CreateBody = components['schemas']['CreateBusinessRequest'];
type UpdateBody = components['schemas']['UpdateBusinessRequest'];
type ListQuery = NonNullable<operations['listBusinesses']['parameters']['query']>;
type BusinessWithIncludes = components['schemas']['BusinessWithIncludes'];

const DUPLICATE = (ein: string) => conflict(`A business with EIN ${ein} already exists in this location`, 'duplicate_business', 'ein');
const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

/** EINs are stored as NN-NNNNNNN whatever the input format. */
export const normalizeEin = (ein: string | null | undefined) => (ein ? `${ein.replace(/\D/g, '').slice(0, 2)}-${ein.replace(/\D/g, '').slice(2)}` : null);


export async function withStats(db: Db, scope: Scope, rows: TimesAsText<BusinessRow>[]): Promise<Business[]> {
  const stats = await businessStats(db, scope, rows.map((r) => r.id));
  return rows.map((r) => toBusiness(r, stats.get(r.id)!));
}

export async function getBusinessOr404(db: Db, scope: Scope, id: string): Promise<BusinessRow> {
  const row = await findBusiness(db, scope, id);
  if (!row) throw notFound('business', id);
  return row;
}

/**
 * The business, its activity line and its `business.created` outbox event are one statement
 * (`writeTogether`): one round trip, atomic on its own, and inside the caller's transaction when there
 * is one (an Idempotency-Key's). A new business has no deals, advances or people: its figures are
 * known without reading them back.
 */
export async function createBusiness(deps: Deps, scope: Scope, body: CreateBody): Promise<Business> {
  const now = deps.clock.now();
  const ein = normalizeEin(body.ein);
  const db = deps.db.knex;
  const twin = ein ? await findBusinessByEin(db, scope, ein) : undefined;
  if (ein && twin) throw conflict(`A business with EIN ${ein} already exists in this location (${twin.id})`, 'duplicate_business', 'ein');
  const row: BusinessRow = {
    id: newId('biz', now.getTime()),
    location_id: scope.locationId,
    legal_name: body.legal_name.trim(),
    dba: body.dba ?? null,
    ein,
    entity_type: body.entity_type ?? null,
    industry: body.industry ?? null,
    address: body.address ?? null,
    city: body.city ?? null,
    state: body.state ?? null,
    zip: body.zip ?? null,
    phone: phoneParam(body.phone, 'phone'),
    email: body.email ?? null,
    business_start_date: body.business_start_date ?? null,
    status: body.status ?? 'active',
    tags: body.tags ?? [],
    custom_data: body.custom_data ?? {},
    created_at: now,
    updated_at: now,
  };
  const activity = activityInsert(db, deps.clock, scope, {
    businessId: row.id, entityType: 'business', entityId: row.id, entityName: row.legal_name,
    action: 'business.created', description: `Business ${row.legal_name} created`,
  });
  const event = eventInsert(db, deps.clock, scope.locationId, 'business.created', { business_id: row.id, business: toBusinessSnapshot(row) });
  // Two concurrent creates with one EIN: the unique index decides.
  const mapError = (e: unknown) => (ein && isUniqueViolation(e) ? DUPLICATE(ein) : e);
  try {
    // The last work of the operation: with an Idempotency-Key it goes out with the remembered answer.
    await writeTogether(db, [businessInsert(db, { ...row, created_by_user_id: scope.userId }), activity.query, event.query], { final: true, mapError });
  } catch (e) {
    throw mapError(e);
  }
  return toBusiness(row, { deal_count: 0, lifetime_funded: 0, active_advances: 0, outstanding_balance: 0, last_activity_at: activity.createdAt, primary_contact: null });
}

export async function listBusinesses(deps: Deps, scope: Scope, query: ListQuery) {
  const q = businessesQuery(deps.db.knex, scope).select('businesses.*');
  if (query.status) q.where('businesses.status', query.status);
  if (query.tag) q.whereRaw('businesses.tags @> ?::jsonb', [JSON.stringify([query.tag])]);
  if (query.search) {
    const term = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const digits = query.search.replace(/\D/g, '');
    q.where((w) => {
      w.whereILike('businesses.legal_name', term).orWhereILike('businesses.dba', term).orWhereILike('businesses.email', term);
      if (digits.length >= 4) w.orWhereRaw(`regexp_replace(coalesce(businesses.ein, ''), '\\D', '', 'g') like ?`, [`%${digits}%`]).orWhere('businesses.phone', 'like', `%${digits}%`);
    });
  }
  // Timestamps as wire text straight from the driver (src/db/wire-time.ts): no Date per value.
  const page = await paginate<WireTimes<BusinessRow>>(wireTimes(q), { key: deps.cursorKey, list: 'businesses', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'businesses.created_at', idColumn: 'businesses.id' });
  return { data: await withStats(deps.db.knex, scope, page.rows), meta: page.meta };
}

const INCLUDES = ['people', 'deals', 'advances'] as const;
type Include = (typeof INCLUDES)[number];
const INCLUDE_SCOPE: Record<Include, string> = { people: 'people:read', deals: 'deals:read', advances: 'advances:read' };

/** `include` as a set of names; each embedded list is guarded like its own endpoint. */
function parseIncludes(scope: Scope, include: string | undefined): Set<Include> {
  const wanted = new Set<Include>();
  for (const part of (include ?? '').split(',')) {
    const name = part.trim();
    if (!name) continue;
    if (!(INCLUDES as readonly string[]).includes(name)) throw invalid(`include may name only ${INCLUDES.join(', ')}`, 'include');
    wanted.add(name as Include);
  }
  for (const name of wanted) {
    if (!hasScope(scope, INCLUDE_SCOPE[name])) throw forbidden(`include=${name} needs the ${INCLUDE_SCOPE[name]} scope`, 'missing_scope', INCLUDE_SCOPE[name]);
  }
  if (wanted.has('advances') && scope.role === 'user') throw forbidden('Role user has no access to advances (include=advances)', 'role_not_allowed', 'include');
  return wanted;
}

export async function getBusiness(deps: Deps, scope: Scope, id: string, include?: string): Promise<BusinessWithIncludes> {
  const wanted = parseIncludes(scope, include);
  const db = deps.db.knex;
  const row = await getBusinessOr404(db, scope, id);
  const out: BusinessWithIncludes = (await withStats(db, scope, [row]))[0];
  if (wanted.has('people')) out.people = await listBusinessPeople(db, scope, id);
  if (wanted.has('deals')) out.deals = await listDealsForBusiness(db, scope, id, 100, deps.clock.now());
  if (wanted.has('advances')) out.advances = await listAdvanceSummariesForBusiness(db, scope, id);
  return out;
}

export async function updateBusiness(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Business> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getBusinessOr404(trx, scope, id);
    const patch: Partial<BusinessRow> = {};
    // Only sent fields change; null clears an optional field; tags and custom_data are replaced whole.
    for (const [k, v] of Object.entries(body) as [keyof UpdateBody, unknown][]) {
      if (v === undefined) continue;
      (patch as Record<string, unknown>)[k] = v;
    }
    if (body.ein !== undefined) {
      const ein = normalizeEin(body.ein);
      patch.ein = ein;
      const twin = ein ? await findBusinessByEin(trx, scope, ein, id) : undefined;
      if (ein && twin) throw conflict(`A business with EIN ${ein} already exists in this location (${twin.id})`, 'duplicate_business', 'ein');
    }
    if (body.phone !== undefined) patch.phone = phoneParam(body.phone, 'phone');
    if (typeof patch.legal_name === 'string') patch.legal_name = patch.legal_name.trim();
    const fields = Object.keys(patch);
    patch.updated_at = deps.clock.now();
    try {
      await updateBusinessRow(trx, scope, id, patch);
    } catch (e) {
      // Two concurrent changes to one EIN: the unique index decides.
      if (patch.ein && isUniqueViolation(e)) throw DUPLICATE(patch.ein);
      throw e;
    }
    const row = { ...existing, ...patch } as BusinessRow;
    await recordActivity(trx, deps.clock, scope, {
      businessId: row.id, entityType: 'business', entityId: row.id, entityName: row.legal_name,
      action: 'business.updated', description: `Business ${row.legal_name} updated (${fields.join(', ')})`,
      data: { fields },
    });
    return (await withStats(trx, scope, [row]))[0];
  });
}
