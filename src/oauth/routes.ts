import express, { type RequestHandler, type Router } from 'express';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { Deps } from '../deps';
import { SCOPES } from '../features/accounts/accounts.service';
import { take } from '../http/rate-limit';
import { oauthPages } from '../web/oauth/oauth.routes';
import { authorizeRoutes } from './authorize';
import { DbOAuthProvider } from './provider';

// The authorization server's HTTP surface: the MCP SDK's router (RFC 8414 metadata, RFC 7591
// registration, /token, RFC 7009 /revoke, RFC 9728 metadata for /mcp) with our provider, our own
// /authorize (PKCE S256; errors go back only to a redirect URI a user approved), the resource metadata of the REST API, and the sign-in and consent pages.
// The SDK's own rate limiters keep their counts in memory on the wall clock; ours counts per client
// address in the shared table on the injected clock, for every process alike.

/** Requests per client address per 60 seconds to the authorization server and its pages. */
export const OAUTH_RATE_LIMIT = 120;

/** The REST API's resource metadata: its resource is the base address (a token minted for it works on /v1 only). */
export const apiResourceMetadataUrl = (deps: Pick<Deps, 'publicBaseUrl'>) => `${deps.publicBaseUrl}/.well-known/oauth-protected-resource`;

const OAUTH_PATHS = ['/authorize', '/token', '/register', '/revoke', '/oauth'];

/**
 * Why this server cannot be an OAuth issuer, or null: OAuth 2.1 wants an HTTPS issuer, and plain
 * HTTP is allowed on loopback only (development). Without one, OAuth and /mcp stay off (logged at
 * start) rather than stopping an API that does not need them.
 */
export function issuerProblem(publicBaseUrl: string): string | null {
  const url = new URL(publicBaseUrl);
  if (url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return null;
  return `PUBLIC_BASE_URL (${url.origin}) is not https:// or loopback: OAuth for assistants and /mcp are off`;
}

export function oauthRoutes(deps: Deps, opts: { rateLimit?: number } = {}): Router {
  const limit = opts.rateLimit ?? OAUTH_RATE_LIMIT;
  const router = express.Router();
  const limiter: RequestHandler = async (req, res, next) => {
    const verdict = await take(deps.db.knex, `oauth:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, deps.clock.now().getTime(), limit);
    if (verdict.allowed) return next();
    res.status(429).set({ 'Retry-After': String(verdict.retryAfter), 'Cache-Control': 'no-store' })
      .json({ error: 'too_many_requests', error_description: `Too many requests from this address; retry after ${verdict.retryAfter} seconds` });
  };
  router.use(OAUTH_PATHS, limiter);

  const issuerUrl = new URL(deps.publicBaseUrl);
  const provider = new DbOAuthProvider(deps);
  // Ours answers /authorize before the SDK's router would (see ./authorize.ts: no open redirect).
  router.use(authorizeRoutes(deps, provider));
  router.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      resourceServerUrl: new URL(`${deps.publicBaseUrl}/mcp`),
      scopesSupported: [...SCOPES],
      resourceName: 'Deal-Funding Platform MCP server',
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );
  const apiMetadata = (resource: string) =>
    metadataHandler({
      resource,
      authorization_servers: [issuerUrl.href],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Deal-Funding Platform API v1',
    });
  router.use('/.well-known/oauth-protected-resource/v1', apiMetadata(`${deps.publicBaseUrl}/v1`));
  router.use('/.well-known/oauth-protected-resource', (req, res, next) => (req.path === '/' ? apiMetadata(deps.publicBaseUrl)(req, res, next) : next()));
  router.use(oauthPages(deps));
  return router;
}
