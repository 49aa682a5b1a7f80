import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { StorageError } from '../../storage';
import { getVisibleDealOr404 } from '../notes/notes.service';
import { registerMaintenance } from '../../jobs/maintenance';
import { startStatementBatch } from './analysis';
import { MAX_DOCUMENT_BYTES } from './limits';
import { documentSnapshot, toDocument, type Document } from './documents.mapper';
import { documentsQuery, findDocument, insertDocument, updateDocumentRow, type DocumentRow } from './documents.repository';

type CreateBody = components['schemas']['CreateDealDocumentUploadRequest'];
type Upload = components['schemas']['DocumentUpload'];
type ListQuery = NonNullable<operations['listDealDocuments']['parameters']['query']>;

/** An upload URL accepts bytes for 15 minutes. */
export const UPLOAD_TTL_MS = 15 * 60_000;
/** A download URL works for 5 minutes. */
export const DOWNLOAD_TTL_MS = 5 * 60_000;
/** Documents still waiting for their bytes this long after creation are deleted (see sweepAbandonedUploads). */
export const ABANDONED_UPLOAD_MS = 24 * 3600_000;
export { MAX_DOCUMENT_BYTES };
// What filing an email's attachments (inbound/email-documents.ts) writes of documents; a feature never imports another's repository.
export { documentWithHash, insertDocument, lockDeal, type DocumentRow } from './documents.repository';

/**
 * The first bytes every file of a declared type starts with. Finalize refuses bytes of another kind
 * (a PNG declared as a PDF), so analysis and lenders never receive a file that is not what it says.
 * Types without a reliable signature (CSV, HEIC variants) are not checked.
 */
const SIGNATURES: Record<string, Buffer[]> = {
  'application/pdf': [Buffer.from('%PDF-')],
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
  'image/tiff': [Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.from([0x4d, 0x4d, 0x00, 0x2a])],
};

export function contentMatches(contentType: string, head: Buffer): boolean {
  const sigs = SIGNATURES[contentType];
  if (!sigs) return true;
  // A PDF may carry a few bytes of junk before its header (readers look in the first 1024 bytes).
  if (contentType === 'application/pdf') return head.subarray(0, 1024).includes(sigs[0]);
  return sigs.some((s) => head.subarray(0, s.length).equals(s));
}

export const storageKeyOf = (locationId: string, dealId: string, documentId: string) => `${locationId}/${dealId}/${documentId}`;

/** Creates a document in `pending_upload` (any source) and presigns the upload of its bytes. */
export async function createUploadSlot(
  deps: Deps,
  trx: Knex.Transaction | Knex,
  scope: Scope,
  deal: { id: string; business_id: string },
  body: CreateBody,
  origin: { source: DocumentRow['source']; portalLinkId?: string | null; documentRequestId?: string | null },
): Promise<Upload> {
  const now = deps.clock.now();
  const id = newId('doc', now.getTime());
  const expiresAt = new Date(now.getTime() + UPLOAD_TTL_MS);
  const row: DocumentRow = {
    id,
    location_id: scope.locationId,
    deal_id: deal.id,
    business_id: deal.business_id,
    filename: body.filename,
    content_type: body.content_type,
    declared_size: body.size_bytes,
    size_bytes: null,
    category: body.category,
    status: 'pending_upload',
    source: origin.source,
    sha256: null,
    storage_key: storageKeyOf(scope.locationId, deal.id, id),
    portal_link_id: origin.portalLinkId ?? null,
    document_request_id: origin.documentRequestId ?? null,
    created_by_user_id: scope.userId,
    received_from_address: null,
    received_from_name: null,
    inbound_email_id: null,
    inbound_message_id: null,
    statement: null,
    failure_code: null,
    failure_reason: null,
    pages: null,
    upload_expires_at: expiresAt,
    uploaded_at: null,
    processed_at: null,
    created_at: now,
    updated_at: now,
  };
  const upload = await deps.storage.presignUpload(row.storage_key, { contentType: row.content_type, size: body.size_bytes, expiresAt, now });
  await insertDocument(trx, row);
  return { document: toDocument(row), upload_url: upload.url, upload_method: 'PUT', upload_headers: upload.headers, expires_at: expiresAt.toISOString() };
}

export async function createDealDocumentUpload(deps: Deps, scope: Scope, dealId: string, body: CreateBody): Promise<Upload> {
  const deal = await getVisibleDealOr404(deps.db.knex, scope, dealId);
  return createUploadSlot(deps, deps.db.knex, scope, deal, body, { source: 'api' });
}

export async function getDocumentOr404(db: Knex | Knex.Transaction, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<DocumentRow> {
  const row = await findDocument(db, scope, id, opts);
  if (!row) throw notFound('document', id);
  return row;
}

/**
 * Checks what is stored under `key` (the document's pinned copy): the declared size and a file of
 * the declared kind. Returns the size and SHA-256, or throws the contract's 409.
 */
async function checkArrival(deps: Deps, row: DocumentRow, key: string): Promise<{ size: number; sha256: string }> {
  const stored = await deps.storage.describe(key);
  if (!stored) throw uploadMissing('Nothing has arrived at upload_url');
  const declared = Number(row.declared_size);
  if (stored.size !== declared) throw uploadMissing(`The upload has ${stored.size} bytes but size_bytes was ${declared}`);
  const head = await deps.storage.readHead(key, 1024);
  if (!contentMatches(row.content_type, head)) {
    throw conflict(`The uploaded bytes are not a ${row.content_type} file. Upload the right file, then finalize again`, 'upload_content_mismatch');
  }
  return stored;
}

const uploadMissing = (detail: string) =>
  conflict(`${detail}. PUT the file's bytes to upload_url (start a new upload if it expired), then finalize again`, 'upload_missing');

/**
 * Marks an arrived document `uploaded`: its pinned key, size and SHA-256 recorded, `document.uploaded`
 * and its history line written, and a bank statement sent to analysis, all in the caller's transaction.
 * The caller holds the document's row lock and has checked it is still `pending_upload`.
 */
export async function markUploaded(trx: Knex.Transaction, deps: Deps, scope: Scope, row: DocumentRow, stored: { size: number; sha256: string; key: string }): Promise<DocumentRow> {
  const now = deps.clock.now();
  const patch = { status: 'uploaded' as const, storage_key: stored.key, size_bytes: stored.size, sha256: stored.sha256, uploaded_at: now, updated_at: now };
  await updateDocumentRow(trx, scope, row.id, patch);
  const done: DocumentRow = { ...row, ...patch };
  await announceUploaded(trx, deps, scope, done);
  return done;
}

/**
 * What every arrival of a document's bytes does, whatever its source (finalize, the portal, an
 * email's attachment): `document.uploaded`, its history line, and a bank statement sent to analysis.
 */
export async function announceUploaded(trx: Knex.Transaction, deps: Deps, scope: Scope, done: DocumentRow): Promise<void> {
  await recordEvent(trx, deps.clock, scope.locationId, 'document.uploaded', { document_id: done.id, deal_id: done.deal_id, document: documentSnapshot(done) });
  const business = await trx('businesses').where({ id: done.business_id, location_id: scope.locationId }).first('legal_name');
  const by = done.source === 'merchant_portal' ? ' by the merchant in the portal' : done.source === 'email' ? ' from an email' : '';
  await recordActivity(trx, deps.clock, scope, {
    businessId: done.business_id, dealId: done.deal_id, entityType: 'document', entityId: done.id, entityName: business?.legal_name ?? '',
    action: 'document.uploaded', description: `Document ${done.filename} uploaded${by}`,
    data: { deal_id: done.deal_id, category: done.category, source: done.source, filename: done.filename },
  });
  if (done.category === 'bank_statement') await startStatementBatch(trx, deps, scope, done.deal_id, done.id);
}

/**
 * Finalize for any source. The upload URL stays valid until its expiry (an S3 presigned PUT cannot
 * be revoked), so the bytes are first pinned: copied (a hard link locally, a server-side copy on S3)
 * to a key of this attempt that no upload URL names. That copy is checked and hashed, and the
 * document moves to it under its row lock; a later PUT to the old URL cannot change what was
 * hashed, what analysis reads or what lenders receive (and the local upload route refuses it,
 * the document no longer being pending_upload under that key). A failed attempt drops its copy.
 */
export async function finalizeUpload(deps: Deps, scope: Scope, id: string): Promise<DocumentRow> {
  const row = await getDocumentOr404(deps.db.knex, scope, id);
  if (row.status !== 'pending_upload') throw conflict(`The document is already ${row.status}; only a pending_upload document can be finalized`, 'invalid_state_transition');
  const pinned = `${row.storage_key}.v${randomBytes(8).toString('hex')}`;
  try {
    await deps.storage.pin(row.storage_key, pinned);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'not_found') throw uploadMissing('Nothing has arrived at upload_url');
    throw err;
  }
  let done: DocumentRow;
  try {
    const stored = await checkArrival(deps, row, pinned);
    done = await deps.db.knex.transaction(async (trx) => {
      const locked = await getDocumentOr404(trx, scope, id, { forUpdate: true });
      if (locked.status !== 'pending_upload') throw conflict(`The document is already ${locked.status}; only a pending_upload document can be finalized`, 'invalid_state_transition');
      return markUploaded(trx, deps, scope, locked, { ...stored, key: pinned });
    });
  } catch (err) {
    await deps.storage.delete(pinned).catch(() => undefined);
    throw err;
  }
  // Nobody reads the upload key any more. On S3 a PUT to the old URL before its expiry can write it
  // again: an unread object, never what the document points at.
  await deps.storage.delete(row.storage_key).catch(() => undefined);
  return done;
}

export async function finalizeDocument(deps: Deps, scope: Scope, id: string): Promise<Document> {
  return toDocument(await finalizeUpload(deps, scope, id));
}

export async function getDocument(deps: Deps, scope: Scope, id: string): Promise<Document> {
  const row = await getDocumentOr404(deps.db.knex, scope, id);
  if (row.status === 'pending_upload') return toDocument(row);
  const now = deps.clock.now();
  const url = await deps.storage.presignDownload(row.storage_key, {
    filename: row.filename, contentType: row.content_type, expiresAt: new Date(now.getTime() + DOWNLOAD_TTL_MS), now,
  });
  return toDocument(row, url);
}

export async function listDealDocuments(deps: Deps, scope: Scope, dealId: string, query: ListQuery) {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const q = documentsQuery(deps.db.knex, scope).where('documents.deal_id', dealId);
  if (query.category) q.where('documents.category', query.category);
  if (query.status) q.where('documents.status', query.status);
  const page = await paginate<DocumentRow>(q, {
    key: deps.cursorKey, list: `documents:${dealId}:${query.category ?? ''}:${query.status ?? ''}`, limit: query.limit, cursor: query.cursor, filters: query,
    createdAtColumn: 'documents.created_at', idColumn: 'documents.id',
  });
  return { data: page.rows.map((r) => toDocument(r)), meta: page.meta };
}

/**
 * Deletes documents whose bytes never came: `pending_upload` 24 hours after creation (their upload
 * URL expired 23 h 45 min earlier). The stored object, if a partial one exists, goes too.
 */
export async function sweepAbandonedUploads(deps: Deps, opts: { batch?: number } = {}): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - ABANDONED_UPLOAD_MS);
  const rows: Pick<DocumentRow, 'id' | 'storage_key'>[] = await deps.db.knex('documents')
    .where('status', 'pending_upload').where('created_at', '<', cutoff).orderBy('created_at').limit(opts.batch ?? 500).select('id', 'storage_key');
  let deleted = 0;
  for (const r of rows) {
    await deps.storage.delete(r.storage_key).catch(() => undefined);
    deleted += Number(await deps.db.knex('documents').where({ id: r.id, status: 'pending_upload' }).del());
  }
  return deleted;
}

/** Pending uploads never finished are swept hourly (src/background.ts registers it at start). */
export function registerDocumentMaintenance(): void {
  registerMaintenance('documents.abandoned_uploads', (deps) => sweepAbandonedUploads(deps));
}
