import type { Knex } from 'knex';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { ApiError, conflict, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import { systemScope, type Scope } from '../../http/types';
import { randomBase62, sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { SUBMISSION_EMAIL_KIND } from '../submissions/submissions.template';
import { applySubmissionResponse, checkResponseBody, findSubmission, lockedSubmissionOr404, type SubmissionRow } from '../submissions/submissions.service';
import { findTraceCodes, normalizeTraceCode } from '../submissions/trace-code';
import { isLenderDomain } from './sender-domain';
import { EMPTY_READING, readPdfAttachments, type AttachmentReading } from './attachments';
import { type Classification, type ReplyContext } from './classifier';
import { readReply } from './reply-model';
import { dropReserved, emptyPool, fileAttachments, listedAttachments, maxFilesOf, releaseKeys, reserveKeys, type Filing, type KeyPool } from './email-documents';
import { contractClassification, replyOutcome } from './reply-outcome';
import { fromTrustedHeader, isAligned, type SenderAuth } from './sender-auth';
import { autoReplySignal, htmlToText, MAX_HTML_CHARS, parsedMailToInput, replyParts } from './reply-text';

type S = components['schemas'];
export type InboundEmail = S['InboundEmail'];
type ListQuery = NonNullable<operations['listInboundEmails']['parameters']['query']>;
type AssignBody = S['AssignInboundEmailRequest'];
type ResponseBody = S['RecordSubmissionResponseRequest'];

// Lender replies. A raw message (from the HTTP inbound endpoint or the SMTP listener) is parsed,
// stored whole, matched to one of its location's submissions, classified, and, when both worked,
// applied: the submission's response recorded and the offers found logged (`email_classifier`), in
// one transaction with the stored record. What cannot be matched or read waits for a person
// (status unmatched / unclassified) and is never dropped.

/** Largest raw message accepted (bytes). */
export const INBOUND_MAX_BYTES = 25 * 1024 * 1024;
/** Longest `text` kept and shown. */
export const INBOUND_TEXT_MAX = 100_000;
const SECRET_PREFIX = 'svc_inbound_';
export const INBOUND_SECRET_PATTERN = /^svc_inbound_[0-9A-Za-z]{32}$/;

export { systemScope };

// ---------------------------------------------------------------- the secret

export async function rotateInboundSecret(deps: Deps, scope: Scope): Promise<S['InboundEmailSecret']> {
  const secret = `${SECRET_PREFIX}${randomBase62(32)}`;
  const now = deps.clock.now();
  await deps.db.knex('inbound_secrets')
    .insert({ location_id: scope.locationId, secret_hash: sha256Hex(secret), created_at: now })
    .onConflict('location_id')
    .merge(['secret_hash', 'created_at']);
  return { secret, username: 'inbound', created_at: now.toISOString() };
}

/** The location whose current inbound secret this is, or null. */
export async function locationOfInboundSecret(db: Knex, secret: string): Promise<string | null> {
  if (!INBOUND_SECRET_PATTERN.test(secret)) return null;
  const row = (await db('inbound_secrets').where({ secret_hash: sha256Hex(secret) }).first('location_id')) as { location_id: string } | undefined;
  return row?.location_id ?? null;
}

// ---------------------------------------------------------------- parsing

/** PostgreSQL text cannot hold NUL, and lone surrogates are not Unicode: what we store is clean. */
function clean(s: string): string {
  return s.replace(/\u0000/g, '\uFFFD').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
function cleanJson<T>(value: T): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? clean(v) : v));
}

const HEADER_LINE = /^[\x21-\x39\x3B-\x7E]+:/;
const badEmail = (why: string) => new ApiError('invalid_email', `The body is not an email: ${why}`);

export interface ParsedInbound {
  parsed: ParsedMail;
  messageId: string | null;
  dedupeKey: string;
  from: { address: string; name: string | null };
  recipients: string[];
  subject: string;
  text: string;
}

function addresses(obj: AddressObject | AddressObject[] | undefined): { address: string; name: string }[] {
  const out: { address: string; name: string }[] = [];
  const walk = (list: { address?: string; name: string; group?: unknown[] }[]) => {
    for (const a of list) {
      if (a.address) out.push({ address: a.address, name: a.name });
      if (Array.isArray(a.group)) walk(a.group as { address?: string; name: string }[]);
    }
  };
  for (const o of obj ? (Array.isArray(obj) ? obj : [obj]) : []) walk(o.value);
  return out;
}

/** Parses a raw message; a body that is not an email is `invalid_email` (nothing is stored). */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  if (raw.length === 0) throw badEmail('it is empty');
  // An mbox "From " separator line, as some relays prepend it, is not part of the message.
  let start = 0;
  if (raw.subarray(0, 5).toString('latin1') === 'From ') start = raw.indexOf(0x0a) + 1 || raw.length;
  const firstLine = raw.subarray(start, Math.min(raw.length, start + 1000)).toString('latin1').split(/\r?\n/)[0];
  if (!HEADER_LINE.test(firstLine)) throw badEmail('it does not start with a header field');
  const blank = [raw.indexOf('\n\n', start), raw.indexOf('\r\n\r\n', start)].filter((i) => i >= 0);
  const head = raw.subarray(start, blank.length ? Math.min(...blank) : raw.length);
  if (head.includes(0)) throw badEmail('its header contains a NUL byte');
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(start ? raw.subarray(start) : raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  } catch {
    throw badEmail('it could not be parsed as MIME');
  }
  const from = addresses(parsed.from)[0];
  if (!from) throw badEmail('it has no From address');
  let text = parsed.text?.trim() ? parsed.text : '';
  if (!text && typeof parsed.html === 'string') {
    try {
      text = htmlToText(parsed.html.slice(0, MAX_HTML_CHARS)); // bounded work, as the classifier's own reading
    } catch {
      text = ''; // markup too deeply nested to read: the message is still kept
    }
  }
  const messageId = parsed.messageId ? clean(parsed.messageId).slice(0, 998) : null;
  const recipients = [...addresses(parsed.to), ...addresses(parsed.cc)].map((a) => a.address);
  for (const name of ['delivered-to', 'x-original-to', 'envelope-to']) {
    const v = parsed.headers.get(name);
    for (const one of Array.isArray(v) ? v : v ? [v] : []) {
      const s = typeof one === 'string' ? one : ((one as { text?: string }).text ?? '');
      for (const m of s.matchAll(/[^\s<>,;"]+@[^\s<>,;"]+/g)) recipients.push(m[0]);
    }
  }
  return {
    parsed,
    messageId,
    // Hashed: a Message-ID can be long enough (and non-ASCII) to overflow a btree index row.
    dedupeKey: messageId ? `mid:${sha256Hex(messageId)}` : `sha256:${sha256Hex(raw)}`,
    from: { address: clean(from.address).slice(0, 998), name: from.name ? clean(from.name).slice(0, 998) : null },
    recipients: [...new Set(recipients.map((r) => clean(r).slice(0, 998)))].slice(0, 100),
    subject: clean(parsed.subject ?? '').slice(0, 998),
    text: clean(text).slice(0, INBOUND_TEXT_MAX),
  };
}

// ---------------------------------------------------------------- matching

type Match = { row: SubmissionRow; by: 'reply_to' | 'in_reply_to' | 'trace_code' } | { ambiguous: true } | null;

async function submissionByTrace(db: Knex.Transaction, scope: Scope, code: string): Promise<SubmissionRow | undefined> {
  const id = (await db('submissions').where({ location_id: scope.locationId, trace_code: code }).first('id')) as { id: string } | undefined;
  return id ? findSubmission(db, scope, id.id) : undefined;
}

function messageIds(value: string | string[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? value.split(/\s+/) : [];
  const out: string[] = [];
  for (const v of list.slice(0, 100)) {
    const bare = v.trim().replace(/^<|>$/g, '');
    if (bare) out.push(`<${bare}>`, bare);
  }
  return out;
}

async function matchSubmission(trx: Knex.Transaction, scope: Scope, msg: ParsedInbound, attachmentText = ''): Promise<Match> {
  // 1. The Reply-To of a submission email: <mailbox>+<trace code>@<domain>.
  for (const address of msg.recipients) {
    const local = address.slice(0, address.lastIndexOf('@'));
    const plus = local.indexOf('+');
    if (plus < 0) continue;
    const code = normalizeTraceCode(local.slice(plus + 1));
    const row = code ? await submissionByTrace(trx, scope, code) : undefined;
    if (row) return { row, by: 'reply_to' };
  }
  // 2. In-Reply-To / References naming a submission email's Message-ID.
  const ids = [...messageIds(msg.parsed.inReplyTo), ...messageIds(msg.parsed.references)];
  if (ids.length) {
    const sent = (await trx('outgoing_emails')
      .where({ location_id: scope.locationId, kind: SUBMISSION_EMAIL_KIND })
      .whereIn('message_id', ids)
      .select('attachments')) as { attachments: { source?: { ref?: string } }[] | string }[];
    for (const e of sent) {
      const list = typeof e.attachments === 'string' ? (JSON.parse(e.attachments) as { source?: { ref?: string } }[]) : e.attachments;
      const ref = list.find((a) => a.source?.ref)?.source?.ref;
      const row = ref ? await findSubmission(trx, scope, ref) : undefined;
      if (row) return { row, by: 'in_reply_to' };
    }
  }
  // 3. Exactly one of the location's trace codes in the subject, the text or the text of a PDF
  // attachment (an offer letter quoting it): codes from all three count together, so a body and an
  // attachment naming two different submissions are ambiguous, as two codes in a body are.
  const found = new Map<string, SubmissionRow>();
  const codes = [...new Set([...findTraceCodes(`${msg.subject}\n${msg.text}`).slice(0, 20), ...findTraceCodes(attachmentText).slice(0, 20)])];
  for (const code of codes.slice(0, 40)) {
    const row = await submissionByTrace(trx, scope, code);
    if (row) found.set(row.id, row);
  }
  if (found.size === 1) return { row: [...found.values()][0], by: 'trace_code' };
  if (found.size > 1) return { ambiguous: true };
  return null;
}

/**
 * A merchant's answer: In-Reply-To / References naming an email the location sent a person of a deal
 * with a merchant portal link (a document request, or another portal link: the deal's thread with
 * the merchant). Only when no submission matched. The link says which deal and to which address.
 */
async function matchMerchantReply(trx: Knex.Transaction, scope: Scope, msg: ParsedInbound): Promise<{ dealId: string; sentTo: string | null } | null> {
  const ids = [...messageIds(msg.parsed.inReplyTo), ...messageIds(msg.parsed.references)];
  if (!ids.length) return null;
  const link = (await trx('outgoing_emails as e')
    .join('portal_links as l', function () {
      this.on('l.email_id', '=', 'e.id').andOn('l.location_id', '=', 'e.location_id');
    })
    .where('e.location_id', scope.locationId)
    .whereIn('e.message_id', ids)
    .orderBy('l.created_at', 'desc')
    .first('l.deal_id', 'l.sent_to')) as { deal_id: string; sent_to: string | null } | undefined;
  return link ? { dealId: link.deal_id, sentTo: link.sent_to } : null;
}

/** What a merchant's reply is read as: not a lender's answer, nothing to apply to a submission. */
const MERCHANT_REPLY: S['InboundEmailClassification'] = {
  type: 'unclassified', confidence: 1, response_type: null, decline_category: null, decline_reason: null, requested_items: [], offers: [],
  reasons: ["a merchant's reply to an email the location sent with a portal link: not a lender's answer"],
};

// ---------------------------------------------------------------- classifying and applying

/** One line per PDF attachment (read, or why not) after the classifier's own cues. */
const withNotes = (c: S['InboundEmailClassification'], notes: string[]) => (notes.length ? { ...c, reasons: [...c.reasons, ...notes] } : c);

function classify(msg: ParsedInbound, attachments: AttachmentReading, context?: ReplyContext): { classification: S['InboundEmailClassification']; own: string; autoReply: boolean } {
  const input = { ...parsedMailToInput(msg.parsed), attachmentText: attachments.offerText };
  const header = autoReplySignal(msg.parsed);
  let c: Classification;
  let own = '';
  try {
    if (header) c = { type: 'unclassified', confidence: 0.95, requested_items: [], offers: [], reasons: [`auto-reply: ${header}`] };
    else {
      c = readReply(input, context);
      own = replyParts(input).own;
    }
  } catch {
    // e.g. markup nested deeper than the reader's stack: kept for a person, never an error
    c = { type: 'unclassified', confidence: 0, requested_items: [], offers: [], reasons: ['the message could not be read'] };
  }
  return {
    own,
    autoReply: !!header || c.reasons.includes('automatic reply'),
    classification: withNotes(contractClassification(c), attachments.notes),
  };
}

/** What the hook knows of a submission's deal, for the classifier: the requested amount and term above all (counter is about terms). */
async function replyContext(trx: Knex.Transaction, scope: Scope, row: SubmissionRow): Promise<ReplyContext> {
  const deal = (await trx('deals as d')
    .leftJoin('businesses as b', 'b.id', 'd.business_id')
    .where({ 'd.id': row.deal_id, 'd.location_id': scope.locationId })
    .first('d.requested_amount', 'd.desired_term_months', 'd.product_type', 'b.legal_name')) as
    | { requested_amount: number | string | null; desired_term_months: number | null; product_type: string | null; legal_name: string | null }
    | undefined;
  return {
    requested_amount: deal?.requested_amount != null ? Number(deal.requested_amount) : null,
    // the term the deal asks for: an offer on another term is a counter
    requested_term: deal?.desired_term_months != null ? { term: Number(deal.desired_term_months), unit: 'months' } : null,
    product_type: deal?.product_type ?? null,
    business_name: deal?.legal_name ?? null,
    // a reply naming another submission's code answers another deal
    trace_code: row.trace_code ?? null,
  };
}

// ---------------------------------------------------------------- rows

interface InboundRow {
  id: string;
  location_id: string;
  status: InboundEmail['status'];
  review_reason: InboundEmail['review_reason'];
  message_id: string | null;
  from_address: string;
  from_name: string | null;
  to_addresses: string[];
  subject: string;
  sent_at: Date | null;
  text_body: string;
  attachments: InboundEmail['attachments'];
  submission_id: string | null;
  deal_id: string | null;
  lender_id: string | null;
  matched_by: InboundEmail['matched_by'];
  classification: S['InboundEmailClassification'];
  offer_ids: string[];
  dismiss_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id', 'location_id', 'status', 'review_reason', 'message_id', 'from_address', 'from_name', 'to_addresses', 'subject', 'sent_at', 'text_body',
  'attachments', 'submission_id', 'deal_id', 'lender_id', 'matched_by', 'classification', 'offer_ids', 'dismiss_reason', 'created_at', 'updated_at',
];

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function toInboundEmail(r: InboundRow): InboundEmail {
  return {
    id: r.id,
    status: r.status,
    review_reason: r.review_reason,
    message_id: r.message_id,
    from: { address: r.from_address, name: r.from_name },
    to: json(r.to_addresses),
    subject: r.subject,
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    text: r.text_body,
    // emails stored before 2026-11-27 have no `filing`
    attachments: json(r.attachments).map((a) => ({ ...a, filing: a.filing ?? null })),
    submission_id: r.submission_id,
    deal_id: r.deal_id,
    lender_id: r.lender_id,
    matched_by: r.matched_by,
    classification: json(r.classification),
    offer_ids: json(r.offer_ids),
    dismiss_reason: r.dismiss_reason,
    received_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

async function findInbound(db: Knex | Knex.Transaction, scope: Scope, id: string, forUpdate = false): Promise<InboundRow | undefined> {
  const q = db('inbound_emails').where({ id, location_id: scope.locationId }).first(COLUMNS);
  if (forUpdate) q.forUpdate();
  return (await q) as InboundRow | undefined;
}

/**
 * Applies what an email says to `row` (locked by the caller) and returns the email's new fields.
 * A funded submission can no longer change: the email waits for review.
 */
async function applyToSubmission(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  row: SubmissionRow,
  body: ResponseBody | null,
  opts: { offerSource: 'api' | 'email_classifier'; autoReply: boolean; sender?: string; authenticated?: boolean; reviewReason?: NonNullable<InboundEmail['review_reason']> },
): Promise<Pick<InboundRow, 'status' | 'review_reason' | 'offer_ids'>> {
  const review = (review_reason: NonNullable<InboundEmail['review_reason']>) => ({ status: 'unclassified' as const, review_reason, offer_ids: [] });
  if (!body) return review(opts.reviewReason ?? (opts.autoReply ? 'auto_reply' : 'not_classified'));
  if (opts.offerSource === 'api') {
    // The answer a reviewer gave: recorded exactly as recordSubmissionResponse would (its 409s included).
    const { offerIds } = await applySubmissionResponse(trx, deps, scope, row, body, { offerSource: 'api', paramPrefix: 'response.' });
    return { status: 'processed', review_reason: null, offer_ids: offerIds };
  }
  if (row.status === 'funded') return review('submission_funded');
  const deal = (await trx('deals').where({ id: row.deal_id, location_id: scope.locationId }).first('status')) as { status: string };
  if (deal.status === 'funded') return review('deal_funded');
  // What an email says is applied only when it comes from the lender's own domain: anyone can send
  // mail to a reply address, and a forged approval would log offers. A person can still assign it.
  if (opts.sender !== undefined && !(await fromLenderDomain(trx, scope, row.lender_id, opts.sender))) return review('unknown_sender');
  // ...and only when that domain is authenticated (DKIM or SPF aligned with it, see sender-auth.ts):
  // the From header alone is the sender's word.
  if (opts.authenticated === false) return review('sender_unauthenticated');
  // Read from an email: a refusal (a rule of the state table) keeps the email for review rather than
  // losing it; the savepoint undoes whatever the refused answer had written.
  try {
    const { offerIds } = await trx.transaction((sp) => applySubmissionResponse(sp, deps, scope, row, body, { offerSource: 'email_classifier' }));
    return { status: 'processed', review_reason: null, offer_ids: offerIds };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return review('not_applied');
    throw err;
  }
}

async function fromLenderDomain(trx: Knex.Transaction, scope: Scope, lenderId: string, sender: string): Promise<boolean> {
  const lender = (await trx('lenders').where({ id: lenderId, location_id: scope.locationId }).first('submission_email', 'cc_emails')) as
    | { submission_email: string | null; cc_emails: string[] | string | null }
    | undefined;
  if (!lender) return false;
  const cc = typeof lender.cc_emails === 'string' ? (JSON.parse(lender.cc_emails) as string[]) : (lender.cc_emails ?? []);
  return isLenderDomain(sender, [lender.submission_email, ...cc]);
}

// ---------------------------------------------------------------- operations

/**
 * Stores and processes one raw message for `locationId`. `created` is false when the same message
 * (Message-ID, or bytes) was received before: the stored record comes back and nothing changes.
 */
export async function receiveInboundEmail(
  deps: Deps,
  locationId: string,
  raw: Buffer,
  opts: { auth?: SenderAuth } = {},
): Promise<{ email: InboundEmail; created: boolean }> {
  if (raw.length > INBOUND_MAX_BYTES) throw new ApiError('body_too_large', 'The message is larger than 25 MB');
  const msg = await parseInbound(raw);
  // The listener passes its own verdict; the HTTP hook has only the provider's (trusted) header.
  const auth = opts.auth ?? fromTrustedHeader(raw, deps.config.inboundTrustedAuthservIds ?? []);
  const authenticated = isAligned(auth, msg.from.address);
  // PDF attachments (offer letters, term sheets) are read before the transaction, in reader
  // processes with the statement reader's bounds; not for an automatic reply (a bounce carries our
  // own submission package), nor for a message already received (its record comes back as it is).
  const seen = await deps.db.knex('inbound_emails').where({ location_id: locationId, dedupe_key: msg.dedupeKey }).first('id');
  const attachmentReading = seen || autoReplySignal(msg.parsed) ? EMPTY_READING : await readPdfAttachments(msg.parsed, deps.config.inboundAttachmentLimits);
  const first = classify(msg, attachmentReading);
  const attachments = listedAttachments(msg.parsed).map((a) => ({
    filename: a.filename ? clean(a.filename).slice(0, 500) : null,
    content_type: clean(a.contentType || 'application/octet-stream').slice(0, 200),
    size: a.size ?? a.content.length,
    filing: null as Filing | null,
  }));
  const sentAt = msg.parsed.date && !Number.isNaN(msg.parsed.date.getTime()) && msg.parsed.date.getUTCFullYear() > 1900 && msg.parsed.date.getUTCFullYear() < 10000 ? msg.parsed.date : null;

  // Storage keys its files may be written under, reserved (committed) before the transaction and
  // released in it (email-documents.ts): on failure the files written are deleted; after a crash the
  // maintenance sweep deletes them. Not for a message received before, nor for an automatic reply.
  const pool = seen || autoReplySignal(msg.parsed) ? emptyPool() : await reserveKeys(deps, locationId, Math.min(attachments.length, maxFilesOf(deps)));
  try {
    return await receiveInTransaction(deps, locationId, msg, { authenticated, attachmentReading, first, attachments, sentAt, raw, pool });
  } catch (err) {
    await dropReserved(deps, pool);
    throw err;
  }
}

async function receiveInTransaction(
  deps: Deps,
  locationId: string,
  msg: ParsedInbound,
  o: {
    authenticated: boolean; attachmentReading: AttachmentReading; first: ReturnType<typeof classify>; sentAt: Date | null; raw: Buffer; pool: KeyPool;
    attachments: { filename: string | null; content_type: string; size: number; filing: Filing | null }[];
  },
): Promise<{ email: InboundEmail; created: boolean }> {
  const { authenticated, attachmentReading, first, attachments, sentAt, raw } = o;
  const scope = systemScope(locationId);
  return deps.db.knex.transaction(async (trx) => {
    const now = deps.clock.now();
    const id = newId('inb', now.getTime());
    // Claim the message first: a concurrent post of the same message waits here, then finds it.
    const inserted = await trx('inbound_emails')
      .insert({
        id, location_id: locationId, status: 'unmatched', review_reason: 'no_match', dedupe_key: msg.dedupeKey, message_id: msg.messageId,
        from_address: msg.from.address, from_name: msg.from.name, to_addresses: cleanJson(msg.recipients), subject: msg.subject, sent_at: sentAt,
        text_body: msg.text, attachments: cleanJson(attachments), raw, classification: cleanJson(first.classification), offer_ids: '[]',
        created_at: now, updated_at: now,
      })
      .onConflict(['location_id', 'dedupe_key'])
      .ignore()
      .returning('id');
    await releaseKeys(trx, o.pool);
    if (inserted.length === 0) {
      const existing = (await trx('inbound_emails').where({ location_id: locationId, dedupe_key: msg.dedupeKey }).first(COLUMNS)) as InboundRow;
      return { email: toInboundEmail(existing), created: false };
    }
    const match = await matchSubmission(trx, scope, msg, attachmentReading.text);
    const merchant = match ? null : await matchMerchantReply(trx, scope, msg);
    let patch: Partial<InboundRow>;
    let reread: string | undefined;
    let filed: string | undefined;
    const file = async (dealId: string) => {
      const deal = (await trx('deals').where({ id: dealId, location_id: scope.locationId }).first('business_id')) as { business_id: string };
      const filings = await fileAttachments(trx, deps, scope, listedAttachments(msg.parsed), attachmentReading, {
        dealId, businessId: deal.business_id, inboundEmailId: id, from: msg.from, messageId: msg.messageId,
      }, o.pool);
      filed = cleanJson(attachments.map((a, i) => ({ ...a, filing: filings[i] })));
    };
    if (merchant) {
      // Its files are the merchant's only when it comes from the address the email was sent to,
      // authenticated (DKIM or SPF aligned with its domain), and is not an automatic reply.
      const review_reason = autoReplySignal(msg.parsed) ? 'auto_reply' as const
        : !merchant.sentTo || merchant.sentTo.toLowerCase() !== msg.from.address.toLowerCase() ? 'unknown_sender' as const
          : !authenticated ? 'sender_unauthenticated' as const : null;
      patch = { status: review_reason ? 'unclassified' : 'processed', review_reason, deal_id: merchant.dealId, matched_by: 'merchant_reply' };
      reread = cleanJson(MERCHANT_REPLY);
      if (!review_reason) await file(merchant.dealId);
    } else if (!match) patch = { status: 'unmatched', review_reason: 'no_match' };
    else if ('ambiguous' in match) patch = { status: 'unmatched', review_reason: 'ambiguous_match' };
    else {
      const row = await lockedSubmissionOr404(trx, scope, match.row.id);
      // read again with what the submission asked for (counter is about terms), then apply or keep for review
      const { classification, own, autoReply } = classify(msg, attachmentReading, await replyContext(trx, scope, row));
      const decided = replyOutcome(classification, { from: msg.from.address, own, autoReply });
      const outcome = await applyToSubmission(trx, deps, scope, row, decided.apply ? decided.body : null, {
        offerSource: 'email_classifier', autoReply, sender: msg.from.address, authenticated, reviewReason: decided.apply ? undefined : decided.review_reason,
      });
      reread = cleanJson(classification);
      patch = { ...outcome, submission_id: row.id, deal_id: row.deal_id, lender_id: row.lender_id, matched_by: match.by };
      // Its files become documents of the deal only from the sender whose answer would be applied:
      // the lender's domain, authenticated, and not an automatic reply (a bounce carries our own files).
      if (!autoReply && authenticated && (await fromLenderDomain(trx, scope, row.lender_id, msg.from.address))) await file(row.deal_id);
    }
    await trx('inbound_emails').where({ id }).update({
      ...patch, ...(reread ? { classification: reread } : {}), ...(filed ? { attachments: filed } : {}), offer_ids: JSON.stringify(patch.offer_ids ?? []),
    });
    return { email: toInboundEmail((await findInbound(trx, scope, id))!), created: true };
  });
}

export async function listInboundEmails(deps: Deps, scope: Scope, query: ListQuery) {
  const q = deps.db.knex('inbound_emails').where({ location_id: scope.locationId }).select(COLUMNS);
  if (query.status) q.where({ status: query.status });
  const page = await paginate<InboundRow>(q, { key: deps.cursorKey, list: `inbound_emails:${query.status ?? ''}`, limit: query.limit, cursor: query.cursor });
  return { data: page.rows.map(toInboundEmail), meta: page.meta };
}

export async function getInboundEmail(deps: Deps, scope: Scope, id: string): Promise<InboundEmail> {
  const row = await findInbound(deps.db.knex, scope, id);
  if (!row) throw notFound('inbound email', id);
  return toInboundEmail(row);
}

const OPEN = ['unmatched', 'unclassified'];

export async function assignInboundEmail(deps: Deps, scope: Scope, id: string, body: AssignBody): Promise<InboundEmail> {
  if (body.response) checkResponseBody(body.response, 'response.');
  // Files not filed when it arrived (unmatched, or a sender the gate did not let through) are filed
  // now: a person tied it to the submission, vouching for the sender. Its PDFs are read first,
  // outside the transaction, with the bounds of receiving (they decide what is a bank statement).
  let message: { parsed: ParsedInbound; reading: AttachmentReading } | null = null;
  const before = await findInbound(deps.db.knex, scope, id);
  if (before && before.status !== 'processed' && !json(before.attachments).some((a) => a.filing)) {
    const stored = (await deps.db.knex('inbound_emails').where({ id, location_id: scope.locationId }).first('raw')) as { raw: Buffer | null } | undefined;
    try {
      const parsed = stored?.raw ? await parseInbound(Buffer.from(stored.raw)) : null;
      if (parsed && parsed.parsed.attachments.length && !autoReplySignal(parsed.parsed)) message = { parsed, reading: await readPdfAttachments(parsed.parsed, deps.config.inboundAttachmentLimits) };
    } catch {
      // a message that no longer parses has nothing to file
    }
  }
  const pool = message ? await reserveKeys(deps, scope.locationId, Math.min(message.parsed.parsed.attachments.length, 100, maxFilesOf(deps))) : emptyPool();
  try {
    return await assignInTransaction(deps, scope, id, body, message, pool);
  } catch (err) {
    await dropReserved(deps, pool);
    throw err;
  }
}

async function assignInTransaction(
  deps: Deps, scope: Scope, id: string, body: AssignBody, message: { parsed: ParsedInbound; reading: AttachmentReading } | null, pool: KeyPool,
): Promise<InboundEmail> {
  return deps.db.knex.transaction(async (trx) => {
    await releaseKeys(trx, pool);
    const email = await findInbound(trx, scope, id, true);
    if (!email) throw notFound('inbound email', id);
    if (email.status === 'processed') throw conflict('This email was processed: its answer is recorded on its submission', 'invalid_state_transition');
    const found = await findSubmission(trx, scope, body.submission_id);
    if (!found) throw notFound('submission', body.submission_id, 'submission_id');
    const row = await lockedSubmissionOr404(trx, scope, found.id);
    if (row.status === 'funded') throw conflict('The submission is funded: an advance exists, its response can no longer change', 'invalid_state_transition', 'submission_id');
    let classification = json(email.classification);
    let own = replyParts({ subject: email.subject, text: email.text_body }).own;
    if (!body.response) {
      // read again against the chosen submission's deal (counter is about terms): the stored message, whole
      const stored = (await trx('inbound_emails').where({ id, location_id: scope.locationId }).first('raw')) as { raw: Buffer | null } | undefined;
      try {
        // (attachments are not read again inside the transaction: a reviewer assigning a reply reads it)
        if (stored?.raw) ({ classification, own } = classify(await parseInbound(Buffer.from(stored.raw)), EMPTY_READING, await replyContext(trx, scope, row)));
      } catch {
        // a message that no longer parses keeps its stored reading
      }
    }
    const autoReply = classification.reasons.some((r) => r.startsWith('auto-reply:') || r === 'automatic reply');
    const decided = replyOutcome(classification, { from: email.from_address, own, autoReply });
    const response = body.response ?? (decided.apply ? decided.body : null);
    // A person tied it to the submission: the sender is vouched for.
    const outcome = await applyToSubmission(trx, deps, scope, row, response, {
      offerSource: body.response ? 'api' : 'email_classifier', autoReply, reviewReason: decided.apply ? undefined : decided.review_reason,
    });
    const now = deps.clock.now();
    let filed: string | undefined;
    const listed = json(email.attachments);
    if (message && !autoReply && !listed.some((a) => a.filing)) {
      const deal = (await trx('deals').where({ id: row.deal_id, location_id: scope.locationId }).first('business_id')) as { business_id: string };
      const filings = await fileAttachments(trx, deps, scope, listedAttachments(message.parsed.parsed), message.reading, {
        dealId: row.deal_id, businessId: deal.business_id, inboundEmailId: id, from: { address: email.from_address, name: email.from_name }, messageId: email.message_id,
      }, pool);
      filed = cleanJson(listed.map((a, i) => ({ ...a, filing: filings[i] ?? null })));
    }
    await trx('inbound_emails').where({ id }).update({
      ...outcome, classification: cleanJson(classification), offer_ids: JSON.stringify(outcome.offer_ids), submission_id: row.id, deal_id: row.deal_id, lender_id: row.lender_id, matched_by: 'assigned', dismiss_reason: null, updated_at: now,
      ...(filed ? { attachments: filed } : {}),
    });
    return toInboundEmail((await findInbound(trx, scope, id))!);
  });
}

export async function dismissInboundEmail(deps: Deps, scope: Scope, id: string, reason: string | undefined): Promise<InboundEmail> {
  return deps.db.knex.transaction(async (trx) => {
    const email = await findInbound(trx, scope, id, true);
    if (!email) throw notFound('inbound email', id);
    if (email.status === 'dismissed') return toInboundEmail(email);
    if (!OPEN.includes(email.status)) throw conflict('This email was processed: its answer is recorded on its submission', 'invalid_state_transition');
    await trx('inbound_emails').where({ id }).update({ status: 'dismissed', dismiss_reason: reason ?? null, updated_at: deps.clock.now() });
    return toInboundEmail((await findInbound(trx, scope, id))!);
  });
}

