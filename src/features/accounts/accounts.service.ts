import type { Knex } from 'knex';
import type { Clock } from '../../lib/clock';
import { randomBase62, sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import type { Role } from '../../http/spec';
import { isLegacyTestKey, keyPrefixFor } from '../../http/auth';
import { AccountError } from '../../lib/account-error';

// Operator-side accounts: locations, users, API keys and OAuth tokens. Used by the CLI, the
// first-run bootstrap and the tests; not part of the public /v1 surface.

export const ROLES: Role[] = ['admin', 'manager', 'user'];
export const SCOPES = [
  'businesses:read', 'businesses:write', 'people:read', 'people:write', 'deals:read', 'deals:write',
  'documents:read', 'documents:write', 'lenders:read', 'lenders:write', 'submissions:write', 'offers:read',
  'offers:write', 'advances:read', 'advances:write', 'portal:send', 'webhooks:manage',
] as const;

export const DEFAULT_STAGES = [
  { label: 'New lead', phase: 'new', event: 'deal_created' },
  { label: 'Submitted', phase: 'submitted', event: 'submission_sent' },
  { label: 'Offers in', phase: 'offers', event: 'offer_received' },
  { label: 'Contracts out', phase: 'contracts', event: null },
  { label: 'Funded', phase: 'funded', event: 'deal_funded' },
  { label: 'Dead', phase: 'dead', event: 'deal_dead' },
] as const;

export { AccountError };

export interface LocationRow {
  id: string;
  name: string;
  is_test: boolean;
  renewal_threshold: number;
  created_at: Date;
}

export async function createLocation(knex: Knex, clock: Clock, input: { name: string; isTest?: boolean; renewalThreshold?: number }): Promise<LocationRow> {
  if (!input.name?.trim()) throw new AccountError('A location needs a name');
  const now = clock.now();
  return knex.transaction(async (trx) => {
    const row = { id: newId('loc', now.getTime()), name: input.name.trim(), is_test: !!input.isTest, renewal_threshold: input.renewalThreshold ?? 50, created_at: now, updated_at: now };
    await trx('locations').insert(row);
    await trx('pipeline_stages').insert(
      DEFAULT_STAGES.map((s, i) => ({ id: newId('stg', now.getTime()), location_id: row.id, label: s.label, phase: s.phase, event: s.event, sort_order: i + 1, created_at: now, updated_at: now })),
    );
    return { id: row.id, name: row.name, is_test: row.is_test, renewal_threshold: row.renewal_threshold, created_at: now };
  });
}

export async function createUser(knex: Knex, clock: Clock, input: { locationId: string; name: string; email: string; role: Role }) {
  if (!ROLES.includes(input.role)) throw new AccountError(`role must be one of ${ROLES.join(', ')}`);
  if (!input.name?.trim()) throw new AccountError('A user needs a name');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email ?? '')) throw new AccountError('A user needs a valid email');
  const loc = await knex('locations').where({ id: input.locationId }).first('id');
  if (!loc) throw new AccountError(`No location ${input.locationId}`);
  const now = clock.now();
  const row = { id: newId('usr', now.getTime()), location_id: input.locationId, name: input.name.trim(), email: input.email.toLowerCase(), role: input.role, active: true, created_at: now, updated_at: now };
  try {
    await knex('users').insert(row);
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new AccountError(`A user with email ${row.email} already exists in this location`);
    throw e;
  }
  return { id: row.id, location_id: row.location_id, name: row.name, email: row.email, role: row.role, active: true, created_at: now.toISOString() };
}

export async function setUserRole(knex: Knex, clock: Clock, userId: string, role: Role) {
  if (!ROLES.includes(role)) throw new AccountError(`role must be one of ${ROLES.join(', ')}`);
  const n = await knex('users').where({ id: userId }).update({ role, updated_at: clock.now() });
  if (!n) throw new AccountError(`No user ${userId}`);
  return { id: userId, role };
}

export async function setUserActive(knex: Knex, clock: Clock, userId: string, active: boolean) {
  const n = await knex('users').where({ id: userId }).update({ active, updated_at: clock.now() });
  if (!n) throw new AccountError(`No user ${userId}`);
  return { id: userId, active };
}

export interface CreatedKey {
  id: string;
  key: string;
  /** TEST for a test location's key (`svc_test_`), LIVE for a production location's (`svc_live_`). */
  mode: 'TEST' | 'LIVE';
  name: string;
  location_id: string;
  role: Role;
  scopes: string[];
  user_id: string | null;
  expires_at: string | null;
  prefix: string;
  last4: string;
  created_at: string;
}

export function validateScopes(scopes: string[]): string[] {
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new AccountError(`Unknown scope(s): ${unknown.join(', ')}. Known: ${SCOPES.join(', ')}`);
  return [...new Set(scopes)];
}

// A date (`2027-01-01`, midnight UTC) or a date-time with a zone (`2027-01-01T09:30:00Z`, `...+02:00`):
// a date-time without a zone would depend on the time zone of whichever process parsed it.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

/** `2027-02-30` is not a day (Date would roll it over to March 2). */
function realDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** A key's expiry: a valid ISO 8601 timestamp strictly in the future of `now`, else an AccountError. */
export function parseExpiry(value: Date | string, now: Date): Date {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const at = text === undefined ? (value as Date) : ISO_8601.test(text) && realDate(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(at.getTime())) {
    throw new AccountError(`expires_at must be an ISO 8601 timestamp with a time zone, such as 2027-01-01T00:00:00Z (got ${JSON.stringify(String(value))})`);
  }
  if (at.getTime() <= now.getTime()) {
    throw new AccountError(`expires_at must be in the future: ${at.toISOString()} is not after now (${now.toISOString()})`);
  }
  return at;
}

/** `svc_live_` (production location) or `svc_test_` (test location) + 32 base62 characters from a CSPRNG; only its SHA-256, prefix and last four are kept. */
export async function createApiKey(
  knex: Knex,
  clock: Clock,
  input: { locationId: string; name: string; role?: Role; userId?: string | null; scopes?: string[]; expiresAt?: Date | string | null },
): Promise<CreatedKey> {
  const role = input.role ?? 'manager';
  if (!ROLES.includes(role)) throw new AccountError(`role must be one of ${ROLES.join(', ')}`);
  if (!input.name?.trim()) throw new AccountError('A key needs a name');
  const scopes = validateScopes(input.scopes ?? []);
  const now = clock.now();
  const expiresAt = input.expiresAt == null ? null : parseExpiry(input.expiresAt, now);
  const loc = await knex('locations').where({ id: input.locationId }).first('id', 'is_test');
  if (!loc) throw new AccountError(`No location ${input.locationId}`);
  if (input.userId) {
    const user = await knex('users').where({ id: input.userId, location_id: input.locationId }).first('id');
    if (!user) throw new AccountError(`No user ${input.userId} in location ${input.locationId}`);
  }
  const prefix = keyPrefixFor(!!loc.is_test);
  const key = `${prefix}${randomBase62(32)}`;
  const row = {
    id: newId('key', now.getTime()),
    location_id: input.locationId,
    name: input.name.trim(),
    role,
    scopes: JSON.stringify(scopes),
    key_hash: sha256Hex(key),
    prefix,
    last4: key.slice(-4),
    user_id: input.userId ?? null,
    expires_at: expiresAt,
    created_at: now,
  };
  await knex('api_keys').insert(row);
  return {
    id: row.id, key, mode: loc.is_test ? 'TEST' : 'LIVE', name: row.name, location_id: row.location_id, role, scopes, user_id: row.user_id,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null, prefix: row.prefix, last4: row.last4, created_at: now.toISOString(),
  };
}

export async function revokeApiKey(knex: Knex, clock: Clock, keyId: string) {
  const row = await knex('api_keys').where({ id: keyId }).first('id', 'revoked_at');
  if (!row) throw new AccountError(`No API key ${keyId}`);
  const revokedAt = row.revoked_at ?? clock.now();
  if (!row.revoked_at) await knex('api_keys').where({ id: keyId }).update({ revoked_at: revokedAt });
  return { id: keyId, revoked: true, revoked_at: new Date(revokedAt).toISOString() };
}

/** Every location, oldest first (operator view: the CLI's `location list`). */
export async function listLocations(knex: Knex) {
  const rows = await knex('locations').orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]).select('id', 'name', 'is_test', 'renewal_threshold', 'created_at');
  return rows.map((r) => ({ id: r.id, name: r.name, is_test: r.is_test, renewal_threshold: r.renewal_threshold, created_at: new Date(r.created_at).toISOString() }));
}

export async function listApiKeys(knex: Knex, locationId: string) {
  const loc = await knex('locations').where({ id: locationId }).first('is_test');
  const isTest = !!loc?.is_test;
  const rows = await knex('api_keys').where({ location_id: locationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  return rows.map((r) => ({
    id: r.id, name: r.name, mode: isTest ? 'TEST' : 'LIVE', role: r.role, scopes: r.scopes, user_id: r.user_id, display: `${r.prefix}…${r.last4}`, prefix: r.prefix, last4: r.last4,
    // Issued as svc_live_ to a test location before svc_test_ keys: still works; replace it when convenient.
    legacy_prefix: isLegacyTestKey(r.prefix, isTest, r.created_at),
    expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null, revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null, created_at: new Date(r.created_at).toISOString(),
  }));
}

/** What the authorization server does when an MCP client is approved: a user-bound token. */
export async function createAccessToken(knex: Knex, clock: Clock, input: { userId: string; scopes?: string[]; audience?: 'mcp' | 'api'; ttlSeconds?: number }) {
  const user = await knex('users').where({ id: input.userId }).first('id', 'location_id');
  if (!user) throw new AccountError(`No user ${input.userId}`);
  const now = clock.now();
  const token = `svc_at_${randomBase62(40)}`;
  const row = {
    id: newId('tok', now.getTime()), location_id: user.location_id, user_id: user.id, token_hash: sha256Hex(token),
    scopes: JSON.stringify(validateScopes(input.scopes ?? [])), audience: input.audience ?? 'mcp',
    expires_at: new Date(now.getTime() + (input.ttlSeconds ?? 3600) * 1000), created_at: now,
  };
  await knex('oauth_access_tokens').insert(row);
  return { id: row.id, token, user_id: user.id, location_id: user.location_id, audience: row.audience, expires_at: row.expires_at.toISOString() };
}
