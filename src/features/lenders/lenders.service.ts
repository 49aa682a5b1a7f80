import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { phoneParam } from '../../lib/phone';
import type { Criteria } from '../lender-matches/scoring';
import { findFunderSpec, listFunderSpecsPage, selectableFunderSpec, splitCredentials, type FunderSpec } from './funder-specs';
import { toLender, toLenderApiConfig, toLenderCriteria, type Lender, type LenderApiConfig, type LenderCriteria } from './lenders.mapper';
import { findLender, insertLender, lendersQuery, updateLenderRow, type Db, type LenderRow } from './lenders.repository';

// Lenders have no webhook event in the catalogue and no place in a business's history, so their
// writes record neither; each is still one transaction (read, check, write).

type CreateBody = components['schemas']['CreateLenderRequest'];
type UpdateBody = components['schemas']['UpdateLenderRequest'];
type CriteriaBody = components['schemas']['ReplaceLenderCriteriaRequest'];
type ApiConfigBody = components['schemas']['UpdateLenderApiConfigRequest'];
type ListQuery = NonNullable<operations['listLenders']['parameters']['query']>;
type SpecsQuery = NonNullable<operations['listFunderApiSpecs']['parameters']['query']>;


function nameOrThrow(name: string): string {
  const n = name.trim();
  if (!n) throw invalid('name must not be blank', 'name');
  return n;
}

export async function getLenderOr404(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<LenderRow> {
  const row = await findLender(db, scope, id, opts);
  if (!row) throw notFound('lender', id);
  return row;
}

export async function createLender(deps: Deps, scope: Scope, body: CreateBody): Promise<Lender> {
  const now = deps.clock.now();
  const row: LenderRow = {
    id: newId('lnd', now.getTime()),
    location_id: scope.locationId,
    name: nameOrThrow(body.name),
    submission_email: body.submission_email?.trim() || null,
    cc_emails: body.cc_emails ?? [],
    contact_name: body.contact_name ?? null,
    contact_phone: phoneParam(body.contact_phone, 'contact_phone'),
    website: body.website ?? null,
    notes: body.notes ?? null,
    tier: body.tier ?? null,
    submission_method: 'email',
    active: body.active ?? true,
    funder_api_spec_id: null,
    api_environment: null,
    api_credentials_encrypted: null,
    api_last_verified_at: null,
    api_last_error: null,
    criteria: {},
    criteria_updated_at: null,
    created_at: now,
    updated_at: null,
  };
  await deps.db.knex.transaction((trx) => insertLender(trx, row));
  return toLender(row);
}

export async function listLenders(deps: Deps, scope: Scope, query: ListQuery) {
  const q = lendersQuery(deps.db.knex, scope).select('lenders.*');
  if (query.active !== undefined) q.where('lenders.active', query.active);
  if (query.submission_method) q.where('lenders.submission_method', query.submission_method);
  if (query.search) {
    const term = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.where((w) => w.whereILike('lenders.name', term).orWhereILike('lenders.submission_email', term).orWhereILike('lenders.contact_name', term));
  }
  const page = await paginate<LenderRow>(q, { key: deps.cursorKey, list: 'lenders', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'lenders.created_at', idColumn: 'lenders.id' });
  return { data: page.rows.map(toLender), meta: page.meta };
}

export async function getLender(deps: Deps, scope: Scope, id: string): Promise<Lender> {
  return toLender(await getLenderOr404(deps.db.knex, scope, id));
}

export async function updateLender(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Lender> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getLenderOr404(trx, scope, id, { forUpdate: true });
    // Only sent fields change; null clears; cc_emails is replaced whole.
    const patch: Partial<LenderRow> = {};
    if (body.name !== undefined) patch.name = nameOrThrow(body.name);
    if (body.submission_email !== undefined) patch.submission_email = body.submission_email?.trim() || null;
    if (body.cc_emails !== undefined) patch.cc_emails = body.cc_emails;
    if (body.contact_name !== undefined) patch.contact_name = body.contact_name;
    if (body.contact_phone !== undefined) patch.contact_phone = phoneParam(body.contact_phone, 'contact_phone');
    if (body.website !== undefined) patch.website = body.website;
    if (body.tier !== undefined) patch.tier = body.tier;
    if (body.active !== undefined) patch.active = body.active;
    if (body.notes !== undefined) patch.notes = body.notes;
    patch.updated_at = deps.clock.now();
    await updateLenderRow(trx, scope, id, patch);
    return toLender({ ...existing, ...patch });
  });
}

// ---- criteria ----

export async function getLenderCriteria(deps: Deps, scope: Scope, id: string): Promise<LenderCriteria> {
  return toLenderCriteria(await getLenderOr404(deps.db.knex, scope, id));
}

const money = (v: number | null | undefined) => (v == null ? null : toDollars(toCents(v)));

/** The whole criteria from a replace body: limits left out become null, lists left out empty. */
export function criteriaFromBody(body: CriteriaBody): Criteria {
  const c: Criteria = {
    min_monthly_revenue: money(body.min_monthly_revenue),
    min_time_in_business_months: body.min_time_in_business_months ?? null,
    min_credit_score: body.min_credit_score ?? null,
    min_amount: money(body.min_amount),
    max_amount: money(body.max_amount),
    max_positions: body.max_positions ?? null,
    min_average_daily_balance: money(body.min_average_daily_balance),
    max_negative_days: body.max_negative_days ?? null,
    max_nsf_count: body.max_nsf_count ?? null,
    max_withhold_percent: body.max_withhold_percent ?? null,
    allowed_states: body.allowed_states ?? [],
    excluded_states: body.excluded_states ?? [],
    excluded_industries: [...new Set((body.excluded_industries ?? []).map((s) => s.trim()).filter(Boolean))],
    product_types: [...new Set((body.product_types ?? []).map((s) => s.trim()).filter(Boolean))],
    paper_grades: [...new Set((body.paper_grades ?? []).map((s) => s.trim()).filter(Boolean))],
    hard_gates: body.hard_gates ?? [],
  };
  if (c.min_amount != null && c.max_amount != null && toCents(c.min_amount) > toCents(c.max_amount)) {
    throw invalid(`min_amount (${c.min_amount}) must not be greater than max_amount (${c.max_amount})`, 'min_amount');
  }
  return c;
}

export async function replaceLenderCriteria(deps: Deps, scope: Scope, id: string, body: CriteriaBody): Promise<LenderCriteria> {
  const criteria = criteriaFromBody(body);
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getLenderOr404(trx, scope, id, { forUpdate: true });
    const now = deps.clock.now();
    const patch: Partial<LenderRow> = { criteria: { ...criteria }, criteria_updated_at: now, updated_at: now };
    await updateLenderRow(trx, scope, id, patch);
    return toLenderCriteria({ ...existing, ...patch });
  });
}

// ---- funder integrations and API configuration ----

export function listFunderApiSpecs(deps: Deps, scope: Scope, query: SpecsQuery) {
  return listFunderSpecsPage(scope, { key: deps.cursorKey, limit: query.limit, cursor: query.cursor });
}

function openCredentials(deps: Deps, row: LenderRow): string | null {
  return row.api_credentials_encrypted ? deps.secrets.open(row.api_credentials_encrypted) : null;
}

export async function getLenderApiConfig(deps: Deps, scope: Scope, id: string): Promise<LenderApiConfig> {
  const row = await getLenderOr404(deps.db.knex, scope, id);
  return toLenderApiConfig(row, openCredentials(deps, row));
}

const configError = (message: string, param: string) => invalid(message, param, 'invalid_api_config');

/**
 * PUT /v1/lenders/{id}/api-config. Fields left out keep their value. The rules, in order:
 * the named integration must exist for this workspace and be switched on; `api` needs an
 * integration (the first time) and credentials; a change of integration needs new credentials;
 * credentials are counted against the integration's credential_spec, then sealed (never logged,
 * never echoed); `email` switches back keeping the integration and credentials.
 */
export async function updateLenderApiConfig(deps: Deps, scope: Scope, id: string, body: ApiConfigBody): Promise<LenderApiConfig> {
  return deps.db.knex.transaction(async (trx) => {
    const row = await getLenderOr404(trx, scope, id, { forUpdate: true });
    const method = body.submission_method ?? (row.submission_method as 'email' | 'api');

    let spec: FunderSpec | undefined = findFunderSpec(row.funder_api_spec_id);
    if (body.funder_api_spec_id !== undefined) spec = selectableFunderSpec(scope, body.funder_api_spec_id);
    else if (method === 'api' && spec) selectableFunderSpec(scope, spec.id); // the stored one may have been switched off since
    if (method === 'api' && !spec) {
      throw configError(
        row.funder_api_spec_id
          ? `The lender's integration '${row.funder_api_spec_id}' no longer exists; send funder_api_spec_id`
          : 'funder_api_spec_id is required the first time submission_method is set to api',
        'funder_api_spec_id',
      );
    }
    const integrationChanges = spec !== undefined && spec.id !== row.funder_api_spec_id;
    if (integrationChanges && body.api_credentials === undefined) throw configError('api_credentials is required when the integration changes', 'api_credentials');

    let sealed = row.api_credentials_encrypted;
    if (body.api_credentials !== undefined) {
      if (!spec) throw configError('api_credentials needs an integration; send funder_api_spec_id', 'funder_api_spec_id');
      sealed = deps.secrets.seal(splitCredentials(spec, body.api_credentials).join(','));
    }
    if (method === 'api' && !sealed) throw configError('api_credentials is required the first time submission_method is set to api', 'api_credentials');

    if (body.api_environment !== undefined && !spec) throw configError('api_environment needs an integration; send funder_api_spec_id', 'funder_api_spec_id');
    // Our design: an integration starts in development (never real underwriting) unless told otherwise.
    const environment = body.api_environment ?? row.api_environment ?? (spec ? 'development' : null);

    const patch: Partial<LenderRow> = {};
    if (method !== row.submission_method) patch.submission_method = method;
    if ((spec?.id ?? null) !== row.funder_api_spec_id) patch.funder_api_spec_id = spec?.id ?? null;
    if (environment !== row.api_environment) patch.api_environment = environment;
    if (body.api_credentials !== undefined) patch.api_credentials_encrypted = sealed;
    // New credentials, integration or environment: not verified until the funder next accepts them.
    if (patch.funder_api_spec_id !== undefined || patch.api_environment !== undefined || patch.api_credentials_encrypted !== undefined) {
      patch.api_last_verified_at = null;
      patch.api_last_error = null;
    }
    if (Object.keys(patch).length) {
      patch.updated_at = deps.clock.now();
      await updateLenderRow(trx, scope, id, patch);
    }
    const next = { ...row, ...patch };
    return toLenderApiConfig(next, openCredentials(deps, next));
  });
}
