import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { enqueueJob, LEASE_MS, type Db } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { iso, isoRequired } from '../../lib/format';
import type { SubmissionRow } from '../submissions/submissions.service';
import type { FunderErrorCode, InternalStatus } from './adapter';

// A funder-API attempt's row, its poll schedule and retry guard, its wire shape, and creating one
// (attempts.ts describes the whole flow).

type S = components['schemas'];
export type ApiSubmission = S['ApiSubmission'];

export const FUNDER_SUBMIT_QUEUE = 'funder.submit';
export const RETRY_GUARD_MS = 2 * 60_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
export const STALE_AFTER_MS = 7 * 24 * HOUR;
/** Lease of a request's check-status: longer than the longest funder call (30 s). */
export const REQUEST_LEASE_MS = LEASE_MS;
export const POLLED: InternalStatus[] = ['sent', 'pending', 'approved'];
export const CLOSED_SUBMISSION = ['withdrawn', 'funded', 'declined', 'expired'];

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

export function parseRow(r: AttemptRow): AttemptRow {
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
