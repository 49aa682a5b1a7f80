import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { normalizePhone } from '../../lib/phone';
import { toBusiness, toBusinessSnapshot, type Business } from './businesses.mapper';
import { businessesQuery, businessStats, findBusiness, findBusinessByEin, insertBusiness, updateBusinessRow, type BusinessRow, type Db } from './businesses.repository';

type CreateBody = components['schemas']['CreateBusinessRequest'];
type UpdateBody = components['schemas']['UpdateBusinessRequest'];
type ListQuery = NonNullable<operations['listBusinesses']['parameters']['query']>;

/** EINs are stored as NN-NNNNNNN whatever the input format. */
export const normalizeEin = (ein: string | null | undefined) => (ein ? `${ein.replace(/\D/g, '').slice(0, 2)}-${ein.replace(/\D/g, '').slice(2)}` : null);

function phoneOrThrow(phone: string | null | undefined): string | null {
  if (phone == null || phone === '') return null;
  const n = normalizePhone(phone);
  if (!n) throw invalid('phone must be a phone number (at least 8 digits)', 'phone');
  return n;
}

export async function withStats(db: Db, scope: Scope, rows: BusinessRow[]): Promise<Business[]> {
  const stats = await businessStats(db, scope, rows.map((r) => r.id));
  return rows.map((r) => toBusiness(r, stats.get(r.id)!));
}

export async function getBusinessOr404(db: Db, scope: Scope, id: string): Promise<BusinessRow> {
  const row = await findBusiness(db, scope, id);
  if (!row) throw notFound('business', id);
  return row;
}

export async function createBusiness(deps: Deps, scope: Scope, body: CreateBody): Promise<Business> {
  const now = deps.clock.now();
  const ein = normalizeEin(body.ein);
  return deps.db.knex.transaction(async (trx) => {
    if (ein && (await findBusinessByEin(trx, scope, ein))) {
      throw conflict(`A business with EIN ${ein} already exists in this location`, 'duplicate_business', 'ein');
    }
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
      phone: phoneOrThrow(body.phone),
      email: body.email ?? null,
      business_start_date: body.business_start_date ?? null,
      status: body.status ?? 'active',
      tags: body.tags ?? [],
      custom_data: body.custom_data ?? {},
      created_at: now,
      updated_at: now,
    };
    try {
      await insertBusiness(trx, { ...row, created_by_user_id: scope.userId });
    } catch (e) {
      // Two concurrent creates with one EIN: the unique index decides.
      if ((e as { code?: string }).code === '23505') throw conflict(`A business with EIN ${ein} already exists in this location`, 'duplicate_business', 'ein');
      throw e;
    }
    await recordActivity(trx, deps.clock, scope, {
      businessId: row.id, entityType: 'business', entityId: row.id, entityName: row.legal_name,
      action: 'business.created', description: `Business ${row.legal_name} created`,
    });
    await recordEvent(trx, deps.clock, scope.locationId, 'business.created', { business_id: row.id, business: toBusinessSnapshot(row) });
    return (await withStats(trx, scope, [row]))[0];
  });
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
  const page = await paginate<BusinessRow>(q, { key: deps.cursorKey, list: 'businesses', limit: query.limit, cursor: query.cursor, createdAtColumn: 'businesses.created_at', idColumn: 'businesses.id' });
  return { data: await withStats(deps.db.knex, scope, page.rows), meta: page.meta };
}

export async function getBusiness(deps: Deps, scope: Scope, id: string): Promise<Business> {
  const row = await getBusinessOr404(deps.db.knex, scope, id);
  return (await withStats(deps.db.knex, scope, [row]))[0];
}

export async function updateBusiness(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Business> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getBusinessOr404(trx, scope, id);
    const patch: Partial<BusinessRow> = {};
    // Only sent fields change; tags and custom_data are replaced whole.
    for (const [k, v] of Object.entries(body) as [keyof UpdateBody, unknown][]) {
      if (v === undefined) continue;
      (patch as Record<string, unknown>)[k] = v;
    }
    if ('ein' in body) {
      patch.ein = normalizeEin(body.ein as string | null);
      if (patch.ein && (await findBusinessByEin(trx, scope, patch.ein, id))) {
        throw conflict(`A business with EIN ${patch.ein} already exists in this location`, 'duplicate_business', 'ein');
      }
    }
    if ('phone' in body) patch.phone = phoneOrThrow(body.phone as string | null);
    if (typeof patch.legal_name === 'string') patch.legal_name = patch.legal_name.trim();
    patch.updated_at = deps.clock.now();
    await updateBusinessRow(trx, scope, id, patch);
    const row = { ...existing, ...patch } as BusinessRow;
    return (await withStats(trx, scope, [row]))[0];
  });
}
