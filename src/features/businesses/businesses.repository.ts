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

/** Figures for many businesses in one statement (no N+1 on list pages). */
export async function businessStats(db: Db, scope: Scope, ids: string[]): Promise<Map<string, BusinessStats>> {
  const out = new Map<string, BusinessStats>();
  for (const id of ids) {
    out.set(id, { deal_count: 0, lifetime_funded: 0, active_advances: 0, outstanding_balance: 0, last_activity_at: null, primary_contact: null });
  }
  if (!ids.length) return out;
  // The four figures in one statement (one round trip instead of four: a list page read five): each
  // branch is the aggregate it was, in one row shape (kind, business_id, three numbers, a time, the contact).
  const nulls = (n: number, t: string) => Array.from({ length: n }, () => `null::${t}`).join(', ');
  const contactNulls = nulls(5, 'text');
  // Counted over the deals this caller may see (role user: its own).
  const branches: Knex.QueryBuilder[] = [
    // First, it names the columns; it has no GROUP BY (knex writes the first branch's after the unions).
    db('business_people as bp').join('people as p', 'p.id', 'bp.person_id')
      .where('bp.location_id', scope.locationId).whereIn('bp.business_id', ids).where('bp.is_primary_contact', true)
      .select(db.raw(`'c' as kind, bp.business_id, null::numeric as n1, null::numeric as n2, null::numeric as n3, null::timestamptz as t,
        p.id::text as id, p.first_name::text as first_name, p.last_name::text as last_name, p.email::text as email, p.phone::text as phone`)),
    visibleDeals(db, scope).whereIn('deals.business_id', ids).groupBy('deals.business_id')
      .select(db.raw(`'d', deals.business_id, count(*)::numeric, ${nulls(2, 'numeric')}, null::timestamptz, ${contactNulls}`)),
    db('activities').where('location_id', scope.locationId).whereIn('business_id', ids).groupBy('business_id')
      .select(db.raw(`'l', business_id, ${nulls(3, 'numeric')}, max(created_at), ${contactNulls}`)),
  ];
  // Role user has no access to advances: its advance figures stay 0.
  if (scope.role !== 'user') {
    branches.push(db('advances').where('location_id', scope.locationId).whereIn('business_id', ids).groupBy('business_id')
      .select(db.raw(`'a', business_id, sum(funded_amount)::numeric, sum(case when status <> 'paid-off' then 1 else 0 end)::numeric,
        sum(case when status <> 'paid-off' then greatest(payback_amount - paid_amount, 0) else 0 end)::numeric, null::timestamptz, ${contactNulls}`)));
  }
  const [first, ...rest] = branches;
  const rows = (await first.unionAll(rest, true)) as {
    kind: 'd' | 'a' | 'l' | 'c'; business_id: string; n1: string | number | null; n2: string | number | null; n3: string | number | null; t: Date | null;
    id: string | null; first_name: string | null; last_name: string | null; email: string | null; phone: string | null;
  }[];
  for (const r of rows) {
    const s = out.get(r.business_id)!;
    if (r.kind === 'd') s.deal_count = Number(r.n1);
    else if (r.kind === 'a') {
      s.lifetime_funded = Number(r.n1 ?? 0);
      s.active_advances = Number(r.n2 ?? 0);
      s.outstanding_balance = Number(r.n3 ?? 0);
    } else if (r.kind === 'l') s.last_activity_at = r.t;
    else s.primary_contact = { id: r.id!, first_name: r.first_name!, last_name: r.last_name!, email: r.email, phone: r.phone };
  }
  return out;
}
