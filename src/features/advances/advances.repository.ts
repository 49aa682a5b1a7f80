import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export type AdvanceStatus = 'on-track' | 'missed-payments' | 'defaulted' | 'paid-off';

export interface AdvanceRow {
  id: string;
  location_id: string;
  deal_id: string;
  business_id: string;
  lender_id: string;
  offer_id: string | null;
  status: AdvanceStatus;
  funded_amount: number;
  factor_rate: number;
  term: number;
  payment_frequency: string;
  payment_amount: number;
  payback_amount: number;
  paid_amount: number;
  payments_made: number;
  position: number;
  renewal_threshold_override: number | null;
  renewal_ready_notified_at: Date | null;
  funded_at: Date;
  first_payment_date: string;
  actual_payoff_date: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Names and the location default threshold an advance shows, read at read time. */
export interface AdvanceContext {
  business_name: string;
  lender_name: string;
  location_threshold: number;
}

export function advancesQuery(db: Db, scope: Scope) {
  return db<AdvanceRow>('advances').where('advances.location_id', scope.locationId);
}

export async function findAdvance(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<AdvanceRow | undefined> {
  const q = advancesQuery(db, scope).where('advances.id', id).first('advances.*');
  if (opts.forUpdate) q.forUpdate();
  return q;
}

export async function insertAdvance(db: Db, row: AdvanceRow): Promise<void> {
  await db('advances').insert(row);
}

export async function updateAdvanceRow(db: Db, scope: Scope, id: string, patch: Partial<AdvanceRow>): Promise<void> {
  await db('advances').where({ id, location_id: scope.locationId }).update(patch);
}

export async function lenderName(db: Db, scope: Scope, lenderId: string): Promise<string> {
  const row = await db('lenders').where({ id: lenderId, location_id: scope.locationId }).first('name');
  return row?.name ?? 'Lender';
}

/** Sets renewal_ready_notified_at unless already set; true when this call set it (so two writers cannot both notify). */
export async function markRenewalNotified(db: Db, scope: Scope, id: string, now: Date): Promise<boolean> {
  const n = await db('advances').where({ id, location_id: scope.locationId }).whereNull('renewal_ready_notified_at').update({ renewal_ready_notified_at: now });
  return n > 0;
}

/** The location's default renewal threshold (percent paid). */
export async function locationThreshold(db: Db, scope: Scope): Promise<number> {
  const row = await db('locations').where('id', scope.locationId).first('renewal_threshold');
  return Number(row?.renewal_threshold ?? 50);
}

/**
 * SQL for "renewal ready" exactly as the mapper computes it: percent_paid (rounded to two decimals)
 * at or above the effective threshold, and not paid off. `?` is the location default.
 */
export const RENEWAL_READY_SQL = `(advances.status <> 'paid-off' and advances.payback_amount > 0 and round(advances.paid_amount * 100 / advances.payback_amount, 2) >= coalesce(advances.renewal_threshold_override, ?))`;

export async function advanceContexts(db: Db, scope: Scope, rows: AdvanceRow[]): Promise<Map<string, AdvanceContext>> {
  const out = new Map<string, AdvanceContext>();
  if (!rows.length) return out;
  const threshold = await locationThreshold(db, scope);
  const businesses = new Map<string, string>(
    (await db('businesses').where('location_id', scope.locationId).whereIn('id', [...new Set(rows.map((r) => r.business_id))]).select('id', 'legal_name')).map(
      (b: { id: string; legal_name: string }) => [b.id, b.legal_name],
    ),
  );
  const lenders = new Map<string, string>(
    (await db('lenders').where('location_id', scope.locationId).whereIn('id', [...new Set(rows.map((r) => r.lender_id))]).select('id', 'name')).map(
      (l: { id: string; name: string }) => [l.id, l.name],
    ),
  );
  for (const r of rows) {
    out.set(r.id, { business_name: businesses.get(r.business_id) ?? '', lender_name: lenders.get(r.lender_id) ?? '', location_threshold: threshold });
  }
  return out;
}
