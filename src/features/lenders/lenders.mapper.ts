import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import { normalizeCriteria } from '../lender-matches/scoring';
import { findFunderSpec, maskCredentials } from './funder-specs';
import type { LenderRow } from './lenders.repository';

export type Lender = components['schemas']['Lender'];
export type LenderCriteria = components['schemas']['LenderCriteria'];
export type LenderApiConfig = components['schemas']['LenderApiConfig'];
type Tier = NonNullable<Lender['tier']>;

/** Row -> wire shape, field by field (allow-list: credentials and criteria never reach it). */
export function toLender(row: LenderRow): Lender {
  return {
    id: row.id,
    name: row.name,
    submission_email: row.submission_email,
    cc_emails: row.cc_emails ?? [],
    contact_name: row.contact_name,
    contact_phone: row.contact_phone,
    website: row.website,
    submission_method: row.submission_method as Lender['submission_method'],
    funder_api_spec_id: row.funder_api_spec_id,
    tier: (row.tier as Tier | null) ?? null,
    active: row.active,
    notes: row.notes,
    created_at: isoRequired(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toLenderCriteria(row: LenderRow): LenderCriteria {
  return { lender_id: row.id, ...normalizeCriteria(row.criteria), updated_at: iso(row.criteria_updated_at) };
}

/**
 * The API configuration. `plainCredentials` is the opened credential string (or null): it is only
 * ever turned into `credentials_masked` here, by the contract's masking rule.
 */
export function toLenderApiConfig(row: LenderRow, plainCredentials: string | null): LenderApiConfig {
  const spec = findFunderSpec(row.funder_api_spec_id);
  return {
    lender_id: row.id,
    submission_method: row.submission_method as LenderApiConfig['submission_method'],
    funder_api_spec_id: row.funder_api_spec_id,
    spec_display_name: spec?.display_name ?? null,
    api_environment: (row.api_environment as LenderApiConfig['api_environment']) ?? null,
    credentials_masked: plainCredentials == null ? null : maskCredentials(spec, plainCredentials),
    credential_fields: spec ? spec.credential_spec.map((f) => ({ ...f })) : [],
    api_last_verified_at: iso(row.api_last_verified_at),
    api_last_error: row.api_last_error,
    capabilities: spec ? { ...spec.capabilities } : null,
    tier: spec?.tier ?? null,
  };
}
