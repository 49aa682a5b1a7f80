import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Scope } from '../../http/types';

// SQL only here. Every read is scoped by the caller's location; deal visibility (role `user` sees
// only the deals it created) is applied through the deal.

export type Db = Knex | Knex.Transaction;

export interface SubmissionRow {
  id: string;
  location_id: string;
  deal_id: string;
  lender_id: string;
  status: string;
  submission_method: 'email' | 'api';
  response_type: string | null;
  response_notes: string | null;
  decline_reason: string | null;
  decline_category: string | null;
  submitted_by_id: string | null;
  requested_items: string[];
  /** Documents of the deal its email package attaches. */
  document_ids?: string[];
  match_score: number | null;
  match_eligible: boolean | null;
  /** The figures of the match snapshot and their sources (MatchFigures); null before 2026-11-27. */
  match_figures?: components['schemas']['MatchFigures'] | null;
  /** Created with `force: true` over a refusal (deal funded or dead, or the lender's hard gates failed). */
  forced: boolean;
  submitted_at: Date | null;
  responded_at: Date | null;
  trace_code: string | null;
  created_at: Date;
  updated_at: Date | null;
  /** Joined: the lender's name at read time. */
  lender_name?: string | null;
  /** The latest funder-API attempt, when read with withApi (src/features/funders/attempts.ts). */
  api?: components['schemas']['ApiSubmission'] | null;
}

export interface LenderTarget {
  id: string;
  name: string;
  submission_email: string | null;
  cc_emails: string[];
  submission_method: 'email' | 'api';
  active: boolean;
  funder_api_spec_id: string | null;
  api_environment: string | null;
}

const COLUMNS = [
  's.id', 's.location_id', 's.deal_id', 's.lender_id', 's.status', 's.submission_method', 's.response_type', 's.response_notes',
  's.decline_reason', 's.decline_category', 's.submitted_by_id', 's.requested_items', 's.match_score', 's.match_eligible',
  's.match_figures', 's.forced', 's.submitted_at', 's.responded_at', 's.trace_code', 's.created_at', 's.updated_at', 'l.name as lender_name',
];

/** Submissions of the location with their lender's name; `s` is the submission, `d` its deal. */
export function submissionsQuery(db: Db, scope: Scope) {
  const q = db('submissions as s')
    .join('deals as d', function joinDeal() {
      this.on('d.id', '=', 's.deal_id').andOn('d.location_id', '=', 's.location_id');
    })
    .leftJoin('lenders as l', 'l.id', 's.lender_id')
    .where('s.location_id', scope.locationId)
    .select(COLUMNS);
  if (scope.role === 'user') {
    if (scope.userId) q.where('d.created_by_user_id', scope.userId);
    else q.whereRaw('false');
  }
  return q;
}

export async function findSubmission(db: Db, scope: Scope, id: string): Promise<SubmissionRow | undefined> {
  return (await submissionsQuery(db, scope).where('s.id', id).first()) as SubmissionRow | undefined;
}

export async function findSubmissionByTrace(db: Db, scope: Scope, traceCode: string): Promise<SubmissionRow | undefined> {
  return (await submissionsQuery(db, scope).where('s.trace_code', traceCode).whereNotNull('s.submitted_at').first()) as SubmissionRow | undefined;
}

export async function lendersOfLocation(db: Db, scope: Scope, ids: string[]): Promise<LenderTarget[]> {
  return (await db('lenders')
    .where('location_id', scope.locationId)
    .whereIn('id', ids)
    .select('id', 'name', 'submission_email', 'cc_emails', 'submission_method', 'active', 'funder_api_spec_id', 'api_environment')) as LenderTarget[];
}

/** lender id -> existing submission id, for the deal. */
export async function existingByLender(db: Db, scope: Scope, dealId: string): Promise<Map<string, string>> {
  const rows = (await db('submissions').where({ location_id: scope.locationId, deal_id: dealId }).select('id', 'lender_id')) as { id: string; lender_id: string }[];
  return new Map(rows.map((r) => [r.lender_id, r.id]));
}

export async function insertSubmissions(db: Db, rows: Omit<SubmissionRow, 'lender_name'>[]): Promise<void> {
  if (rows.length) await db('submissions').insert(rows.map(({ api: _api, ...r }) => ({ ...r, requested_items: JSON.stringify(r.requested_items), document_ids: JSON.stringify(r.document_ids ?? []), match_figures: r.match_figures == null ? null : JSON.stringify(r.match_figures) })));
}
