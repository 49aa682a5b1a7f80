import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { Scope } from '../../http/types';
import { applySubmissionResponse, type SubmissionRow } from '../submissions/submissions.service';
import { SUBMISSION_EMAIL_KIND } from '../submissions/submissions.template';
import { isLenderDomain } from './sender-domain';
import type { AttachmentReading } from './attachments';
import { type Classification, type PaymentFrequency, type ReplyContext, isoNumbers } from './classifier';
import { readReply } from './reply-model';
import { contractClassification } from './reply-outcome';
import { autoReplySignal, parsedMailToInput, replyParts } from './reply-text';
import type { ParsedInbound } from './inbound-parse';
import type { InboundEmail, InboundRow } from './inbound-rows';

// Reading a reply (the classifier, with what the submission asked for) and applying what it says to
// its submission (inbound.service.ts): only from the lender's own, authenticated domain.

type S = components['schemas'];
type ResponseBody = S['RecordSubmissionResponseRequest'];

/** One line per PDF attachment (read, or why not) after the classifier's own cues. */
const withNotes = (c: S['InboundEmailClassification'], notes: string[]) => (notes.length ? { ...c, reasons: [...c.reasons, ...notes] } : c);

export function classify(msg: ParsedInbound, attachments: AttachmentReading, context?: ReplyContext): { classification: S['InboundEmailClassification']; own: string; autoReply: boolean } {
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

const isFrequency = (f: string | null | undefined): f is PaymentFrequency => f === 'daily' || f === 'weekly' || f === 'bi-weekly' || f === 'monthly';

/** What the hook knows of a submission's deal, for the classifier: the requested amount and term above all (counter is about terms). */
export async function replyContext(trx: Knex.Transaction, scope: Scope, row: SubmissionRow): Promise<ReplyContext> {
  const deal = (await trx('deals as d')
    .leftJoin('businesses as b', 'b.id', 'd.business_id')
    .where({ 'd.id': row.deal_id, 'd.location_id': scope.locationId })
    .first('d.requested_amount', 'd.desired_term_months', 'd.desired_frequency', 'd.product_type', 'b.legal_name')) as
    | { requested_amount: number | string | null; desired_term_months: number | null; desired_frequency: string | null; product_type: string | null; legal_name: string | null }
    | undefined;
  return {
    requested_amount: deal?.requested_amount != null ? Number(deal.requested_amount) : null,
    // the term the deal asks for: an offer on another term is a counter
    requested_term: deal?.desired_term_months != null ? { term: Number(deal.desired_term_months), unit: 'months' } : null,
    // ... and the schedule: "approved as submitted, but we don't do weekly" on a deal asking weekly is no approval as asked
    requested_frequency: isFrequency(deal?.desired_frequency) ? deal.desired_frequency : null,
    product_type: deal?.product_type ?? null,
    business_name: deal?.legal_name ?? null,
    // a reply naming another submission's code answers another deal
    trace_code: row.trace_code ?? null,
    // who we are to the lender: a reply naming a submitting ISO by our number or our name is written to us
    iso: await ourIso(trx, scope, row),
  };
}

/**
 * Our names and ISO numbers as this submission showed them to the lender: the location's name, and the ISO numbers
 * ("ISO #4471") in the submission email we sent it (its subject and text, as the location's template or the request's
 * override wrote them). Nothing else is known of us: a number the lender names that is not among these may be another ISO's.
 */
async function ourIso(trx: Knex.Transaction, scope: Scope, row: SubmissionRow): Promise<NonNullable<ReplyContext['iso']>> {
  const location = (await trx('locations').where({ id: scope.locationId }).first('name')) as { name: string } | undefined;
  const sent = (await trx('outgoing_emails')
    .where({ location_id: scope.locationId, kind: SUBMISSION_EMAIL_KIND })
    .whereRaw('attachments @> ?::jsonb', [JSON.stringify([{ source: { ref: row.id } }])])
    .select('subject', 'text_body')) as { subject: string; text_body: string }[];
  const numbers = [...new Set(sent.flatMap((e) => isoNumbers(`${e.subject}\n${e.text_body}`)))];
  return { names: location?.name ? [location.name] : [], numbers };
}

/**
 * Applies what an email says to `row` (locked by the caller) and returns the email's new fields.
 * A funded submission can no longer change: the email waits for review.
 */
export async function applyToSubmission(
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

export async function fromLenderDomain(trx: Knex.Transaction, scope: Scope, lenderId: string, sender: string): Promise<boolean> {
  const lender = (await trx('lenders').where({ id: lenderId, location_id: scope.locationId }).first('submission_email', 'cc_emails')) as
    | { submission_email: string | null; cc_emails: string[] | string | null }
    | undefined;
  if (!lender) return false;
  const cc = typeof lender.cc_emails === 'string' ? (JSON.parse(lender.cc_emails) as string[]) : (lender.cc_emails ?? []);
  return isLenderDomain(sender, [lender.submission_email, ...cc]);
}
