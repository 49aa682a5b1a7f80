import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { checkResponseBody, findSubmission, lockedSubmissionOr404 } from '../submissions/submissions.service';
import { EMPTY_READING, readPdfAttachments, type AttachmentReading } from './attachments';
import { dropReserved, emptyPool, fileAttachments, listedAttachments, maxFilesOf, releaseKeys, reserveKeys, type KeyPool } from './email-documents';
import { replyOutcome } from './reply-outcome';
import { autoReplySignal, replyParts } from './reply-text';
import { cleanJson, parseInbound, type ParsedInbound } from './inbound-parse';
import { COLUMNS, findInbound, json, toInboundEmail, type InboundEmail, type InboundRow } from './inbound-rows';
import { applyToSubmission, classify, replyContext } from './inbound-apply';

// The review queue (inbound.service.ts): listing, reading, assigning a reply to a submission by hand,
// dismissing it.

type S = components['schemas'];
type ListQuery = NonNullable<operations['listInboundEmails']['parameters']['query']>;
type AssignBody = S['AssignInboundEmailRequest'];

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
