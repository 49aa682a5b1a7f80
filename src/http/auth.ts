import type { RequestHandler } from 'express';
import type { Deps } from '../deps';
import { sha256Hex } from '../lib/crypto';
import { ApiError, unauthenticated } from './errors';
import { AUTH_FAILURE_LIMIT, take } from './rate-limit';
import type { Auth } from './types';
import type { Role } from './spec';

export const API_KEY_PATTERN = /^svc_live_[0-9A-Za-z]{32}$/;
export const ACCESS_TOKEN_PATTERN = /^svc_at_[0-9A-Za-z]{40}$/;

interface CredentialRow {
  id: string;
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
  };
}

/**
 * Bearer API key or OAuth access token -> Auth. Looked up on every request (no cache), so a
 * revocation or a deactivated user takes effect on the very next request on every process.
 *
 * Failed authentications are counted per client address in the shared rate-limit table; past
 * AUTH_FAILURE_LIMIT in 60 seconds the address is refused with 429 before any credential is looked
 * up, until the window allows again. The refusal is remembered in this process (no query per
 * request); another process learns it at that address's next failure there.
 */
export function authenticate(deps: Deps, failureLimit = AUTH_FAILURE_LIMIT): RequestHandler {
  const blockedUntil = new Map<string, number>();
  const throttled = (retryAfter: number) =>
    new ApiError('too_many_failed_authentications', `Too many failed authentications from this address; retry after ${retryAfter} seconds`, undefined, { 'Retry-After': String(retryAfter) });

  return async (req, _res, next) => {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const nowMs = deps.clock.now().getTime();
    const until = blockedUntil.get(address);
    if (until !== undefined) {
      if (until > nowMs) throw throttled(Math.ceil((until - nowMs) / 1000));
      blockedUntil.delete(address);
    }
    try {
      req.auth = await resolveCredential(deps, req.get('Authorization') ?? '');
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
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

async function resolveCredential(deps: Deps, header: string): Promise<Auth> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Missing bearer credential', 'missing_credential');
  const credential = match[1];
  const now = deps.clock.now();
  const knex = deps.db.knex;
  if (API_KEY_PATTERN.test(credential)) {
    const key = await knex('api_keys as k')
      .join('locations as l', 'l.id', 'k.location_id')
      .leftJoin('users as u', 'u.id', 'k.user_id')
      .where('k.key_hash', sha256Hex(credential))
      .first('k.id', 'k.location_id', 'k.role', 'k.scopes', 'k.user_id', 'k.expires_at', 'k.revoked_at', 'l.is_test', 'u.active as user_active');
    if (key) {
      if (key.revoked_at) throw unauthenticated('API key has been revoked', 'api_key_revoked');
      if (key.expires_at && new Date(key.expires_at) <= now) throw unauthenticated('API key has expired', 'api_key_expired');
      if (key.user_id && key.user_active === false) throw unauthenticated('API key has been revoked', 'api_key_revoked');
      return toAuth('api_key', key);
    }
  } else if (ACCESS_TOKEN_PATTERN.test(credential)) {
    const tok = await knex('oauth_access_tokens as t')
      .join('users as u', 'u.id', 't.user_id')
      .join('locations as l', 'l.id', 't.location_id')
      .where('t.token_hash', sha256Hex(credential))
      .first('t.id', 't.location_id', 't.scopes', 't.user_id', 't.expires_at', 't.revoked_at', 'u.role', 'u.active', 'l.is_test');
    // Tokens minted for the MCP server (and for /v1 itself) are accepted on /v1; they act as the user.
    if (tok && !tok.revoked_at && tok.active && new Date(tok.expires_at) > now) return toAuth('oauth_token', tok);
    if (tok && new Date(tok.expires_at) <= now) throw unauthenticated('Access token has expired', 'api_key_expired');
    if (tok) throw unauthenticated('Access token has been revoked', 'api_key_revoked');
  }
  throw unauthenticated('Invalid API key', 'invalid_api_key');
}
