import type { Request, RequestHandler } from 'express';
import type { Deps } from '../deps';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../lib/crypto';
import { ApiError, unauthenticated } from './errors';
import { AUTH_FAILURE_LIMIT, RATE_LIMIT, localRateLimiter, take, type Verdict } from './rate-limit';
import { credentialCacheFor } from './credential-cache';
import { prepared } from '../db/prepared';
import { watchCredentials } from '../db/engine';
import type { Auth } from './types';
import type { Role } from './spec';

export const API_KEY_PATTERN = /^svc_(live|test)_[0-9A-Za-z]{32}$/;
/** Any API key-looking bearer credential (refused outside /v1 and on /mcp). */
export const API_KEY_BEARER = /^Bearer\s+svc_(live|test)_/i;

/**
 * A test location's keys are `svc_test_`, a production location's `svc_live_`. Keys of test locations
 * issued before this date were `svc_live_`: they keep working (a key's text cannot change without
 * breaking whoever holds it). A `svc_live_` key of a test location created on or after it cannot
 * have been issued by this service, so it is refused like a `svc_test_` key of a production location.
 */
export const TEST_KEY_PREFIX_SINCE = new Date('2026-11-28T00:00:00Z');

/** The prefix a new key of a location gets. */
export const keyPrefixFor = (isTest: boolean) => (isTest ? 'svc_test_' : 'svc_live_');

/** The key was issued as `svc_live_` to a test location before `svc_test_` keys existed. */
export const isLegacyTestKey = (prefix: string, isTest: boolean, createdAt: Date | string) =>
  isTest && prefix === 'svc_live_' && new Date(createdAt).getTime() < TEST_KEY_PREFIX_SINCE.getTime();
export const ACCESS_TOKEN_PATTERN = /^svc_at_[0-9A-Za-z]{40}$/;

interface CredentialRow {
  id: string;
  audience?: 'mcp' | 'api';
  location_id: string;
  is_test: boolean;
  role: string;
  scopes: string[];
  user_id: string | null;
}

/** Keys carry their own role; tokens carry their user's (joined as `role`). */
function toAuth(credentialType: Auth['credentialType'], row: CredentialRow): Auth {
  return {
    credentialId: row.id,
    credentialType,
    locationId: row.location_id,
    locationIsTest: row.is_test,
    role: row.role as Role,
    scopes: row.scopes,
    userId: row.user_id,
    ...(row.audience ? { audience: row.audience } : {}),
  };
}

/**
 * Calls the MCP server makes into /v1 on behalf of a request it already authenticated (and counted):
 * the injected request carries a one-time random nonce instead of being looked up and counted again.
 * A nonce lives only while its call runs, in this process; an outside request cannot name one.
 */
const internalCalls = new Map<string, { auth: Auth; verdict: Verdict }>();
export const INTERNAL_CALL_HEADER = 'x-svc-internal-call';

export function registerInternalCall(auth: Auth, verdict: Verdict): { nonce: string; release: () => void } {
  const nonce = randomBytes(32).toString('hex');
  internalCalls.set(nonce, { auth, verdict });
  return { nonce, release: () => internalCalls.delete(nonce) };
}

/** The request is a tool call of /mcp re-entering the pipeline with a live nonce of this process. */
export function isInternalCall(req: Request): boolean {
  const nonce = req.get(INTERNAL_CALL_HEADER);
  return nonce !== undefined && internalCalls.has(nonce);
}

/**
 * Bearer API key or OAuth access token -> Auth. Answered from the process's credential cache while
 * the database's credential listener is live (credential-cache.ts: every change to a key, token, user
 * or location drops it, through NOTIFY at commit), else looked up, so a revocation or a deactivated
 * user takes effect on the very next request on every process. The request is counted against the
 * credential's rate limit in memory (LocalRateLimiter, exchanged with the shared table) and answered
 * by `rateLimit`.
 *
 * Failed authentications are counted per client address in the shared rate-limit table; past
 * AUTH_FAILURE_LIMIT in 60 seconds the address is refused with 429 before any credential is looked
 * up, until the window allows again. The refusal is remembered in this process (no query per
 * request); another process learns it at that address's next failure there.
 */
export function authenticate(deps: Deps, opts: { failureLimit?: number; rateLimit?: number; resourceMetadataUrl?: string } = {}): RequestHandler {
  const failureLimit = opts.failureLimit ?? AUTH_FAILURE_LIMIT;
  const rateLimit = opts.rateLimit ?? RATE_LIMIT;
  // The credential cache's listener, started by the first pipeline that authenticates (a worker or
  // the CLI never listens); until it has proven itself every lookup asks the database.
  void watchCredentials(deps.db, deps.clock);
  const blockedUntil = new Map<string, number>();
  const throttled = (retryAfter: number) =>
    new ApiError('too_many_failed_authentications', `Too many failed authentications from this address; retry after ${retryAfter} seconds`, undefined, { 'Retry-After': String(retryAfter) });

  return async (req, _res, next) => {
    const internal = internalCalls.get(req.get(INTERNAL_CALL_HEADER) ?? '');
    if (internal) {
      req.auth = internal.auth;
      req.rateLimit = internal.verdict;
      return next();
    }
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const nowMs = deps.clock.now().getTime();
    const until = blockedUntil.get(address);
    if (until !== undefined) {
      if (until > nowMs) throw throttled(Math.ceil((until - nowMs) / 1000));
      blockedUntil.delete(address);
    }
    try {
      const { auth, verdict } = await resolveCredential(deps, req.get('Authorization') ?? '', rateLimit);
      req.auth = auth;
      req.rateLimit = verdict;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      // RFC 9728: where an OAuth client learns how to get a token for this API.
      if (opts.resourceMetadataUrl) err.headers['WWW-Authenticate'] += `, resource_metadata="${opts.resourceMetadataUrl}"`;
      const verdict = await take(deps.db.knex, `authfail:${address}`, nowMs, failureLimit);
      if (!verdict.allowed) {
        if (blockedUntil.size > 10_000) blockedUntil.clear(); // bounded memory under a spray of addresses
        blockedUntil.set(address, nowMs + verdict.retryAfter * 1000);
        throw throttled(verdict.retryAfter);
      }
      throw err;
    }
    next();
  };
}

// The credential lookups. Whether the credential is usable is decided here (against the injected
// clock), so what was read can be kept in the process's credential cache.
const API_KEY_SQL = `SELECT k.id, k.location_id, k.role, k.scopes, k.user_id, k.expires_at, k.revoked_at, k.last_used_at, k.created_at, l.is_test,
    u.active AS user_active
  FROM api_keys k JOIN locations l ON l.id = k.location_id LEFT JOIN users u ON u.id = k.user_id
  WHERE k.key_hash = ?`;
const ACCESS_TOKEN_SQL = `SELECT t.id, t.audience, t.location_id, u.role, t.scopes, t.user_id, t.expires_at, t.revoked_at, l.is_test,
    u.active AS user_active
  FROM oauth_access_tokens t JOIN users u ON u.id = t.user_id JOIN locations l ON l.id = t.location_id
  WHERE t.token_hash = ?`;

type Found = CredentialRow & { created_at?: Date | string; expires_at: Date | string | null; revoked_at: Date | string | null; last_used_at?: Date | string | null; user_active: boolean | null };

function usable(row: Found, isKey: boolean, now: Date): boolean {
  const unexpired = row.expires_at === null ? isKey : new Date(row.expires_at) > now;
  return !row.revoked_at && unexpired && (isKey && !row.user_id ? true : !!row.user_active);
}

/** An API key's `last_used_at` (shown in the app) is written at most this often per key. */
export const KEY_LAST_USED_EVERY_MS = 60_000;

export async function resolveCredential(deps: Deps, header: string, rateLimit: number): Promise<{ auth: Auth; verdict: Verdict }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Missing bearer credential', 'missing_credential');
  const credential = match[1];
  const now = deps.clock.now();
  const isKey = API_KEY_PATTERN.test(credential);
  if (!isKey && !ACCESS_TOKEN_PATTERN.test(credential)) throw unauthenticated('Invalid API key', 'invalid_api_key');
  const hash = sha256Hex(credential);
  const cache = credentialCacheFor<Found>(deps.db);
  let row = cache.get(hash);
  if (!row) {
    const stamp = cache.stamp();
    const { rows } = await prepared<{ rows: Found[] }>(deps.db.knex, isKey ? API_KEY_SQL : ACCESS_TOKEN_SQL, [hash]);
    row = rows[0];
    if (!row) throw unauthenticated('Invalid API key', 'invalid_api_key');
    cache.set(hash, row, stamp);
  }
  if (isKey) {
    // Before any other answer: a key of the wrong mode is refused whatever its state.
    const presented = credential.startsWith('svc_test_') ? 'svc_test_' : 'svc_live_';
    if (presented === 'svc_test_' && !row.is_test) throw unauthenticated('This svc_test_ key cannot act on a production location', 'api_key_mode_mismatch');
    if (presented === 'svc_live_' && row.is_test && !isLegacyTestKey(presented, row.is_test, row.created_at!)) {
      throw unauthenticated('This svc_live_ key cannot act on a test location', 'api_key_mode_mismatch');
    }
  }
  if (!usable(row, isKey, now)) {
    if (isKey) {
      if (row.revoked_at) throw unauthenticated('API key has been revoked', 'api_key_revoked');
      if (row.expires_at && new Date(row.expires_at) <= now) throw unauthenticated('API key has expired', 'api_key_expired');
      // Not revoked: its user was deactivated, and reactivating the user makes the key work again.
      throw unauthenticated('The user this API key belongs to is deactivated', 'api_key_owner_deactivated');
    }
    if (row.expires_at && new Date(row.expires_at) <= now) throw unauthenticated('Access token has expired', 'api_key_expired');
    throw unauthenticated('Access token has been revoked', 'api_key_revoked');
  }
  // Counted against its rate limit only when usable (in memory, exchanged with the shared table).
  const verdict = await localRateLimiter(deps.db, deps.clock).take(row.id, now.getTime(), rateLimit);
  if (isKey && (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() >= KEY_LAST_USED_EVERY_MS)) {
    // Once a minute at most, and only when the key was let through (an over-limit request is not a use).
    if (verdict.allowed) {
      await deps.db.knex('api_keys').where({ id: row.id })
        .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - KEY_LAST_USED_EVERY_MS))).update({ last_used_at: now });
      row.last_used_at = now; // the cached copy too (the triggers ignore last_used_at)
    }
  }
  // Tokens minted for the MCP server (and for /v1 itself) are accepted on /v1; they act as the user.
  return { auth: toAuth(isKey ? 'api_key' : 'oauth_token', row), verdict };
}
