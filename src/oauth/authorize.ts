import express, { type Response, type Router } from 'express';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { InvalidClientError, InvalidRequestError, MethodNotAllowedError, OAuthError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Deps } from '../deps';
import { html, pageHeaders } from '../web/html';
import { layout } from '../web/portal/pages';
import type { DbOAuthProvider } from './provider';

// GET/POST /authorize, in place of the MCP SDK's handler (mounted before its router, so the SDK's
// is never reached). The SDK's handler checks the client and the redirect URI, then sends every
// other error (a bad response_type, plain PKCE, an unknown scope or resource) to that redirect URI
// at once. With dynamic registration anyone registers any redirect URI, so that made /authorize an
// open redirect before any user interaction (audit, low). OAuth 2.1 (section 4.1.2.1) lets an
// authorization server redirect errors only to a redirect URI it trusts; ours trusts one that a user
// has approved for this client (a live grant made through it). Every other error is a page of ours.

const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Whether a user approved this client with this redirect URI (a live grant made through it). */
export async function approvedRedirect(deps: Deps, clientId: string, redirectUri: string): Promise<boolean> {
  const approved = (await deps.db.knex('oauth_grants').where({ client_id: clientId }).whereNull('revoked_at').whereNotNull('redirect_uri')
    .distinct('redirect_uri').limit(100).pluck('redirect_uri')) as string[];
  return approved.some((uri) => redirectUriMatches(redirectUri, uri));
}

export function authorizeRoutes(deps: Deps, provider: DbOAuthProvider): Router {
  const router = express.Router();
  const refuse = (res: Response, error: OAuthError) => res.status(error instanceof ServerError ? 500 : 400).json(error.toResponseObject());
  const errorPage = (res: Response, error: OAuthError) => {
    const body = html`<section><h2>This assistant's request cannot be served</h2><p>${error.message}</p><p class="muted">Error: ${error.errorCode}. Tell the assistant's maker, or start again from your assistant.</p></section>`;
    res.status(error instanceof ServerError ? 500 : 400).set({ ...pageHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
      .send(layout('Request refused', body, { heading: 'Connect an assistant' }));
  };

  router.all('/authorize', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.set('Allow', 'GET, POST');
      return void res.status(405).json(new MethodNotAllowedError(`The method ${req.method} is not allowed for this endpoint`).toResponseObject());
    }
    const params = ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<string, unknown>;

    // 1. The client and its redirect URI: any error here is answered directly, as the SDK does.
    const clientId = str(params.client_id);
    let redirectUri = str(params.redirect_uri);
    if (!clientId) return void refuse(res, new InvalidRequestError('client_id is required'));
    if (params.redirect_uri !== undefined && (!redirectUri || !URL.canParse(redirectUri))) return void refuse(res, new InvalidRequestError('redirect_uri must be a valid URL'));
    const client = await provider.clientsStore.getClient(clientId);
    if (!client) return void refuse(res, new InvalidClientError('Invalid client_id'));
    if (redirectUri !== undefined) {
      const requested = redirectUri;
      if (!client.redirect_uris.some((registered) => redirectUriMatches(requested, String(registered)))) return void refuse(res, new InvalidRequestError('Unregistered redirect_uri'));
    } else if (client.redirect_uris.length === 1) {
      redirectUri = String(client.redirect_uris[0]);
    } else {
      return void refuse(res, new InvalidRequestError('redirect_uri must be specified when client has multiple registered URIs'));
    }

    // 2. The request itself: errors go back to the client only through a redirect URI a user approved.
    const state = str(params.state);
    try {
      if (params.state !== undefined && state === undefined) throw new InvalidRequestError('state must be one string');
      if (str(params.response_type) !== 'code') throw new InvalidRequestError('response_type must be code');
      const challenge = str(params.code_challenge);
      if (!challenge || !PKCE_CHALLENGE.test(challenge)) throw new InvalidRequestError('code_challenge is required (43 to 128 characters, RFC 7636)');
      if (str(params.code_challenge_method) !== 'S256') throw new InvalidRequestError('code_challenge_method must be S256');
      if (params.scope !== undefined && str(params.scope) === undefined) throw new InvalidRequestError('scope must be one string');
      const resource = str(params.resource);
      if (params.resource !== undefined && (!resource || !URL.canParse(resource))) throw new InvalidRequestError('resource must be a URL');
      const scope = str(params.scope);
      await provider.authorize(client, {
        state, scopes: scope !== undefined ? scope.split(' ') : [], redirectUri, codeChallenge: challenge, resource: resource ? new URL(resource) : undefined,
      }, res);
    } catch (err) {
      const error = err instanceof OAuthError ? err : new ServerError('Internal Server Error');
      if (!(err instanceof OAuthError)) deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'authorization request failed');
      if (res.headersSent) return;
      if (!(await approvedRedirect(deps, client.client_id, redirectUri).catch(() => false))) return void errorPage(res, error);
      const back = new URL(redirectUri);
      back.searchParams.set('error', error.errorCode);
      back.searchParams.set('error_description', error.message);
      if (state) back.searchParams.set('state', state);
      res.redirect(302, back.href);
    }
  });
  // The SDK mounts its handler with router.use('/authorize'), which also matches paths below it that
  // router.all('/authorize') does not (/authorize//, /authorize//x): its handler would answer them and
  // send request errors to any registered redirect URI. Nothing under /authorize is ours to serve.
  router.use('/authorize', (_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').json({ error: 'invalid_request', error_description: 'Not found: the authorization endpoint is /authorize' });
  });
  return router;
}
