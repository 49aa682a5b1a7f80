import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { StatementFigures } from '../statements/analyze';
import type { DocumentRow } from './documents.repository';

type S = components['schemas'];
export type Document = S['Document'];
export type Statement = S['Statement'];

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

export type StatementFailureCode = NonNullable<S['StatementFailureCode']>;

/** The contract's failure codes of statement analysis (`StatementFailureCode`), exactly. */
export const STATEMENT_FAILURE_CODES = [
  'empty', 'not_pdf', 'too_large', 'encrypted', 'unreadable', 'no_text_layer', 'too_many_pages', 'timeout', 'too_complex', 'resource_limit', 'not_a_statement', 'no_transactions', 'does_not_reconcile', 'uncertain_categories', 'unreadable_scan', 'several_accounts',
] as const satisfies readonly StatementFailureCode[];
// Every code of the contract is listed (tsc fails here when openapi.yaml gains one).
const _allListed: Exclude<StatementFailureCode, (typeof STATEMENT_FAILURE_CODES)[number]> extends never ? true : never = true;
void _allListed;

const KNOWN = new Set<string>(STATEMENT_FAILURE_CODES);
/** Codes recorded before they were the contract's, by their contract code. */
const RENAMED: Record<string, StatementFailureCode> = { unsupported_type: 'not_pdf' };

/**
 * A failure code as the contract declares it: the reader's codes pass through; a code from an
 * older or newer reader that the contract does not declare is `unreadable` (its message still says why).
 */
export function contractFailureCode(code: string): StatementFailureCode {
  return KNOWN.has(code) ? (code as StatementFailureCode) : (RENAMED[code] ?? 'unreadable');
}

/** `failure_code` and `failure_message` of a document: set only on a bank statement analysis could not read. */
export function failureOf(row: Pick<DocumentRow, 'status' | 'failure_code' | 'failure_reason'>): { failure_code: StatementFailureCode | null; failure_message: string | null } {
  if (row.status !== 'failed') return { failure_code: null, failure_message: null };
  return {
    failure_code: contractFailureCode(row.failure_code ?? 'unreadable'),
    failure_message: (row.failure_reason ?? 'The statement could not be read').slice(0, 500),
  };
}

/** Row -> wire shape, field by field. `download_url` only from getDocument (a fresh signed link). */
export function toDocument(row: DocumentRow, downloadUrl: string | null = null): Document {
  return {
    id: row.id,
    deal_id: row.deal_id,
    business_id: row.business_id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: num(row.size_bytes),
    category: row.category as Document['category'],
    status: row.status,
    ...failureOf(row),
    source: row.source,
    received_from: row.source === 'email' && row.received_from_address && row.inbound_email_id
      ? { address: row.received_from_address, name: row.received_from_name ?? null, inbound_email_id: row.inbound_email_id, message_id: row.inbound_message_id ?? null }
      : null,
    sha256: row.sha256,
    download_url: downloadUrl,
    uploaded_at: iso(row.uploaded_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The webhook snapshot: a fixed subset, never a URL. */
export function documentSnapshot(row: DocumentRow): S['DocumentSnapshot'] {
  return {
    id: row.id,
    deal_id: row.deal_id,
    filename: row.filename,
    category: row.category as Document['category'],
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes ?? 0),
    source: row.source,
    created_at: isoRequired(row.created_at),
  };
}

/** The figures stored on a processed statement's row (see ../statements/analyze.ts). */
export type StoredStatement = StatementFigures;

/** One statement of the analysis: its figures, or `parsed: false` with every figure null. */
export function toStatement(row: DocumentRow): Statement {
  const s = row.status === 'processed' ? (row.statement as unknown as StoredStatement | null) : null;
  return {
    document_id: row.id,
    parsed: !!s,
    ...(s ? { failure_code: null, failure_message: null } : failureOf({ ...row, status: 'failed' })),
    period_start: s?.period_start ?? null,
    period_end: s?.period_end ?? null,
    bank_name: s?.bank_name ?? null,
    deposits_total: s?.deposits_total ?? null,
    deposit_count: s?.deposit_count ?? null,
    true_revenue: s?.true_revenue ?? null,
    average_daily_balance: s?.average_daily_balance ?? null,
    ending_balance: s?.ending_balance ?? null,
    negative_days: s?.negative_days ?? null,
    nsf_count: s?.nsf_count ?? null,
    mca_count: s?.mca_count ?? null,
    mca_withhold_percent: s?.mca_withhold_percent ?? null,
    has_recovery_activity: s?.has_recovery_activity ?? null,
  };
}

/** `statement` of `document.processed`. */
export function statementSnapshot(s: StoredStatement): S['StatementSnapshot'] {
  return {
    period_start: s.period_start,
    period_end: s.period_end,
    beginning_balance: s.beginning_balance,
    ending_balance: s.ending_balance,
    total_deposits: s.deposits_total,
    true_revenue: s.true_revenue,
    average_balance: s.average_daily_balance,
    negative_days: s.negative_days,
    nsf_count: s.nsf_count,
    mca_count: s.mca_count,
    mca_withhold_percent: s.mca_withhold_percent,
    has_recovery_activity: s.has_recovery_activity,
  };
}
