import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleBusinesses, visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface BusinessRow {
  id: string;
  location_id: string;
  legal_name: string;
  dba: string | null;
  ein: string | null;
  entity_type: string | null;
  industry: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  business_start_date: string | null;
  status: string;
  tags: string[];
  custom_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The business's figures, true at read time. */
export interface BusinessStats {
  deal_count: number;
  lifetime_funded: number;
  active_advances: number;
  outstanding_balance: number;
  last_activity_at: Date | null;
  primary_contact: { id: string; first_name: string; last_name: string; email: string | null; phone: string | null } | null;
}

export function businessesQuery(db: Db, scope: Scope) {
  return visibleBusinesses(db, scope) as Knex.QueryBuilder<BusinessRow, BusinessRow[]>;
}

export async function findBusiness(db: Db, scope: Scope, id: string): Promise<BusinessRow | undefined> {
  return businessesQuery(db, scope).where('businesses.id', id).first();
}

export async function findBusinessByEin(db: Db, scope: Scope, ein: string, exceptId?: string): Promise<BusinessRow | undefined> {
  const q = businessesQuery(db, scope).where('businesses.ein', ein);
  if (exceptId) q.whereNot('businesses.id', exceptId);
  return q.first();
}

/** The INSERT of a new business, not yet run (the service writes it together with its event and activity line). */
export function businessInsert(db: Db, row: BusinessRow & { created_by_user_id: string | null }): Knex.QueryBuilder {
  return db('businesses').insert({ ...row, tags: JSON.stringify(row.tags), custom_data: JSON.stringify(row.custom_data) });
}

export async function updateBusinessRow(db: Db, scope: Scope, id: string, patch: Partial<BusinessRow>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.tags) values.tags = JSON.stringify(patch.tags);
  if (patch.custom_data) values.custom_data = JSON.stringify(patch.custom_data);
  await db('businesses').where({ id, location_id: scope.locationId }).update(values);
}

/** Figures for many businesses in four queries (no N+1 on list pages). */
export async function businessStats(db: Db, scope: Scope, ids: string[]): Promise<Map<string, BusinessStats>> {
  const out = new Map<string, BusinessStats>();
  for (const id of ids) {
    out.set(id, { deal_count: 0, lifetime_funded: 0, active_advances: 0, outstanding_balance: 0, last_activity_at: null, primary_contact: null });
  }
  if (!ids.length) return out;
  // Counted over the deals this caller may see (role user: its own).
  const deals = await visibleDeals(db, scope).whereIn('deals.business_id', ids).groupBy('deals.business_id').select('deals.business_id').count<{ business_id: string; count: number }[]>('* as count');
  for (const d of deals) out.get(d.business_id)!.deal_count = Number(d.count);
  // Role user has no access to advances: its advance figures stay 0.
  const adv = scope.role === 'user' ? [] : await db('advances')
    .where('location_id', scope.locationId)
    .whereIn('business_id', ids)
    .groupBy('business_id')
    .select('business_id')
    .select(db.raw('sum(funded_amount) as funded'))
    .select(db.raw(`sum(case when status <> 'paid-off' then 1 else 0 end) as active`))
    .select(db.raw(`sum(case when status <> 'paid-off' then greatest(payback_amount - paid_amount, 0) else 0 end) as outstanding`));
  for (const a of adv as { business_id: string; funded: number; active: number; outstanding: number }[]) {
    const s = out.get(a.business_id)!;
    s.lifetime_funded = Number(a.funded ?? 0);
    s.active_advances = Number(a.active ?? 0);
    s.outstanding_balance = Number(a.outstanding ?? 0);
  }
  const act = await db('activities').where('location_id', scope.locationId).whereIn('business_id', ids).groupBy('business_id').select('business_id').max('created_at as last');
  for (const a of act as { business_id: string; last: Date }[]) out.get(a.business_id)!.last_activity_at = a.last;
  const contacts = await db('business_people as bp')
    .join('people as p', 'p.id', 'bp.person_id')
    .where('bp.location_id', scope.locationId)
    .whereIn('bp.business_id', ids)
    .where('bp.is_primary_contact', true)
    .select('bp.business_id', 'p.id', 'p.first_name', 'p.last_name', 'p.email', 'p.phone');
  for (const c of contacts) out.get(c.business_id)!.primary_contact = { id: c.id, first_name: c.first_name, last_name: c.last_name, email: c.email, phone: c.phone };
  return out;
}
