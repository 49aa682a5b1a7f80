import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Scope } from '../../http/types';
import { SUBMISSION_EMAIL_KIND } from '../submissions/submissions.template';
import { findSubmission, type SubmissionRow } from '../submissions/submissions.service';
import { findTraceCodes, normalizeTraceCode } from '../submissions/trace-code';
import type { ParsedInbound } from './inbound-parse';

// Matching a reply (inbound.service.ts) to one of its location's submissions, or to a deal's thread
// with the merchant.

type S = components['schemas'];

export type Match = { row: SubmissionRow; by: 'reply_to' | 'in_reply_to' | 'trace_code' } | { ambiguous: true } | null;

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

export async function matchSubmission(trx: Knex.Transaction, scope: Scope, msg: ParsedInbound, attachmentText = ''): Promise<Match> {
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
export async function matchMerchantReply(trx: Knex.Transaction, scope: Scope, msg: ParsedInbound): Promise<{ dealId: string; sentTo: string | null } | null> {
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
export const MERCHANT_REPLY: S['InboundEmailClassification'] = {
  type: 'unclassified', confidence: 1, response_type: null, decline_category: null, decline_reason: null, requested_items: [], offers: [],
  reasons: ["a merchant's reply to an email the location sent with a portal link: not a lender's answer"],
};
