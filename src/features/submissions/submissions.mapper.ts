import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { SubmissionRow } from './submissions.repository';

type S = components['schemas'];
export type Submission = S['Submission'];

/**
 * Row -> wire shape. `api` is the latest funder-API attempt when the row was read with `withApi`
 * (src/features/funders/attempts.ts), else null (email submissions). The trace code is shown once the package has gone out (`submitted_at` set): before that it
 * is reserved but not yet printed on anything the lender holds.
 */
export function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    deal_id: row.deal_id,
    lender_id: row.lender_id,
    lender_name: row.lender_name ?? null,
    status: row.status as Submission['status'],
    submission_method: row.submission_method,
    api: row.api ?? null,
    response_type: row.response_type as Submission['response_type'],
    response_notes: row.response_notes,
    decline_reason: row.decline_reason,
    decline_category: row.decline_category,
    requested_items: row.requested_items ?? [],
    match_score: row.match_score === null ? null : Number(row.match_score),
    match_eligible: row.match_eligible,
    match_figures: (typeof row.match_figures === 'string' ? JSON.parse(row.match_figures) : row.match_figures) ?? null,
    forced: row.forced ?? false,
    submitted_by_id: row.submitted_by_id,
    submitted_at: iso(row.submitted_at),
    responded_at: iso(row.responded_at),
    trace_code: row.submitted_at ? row.trace_code : null,
    created_at: isoRequired(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The fixed subset carried by webhook payloads. */
export function toSubmissionSnapshot(row: SubmissionRow): S['SubmissionSnapshot'] {
  return {
    id: row.id,
    deal_id: row.deal_id,
    lender_id: row.lender_id,
    lender_name: row.lender_name ?? null,
    status: row.status as S['SubmissionSnapshot']['status'],
    submission_method: row.submission_method,
    response_type: row.response_type as S['SubmissionSnapshot']['response_type'],
    submitted_at: iso(row.submitted_at),
    responded_at: iso(row.responded_at),
    created_at: isoRequired(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
