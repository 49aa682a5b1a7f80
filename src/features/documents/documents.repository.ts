import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface DocumentRow {
  id: string;
  location_id: string;
  deal_id: string;
  business_id: string;
  filename: string;
  content_type: string;
  declared_size: number | string;
  size_bytes: number | string | null;
  category: string;
  status: 'pending_upload' | 'uploaded' | 'processing' | 'processed' | 'failed';
  source: 'api' | 'app' | 'merchant_portal' | 'email';
  sha256: string | null;
  storage_key: string;
  portal_link_id: string | null;
  document_request_id: string | null;
  created_by_user_id: string | null;
  /** `source` email: the sender (From) and the inbound email that carried the file (migration 0017). */
  received_from_address: string | null;
  received_from_name: string | null;
  inbound_email_id: string | null;
  inbound_message_id: string | null;
  statement: Record<string, unknown> | null;
  failure_code: string | null;
  failure_reason: string | null;
  pages: number | null;
  upload_expires_at: Date;
  uploaded_at: Date | null;
  processed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Documents of the location; role `user` sees only documents on deals it created. */
export function documentsQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  const q = db('documents').where('documents.location_id', scope.locationId).select('documents.*');
  if (scope.role === 'user') q.whereIn('documents.deal_id', visibleDeals(db, scope).select('deals.id'));
  return q;
}

export async function findDocument(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<DocumentRow | undefined> {
  const q = documentsQuery(db, scope).where('documents.id', id);
  if (opts.forUpdate) q.forUpdate();
  return q.first();
}

export async function insertDocument(db: Db, row: DocumentRow): Promise<void> {
  await db('documents').insert({ ...row, statement: row.statement === null ? null : JSON.stringify(row.statement) });
}

export async function updateDocumentRow(db: Db, scope: Scope, id: string, patch: Partial<DocumentRow>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.statement !== undefined) values.statement = patch.statement === null ? null : JSON.stringify(patch.statement);
  await db('documents').where({ id, location_id: scope.locationId }).update(values);
}

/** A document of the deal whose bytes have this SHA-256 (any source, arrived), the oldest: an email's copy of it is not stored again. */
export async function documentWithHash(db: Db, scope: Scope, dealId: string, sha256: string): Promise<DocumentRow | undefined> {
  return db<DocumentRow>('documents')
    .where({ location_id: scope.locationId, deal_id: dealId, sha256 })
    .whereNot('status', 'pending_upload')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
}

/** The deal's bank statements that have arrived (every status but pending_upload), oldest first. */
export async function dealStatements(db: Db, scope: Scope, dealId: string): Promise<DocumentRow[]> {
  return db<DocumentRow>('documents')
    .where({ location_id: scope.locationId, deal_id: dealId, category: 'bank_statement' })
    .whereNot('status', 'pending_upload')
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function documentsByIds(db: Db, scope: Scope, ids: string[]): Promise<DocumentRow[]> {
  if (!ids.length) return [];
  return db<DocumentRow>('documents').where('location_id', scope.locationId).whereIn('id', ids);
}

export interface BatchRow {
  id: string;
  location_id: string;
  deal_id: string;
  document_ids: string[];
  status: 'processing' | 'completed' | 'superseded';
  statements_parsed: number | null;
  summary: Record<string, unknown> | null;
  completed_at: Date | null;
  created_at: Date;
}

/** The deal's latest batch that is not superseded, and its latest completed one. */
export async function latestBatches(db: Db, scope: Scope, dealId: string): Promise<{ latest?: BatchRow; completed?: BatchRow }> {
  const base = () => db<BatchRow>('statement_batches').where({ location_id: scope.locationId, deal_id: dealId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  const latest = await base().whereNot('status', 'superseded').first();
  const completed = latest?.status === 'completed' ? latest : await base().where('status', 'completed').first();
  return { latest, completed };
}

export async function insertBatch(db: Db, row: BatchRow): Promise<void> {
  await db('statement_batches').insert({ ...row, document_ids: JSON.stringify(row.document_ids), summary: row.summary === null ? null : JSON.stringify(row.summary) });
}

export async function supersedeRunningBatches(db: Db, scope: Scope, dealId: string): Promise<void> {
  await db('statement_batches').where({ location_id: scope.locationId, deal_id: dealId, status: 'processing' }).update({ status: 'superseded' });
}

export async function completeBatchRow(db: Db, scope: Scope, id: string, patch: { statements_parsed: number; summary: Record<string, unknown> | null; completed_at: Date }): Promise<void> {
  await db('statement_batches')
    .where({ id, location_id: scope.locationId, status: 'processing' })
    .update({ status: 'completed', statements_parsed: patch.statements_parsed, summary: patch.summary === null ? null : JSON.stringify(patch.summary), completed_at: patch.completed_at });
}

/** Locks the deal's row: batch creation and batch completion of one deal happen one at a time. */
export async function lockDeal(trx: Knex.Transaction, scope: Scope, dealId: string): Promise<void> {
  await trx('deals').where({ id: dealId, location_id: scope.locationId }).forUpdate().first('id');
}

/**
 * Whether the bytes under a storage key may still be written: a document of the key's location
 * (its first segment; the key comes from a signed upload URL) is `pending_upload` under exactly
 * that key. Finalize moves the document to its pinned key, so an old upload URL answers false.
 */
export async function uploadOpen(db: Db, storageKey: string): Promise<boolean> {
  const [locationId, , id] = storageKey.split('/');
  if (!locationId || !id) return false;
  const row = await db('documents').where({ location_id: locationId, id, storage_key: storageKey, status: 'pending_upload' }).first('id');
  return row !== undefined;
}
