import { registerJobHandler, registerPollSource } from '../../jobs/registry';
import { registerSubmissionChannel } from '../submissions/channels';
import { createAttempt, FUNDER_SUBMIT_QUEUE, withApi } from './attempt-state';
import { runSubmitJob, SUBMIT_BACKOFF_MS } from './attempt-submit';
import { claimDuePolls, pollAttempt } from './attempt-polling';

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
//
// Split by what it does, beside this file (which registers the jobs and keeps the names importers use):
//   attempt-state.ts    the attempt's row, poll schedule, retry guard, wire shape, creation
//   attempt-call.ts     the HTTP exchange's inputs: application, adapter context, redaction
//   attempt-outcome.ts  the funder's answer mapped onto the submission and its offers
//   attempt-submit.ts   the funder.submit job and its recorded outcome
//   attempt-polling.ts  polling and check-status under a lease

export {
  FUNDER_SUBMIT_QUEUE, RETRY_GUARD_MS, STALE_AFTER_MS, createAttempt, latestAttempts, nextPollAt, retryState, toApiSubmission, withApi,
  type ApiSubmission, type AttemptRow,
} from './attempt-state';
export { applicationOf } from './attempt-call';
export { runSubmitJob, SUBMIT_BACKOFF_MS } from './attempt-submit';
export { claimDuePolls, leaseForRequest, pollAttempt } from './attempt-polling';

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
