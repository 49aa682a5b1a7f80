import type { Deps } from '../../deps';
import { ApiError, conflict, notFound } from '../../http/errors';
import type { Scope } from '../../http/types';
import { findSubmission, lockedSubmissionOr404, type SubmissionRow } from '../submissions/submissions.service';
import { toSubmission, type Submission } from '../submissions/submissions.mapper';
import { FUNDER_SUBMIT_QUEUE, createAttempt, latestAttempts, leaseForRequest, pollAttempt, retryState, withApi, type AttemptRow } from './attempts';

// POST /v1/submissions/{id}/check-status and POST /v1/submissions/{id}/retry (the funder-API path
// is in ./attempts.ts).

const noApi = (id: string) => new ApiError('no_api_submission', `Submission ${id} never went through a funder API`);

async function present(deps: Deps, scope: Scope, id: string): Promise<Submission> {
  const row = (await findSubmission(deps.db.knex, scope, id))!;
  const [withAttempt] = await withApi(deps.db.knex, deps.clock, [row]);
  return toSubmission(withAttempt);
}

async function latestOr404(deps: Deps, sub: SubmissionRow): Promise<AttemptRow> {
  const a = (await latestAttempts(deps.db.knex, sub.location_id, [sub.id])).get(sub.id);
  if (sub.submission_method !== 'api' || !a) throw noApi(sub.id);
  return a;
}

/**
 * Asks the funder now, under the attempt's lease (a poll in flight answers 409
 * `status_check_in_progress`: retry in a moment). The schedule is left alone; a transport error
 * is recorded on the attempt and answered as the submission, never thrown.
 */
export async function checkSubmissionStatus(deps: Deps, scope: Scope, id: string, requestId: string): Promise<Submission> {
  const sub = await findSubmission(deps.db.knex, scope, id);
  if (!sub) throw notFound('submission', id);
  const latest = await latestOr404(deps, sub);
  if (!latest.external_id) {
    throw new ApiError('no_api_application', `The funder has not acknowledged an application for submission ${id} (api.external_id is null); nothing to check yet`);
  }
  const leased = await leaseForRequest(deps.db.knex, latest.id, deps.clock.now(), requestId);
  if (!leased) throw new ApiError('status_check_in_progress', 'The funder is being asked about this submission right now; try again in a few seconds', undefined, { 'Retry-After': '2' });
  await pollAttempt(deps, leased, { reschedule: false });
  return present(deps, scope, id);
}

/**
 * A new attempt when the latest is errored or stale, the submission still open, and 2 minutes have
 * passed since the latest was sent. An automatic retry of the latest that has not run yet is
 * cancelled (one application, not two); one running right now makes this a 409.
 */
export async function retrySubmission(deps: Deps, scope: Scope, id: string): Promise<Submission> {
  await deps.db.knex.transaction(async (trx) => {
    const sub = await lockedSubmissionOr404(trx, scope, id);
    const latest = (await latestAttempts(trx, scope.locationId, [sub.id])).get(sub.id);
    if (sub.submission_method !== 'api' || !latest) throw noApi(id);
    const now = deps.clock.now();
    const r = retryState(latest, sub.status, now);
    if (r.reason === 'closed') throw conflict(`A ${sub.status} submission cannot be retried`, 'not_retryable');
    if (r.reason === 'not_failed') {
      throw conflict(`The last attempt is ${latest.internal_status}; only errored or stale attempts can be retried`, 'not_retryable');
    }
    if (r.reason === 'too_soon') {
      const left = Math.ceil((new Date(latest.submitted_at ?? latest.created_at).getTime() + 120_000 - now.getTime()) / 1000);
      throw new ApiError('retry_too_soon', `The last attempt was sent less than 2 minutes ago; retry in ${left} seconds`, undefined, { 'Retry-After': String(left) });
    }
    const jobs = trx('jobs').where({ queue: FUNDER_SUBMIT_QUEUE, status: 'queued' }).whereRaw(`payload->>'attempt_id' = ?`, [latest.id]);
    const running = await jobs.clone().where('locked_until', '>', now).first('id');
    if (running) throw conflict('The last attempt is being sent to the funder right now; check again in a minute', 'not_retryable');
    await jobs.clone().update({ status: 'dead', finished_at: now, updated_at: now, last_error: `Superseded by attempt ${latest.attempt_number + 1}` });
    await trx('api_submissions').where({ id: latest.id }).update({ next_poll_at: null, updated_at: now });
    const lender = (await trx('lenders').where({ id: sub.lender_id, location_id: scope.locationId }).first('funder_api_spec_id', 'api_environment')) as { funder_api_spec_id: string | null; api_environment: string | null };
    await createAttempt(trx, deps, {
      locationId: scope.locationId, submissionId: sub.id, dealId: sub.deal_id, lenderId: sub.lender_id,
      specId: lender.funder_api_spec_id ?? latest.funder_api_spec_id, environment: lender.api_environment ?? latest.environment, attemptNumber: latest.attempt_number + 1,
    });
    await trx('submissions').where({ id: sub.id }).update({ status: 'queued', updated_at: now });
  });
  return present(deps, scope, id);
}
