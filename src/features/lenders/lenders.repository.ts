import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface LenderRow {
  id: string;
  location_id: string;
  name: string;
  submission_email: string | null;
  cc_emails: string[];
  contact_name: string | null;
  contact_phone: string | null;
  website: string | null;
  notes: string | null;
  tier: string | null;
  submission_method: string;
  active: boolean;
  funder_api_spec_id: string | null;
  api_environment: string | null;
  /** AES-256-GCM (deps.secrets.seal); never leaves the server. */
  api_credentials_encrypted: string | null;
  api_last_verified_at: Date | null;
  api_last_error: string | null;
  criteria: Record<string, unknown>;
  criteria_updated_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

export function lendersQuery(db: Db, scope: Scope) {
  return db<LenderRow>('lenders').where('lenders.location_id', scope.locationId);
}

export async function findLender(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<LenderRow | undefined> {
  const q = lendersQuery(db, scope).where('lenders.id', id);
  if (opts.forUpdate) q.forUpdate();
  return q.first();
}

export async function insertLender(db: Db, row: LenderRow): Promise<void> {
  await db('lenders').insert({ ...row, cc_emails: JSON.stringify(row.cc_emails), criteria: JSON.stringify(row.criteria) });
}

export async function updateLenderRow(db: Db, scope: Scope, id: string, patch: Partial<LenderRow>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.cc_emails) values.cc_emails = JSON.stringify(patch.cc_emails);
  if (patch.criteria) values.criteria = JSON.stringify(patch.criteria);
  await db('lenders').where({ id, location_id: scope.locationId }).update(values);
}
