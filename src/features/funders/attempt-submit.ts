import type { Deps } from '../../deps';
import { DEFAULT_BACKOFF_MS, type JobRow } from '../../jobs/queue';
import { PermanentJobError } from '../../jobs/registry';
import { businessNameOfDeal, submissionFailedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { ATTEMPT_STATE, missingFields, PERMANENT_ERRORS, type FunderErrorCode, type FunderResult } from './adapter';
import { CLOSED_SUBMISSION, nextPollAt, parseRow, type AttemptRow } from './attempt-state';
import { callContext, redacted, safely } from './attempt-call';
import { followFunder, isLatest, lockSubmission } from './attempt-outcome';

// The `funder.submit` job (attempts.ts): the application sent once and the outcome recorded.

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
