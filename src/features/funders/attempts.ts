import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import type { Scope } from '../../http/types';
import { claimRows, DEFAULT_BACKOFF_MS, enqueueJob, LEASE_MS, newLeaseId, type Db, type JobRow } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { iso, isoRequired } from '../../lib/format';
import { policyForLocation } from '../../outbound/policy';
import { PermanentJobError, registerJobHandler, registerPollSource } from '../../jobs/registry';
import { businessNameOfDeal, submissionFailedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { findFunderSpec, isFunderSpecActive, credentialMap, type FunderSpec } from '../lenders/funder-specs';
import { logOffer, type OfferTerms } from '../offers/offers.service';
import { applySubmissionResponse, markSubmissionSent, type SubmissionRow } from '../submissions/submissions.service';
import { registerSubmissionChannel } from '../submissions/channels';
import { ATTEMPT_STATE, missingFields, PERMANENT_ERRORS, redactSecrets, type AdapterContext, type FunderAnswer, type FunderApplication, type FunderErrorCode, type FunderResult, type InternalStatus } from './adapter';

// Funder-API attempts: one row of `api_submissions` per attempt to send a submission through its
// lender's integration; the latest is the submission's `api`.
//
//   create (POST /v1/deals/{id}/submissions, or a retry)  -> attempt `queued` + a `funder.submit` job
//   the job: adapter.submit -> `sent` (or the funder's state) with external_id, submitted_at and the
//            first poll 15 minutes later; the submission `queued` -> `sent` (submission.sent, the
//            pipeline moves); or `errored` with error_code: auth_failed / validation / config end the
//            job (never retried automatically), timeout / network / funder_error fail it, so the job
//            queue retries it on its backoff (1 m, 5 m, 30 m, 2 h).
//   polling: the worker claims attempts whose next_poll_at is due (a lease, FOR UPDATE SKIP LOCKED:
//            never two pollers on one attempt), asks the funder, records the answer and schedules the
//            next poll: every 15 minutes for 2 hours, hourly to 24 hours, every 6 hours to 7 days,
//            then `stale` with next_poll_at null. A poll that fails records error_code/error_message
//            on the attempt and keeps the schedule: it does not mean the funder lost the application.
//   check-status: the same poll, now, under the same lease, leaving the schedule alone.
//   retry: a new attempt when the last is errored or stale and 2 minutes have passed since it was sent.
//
// The funder's answer moves the submission (ATTEMPT_STATE): approved / declined / needs_info through
// the same path as a lender's answer (submission.responded), funded and expired directly; offers the
// funder returns are logged on the deal with `source: funder_api`, identical options collapsed (also
// across polls: `offer_keys`), none made primary, each firing offer.received.
//
// Credentials are unsealed only inside the adapter call (ctx.credentials()) and never logged; what a
// funder says is stored with every secret credential value replaced by ****.

type S = components['schemas'];
export type ApiSubmission = S['ApiSubmission'];

export const FUNDER_SUBMIT_QUEUE = 'funder.submit';
export const RETRY_GUARD_MS = 2 * 60_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
export const STALE_AFTER_MS = 7 * 24 * HOUR;
/** Lease of a request's check-status: longer than the longest funder call (30 s). */
const REQUEST_LEASE_MS = LEASE_MS;
const POLLED: InternalStatus[] = ['sent', 'pending', 'approved'];
const CLOSED_SUBMISSION = ['withdrawn', 'funded', 'declined', 'expired'];

export interface AttemptRow {
  id: string;
  location_id: string;
  submission_id: string;
  deal_id: string;
  lender_id: string;
  funder_api_spec_id: string;
  environment: 'development' | 'production';
  external_id: string | null;
  funder_status: string | null;
  internal_status: InternalStatus;
  deep_link_url: string | null;
  error_message: string | null;
  error_code: FunderErrorCode | null;
  attempt_number: number;
  poll_count: number;
  offer_keys: string[];
  submitted_at: Date | null;
  last_polled_at: Date | null;
  next_poll_at: Date | null;
  locked_by: string | null;
  lease_id: string | null;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

// ------------------------------------------------------------------ schedule and the wire shape

/**
 * The next poll after one at `at` for an application submitted at `submittedAt`: the next point of
 * the grid 15 m, 30 m ... 2 h, 3 h ... 24 h, 30 h ... 7 days; null when 7 days have passed (stale).
 */
export function nextPollAt(submittedAt: Date, at: Date): Date | null {
  const s = submittedAt.getTime();
  const e = at.getTime() - s;
  if (e >= STALE_AFTER_MS) return null;
  let next: number;
  if (e < 2 * HOUR) next = (Math.floor(e / (15 * MIN)) + 1) * 15 * MIN;
  else if (e < 24 * HOUR) next = (Math.floor(e / HOUR) + 1) * HOUR;
  else next = 24 * HOUR + (Math.floor((e - 24 * HOUR) / (6 * HOUR)) + 1) * 6 * HOUR;
  return new Date(s + Math.min(next, STALE_AFTER_MS));
}

/** When the 2-minute guard counts from: the last send, or the attempt's creation when it never went out. */
const sentAt = (a: Pick<AttemptRow, 'submitted_at' | 'created_at'>) => new Date(a.submitted_at ?? a.created_at);

/** Whether a retry would be accepted now, and how long the guard still blocks it. */
export function retryState(a: AttemptRow, submissionStatus: string, now: Date): { canRetry: boolean; afterSeconds: number | null; reason: 'closed' | 'not_failed' | 'too_soon' | null } {
  if (CLOSED_SUBMISSION.includes(submissionStatus)) return { canRetry: false, afterSeconds: null, reason: 'closed' };
  if (a.internal_status !== 'errored' && a.internal_status !== 'stale') return { canRetry: false, afterSeconds: null, reason: 'not_failed' };
  const left = sentAt(a).getTime() + RETRY_GUARD_MS - now.getTime();
  if (left > 0) return { canRetry: false, afterSeconds: a.external_id ? null : Math.ceil(left / 1000), reason: 'too_soon' };
  return { canRetry: true, afterSeconds: null, reason: null };
}

export function toApiSubmission(a: AttemptRow, submissionStatus: string, now: Date): ApiSubmission {
  const r = retryState(a, submissionStatus, now);
  return {
    id: a.id,
    submission_id: a.submission_id,
    deal_id: a.deal_id,
    lender_id: a.lender_id,
    funder_api_spec_id: a.funder_api_spec_id,
    environment: a.environment,
    external_id: a.external_id,
    funder_status: a.funder_status,
    internal_status: a.internal_status,
    deep_link_url: a.deep_link_url,
    error_message: a.error_message,
    error_code: a.error_code,
    attempt_number: a.attempt_number,
    submitted_at: iso(a.submitted_at),
    last_polled_at: iso(a.last_polled_at),
    next_poll_at: iso(a.next_poll_at),
    created_at: isoRequired(a.created_at),
    updated_at: iso(a.updated_at),
    can_retry: r.canRetry,
    retry_after_seconds: r.afterSeconds,
  };
}

function parseRow(r: AttemptRow): AttemptRow {
  return { ...r, poll_count: Number(r.poll_count), attempt_number: Number(r.attempt_number), offer_keys: typeof r.offer_keys === 'string' ? JSON.parse(r.offer_keys) : (r.offer_keys ?? []) };
}

/** The latest attempt of each submission. */
export async function latestAttempts(db: Db, locationId: string, submissionIds: string[]): Promise<Map<string, AttemptRow>> {
  if (!submissionIds.length) return new Map();
  const rows = (await db.raw(
    `SELECT DISTINCT ON (submission_id) * FROM api_submissions WHERE location_id = ? AND submission_id = ANY(?::text[]) ORDER BY submission_id, attempt_number DESC`,
    [locationId, submissionIds],
  )).rows as AttemptRow[];
  return new Map(rows.map((r) => [r.submission_id, parseRow(r)]));
}

/** Each API submission's `api` (its latest attempt), read in one query; email submissions keep null. */
export async function withApi<T extends SubmissionRow>(db: Db, clock: { now(): Date }, rows: T[]): Promise<(T & { api: ApiSubmission | null })[]> {
  const ids = rows.filter((r) => r.submission_method === 'api').map((r) => r.id);
  const latest = ids.length ? await latestAttempts(db, rows[0].location_id, ids) : new Map<string, AttemptRow>();
  const now = clock.now();
  return rows.map((r) => {
    const a = latest.get(r.id);
    return { ...r, api: a ? toApiSubmission(a, r.status, now) : null };
  });
}

// ------------------------------------------------------------------ creating an attempt

/** A new `queued` attempt for the submission and its `funder.submit` job, in the caller's transaction. */
export async function createAttempt(
  trx: Knex.Transaction,
  deps: Deps,
  input: { locationId: string; submissionId: string; dealId: string; lenderId: string; specId: string | null; environment: string | null; attemptNumber: number },
): Promise<AttemptRow> {
  const now = deps.clock.now();
  const row: AttemptRow = {
    id: newId('att', now.getTime()),
    location_id: input.locationId,
    submission_id: input.submissionId,
    deal_id: input.dealId,
    lender_id: input.lenderId,
    funder_api_spec_id: input.specId ?? 'unconfigured',
    environment: input.environment === 'production' ? 'production' : 'development',
    external_id: null,
    funder_status: null,
    internal_status: 'queued',
    deep_link_url: null,
    error_message: null,
    error_code: null,
    attempt_number: input.attemptNumber,
    poll_count: 0,
    offer_keys: [],
    submitted_at: null,
    last_polled_at: null,
    next_poll_at: null,
    locked_by: null,
    lease_id: null,
    locked_until: null,
    created_at: now,
    updated_at: null,
  };
  await trx('api_submissions').insert({ ...row, offer_keys: JSON.stringify([]) });
  await enqueueJob(trx, deps.clock, { queue: FUNDER_SUBMIT_QUEUE, payload: { attempt_id: row.id, location_id: row.location_id }, maxAttempts: 5 });
  return row;
}

// ------------------------------------------------------------------ calling the funder

interface CallContext {
  spec: FunderSpec;
  ctx: AdapterContext;
  /** Secret credential values, to redact from whatever the funder says. */
  secrets: () => string[];
}

/** The application the funder receives, read from the deal. */
export async function applicationOf(db: Db, locationId: string, a: Pick<AttemptRow, 'id' | 'submission_id' | 'deal_id'>): Promise<FunderApplication> {
  const deal = await db('deals').where({ id: a.deal_id, location_id: locationId }).first();
  const biz = await db('businesses').where({ id: deal.business_id, location_id: locationId }).first();
  const people = (await db('business_people as bp')
    .join('people as p', 'p.id', 'bp.person_id')
    .where({ 'bp.business_id': biz.id, 'bp.location_id': locationId, 'bp.active': true })
    .orderBy([{ column: 'bp.is_primary_contact', order: 'desc' }, { column: 'bp.created_at' }, { column: 'bp.id' }])
    .select('p.first_name', 'p.last_name', 'p.email', 'p.phone', 'bp.ownership_percent')) as { first_name: string; last_name: string; email: string | null; phone: string | null; ownership_percent: string | number | null }[];
  const owner = (typeof deal.owner === 'string' ? JSON.parse(deal.owner) : deal.owner ?? {}) as Record<string, string | null>;
  const first = people[0];
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const date = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'string' ? v.slice(0, 10) : null);
  return {
    reference: a.submission_id,
    attempt_id: a.id,
    business_name: biz.legal_name,
    dba: biz.dba,
    ein: biz.ein,
    entity_type: biz.entity_type,
    industry: biz.industry,
    business_start_date: date(biz.business_start_date),
    address: biz.address,
    city: biz.city,
    state: biz.state,
    zip: biz.zip,
    phone: biz.phone,
    email: biz.email,
    state_incorporated: deal.state_incorporated,
    requested_amount: num(deal.requested_amount),
    annual_revenue: num(deal.annual_revenue),
    use_of_funds: deal.use_of_funds,
    product_type: deal.product_type,
    desired_term_months: num(deal.desired_term_months),
    desired_frequency: deal.desired_frequency,
    'owner.first_name': owner.first_name ?? first?.first_name ?? null,
    'owner.last_name': owner.last_name ?? first?.last_name ?? null,
    'owner.email': owner.email ?? first?.email ?? null,
    'owner.phone': owner.phone ?? first?.phone ?? null,
    owners: people.map((p) => ({ first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone, ownership_percent: num(p.ownership_percent) })),
  };
}

/**
 * Everything an adapter call needs, or the `config` failure that stops it before anything is sent:
 * the integration unknown or switched off, the mock outside a test location, no credentials.
 */
async function callContext(deps: Deps, a: AttemptRow): Promise<CallContext | { ok: false; error_code: 'config'; error_message: string }> {
  const db = deps.db.knex;
  const lender = await db('lenders').where({ id: a.lender_id, location_id: a.location_id }).first('funder_api_spec_id', 'api_credentials_encrypted');
  const location = (await db('locations').where({ id: a.location_id }).first('is_test')) as { is_test: boolean };
  const spec = findFunderSpec(a.funder_api_spec_id);
  const fail = (error_message: string) => ({ ok: false as const, error_code: 'config' as const, error_message });
  if (!spec) return fail(`The lender's funder integration '${a.funder_api_spec_id}' is not available on this server`);
  if (!isFunderSpecActive(spec)) return fail(`The funder integration '${spec.id}' is switched off on this server`);
  if (spec.testOnly && !location.is_test) return fail(`The funder integration '${spec.id}' works only in test locations`);
  if (!lender?.api_credentials_encrypted) return fail('The lender has no API credentials; set them with PUT /v1/lenders/{id}/api-config');
  const sealed: string = lender.api_credentials_encrypted;
  const credentials = () => credentialMap(spec, deps.secrets.open(sealed));
  const application = await applicationOf(db, a.location_id, a);
  return {
    spec,
    secrets: () => {
      const c = credentials();
      return spec.credential_spec.filter((f) => f.secret).map((f) => c[f.key]);
    },
    ctx: {
      credentials,
      environment: a.environment,
      policy: policyForLocation({ locationIsTest: location.is_test }),
      locationIsTest: location.is_test,
      attemptId: a.id,
      attemptNumber: a.attempt_number,
      pollCount: a.poll_count,
      application,
    },
  };
}

/** An adapter that throws (a bug, not the funder) is a funder_error with a fixed sentence. */
async function safely(run: () => Promise<FunderResult>): Promise<FunderResult> {
  try {
    return await run();
  } catch {
    return { ok: false, error_code: 'funder_error', error_message: 'The funder integration failed unexpectedly' };
  }
}

/** Every string the funder said, with secret credentials replaced by ****. */
function redacted(result: FunderResult, secrets: string[]): FunderResult {
  const r = (t: string | null | undefined) => redactSecrets(t, secrets);
  if (!result.ok) return { ...result, error_message: r(result.error_message) ?? '', funder_status: r(result.funder_status ?? null) };
  return {
    ...result,
    external_id: r(result.external_id ?? null),
    funder_status: r(result.funder_status),
    message: r(result.message ?? null),
    deep_link_url: r(result.deep_link_url ?? null),
    requested_items: result.requested_items?.map((i) => r(i) ?? ''),
    offers: result.offers?.map((o) => ({ ...o, notes: o.notes ? (r(o.notes) ?? undefined) : o.notes })),
  };
}

// ------------------------------------------------------------------ recording what the funder said

const systemScope = (locationId: string): Scope => ({ locationId, role: 'admin', userId: null, scopes: [] });

async function lockSubmission(trx: Knex.Transaction, locationId: string, submissionId: string): Promise<SubmissionRow | undefined> {
  const s = (await trx('submissions').where({ id: submissionId, location_id: locationId }).first('deal_id')) as { deal_id: string } | undefined;
  if (!s) return undefined;
  // The deal first, then the submission: the order every other writer takes them in.
  await trx('deals').where({ id: s.deal_id, location_id: locationId }).forUpdate().first('id');
  return (await trx('submissions as s').leftJoin('lenders as l', 'l.id', 's.lender_id').where({ 's.id': submissionId }).forUpdate('s').first('s.*', 'l.name as lender_name')) as SubmissionRow;
}

async function isLatest(trx: Knex.Transaction, a: AttemptRow): Promise<boolean> {
  const r = (await trx('api_submissions').where({ submission_id: a.submission_id }).max('attempt_number as n').first()) as { n: number | string | null };
  return Number(r.n) === a.attempt_number;
}

const offerKey = (o: OfferTerms) =>
  [Number(o.amount).toFixed(2), Number(o.factor_rate).toFixed(4), o.term, o.term_unit ?? 'days', o.payment_frequency ?? 'daily', o.payment_amount ?? '', o.position ?? 1].join('|');

/** The submission follows the funder's state; the funder's offers are logged (collapsed, never twice). */
async function followFunder(trx: Knex.Transaction, deps: Deps, a: AttemptRow, sub: SubmissionRow, answer: FunderAnswer): Promise<string[]> {
  const scope = systemScope(a.location_id);
  const target = ATTEMPT_STATE[answer.state].submission;
  let current = sub;
  if (current.submitted_at === null || current.status === 'queued') current = await markSubmissionSent(trx, deps, current, deps.clock.now());
  if (current.status === 'withdrawn' || current.status === 'funded') return [];
  if (target !== current.status && target !== 'sent') {
    if (target === 'approved' || target === 'declined' || target === 'needs_info') {
      const response_type = target === 'needs_info' ? 'more_info' : target;
      await applySubmissionResponse(trx, deps, scope, current, {
        response_type,
        response_notes: answer.message ?? (answer.funder_status ? `Funder status: ${answer.funder_status}` : undefined),
        ...(target === 'declined' && answer.message ? { decline_reason: answer.message.slice(0, 500) } : {}),
        ...(target === 'needs_info' ? { requested_items: (answer.requested_items ?? []).slice(0, 50).map((i) => i.slice(0, 500)) } : {}),
      }, { offerSource: 'funder_api' });
    } else {
      // funded / expired: the funder's word, recorded as such.
      const now = deps.clock.now();
      await trx('submissions').where({ id: current.id }).update({ status: target, updated_at: now, ...(current.responded_at ? {} : { responded_at: now }) });
      await recordActivity(trx, deps.clock, scope, {
        businessId: ((await trx('deals').where({ id: a.deal_id }).first('business_id')) as { business_id: string }).business_id,
        dealId: a.deal_id, entityType: 'submission', entityId: current.id, entityName: current.lender_name ?? '',
        action: 'submission.status_changed', description: `${current.lender_name ?? 'The funder'} reports ${answer.funder_status ?? target}`,
        data: { status: target, funder_status: answer.funder_status, source: 'funder_api' },
      });
    }
  }
  return logFunderOffers(trx, deps, a, current, answer.offers ?? []);
}

async function logFunderOffers(trx: Knex.Transaction, deps: Deps, a: AttemptRow, sub: SubmissionRow, offers: OfferTerms[]): Promise<string[]> {
  if (!offers.length) return [];
  const deal = (await trx('deals').where({ id: a.deal_id, location_id: a.location_id }).first('id', 'business_id', 'status')) as { id: string; business_id: string; status: string };
  if (deal.status === 'funded') return [];
  const known = new Set(a.offer_keys);
  const ids: string[] = [];
  for (const terms of offers) {
    const key = offerKey(terms);
    if (known.has(key)) continue;
    known.add(key);
    try {
      // A savepoint per offer: one the funder got wrong (a negative amount) is skipped, not fatal.
      const offer = await trx.transaction((sp) => logOffer(sp, deps, systemScope(a.location_id), { deal, lender: { id: a.lender_id, name: sub.lender_name ?? '' }, submissionId: a.submission_id, source: 'funder_api', terms: { ...terms, status: 'pending' } }));
      ids.push(offer.id);
    } catch (err) {
      deps.logger.warn({ attempt_id: a.id, err_code: (err as { code?: string }).code }, 'an offer from the funder could not be logged');
    }
  }
  a.offer_keys = [...known];
  return ids;
}

/**
 * Records a submit outcome on the attempt (only while it is still waiting to be sent), and moves the
 * submission when this attempt is its latest. Returns the error when the attempt failed.
 */
async function recordSubmit(deps: Deps, attemptId: string, result: FunderResult, sent: boolean, lastAttempt = false): Promise<FunderErrorCode | null> {
  return deps.db.knex.transaction(async (trx) => {
    const first = (await trx('api_submissions').where({ id: attemptId }).first('location_id', 'submission_id')) as { location_id: string; submission_id: string };
    const sub = await lockSubmission(trx, first.location_id, first.submission_id);
    const a = parseRow((await trx('api_submissions').where({ id: attemptId }).forUpdate().first()) as AttemptRow);
    if (!sub || (a.internal_status !== 'queued' && a.internal_status !== 'errored') || a.external_id) return null;
    const now = deps.clock.now();
    if (!result.ok) {
      await trx('api_submissions').where({ id: a.id }).update({
        internal_status: 'errored', error_code: result.error_code, error_message: result.error_message.slice(0, 2000),
        funder_status: result.funder_status ?? a.funder_status, submitted_at: sent ? now : a.submitted_at, updated_at: now,
      });
      if (result.error_code === 'auth_failed' || result.error_code === 'config') {
        await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_error: result.error_message.slice(0, 500) });
      }
      if ((PERMANENT_ERRORS.has(result.error_code) || lastAttempt) && !CLOSED_SUBMISSION.includes(sub.status) && (await isLatest(trx, a))) {
        // Failed for good (no retry follows): the deal's originator is told, in this transaction.
        const message = submissionFailedMessage({
          business: await businessNameOfDeal(trx, a.location_id, sub.deal_id), lender: sub.lender_name ?? '', submissionId: sub.id, how: 'api', reason: result.error_message,
        });
        await notify(trx, deps, { locationId: a.location_id, kind: 'submission_failed', dealId: sub.deal_id, actorUserId: null, ...message });
      }
      return result.error_code;
    }
    const state = ATTEMPT_STATE[result.state];
    a.external_id = result.external_id ?? null;
    const patch = {
      external_id: a.external_id, funder_status: result.funder_status, internal_status: state.internal, deep_link_url: result.deep_link_url ?? null,
      error_code: null, error_message: null, submitted_at: now, next_poll_at: state.final ? null : nextPollAt(now, now), updated_at: now,
    };
    await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_verified_at: now, api_last_error: null });
    if (CLOSED_SUBMISSION.includes(sub.status) || !(await isLatest(trx, a))) {
      // Withdrawn meanwhile, or superseded by a retry: the funder's answer is kept, nothing is polled.
      await trx('api_submissions').where({ id: a.id }).update({ ...patch, next_poll_at: null });
      return null;
    }
    await followFunder(trx, deps, a, sub, result);
    await trx('api_submissions').where({ id: a.id }).update({ ...patch, offer_keys: JSON.stringify(a.offer_keys) });
    return null;
  });
}

/** The `funder.submit` job: send the attempt's application once; see the header for the outcomes. */
export async function runSubmitJob(deps: Deps, payload: unknown, job?: Pick<JobRow, 'attempts' | 'max_attempts'>): Promise<void> {
  const { attempt_id } = payload as { attempt_id: string };
  const row = (await deps.db.knex('api_submissions').where({ id: attempt_id }).first()) as AttemptRow | undefined;
  if (!row) return;
  const a = parseRow(row);
  if ((a.internal_status !== 'queued' && a.internal_status !== 'errored') || a.external_id) return;
  const sub = (await deps.db.knex('submissions').where({ id: a.submission_id }).first('status')) as { status: string } | undefined;
  if (!sub || sub.status === 'withdrawn') return;

  const call = await callContext(deps, a);
  let result: FunderResult;
  let sent = false;
  if ('ok' in call) result = call;
  else {
    const missing = missingFields(call.ctx.application, call.spec.required_fields);
    if (missing.length) {
      result = { ok: false, error_code: 'validation', error_message: `The deal lacks fields ${call.spec.display_name} requires: ${missing.join(', ')}` };
    } else {
      sent = true;
      result = redacted(await safely(() => call.spec.adapter.submit(call.ctx)), call.secrets());
    }
  }
  const error = await recordSubmit(deps, a.id, result, sent, !!job && job.attempts + 1 >= job.max_attempts);
  if (!error) return;
  deps.logger.warn({ attempt_id: a.id, error_code: error }, 'funder submission failed');
  if (PERMANENT_ERRORS.has(error)) throw new PermanentJobError(`funder submission failed: ${error}`);
  throw new Error(`funder submission failed: ${error}`); // retried on the job queue's backoff
}

export const SUBMIT_BACKOFF_MS = DEFAULT_BACKOFF_MS;

export function registerFunderJobs(): void {
  // The funder API as a channel of the submission's state machine (src/features/submissions/channels.ts).
  registerSubmissionChannel('api', {
    send: async (trx, deps, { scope, dealId, items }) => {
      for (const { row, lender } of items) {
        await createAttempt(trx, deps, {
          locationId: scope.locationId, submissionId: row.id, dealId, lenderId: lender.id, specId: lender.funder_api_spec_id, environment: lender.api_environment, attemptNumber: 1,
        });
      }
    },
    // Withdrawn by the broker: nothing more is asked of the funder (a queued attempt's job ends unsent).
    withdrawn: async (trx, scope, submissionId, now, by) => {
      if (by !== 'broker') return;
      await trx('api_submissions').where({ submission_id: submissionId, location_id: scope.locationId }).whereNotNull('next_poll_at').update({ next_poll_at: null, updated_at: now });
    },
    describe: (db, clock, rows) => withApi(db, clock, rows),
  });
  registerJobHandler(FUNDER_SUBMIT_QUEUE, (deps, payload, job) => runSubmitJob(deps, payload, job), { backoffMs: SUBMIT_BACKOFF_MS });
  // Attempts whose next poll is due, claimed by the worker after the job queue.
  registerPollSource({
    name: 'funder_polls',
    beforeJobs: false,
    open: (deps) => ({
      claim: async (c) =>
        (await claimDuePolls(deps.db.knex, c)).map((a) => async () => {
          try {
            await pollAttempt(deps, a, { reschedule: true });
          } catch (err) {
            // Not recorded: the lease runs out and the attempt is polled again.
            deps.logger.error({ err, attempt_id: a.id }, 'funder status poll could not be recorded');
          }
        }),
    }),
  });
}

// ------------------------------------------------------------------ polling

/** Claims up to `limit` attempts whose next poll is due, under one lease. */
export async function claimDuePolls(db: Db, o: { now: Date; limit: number; workerId: string; checkLiveness: boolean }): Promise<AttemptRow[]> {
  const rows = await claimRows<AttemptRow>(db, {
    table: 'api_submissions', due: `next_poll_at IS NOT NULL AND next_poll_at <= ?`, dueBindings: [o.now], orderBy: 'next_poll_at',
    limit: o.limit, now: o.now, workerId: o.workerId, checkLiveness: o.checkLiveness,
  });
  return rows.map(parseRow);
}

/**
 * Asks the funder for a claimed attempt's status and records the answer under the claim's lease.
 * `reschedule`: the poller moves next_poll_at along the schedule (or to stale); check-status leaves
 * the schedule alone. Returns false when the lease was lost (nothing recorded).
 */
export async function pollAttempt(deps: Deps, a: AttemptRow, opts: { reschedule: boolean }): Promise<boolean> {
  const sub = (await deps.db.knex('submissions').where({ id: a.submission_id }).first('status')) as { status: string } | undefined;
  let result: FunderResult | null = null;
  if (sub && sub.status !== 'withdrawn' && a.external_id && POLLED.concat(opts.reschedule ? [] : ['stale', 'errored', 'declined', 'funded', 'expired']).includes(a.internal_status)) {
    const call = await callContext(deps, a);
    result = 'ok' in call ? call : redacted(await safely(() => call.spec.adapter.status(call.ctx, a.external_id!)), call.secrets());
  }
  return deps.db.knex.transaction(async (trx) => {
    const current = await lockSubmission(trx, a.location_id, a.submission_id);
    const fresh = (await trx('api_submissions').where({ id: a.id, lease_id: a.lease_id }).forUpdate().first()) as AttemptRow | undefined;
    if (!fresh) return false;
    const now = deps.clock.now();
    const release = { locked_by: null, lease_id: null, locked_until: null };
    const row = parseRow(fresh);
    if (!result || !current) {
      // Withdrawn, or nothing to ask: polling ends.
      await trx('api_submissions').where({ id: a.id }).update({ ...release, next_poll_at: null, updated_at: now });
      return true;
    }
    const schedule = (final: boolean): { next_poll_at?: Date | null; internal_status?: InternalStatus } => {
      if (!opts.reschedule) return final ? { next_poll_at: null } : {};
      if (final) return { next_poll_at: null };
      const next = nextPollAt(new Date(row.submitted_at ?? row.created_at), now);
      return next ? { next_poll_at: next } : { next_poll_at: null, internal_status: 'stale' };
    };
    if (!result.ok) {
      if (result.error_code === 'auth_failed' || result.error_code === 'config') {
        await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_error: result.error_message.slice(0, 500) });
      }
      // The funder may still have the application: the error is recorded, the schedule goes on.
      await trx('api_submissions').where({ id: a.id }).update({
        ...release, ...schedule(false), error_code: result.error_code, error_message: result.error_message.slice(0, 2000), last_polled_at: now, updated_at: now,
      });
      return true;
    }
    const state = ATTEMPT_STATE[result.state];
    await trx('lenders').where({ id: a.lender_id, location_id: a.location_id }).update({ api_last_verified_at: now, api_last_error: null });
    const latest = await isLatest(trx, row);
    if (latest && current.status !== 'withdrawn') await followFunder(trx, deps, row, current, result);
    const sched = schedule(state.final);
    await trx('api_submissions').where({ id: a.id }).update({
      ...release,
      funder_status: result.funder_status,
      internal_status: state.final || sched.internal_status !== 'stale' ? state.internal : 'stale',
      ...(sched.next_poll_at !== undefined ? { next_poll_at: sched.next_poll_at } : {}),
      deep_link_url: result.deep_link_url ?? row.deep_link_url,
      error_code: null,
      error_message: null,
      poll_count: row.poll_count + 1,
      offer_keys: JSON.stringify(row.offer_keys),
      last_polled_at: now,
      updated_at: now,
    });
    return true;
  });
}

/** Takes the lease of one attempt for a request (check-status); null when a poll holds it now. */
export async function leaseForRequest(db: Db, attemptId: string, now: Date, requestId: string): Promise<AttemptRow | null> {
  const leaseId = newLeaseId();
  const rows = (await db('api_submissions')
    .where({ id: attemptId })
    .andWhere((w) => w.whereNull('locked_until').orWhere('locked_until', '<=', now))
    .update({ locked_by: requestId, lease_id: leaseId, locked_until: new Date(now.getTime() + REQUEST_LEASE_MS) })
    .returning('*')) as AttemptRow[];
  return rows[0] ? parseRow(rows[0]) : null;
}
