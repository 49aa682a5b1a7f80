import type { Deps } from '../../deps';
import type { Db } from '../../jobs/queue';
import { policyForLocation } from '../../outbound/policy';
import { findFunderSpec, isFunderSpecActive, credentialMap, type FunderSpec } from '../lenders/funder-specs';
import { redactSecrets, type AdapterContext, type FunderApplication, type FunderResult } from './adapter';
import type { AttemptRow } from './attempt-state';

// The HTTP exchange's inputs and guards (attempts.ts): the application read from the deal, the
// adapter's context (credentials unsealed only inside the call), an adapter that throws made a
// funder_error, and every secret credential value redacted from what the funder says.

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
export async function callContext(deps: Deps, a: AttemptRow): Promise<CallContext | { ok: false; error_code: 'config'; error_message: string }> {
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
export async function safely(run: () => Promise<FunderResult>): Promise<FunderResult> {
  try {
    return await run();
  } catch {
    return { ok: false, error_code: 'funder_error', error_message: 'The funder integration failed unexpectedly' };
  }
}

/** Every string the funder said, with secret credentials replaced by ****. */
export function redacted(result: FunderResult, secrets: string[]): FunderResult {
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
