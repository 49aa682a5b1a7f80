import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { systemScope } from '../../http/types';
import { newId } from '../../lib/ids';
import { EMPTY_READING, readPdfAttachments, type AttachmentReading } from './attachments';
import { dropReserved, emptyPool, fileAttachments, listedAttachments, maxFilesOf, releaseKeys, reserveKeys, type Filing, type KeyPool } from './email-documents';
import { replyOutcome } from './reply-outcome';
import { fromTrustedHeader, isAligned, type SenderAuth } from './sender-auth';
import { autoReplySignal } from './reply-text';
import { clean, cleanJson, INBOUND_MAX_BYTES, parseInbound, type ParsedInbound } from './inbound-parse';
import { matchMerchantReply, matchSubmission, MERCHANT_REPLY } from './inbound-match';
import { COLUMNS, findInbound, toInboundEmail, type InboundEmail, type InboundRow } from './inbound-rows';
import { applyToSubmission, classify, fromLenderDomain, replyContext } from './inbound-apply';
import { lockedSubmissionOr404 } from '../submissions/submissions.service';

// Receiving a reply (inbound.service.ts): stored whole, matched, read and applied in one transaction;
// its files filed on the deal when its sender may file them.


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
  const authenticated = await isAligned(auth, msg.from.address);
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
