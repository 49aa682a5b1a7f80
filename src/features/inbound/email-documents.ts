import type { Knex } from 'knex';
import type { Attachment, ParsedMail } from 'mailparser';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import type { Scope } from '../../http/types';
import { sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { announceUploaded, contentMatches, documentWithHash, insertDocument, lockDeal, MAX_DOCUMENT_BYTES, type DocumentRow } from '../documents/documents.service';
import type { AttachmentReading } from './attachments';

// Files attached to a lender's reply become documents of its deal (issue 27, item 2). Called in the
// inbound email's own transaction, once the reply is matched and its sender passed the gate of
// inbound.service.ts (the lender's domain, authenticated; not an automatic reply). Each of the
// message's attachments (in order, the same list as the email's `attachments`) is filed, found
// already on the deal (same SHA-256: that document is reused, nothing stored twice), or skipped
// with a reason; the outcome is kept on the email's attachment (`filing`).
//
// The upload rules of createDealDocumentUpload apply: its content types, 1 byte to 25 MB, bytes of
// the declared kind (contentMatches), plus at most MAX_FILES_PER_MESSAGE files per message, no
// inline images (logos) and never our own submission package sent back. A PDF is a bank statement
// when the text attachments.ts read from it names an opening and a closing balance, or, when no text
// was read (a scan, past the 5 PDFs read, out of time), when its file name says statement; the rest
// is `other`. Storage is written before the document's row, under keys reserved before the email's
// transaction (reserveKeys: a `storage_intents` row each, committed) and released in it: when the
// transaction fails the caller deletes the objects written and the reservations (dropReserved); when
// the process dies before the commit, the reservations stay and sweepStorageIntents deletes their
// objects an hour later. No object outlives its transaction unnoticed.

type S = components['schemas'];
export type Filing = S['InboundEmailAttachmentFiling'];
type ContentType = S['CreateDealDocumentUploadRequest']['content_type'];

/** Files filed per message (an email's attachment limit, as `document_ids` of a submission). */
export const MAX_FILES_PER_MESSAGE = 10;

/** The content types createDealDocumentUpload accepts, by the extensions that name them. */
const TYPES: Record<ContentType, string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/heic': ['heic'],
  'image/tiff': ['tif', 'tiff'],
  'text/csv': ['csv'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
};
const ALIASES: Record<string, ContentType> = { 'application/x-pdf': 'application/pdf', 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** The declared type as the upload rules know it; a generic type is read from the file name's extension. */
export function acceptedType(declared: string | undefined, filename: string | undefined): ContentType | null {
  const t = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (t in TYPES) return t as ContentType;
  if (ALIASES[t]) return ALIASES[t];
  if (t && t !== 'application/octet-stream' && t !== 'binary/octet-stream') return null;
  const ext = /\.([a-z0-9]{2,5})$/i.exec(filename ?? '')?.[1]?.toLowerCase();
  const found = Object.entries(TYPES).find(([, exts]) => ext && exts.includes(ext));
  return found ? (found[0] as ContentType) : null;
}

const OPENING = /\b(?:beginning|opening|starting|previous|prior)\s+balance\b|\bbalance\s+(?:forward|brought\s+forward)\b/i;
const CLOSING = /\b(?:ending|closing|new)\s+balance\b/i;
const STATEMENT_NAME = /statement|stmt/i;

/** `bank_statement` or `other` (see the top of this file). */
export function categoryOf(type: ContentType, filename: string, read: { text: string } | undefined): 'bank_statement' | 'other' {
  if (type !== 'application/pdf') return 'other';
  if (read) return OPENING.test(read.text) && CLOSING.test(read.text) ? 'bank_statement' : 'other';
  return STATEMENT_NAME.test(filename) ? 'bank_statement' : 'other';
}

/** A file name fit for a document: printable, at most 255 characters, never empty. */
function filenameOf(a: Attachment, i: number, type: ContentType): string {
  const name = (a.filename ?? '').replace(/[\p{C}]/gu, '').replace(/[\\/]/g, '_').trim().slice(0, 255);
  return name || `attachment-${i + 1}.${TYPES[type][0]}`;
}

const skipped = (skip_reason: NonNullable<Filing['skip_reason']>): Filing => ({ outcome: 'skipped', document_id: null, skip_reason });

/** Storage keys reserved for one email's files (`used` of them written so far). */
export interface KeyPool {
  keys: { id: string; key: string }[];
  used: number;
}
export const emptyPool = (): KeyPool => ({ keys: [], used: 0 });

/** The most files an email files (the limit of this process). */
export const maxFilesOf = (deps: Deps): number => deps.config.inboundDocumentLimits?.maxFiles ?? MAX_FILES_PER_MESSAGE;

/** Reserves `count` keys (document ids) for an email's files, committed before its transaction. */
export async function reserveKeys(deps: Deps, locationId: string, count: number): Promise<KeyPool> {
  if (count <= 0) return emptyPool();
  const now = deps.clock.now();
  const keys = Array.from({ length: count }, () => {
    const id = newId('doc', now.getTime());
    return { id, key: `${locationId}/email/${id}` };
  });
  await deps.db.knex('storage_intents').insert(keys.map((k) => ({ key: k.key, location_id: locationId, created_at: now })));
  return { keys, used: 0 };
}

/** In the email's transaction: the reservations go (the keys used are named by their documents). */
export async function releaseKeys(trx: Knex.Transaction, pool: KeyPool): Promise<void> {
  if (pool.keys.length) await trx('storage_intents').whereIn('key', pool.keys.map((k) => k.key)).del();
}

/** After the email's transaction failed: the objects it wrote, then their reservations. */
export async function dropReserved(deps: Deps, pool: KeyPool): Promise<void> {
  if (!pool.keys.length) return;
  await Promise.all(pool.keys.slice(0, pool.used).map((k) => deps.storage.delete(k.key).catch(() => undefined)));
  await deps.db.knex('storage_intents').whereIn('key', pool.keys.map((k) => k.key)).del().catch(() => undefined);
}

/** Reservations older than this were left by a process that died mid-transaction. */
export const STALE_INTENT_MS = 3600_000;

/** Deletes the objects of stale reservations (unless a document names the key) and the reservations; returns how many. */
export async function sweepStorageIntents(deps: Deps, opts: { batch?: number } = {}): Promise<number> {
  const knex = deps.db.knex;
  const cutoff = new Date(deps.clock.now().getTime() - STALE_INTENT_MS);
  const rows = (await knex('storage_intents').where('created_at', '<', cutoff).orderBy('created_at').limit(opts.batch ?? 200).select('key', 'location_id')) as { key: string; location_id: string }[];
  for (const r of rows) {
    const named = await knex('documents').where({ location_id: r.location_id, storage_key: r.key }).first('id');
    if (!named) await deps.storage.delete(r.key);
    await knex('storage_intents').where({ key: r.key }).del();
  }
  return rows.length;
}

export interface EmailOrigin {
  dealId: string;
  businessId: string;
  inboundEmailId: string;
  from: { address: string; name: string | null };
  messageId: string | null;
}

/**
 * Files `attachments` (the message's own list, in order) on the deal; returns one filing per
 * attachment. Takes the deal's row lock: two messages carrying the same file cannot both store it.
 */
export async function fileAttachments(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  attachments: Attachment[],
  reading: AttachmentReading,
  origin: EmailOrigin,
  pool: KeyPool,
): Promise<Filing[]> {
  const maxFiles = Math.min(maxFilesOf(deps), pool.keys.length);
  const maxBytes = Math.min(deps.config.inboundDocumentLimits?.maxBytes ?? MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES);
  await lockDeal(trx, scope, origin.dealId);
  const out: Filing[] = [];
  let filed = 0;
  for (const [i, a] of attachments.entries()) {
    const bytes = Buffer.isBuffer(a.content) ? a.content : Buffer.alloc(0);
    const type = acceptedType(a.contentType, a.filename);
    const image = /^image\//i.test(a.contentType ?? '');
    if (image && (a.related || a.contentDisposition === 'inline')) out.push(skipped('inline_image'));
    else if (!type) out.push(skipped('type_not_accepted'));
    else if (!bytes.length) out.push(skipped('empty'));
    else if (bytes.length > maxBytes) out.push(skipped('too_large'));
    else if (!contentMatches(type, bytes.subarray(0, 1024))) out.push(skipped('content_mismatch'));
    else if (reading.files.get(a)?.ownPackage) out.push(skipped('own_package'));
    else if (filed >= maxFiles) out.push(skipped('over_count'));
    else {
      filed++;
      const sha256 = sha256Hex(bytes);
      const existing = await documentWithHash(trx, scope, origin.dealId, sha256);
      if (existing) {
        out.push({ outcome: 'duplicate', document_id: existing.id, skip_reason: null });
        continue;
      }
      out.push({ outcome: 'filed', document_id: await fileOne(trx, deps, scope, origin, { bytes, sha256, type, filename: filenameOf(a, i, type), read: reading.files.get(a) }, pool), skip_reason: null });
    }
  }
  return out;
}

async function fileOne(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  origin: EmailOrigin,
  file: { bytes: Buffer; sha256: string; type: ContentType; filename: string; read: { text: string } | undefined },
  pool: KeyPool,
): Promise<string> {
  const now = deps.clock.now();
  const { id, key } = pool.keys[pool.used++];
  // the bytes first: a row never names a key that holds nothing
  await deps.storage.put(key, file.bytes, file.type);
  const row: DocumentRow = {
    id,
    location_id: scope.locationId,
    deal_id: origin.dealId,
    business_id: origin.businessId,
    filename: file.filename,
    content_type: file.type,
    declared_size: file.bytes.length,
    size_bytes: file.bytes.length,
    category: categoryOf(file.type, file.filename, file.read),
    status: 'uploaded',
    source: 'email',
    sha256: file.sha256,
    storage_key: key,
    portal_link_id: null,
    document_request_id: null,
    created_by_user_id: null,
    received_from_address: origin.from.address,
    received_from_name: origin.from.name,
    inbound_email_id: origin.inboundEmailId,
    inbound_message_id: origin.messageId,
    statement: null,
    failure_code: null,
    failure_reason: null,
    pages: null,
    upload_expires_at: now,
    uploaded_at: now,
    processed_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertDocument(trx, row);
  await announceUploaded(trx, deps, scope, row);
  return id;
}

/** The message's attachments as the email record lists them (the first 100). */
export const listedAttachments = (parsed: ParsedMail): Attachment[] => parsed.attachments.slice(0, 100);
