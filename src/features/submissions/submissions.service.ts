import type { components, operations } from '../../../generated/schema';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { moveDealOnSystemEvent } from '../deals/deals.service';
import { getMailbox } from '../../mail/mailbox';
import { logOffer } from '../offers/offers.service';
import { businessNameOfDeal, lenderAnsweredMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { findVisibleDeal, matchSnapshots } from '../lender-matches/lender-matches.service';
import { allChannels, channelOf, describeSubmissions, type ChannelBatch } from './channels';
import { checkTemplate } from './submissions.template';
import { toSubmission, toSubmissionSnapshot, type Submission } from './submissions.mapper';
import {
  existingByLender, findSubmission, findSubmissionByTrace, insertSubmissions, lendersOfLocation, submissionsQuery, type SubmissionRow,
} from './submissions.repository';
import { newTraceCode, normalizeTraceCode, TRACE_CODE_MAX_ATTEMPTS } from './trace-code';

// What other features use of submissions' data (a feature never imports another's repository).
export { findSubmission, type SubmissionRow };

type S = components['schemas'];
type ListQuery = NonNullable<operations['listDealSubmissions']['parameters']['query']>;
type AllQuery = NonNullable<operations['listSubmissions']['parameters']['query']>;
type CreateBody = S['CreateDealSubmissionsRequest'];
type ResponseBody = S['RecordSubmissionResponseRequest'];
type WithdrawBody = S['WithdrawSubmissionRequest'];

// Submissions: one deal sent to one lender, and the submission's state machine (pending | queued |
// recorded -> sent -> approved | declined | needs_info -> funded; withdrawn). The channels that send
// one (channels.ts) depend on this file, never the reverse: email lenders get one email each on the
// mail path (submissions.email.ts: the package attached at send time; `sent` when the SMTP server
// accepted it); API lenders a funder-API attempt each (src/features/funders/attempts.ts: `queued`
// until the funder acknowledged the application, then `sent`).

async function visibleDealOr404(db: Parameters<typeof findVisibleDeal>[0], scope: Scope, dealId: string) {
  const deal = await findVisibleDeal(db, scope, dealId);
  if (!deal) throw notFound('deal', dealId, 'dealId');
  return deal;
}

export async function listDealSubmissions(deps: Deps, scope: Scope, dealId: string, query: ListQuery) {
  const db = deps.db.knex;
  await visibleDealOr404(db, scope, dealId);
  const q = submissionsQuery(db, scope).where('s.deal_id', dealId);
  if (query.status) q.where('s.status', query.status);
  const page = await paginate<SubmissionRow>(q, {
    key: deps.cursorKey, list: `submissions:${dealId}`, limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 's.created_at', idColumn: 's.id',
  });
  return { data: (await describeSubmissions(db, deps.clock, page.rows)).map(toSubmission), meta: page.meta };
}

/** `GET /v1/submissions`: every visible deal's submissions (role user: its own deals), filtered. */
export async function listSubmissions(deps: Deps, scope: Scope, query: AllQuery) {
  const db = deps.db.knex;
  const q = submissionsQuery(db, scope);
  if (query.status) q.where('s.status', query.status);
  if (query.lender_id) q.where('s.lender_id', query.lender_id);
  if (query.response_type === 'none') q.whereNull('s.response_type');
  else if (query.response_type) q.where('s.response_type', query.response_type);
  const page = await paginate<SubmissionRow>(q, {
    key: deps.cursorKey, list: 'submissions', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 's.created_at', idColumn: 's.id',
  });
  return { data: (await describeSubmissions(db, deps.clock, page.rows)).map(toSubmission), meta: page.meta };
}

export async function getSubmission(deps: Deps, scope: Scope, id: string): Promise<Submission> {
  const row = await findSubmission(deps.db.knex, scope, id);
  if (!row) throw notFound('submission', id);
  return toSubmission((await describeSubmissions(deps.db.knex, deps.clock, [row]))[0]);
}

export async function getSubmissionByReference(deps: Deps, scope: Scope, code: string): Promise<Submission> {
  const normalised = normalizeTraceCode(code);
  const row = normalised ? await findSubmissionByTrace(deps.db.knex, scope, normalised) : undefined;
  if (!row) throw notFound('submission', code, 'code');
  return toSubmission((await describeSubmissions(deps.db.knex, deps.clock, [row]))[0]);
}

/**
 * Trace codes are 40 random bits: a collision with an existing submission is rare, but the column is
 * unique, so a taken code is drawn again (at most TRACE_CODE_MAX_ATTEMPTS rounds) instead of failing.
 */
export async function reissueTakenTraceCodes(trx: Knex.Transaction, rows: { trace_code: string | null }[]): Promise<void> {
  for (let round = 0; round < TRACE_CODE_MAX_ATTEMPTS; round++) {
    const codes = rows.map((r) => r.trace_code).filter((c): c is string => !!c);
    if (!codes.length) return;
    const taken = new Set((await trx('submissions').whereIn('trace_code', codes).pluck('trace_code')) as string[]);
    const seen = new Set<string>();
    let clash = false;
    for (const r of rows) {
      if (!r.trace_code) continue;
      if (taken.has(r.trace_code) || seen.has(r.trace_code)) {
        r.trace_code = newTraceCode();
        clash = true;
      }
      seen.add(r.trace_code);
    }
    if (!clash) return;
  }
  throw new Error('could not draw an unused trace code');
}

export async function createDealSubmissions(deps: Deps, scope: Scope, dealId: string, body: CreateBody): Promise<S['SubmissionBatchResponse']> {
  const send = body.send ?? true;
  if (body.subject_override) checkTemplate(body.subject_override, 'subject_override');
  if (body.message_override) checkTemplate(body.message_override, 'message_override');
  return deps.db.knex.transaction(async (trx) => {
    await visibleDealOr404(trx, scope, dealId);
    // One request at a time per deal: two racing requests cannot both create a lender's submission.
    const locked = (await trx('deals').where({ id: dealId, location_id: scope.locationId }).forUpdate().first('id', 'status')) as { status: string };
    const documentIds = [...new Set(body.document_ids ?? [])];
    if (documentIds.length) {
      const docs: { id: string; status: string }[] = await trx('documents').where({ location_id: scope.locationId, deal_id: dealId }).whereIn('id', documentIds).select('id', 'status');
      const found = new Map(docs.map((d) => [d.id, d.status]));
      const missing = documentIds.find((id) => !found.has(id));
      if (missing) throw notFound('document on this deal', missing, 'document_ids');
      const waiting = documentIds.find((id) => found.get(id) === 'pending_upload');
      if (waiting) throw conflict(`Document ${waiting} has not been uploaded yet; finalize it first`, 'invalid_state_transition', 'document_ids');
    }
    if (body.template_id) throw notFound('email template', body.template_id, 'template_id');

    const lenders = await lendersOfLocation(trx, scope, body.lender_ids);
    const byId = new Map(lenders.map((l) => [l.id, l]));
    const missing = body.lender_ids.find((id) => !byId.has(id));
    if (missing) throw notFound('lender', missing, 'lender_ids');

    // Where money is at stake (a closed deal, a lender's hard gates) only `force: true` goes on; a
    // refusal is thrown before anything is written, so the transaction leaves nothing behind.
    const force = body.force ?? false;
    const dealClosed = locked.status === 'funded' || locked.status === 'dead';
    if (dealClosed && !force) {
      throw locked.status === 'funded'
        ? conflict(`Deal ${dealId} is funded: submitting it again needs force: true`, 'deal_funded', 'dealId')
        : conflict(`Deal ${dealId} is dead: submitting it needs force: true`, 'deal_dead', 'dealId');
    }

    const existing = await existingByLender(trx, scope, dealId);
    const now = deps.clock.now();
    const meta: S['SubmissionBatchMeta'] = { already_submitted: [], not_sent: [], warnings: [] };
    const fresh = body.lender_ids.filter((id) => !existing.has(id) && byId.get(id)!.active && (byId.get(id)!.submission_method === 'api' || byId.get(id)!.submission_email));
    const snapshots = await matchSnapshots(trx, scope, dealId, fresh, now);
    const refusedBy = fresh.filter((id) => snapshots.get(id)?.eligible === false);
    if (refusedBy.length && !force) {
      // Names and criterion names only: never a figure of the deal or its people.
      const named = refusedBy.map((id) => `${byId.get(id)!.name} (${id}): ${snapshots.get(id)!.failed.filter((f) => f.hard).map((f) => f.criterion).join(', ')}`);
      throw conflict(
        `The deal fails the hard gates of ${refusedBy.length === 1 ? '1 lender' : `${refusedBy.length} lenders`}: ${named.join('; ')}. Leave ${refusedBy.length === 1 ? 'it' : 'them'} out, or send force: true to submit anyway`,
        'lender_hard_rules_failed',
        'lender_ids',
      );
    }
    const mailbox = send ? await getMailbox(trx, scope.locationId) : null;

    const rows: Omit<SubmissionRow, 'lender_name'>[] = [];
    for (const id of body.lender_ids) {
      const lender = byId.get(id)!;
      const already = existing.get(id);
      if (already) {
        meta.already_submitted.push({ lender_id: id, lender_name: lender.name, submission_id: already });
        continue;
      }
      if (!lender.active) {
        meta.not_sent.push({ lender_id: id, lender_name: lender.name, reason: 'lender_inactive' });
        continue;
      }
      if (lender.submission_method === 'email' && !lender.submission_email) {
        meta.not_sent.push({ lender_id: id, lender_name: lender.name, reason: 'no_submission_email' });
        continue;
      }
      const viaEmail = lender.submission_method === 'email';
      const status = !send ? 'pending' : !viaEmail ? 'queued' : mailbox ? 'queued' : 'recorded';
      if (send && viaEmail && !mailbox) meta.warning = 'no_email_sender';
      const snap = snapshots.get(id);
      const row: Omit<SubmissionRow, 'lender_name'> = {
        id: newId('sub', now.getTime()),
        location_id: scope.locationId,
        deal_id: dealId,
        lender_id: id,
        status,
        submission_method: lender.submission_method,
        response_type: null,
        response_notes: null,
        decline_reason: null,
        decline_category: null,
        submitted_by_id: scope.userId,
        requested_items: [],
        document_ids: documentIds,
        match_score: snap?.score ?? null,
        match_eligible: snap?.eligible ?? null,
        match_figures: snap?.figures ?? null,
        forced: force && (dealClosed || snap?.eligible === false),
        submitted_at: null,
        responded_at: null,
        // Fixed before the first send: it is printed in the package, and every retry reuses it.
        trace_code: viaEmail && status === 'queued' ? newTraceCode() : null,
        created_at: now,
        updated_at: null,
      };
      rows.push(row);
      for (const f of snap?.failed ?? []) {
        meta.warnings.push({
          code: f.hard ? 'hard_rule_forced' : 'soft_criterion_failed', lender_id: id, lender_name: lender.name, criterion: f.criterion,
          message: f.hard
            ? `${lender.name}: ${f.criterion} is not met (a hard gate, overridden with force: true)`
            : `${lender.name}: ${f.criterion} is not met (a soft criterion; it lowers the match score)`,
        });
      }
    }
    await reissueTakenTraceCodes(trx, rows);
    await insertSubmissions(trx, rows);
    // Each channel starts sending its queued submissions, in this transaction: API lenders first
    // (attempt 1 and its job, sent by the worker through the lender's integration), then the emails.
    for (const method of ['api', 'email'] as const) {
      const items: ChannelBatch['items'] = rows
        .filter((row) => row.status === 'queued' && byId.get(row.lender_id)!.submission_method === method)
        .map((row) => ({ row, lender: byId.get(row.lender_id)! }));
      if (items.length) await channelOf(method).send(trx, deps, { scope, dealId, body, items });
    }

    const named = rows.map((row) => ({ ...row, lender_name: byId.get(row.lender_id)!.name }));
    const data: Submission[] = (await describeSubmissions(trx, deps.clock, named)).map(toSubmission);
    return { data, meta };
  });
}

/**
 * queued -> sent once the lender has the submission (its email accepted by the SMTP server, or its
 * application acknowledged by the funder's API): `submitted_at`, `submission.sent`, and the pipeline
 * moves. Only from `queued` (a conditional update: a withdrawal that got there first wins); returns
 * the row as it now stands.
 */
export async function markSubmissionSent(trx: Knex.Transaction, deps: Deps, sub: SubmissionRow, at: Date): Promise<SubmissionRow> {
  const n = await trx('submissions').where({ id: sub.id, location_id: sub.location_id, status: 'queued' }).update({ status: 'sent', submitted_at: at, updated_at: at });
  if (!n) return sub;
  const row: SubmissionRow = { ...sub, status: 'sent', submitted_at: at, updated_at: at };
  await recordEvent(trx, deps.clock, sub.location_id, 'submission.sent', {
    submission_id: row.id, deal_id: row.deal_id, lender_id: row.lender_id, lender_name: row.lender_name ?? '', submission: toSubmissionSnapshot(row),
  });
  const scope: Scope = { locationId: sub.location_id, role: 'admin', userId: null, scopes: [] };
  await moveDealOnSystemEvent(trx, deps.clock, scope, row.deal_id, 'submission_sent');
  return row;
}

const STATUS_OF_RESPONSE: Record<ResponseBody['response_type'], string> = {
  approved: 'approved',
  counter: 'approved',
  declined: 'declined',
  more_info: 'needs_info',
  withdrawn: 'withdrawn',
};
const WITHDRAWABLE = ['pending', 'queued', 'recorded', 'sent', 'approved', 'needs_info'];

export async function lockedSubmissionOr404(trx: Knex.Transaction, scope: Scope, id: string): Promise<SubmissionRow> {
  const row = await findSubmission(trx, scope, id);
  if (!row) throw notFound('submission', id);
  // The deal first, then the submission: the order fundDeal takes them in, so the two never deadlock.
  await trx('deals').where({ id: row.deal_id, location_id: scope.locationId }).forUpdate().first('id');
  await trx('submissions').where({ id, location_id: scope.locationId }).forUpdate().first('id');
  return (await findSubmission(trx, scope, id))!;
}

async function businessOfDeal(trx: Knex.Transaction, scope: Scope, dealId: string): Promise<string | null> {
  return ((await trx('deals').where({ id: dealId, location_id: scope.locationId }).first('business_id')) as { business_id: string } | undefined)?.business_id ?? null;
}

/** The field combinations the state table allows; `prefix` names a nested body (`response.`). */
export function checkResponseBody(body: ResponseBody, prefix = ''): void {
  if (body.response_type !== 'declined') {
    if (body.decline_reason !== undefined) throw invalid('decline_reason is accepted only with response_type declined', `${prefix}decline_reason`);
    if (body.decline_category !== undefined) throw invalid('decline_category is accepted only with response_type declined', `${prefix}decline_category`);
  }
  if (body.response_type !== 'more_info' && body.requested_items !== undefined) throw invalid('requested_items is accepted only with response_type more_info', `${prefix}requested_items`);
  if (body.response_type !== 'approved' && body.response_type !== 'counter' && body.offers !== undefined) {
    throw invalid('offers are accepted only with response_type approved or counter', `${prefix}offers`);
  }
}

/**
 * Records a lender's answer on a submission the caller has locked (lockedSubmissionOr404), inside its
 * transaction: status, response fields, an activity line, `submission.responded`, and the answer's
 * offers (`offerSource`: `api` when a person sent them, `email_classifier` when read from an email).
 */
export async function applySubmissionResponse(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  row: SubmissionRow,
  body: ResponseBody,
  opts: { offerSource: 'api' | 'email_classifier' | 'funder_api'; paramPrefix?: string },
): Promise<{ submission: Submission; offerIds: string[] }> {
  if (row.status === 'funded') throw conflict('The submission is funded: an advance exists, its response can no longer change', 'invalid_state_transition');
  const id = row.id;
  const now = deps.clock.now();
  const status = STATUS_OF_RESPONSE[body.response_type];
  const patch = {
    status,
    response_type: body.response_type,
    response_notes: body.response_notes ?? null,
    decline_reason: body.decline_reason ?? null,
    decline_category: body.decline_category ?? null,
    requested_items: JSON.stringify(body.requested_items ?? []),
    responded_at: now,
    updated_at: now,
  };
  await trx('submissions').where({ id, location_id: scope.locationId }).update(patch);
  if (status === 'withdrawn') for (const c of allChannels()) await c.withdrawn?.(trx, scope, id, now, 'lender');
  const updated: SubmissionRow = { ...row, ...patch, requested_items: body.requested_items ?? [] };
  const lenderName = row.lender_name ?? '';
  const businessId = await businessOfDeal(trx, scope, row.deal_id);
  await recordActivity(trx, deps.clock, scope, {
    businessId, dealId: row.deal_id, entityType: 'submission', entityId: id, entityName: lenderName,
    action: 'submission.responded', description: `${lenderName} answered: ${body.response_type}`,
    data: { status, response_type: body.response_type, ...(opts.offerSource !== 'api' ? { source: opts.offerSource } : {}) },
  });
  if (status === 'approved' || status === 'declined' || status === 'needs_info') {
    await recordEvent(trx, deps.clock, scope.locationId, 'submission.responded', {
      submission_id: id, deal_id: row.deal_id, lender_id: row.lender_id, lender_name: lenderName, submission: toSubmissionSnapshot(updated), status,
    });
  }
  const offerIds: string[] = [];
  if (body.offers?.length) {
    const deal = (await trx('deals').where({ id: row.deal_id, location_id: scope.locationId }).forUpdate().first('id', 'business_id', 'status')) as { id: string; business_id: string; status: string };
    if (deal.status === 'funded') throw conflict('Offers cannot be logged on a funded deal', 'invalid_state_transition', `${opts.paramPrefix ?? ''}offers`);
    for (const [i, terms] of body.offers.entries()) {
      const offer = await logOffer(trx, deps, scope, {
        deal, lender: { id: row.lender_id, name: lenderName }, submissionId: id, source: opts.offerSource, terms, paramPrefix: `${opts.paramPrefix ?? ''}offers.${i}.`,
      });
      offerIds.push(offer.id);
    }
  }
  if (body.response_type !== 'withdrawn') {
    // The deal's originator (and admins who asked) hear of the answer; never in the way of recording it.
    const message = lenderAnsweredMessage({
      business: await businessNameOfDeal(trx, scope.locationId, row.deal_id), lender: lenderName, responseType: body.response_type, submissionId: id,
      traceCode: row.trace_code ?? null, declineCategory: body.decline_category, declineReason: body.decline_reason, requestedItems: body.requested_items, offers: body.offers,
    });
    await notify(trx, deps, { locationId: scope.locationId, kind: 'lender_answered', dealId: row.deal_id, actorUserId: scope.userId ?? null, ...message });
  }
  return { submission: toSubmission(updated), offerIds };
}

export async function recordSubmissionResponse(deps: Deps, scope: Scope, id: string, body: ResponseBody): Promise<{ data: Submission; meta: { offer_ids: string[] } }> {
  checkResponseBody(body);
  return deps.db.knex.transaction(async (trx) => {
    const row = await lockedSubmissionOr404(trx, scope, id);
    const { submission, offerIds } = await applySubmissionResponse(trx, deps, scope, row, body, { offerSource: 'api' });
    const [withAttempt] = await describeSubmissions(trx, deps.clock, [{ ...row, status: submission.status }]);
    return { data: { ...submission, api: withAttempt.api ?? null }, meta: { offer_ids: offerIds } };
  });
}

export async function withdrawSubmission(deps: Deps, scope: Scope, id: string, body: WithdrawBody | undefined): Promise<Submission> {
  return deps.db.knex.transaction(async (trx) => {
    const row = await lockedSubmissionOr404(trx, scope, id);
    if (!WITHDRAWABLE.includes(row.status)) {
      throw conflict(`A ${row.status} submission cannot be withdrawn`, 'invalid_state_transition');
    }
    const now = deps.clock.now();
    await trx('submissions').where({ id, location_id: scope.locationId }).update({ status: 'withdrawn', updated_at: now });
    // Nothing unsent reaches the lender (a queued email is cancelled), nothing more is asked of a funder.
    for (const c of allChannels()) await c.withdrawn?.(trx, scope, id, now, 'broker');
    const lenderName = row.lender_name ?? '';
    await recordActivity(trx, deps.clock, scope, {
      businessId: await businessOfDeal(trx, scope, row.deal_id), dealId: row.deal_id, entityType: 'submission', entityId: id, entityName: lenderName,
      action: 'submission.withdrawn', description: `Withdrawn from ${lenderName}${body?.reason ? `: ${body.reason}` : ''}`, data: { reason: body?.reason ?? null },
    });
    return toSubmission((await describeSubmissions(trx, deps.clock, [{ ...row, status: 'withdrawn', updated_at: now }]))[0]);
  });
}
