import { readFileSync } from 'node:fs';
import type { components } from '../../../generated/schema';
import type { FunderAdapter } from '../funders/adapter';
import { httpJsonAdapter, definitionProblems, type HttpIntegrationDefinition } from '../funders/http.adapter';
import { mockAdapter } from '../funders/mock.adapter';
import { invalid } from '../../http/errors';
import { decodeCursor, encodeCursor, type Page } from '../../http/pagination';
import type { Scope } from '../../http/types';

// The funder integrations this deployment can submit through: a registry, each entry with its adapter
// (src/features/funders/). `mock` is the test funder: it never contacts anyone and exists only for
// test workspaces (scope.locationIsTest). Every other entry is an HTTP JSON integration: `brightline`
// is built in, and an operator adds real funders by their base URLs, paths and field mappings in a
// JSON file named by FUNDER_INTEGRATIONS_FILE (read at start; a bad definition stops the start with
// every problem named).
//
// An integration is switched off for the whole deployment by naming it in the environment variable
// FUNDER_SPECS_DISABLED (comma-separated ids): it is then listed with `active: false` and cannot be
// selected in `PUT /v1/lenders/{id}/api-config`.

export type FunderApiSpec = components['schemas']['FunderApiSpec'];
export type FunderCredentialField = components['schemas']['FunderCredentialField'];
export type FunderCapabilities = components['schemas']['FunderCapabilities'];

export interface FunderSpec {
  id: string;
  display_name: string;
  tier: components['schemas']['LenderTier'];
  capabilities: FunderCapabilities;
  credential_spec: FunderCredentialField[];
  required_fields: string[];
  /** Listed and selectable only in test workspaces. */
  testOnly: boolean;
  /** Submits and polls (src/features/funders/). */
  adapter: FunderAdapter;
}

/** An operator's (or a test's) HTTP JSON integration: the public description plus its mapping. */
export type HttpIntegration = Omit<FunderSpec, 'adapter' | 'testOnly'> & { testOnly?: boolean; http: HttpIntegrationDefinition };

const BRIGHTLINE: HttpIntegration = {
  id: 'brightline',
  display_name: 'Brightline Funding API',
  tier: 'A',
  capabilities: { polls: true, returns_offers: true, uploads_docs: true, sandbox: true, max_owners: 2 },
  credential_spec: [
    { key: 'api_key', label: 'API key', secret: true, hint: 'From the Brightline partner portal; starts with key_' },
    { key: 'partner_code', label: 'Partner code', secret: true, hint: 'Your six-digit ISO partner code' },
  ],
  required_fields: ['business_name', 'ein', 'business_start_date', 'requested_amount', 'annual_revenue', 'owner.first_name', 'owner.last_name', 'owner.email'],
  http: {
    base_url: { production: 'https://api.brightlinefunding.example/v2', development: 'https://sandbox.brightlinefunding.example/v2' },
    headers: { Authorization: 'Bearer {{api_key}}', 'X-Partner-Code': '{{partner_code}}' },
    submit: {
      path: '/applications',
      body: {
        reference: '$reference',
        business: { legal_name: '$business_name', dba: '$dba', ein: '$ein', start_date: '$business_start_date', industry: '$industry', state: '$state', phone: '$phone', email: '$email' },
        request: { amount: '$requested_amount', annual_revenue: '$annual_revenue', use_of_funds: '$use_of_funds', product: '$product_type' },
        owners: '$owners',
      },
      external_id: 'id',
      status: 'status',
      deep_link_url: 'links.portal',
    },
    status: { path: '/applications/{{external_id}}', status: 'status', deep_link_url: 'links.portal', message: 'status_reason', requested_items: 'stipulations', offers: 'offers' },
    status_map: { received: 'received', in_review: 'in_review', underwriting: 'in_review', stips_requested: 'needs_info', approved: 'approved', declined: 'declined', funded: 'funded', expired: 'expired' },
    offer_fields: { amount: 'amount', factor_rate: 'factor', term: 'term_days', payment_frequency: 'frequency' },
  },
};

const MOCK: FunderSpec = {
  id: 'mock',
  display_name: 'Mock funder (test only)',
  tier: 'A',
  capabilities: { polls: true, returns_offers: true, uploads_docs: true, sandbox: true, max_owners: 4 },
  credential_spec: [{ key: 'api_key', label: 'API key', secret: true, hint: 'Any value; the mock funder never contacts anyone' }],
  required_fields: ['business_name', 'requested_amount'],
  testOnly: true,
  adapter: mockAdapter,
};

const registry = new Map<string, FunderSpec>();

/** Adds (or replaces) an HTTP JSON integration; throws naming every problem of its definition. */
export function registerHttpIntegration(def: HttpIntegration): FunderSpec {
  const problems = [
    ...(/^[a-z0-9_]{1,50}$/.test(def.id ?? '') ? [] : ['id must be 1-50 of a-z, 0-9, _']),
    ...(def.display_name ? [] : ['display_name is required']),
    ...(Array.isArray(def.credential_spec) && def.credential_spec.length ? [] : ['credential_spec needs at least one field']),
    ...definitionProblems(def.http, (def.credential_spec ?? []).map((f) => f.key)),
  ];
  if (problems.length) throw new Error(`Funder integration '${def.id}': ${problems.join('; ')}`);
  const { http, ...rest } = def;
  const spec: FunderSpec = { ...rest, required_fields: rest.required_fields ?? [], testOnly: def.testOnly ?? false, adapter: httpJsonAdapter(http) };
  registry.set(spec.id, spec);
  return spec;
}

/** Removes an integration (tests). */
export function unregisterFunderIntegration(id: string): void {
  if (id !== 'mock' && id !== 'brightline') registry.delete(id);
}

/** Reads the operator's integrations: a JSON array of HttpIntegration in the file FUNDER_INTEGRATIONS_FILE names. */
export function loadFunderIntegrationsFile(path: string | undefined): string[] {
  if (!path) return [];
  const list = JSON.parse(readFileSync(path, 'utf8')) as HttpIntegration[];
  if (!Array.isArray(list)) throw new Error(`${path}: expected a JSON array of integrations`);
  return list.map((d) => registerHttpIntegration(d).id);
}

registry.set(MOCK.id, MOCK);
registerHttpIntegration(BRIGHTLINE);

/** Every registered integration, sorted by id (the order the list endpoint promises). */
export function funderSpecs(): FunderSpec[] {
  return [...registry.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Ids switched off for this deployment (read on each call, so an operator change needs no code). */
export function disabledFunderSpecIds(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set((env.FUNDER_SPECS_DISABLED ?? '').split(',').map((s) => s.trim()).filter(Boolean));
}

export function isFunderSpecActive(spec: FunderSpec): boolean {
  return !disabledFunderSpecIds().has(spec.id);
}

/** Any registered integration by id, whatever the workspace (to describe an existing configuration). */
export function findFunderSpec(id: string | null | undefined): FunderSpec | undefined {
  return id ? registry.get(id) : undefined;
}

/** The integrations the caller's workspace may see: `mock` only in test workspaces. */
export function visibleFunderSpecs(scope: Pick<Scope, 'locationIsTest'>): FunderSpec[] {
  return funderSpecs().filter((s) => !s.testOnly || scope.locationIsTest === true);
}

/**
 * The integration a lender may be put on, or a 400 `invalid_api_config` naming `param`:
 * unknown (including `mock` outside a test workspace) or switched off.
 */
export function selectableFunderSpec(scope: Pick<Scope, 'locationIsTest'>, id: string, param = 'funder_api_spec_id'): FunderSpec {
  const spec = visibleFunderSpecs(scope).find((s) => s.id === id);
  if (!spec) throw invalid(`Unknown funder integration '${id}'; see GET /v1/lenders/api-specs`, param, 'invalid_api_config');
  if (!isFunderSpecActive(spec)) throw invalid(`Funder integration '${id}' is switched off`, param, 'invalid_api_config');
  return spec;
}

export function toFunderApiSpec(spec: FunderSpec): FunderApiSpec {
  return {
    id: spec.id,
    display_name: spec.display_name,
    tier: spec.tier,
    capabilities: { ...spec.capabilities },
    credential_spec: spec.credential_spec.map((f) => ({ ...f })),
    required_fields: [...spec.required_fields],
    active: isFunderSpecActive(spec),
  };
}

const LIST = 'funder-api-specs';
// The registry has no creation time: the cursor carries a fixed instant and the last id.
const EPOCH = new Date(0).toISOString();

/** One page of the workspace's integrations, sorted by id, with the usual opaque, signed cursor. */
export function listFunderSpecsPage(scope: Pick<Scope, 'locationIsTest'>, opts: { key: string; limit?: number; cursor?: string }): Page<FunderApiSpec> {
  const limit = opts.limit ?? 25;
  let specs = visibleFunderSpecs(scope);
  if (opts.cursor) {
    const after = decodeCursor(opts.key, LIST, opts.cursor).i;
    specs = specs.filter((s) => s.id > after);
  }
  const page = specs.slice(0, limit);
  const hasMore = specs.length > limit;
  return {
    data: page.map(toFunderApiSpec),
    meta: { has_more: hasMore, next_cursor: hasMore ? encodeCursor(opts.key, { l: LIST, t: EPOCH, i: page[page.length - 1].id }) : null },
  };
}

// ---- credentials: one comma-separated string in credential_spec order ----

/**
 * Splits `api_credentials` into one value per credential_spec field, or 400 `invalid_api_config`
 * (param `api_credentials`). Messages name the fields, never a value.
 */
export function splitCredentials(spec: FunderSpec, raw: string): string[] {
  const values = raw.split(',').map((v) => v.trim());
  const keys = spec.credential_spec.map((f) => f.key);
  if (values.length !== keys.length) {
    throw invalid(
      `${spec.display_name} expects ${keys.length} credential${keys.length === 1 ? '' : 's'} (${keys.join(', ')}); got ${values.length}`,
      'api_credentials',
      'invalid_api_config',
    );
  }
  const empty = keys.filter((_, i) => values[i] === '');
  if (empty.length) throw invalid(`api_credentials has no value for ${empty.join(', ')}`, 'api_credentials', 'invalid_api_config');
  return values;
}

/** The stored credentials by key, for the integration adapters. */
export function credentialMap(spec: FunderSpec, stored: string): Record<string, string> {
  const values = stored.split(',');
  return Object.fromEntries(spec.credential_spec.map((f, i) => [f.key, values[i] ?? '']));
}

/**
 * The contract's masking rule: secret values of 12 characters or more show only their last 4
 * characters after `****`; shorter secret values show only `****`; non-secret values in full;
 * joined by ", " in credential_spec order. A value with no field in the spec counts as secret.
 */
export function maskCredentials(spec: FunderSpec | undefined, stored: string): string {
  return stored
    .split(',')
    .map((v, i) => {
      const secret = spec?.credential_spec[i]?.secret ?? true;
      if (!secret) return v;
      return v.length >= 12 ? `****${v.slice(-4)}` : '****';
    })
    .join(', ');
}
