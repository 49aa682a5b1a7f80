import type { Response } from 'express';
import type { Knex } from 'knex';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { CustomOAuthError, InvalidGrantError, InvalidScopeError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Deps } from '../deps';
import { randomBase62, sha256Hex } from '../lib/crypto';
import { newId } from '../lib/ids';
import { registerMaintenance } from '../jobs/maintenance';
import { SCOPES } from '../features/accounts/accounts.service';
import { browserCookie, browserHash, browserOf, newBrowserValue } from './browser';

// The authorization server's provider for the MCP SDK's OAuth router, backed by our tables
// (src/db/migrations/0015_oauth.ts, 0016_oauth_hardening.ts). Our /authorize (./authorize.ts) and the
// SDK's other handlers check the request's shape, the client, its redirect URI and PKCE (S256); this
// class keeps the state: clients (redirect URIs vetted at registration), the authorization in progress
// (then src/web/oauth/oauth.routes.ts signs the user in and asks for consent), one-use codes,
// rotating refresh tokens, revocation. Every token is stored as a SHA-256 hash only.

export const ACCESS_TOKEN_TTL_MS = 3600_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
export const CODE_TTL_MS = 10 * 60_000;
export const AUTHORIZATION_TTL_MS = 15 * 60_000;
/** Wrong sign-in codes one email address may try (across authorizations) before it is locked out for the rest of this window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_LOCKOUT_MS = 3600_000;

/** The audience a `resource` names: the MCP server (`.../mcp`) or the REST API (the base address or `.../v1`). */
export function audienceOf(baseUrl: string, resource: string | undefined): 'mcp' | 'api' | null {
  const base = baseUrl.replace(/\/+$/, '');
  if (!resource || resource === `${base}/mcp`) return 'mcp';
  if (resource === base || resource === `${base}/` || resource === `${base}/v1`) return 'api';
  return null;
}

const now = (deps: Deps) => deps.clock.now();

/** Redirect URIs one client may register, and the longest one. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 1024;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why these redirect URIs cannot be registered, or null. OAuth 2.1 and RFC 8252: https, or plain
 * http to a loopback address (a native app's own listener); never another scheme (`file:`, custom
 * schemes), never a fragment or user info; a bounded number and length.
 */
export function redirectUrisProblem(uris: readonly string[]): string | null {
  if (!uris.length) return 'redirect_uris must name at least one URI';
  if (uris.length > MAX_REDIRECT_URIS) return `At most ${MAX_REDIRECT_URIS} redirect URIs per client`;
  for (const uri of uris) {
    if (uri.length > MAX_REDIRECT_URI_LENGTH) return `A redirect URI is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
    const url = URL.canParse(uri) ? new URL(uri) : null;
    const shown = uri.slice(0, 100);
    if (!url) return `Not a URL: ${shown}`;
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
      return `Redirect URIs must be https, or http on loopback (127.0.0.1, [::1], localhost): ${shown}`;
    }
    if (url.hash || uri.includes('#')) return `A redirect URI must not have a fragment: ${shown}`;
    if (url.username || url.password) return `A redirect URI must not have user info: ${shown}`;
  }
  return null;
}

export class DbOAuthProvider implements OAuthServerProvider {
  constructor(private readonly deps: Deps) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    const deps = this.deps;
    return {
      async getClient(clientId: string) {
        const row = await deps.db.knex('oauth_clients').where({ client_id: clientId }).first();
        if (!row) return undefined;
        const meta = (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as OAuthClientInformationFull;
        // The SDK compares the client secret itself: it is kept sealed, not hashed.
        return row.client_secret_hash ? { ...meta, client_secret: deps.secrets.open(row.client_secret_hash) } : meta;
      },
      async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) {
        // RFC 7591 section 3.2.2: the SDK's handler answers an OAuthError as 400 with its code.
        const problem = redirectUrisProblem(client.redirect_uris ?? []);
        if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
        const at = now(deps);
        const info = { ...client, client_id: newId('oac', at.getTime()), client_id_issued_at: Math.floor(at.getTime() / 1000) } as OAuthClientInformationFull;
        const { client_secret, ...meta } = info;
        await deps.db.knex('oauth_clients').insert({
          client_id: info.client_id, client_secret_hash: client_secret ? deps.secrets.seal(client_secret) : null, metadata: JSON.stringify(meta), created_at: at,
        });
        return info;
      },
    };
  }

  /**
   * Starts sign-in: the request is recorded, bound to this browser (an HttpOnly cookie, see
   * ./browser.ts), and the browser goes to our sign-in page. A request we cannot serve throws an
   * OAuthError; src/oauth/authorize.ts decides whether it may go back to the client's redirect URI.
   */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const deps = this.deps;
    const audience = audienceOf(deps.publicBaseUrl, params.resource?.href);
    if (!audience) throw new InvalidTargetError('resource must be this server\'s /mcp or /v1');
    const unknown = (params.scopes ?? []).filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length) throw new InvalidScopeError(`Unknown scope: ${unknown.join(' ').slice(0, 200)}`);
    const at = now(deps);
    const id = newId('oaz', at.getTime());
    const browser = browserOf(res.req, deps.publicBaseUrl) ?? newBrowserValue();
    await deps.db.knex.transaction(async (trx) => {
      await trx('oauth_authorizations').insert({
        id, client_id: client.client_id, redirect_uri: params.redirectUri, code_challenge: params.codeChallenge, state: params.state ?? null,
        requested_scopes: JSON.stringify(params.scopes ?? []), resource: params.resource?.href ?? `${deps.publicBaseUrl}/mcp`, status: 'signing_in',
        expires_at: new Date(at.getTime() + AUTHORIZATION_TTL_MS), created_at: at, browser_hash: browserHash(browser),
      });
      await trx('oauth_clients').where({ client_id: client.client_id }).update({ last_used_at: at });
    });
    res.setHeader('Set-Cookie', browserCookie(deps.publicBaseUrl, browser, AUTHORIZATION_TTL_MS / 1000));
    res.redirect(302, `/oauth/sign-in?authorization=${encodeURIComponent(id)}`);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const row = await this.deps.db.knex('oauth_codes').where({ code_hash: sha256Hex(code) }).first('code_challenge');
    if (!row) throw new InvalidGrantError('Invalid authorization code');
    return row.code_challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const deps = this.deps;
    // A refusal that revokes must commit the revocation: the transaction answers, the throw comes after.
    const outcome = await deps.db.knex.transaction(async (trx): Promise<OAuthTokens | InvalidGrantError> => {
      const row = await trx('oauth_codes').where({ code_hash: sha256Hex(code) }).forUpdate().first();
      if (!row || row.client_id !== client.client_id) return new InvalidGrantError('Invalid authorization code');
      if (row.used_at) {
        // A replayed code: whoever holds it, the grant it minted is no longer trusted (RFC 6749 4.1.2).
        await revokeGrant(trx, row.grant_id, now(deps));
        return new InvalidGrantError('Authorization code already used; the tokens issued for it are revoked');
      }
      if (new Date(row.expires_at) <= now(deps)) return new InvalidGrantError('Authorization code expired');
      if (redirectUri !== undefined && redirectUri !== row.redirect_uri) return new InvalidGrantError('redirect_uri does not match the authorization request');
      if (resource && audienceOf(deps.publicBaseUrl, resource.href) !== audienceOf(deps.publicBaseUrl, row.resource)) {
        return new InvalidTargetError('resource does not match the authorization request');
      }
      await trx('oauth_codes').where({ code_hash: row.code_hash }).update({ used_at: now(deps) });
      return mintTokens(trx, deps, row.grant_id);
    });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const deps = this.deps;
    const outcome = await deps.db.knex.transaction(async (trx): Promise<OAuthTokens | InvalidGrantError> => {
      const row = await trx('oauth_refresh_tokens as r').join('oauth_grants as g', 'g.id', 'r.grant_id')
        .where('r.token_hash', sha256Hex(refreshToken)).forUpdate().first('r.*', 'g.client_id', 'g.revoked_at as grant_revoked_at', 'g.scopes', 'g.audience');
      if (!row || row.client_id !== client.client_id || row.grant_revoked_at) return new InvalidGrantError('Invalid refresh token');
      if (row.used_at) {
        await revokeGrant(trx, row.grant_id, now(deps)); // a rotated token used again: stolen or replayed
        return new InvalidGrantError('Refresh token already used; the grant is revoked');
      }
      if (new Date(row.expires_at) <= now(deps)) return new InvalidGrantError('Refresh token expired');
      if (resource && audienceOf(deps.publicBaseUrl, resource.href) !== row.audience) return new InvalidTargetError('resource does not match the grant');
      const granted: string[] = typeof row.scopes === 'string' ? JSON.parse(row.scopes) : row.scopes;
      if (scopes && (!scopes.length || scopes.some((s) => !granted.includes(s)))) return new InvalidScopeError('A requested scope was not granted');
      await trx('oauth_refresh_tokens').where({ id: row.id }).update({ used_at: now(deps) });
      return mintTokens(trx, deps, row.grant_id, scopes);
    });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const row = await this.deps.db.knex('oauth_access_tokens as t').join('users as u', 'u.id', 't.user_id')
      .where('t.token_hash', sha256Hex(token)).first('t.*', 'u.active as user_active');
    if (!row || row.revoked_at || !row.user_active || new Date(row.expires_at) <= now(this.deps)) throw new InvalidTokenError('Invalid access token');
    return {
      token, clientId: row.client_id ?? '', scopes: typeof row.scopes === 'string' ? JSON.parse(row.scopes) : row.scopes,
      expiresAt: Math.floor(new Date(row.expires_at).getTime() / 1000),
      resource: new URL(row.audience === 'mcp' ? `${this.deps.publicBaseUrl}/mcp` : `${this.deps.publicBaseUrl}/v1`),
      extra: { userId: row.user_id, locationId: row.location_id, audience: row.audience, grantId: row.grant_id },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const deps = this.deps;
    const hash = sha256Hex(request.token);
    await deps.db.knex.transaction(async (trx) => {
      const refresh = await trx('oauth_refresh_tokens as r').join('oauth_grants as g', 'g.id', 'r.grant_id').where('r.token_hash', hash).first('r.grant_id', 'g.client_id');
      if (refresh && refresh.client_id === client.client_id) {
        await revokeGrant(trx, refresh.grant_id, now(deps));
        return;
      }
      await trx('oauth_access_tokens').where({ token_hash: hash, client_id: client.client_id }).whereNull('revoked_at').update({ revoked_at: now(deps) });
    });
  }
}

/** Ends a grant and every token minted under it. */
export async function revokeGrant(trx: Knex.Transaction | Knex, grantId: string, at: Date): Promise<void> {
  await trx('oauth_grants').where({ id: grantId }).whereNull('revoked_at').update({ revoked_at: at });
  await trx('oauth_access_tokens').where({ grant_id: grantId }).whereNull('revoked_at').update({ revoked_at: at });
  await trx('oauth_refresh_tokens').where({ grant_id: grantId }).whereNull('used_at').update({ used_at: at });
}

/** A new access token (`svc_at_`, 1 hour) and refresh token (30 days) for a live grant. */
async function mintTokens(trx: Knex.Transaction, deps: Deps, grantId: string, narrowed?: string[]): Promise<OAuthTokens> {
  const grant = await trx('oauth_grants as g').join('users as u', 'u.id', 'g.user_id').where('g.id', grantId).first('g.*', 'u.active as user_active');
  if (!grant || grant.revoked_at) throw new InvalidGrantError('The grant was revoked');
  if (!grant.user_active) throw new InvalidGrantError('The user who approved this grant is deactivated');
  const scopes: string[] = narrowed ?? (typeof grant.scopes === 'string' ? JSON.parse(grant.scopes) : grant.scopes);
  const at = deps.clock.now();
  const access = `svc_at_${randomBase62(40)}`;
  const refresh = `svc_rt_${randomBase62(40)}`;
  await trx('oauth_access_tokens').insert({
    id: newId('tok', at.getTime()), location_id: grant.location_id, user_id: grant.user_id, token_hash: sha256Hex(access), scopes: JSON.stringify(scopes),
    audience: grant.audience, expires_at: new Date(at.getTime() + ACCESS_TOKEN_TTL_MS), created_at: at, grant_id: grantId, client_id: grant.client_id,
  });
  await trx('oauth_refresh_tokens').insert({
    id: newId('tok', at.getTime()), token_hash: sha256Hex(refresh), grant_id: grantId, expires_at: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS), created_at: at,
  });
  return { access_token: access, token_type: 'bearer', expires_in: ACCESS_TOKEN_TTL_MS / 1000, refresh_token: refresh, scope: scopes.join(' ') };
}

/** How long spent or expired OAuth rows are kept before the hourly sweep deletes them. */
export const OAUTH_RETENTION_MS = 30 * 24 * 3600_000;
/** A registered client that no user approved is removed once no authorization started for it in this long. */
export const UNUSED_CLIENT_MS = 30 * 24 * 3600_000;
const SWEEP_BATCH = 1000;

/**
 * Deletes, in bounded batches, what can no longer be used: authorizations and codes a day after they
 * expired (a replayed code is refused as unknown after that), refresh tokens once expired, access
 * tokens 30 days after they expired (until then a request with one says "expired", not "invalid"),
 * sign-in lockouts once their window ended, and registered clients that hold no grant and had no
 * authorization for 30 days (anyone may register, so registrations must not pile up; a client with
 * a grant is kept with it, as the record of consent).
 */
export async function sweepOAuth(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const knex = deps.db.knex;
  const now = deps.clock.now().getTime();
  const dayAgo = new Date(now - 24 * 3600_000);
  const batch = (table: string, key: string, before: Date) =>
    knex(table).whereIn(key, knex(table).where('expires_at', '<', before).limit(SWEEP_BATCH).select(key)).del();
  let total = 0;
  total += await batch('oauth_codes', 'code_hash', dayAgo);
  total += await batch('oauth_authorizations', 'id', dayAgo);
  total += await batch('oauth_refresh_tokens', 'id', new Date(now));
  total += await batch('oauth_access_tokens', 'id', new Date(now - OAUTH_RETENTION_MS));
  total += await knex('oauth_sign_in_guards')
    .whereIn('subject', knex('oauth_sign_in_guards').where('window_start', '<', new Date(now - SIGN_IN_LOCKOUT_MS)).limit(SWEEP_BATCH).select('subject')).del();
  const unusedBefore = new Date(now - UNUSED_CLIENT_MS);
  total += await knex('oauth_clients').whereIn('client_id', knex('oauth_clients as c')
    .whereRaw('coalesce(c.last_used_at, c.created_at) < ?', [unusedBefore])
    .whereNotExists(knex('oauth_grants as g').whereRaw('g.client_id = c.client_id').select(knex.raw('1')))
    .limit(SWEEP_BATCH).select('c.client_id')).del();
  return total;
}

export function registerOAuthMaintenance(): void {
  registerMaintenance('oauth.expired', (deps) => sweepOAuth(deps));
}
