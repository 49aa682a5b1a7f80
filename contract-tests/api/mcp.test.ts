import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createUser, setUserActive } from '../../src/features/accounts/accounts.service';
import { canUse } from '../../src/http/access';
import { INTERNAL_CALL_HEADER, registerInternalCall } from '../../src/http/auth';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { tools } from '../../src/mcp/tools';
import { browserCookie } from '../../src/oauth/browser';
import { ACCESS_TOKEN_TTL_MS, MAX_REDIRECT_URI_LENGTH, MAX_REDIRECT_URIS, sweepOAuth, UNUSED_CLIENT_MS } from '../../src/oauth/provider';
import { OAUTH_RATE_LIMIT } from '../../src/oauth/routes';
import { MAX_CODE_ATTEMPTS, SIGN_IN_EMAILS_PER_MINUTE, SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_LOCKOUT_MS } from '../../src/web/oauth/oauth.routes';
import { scopesForRole } from '../../src/web/oauth/scopes';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';
import { browseAt, Jar, type Page } from '../support/browser-jar';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// OAuth 2.1 for assistants and the MCP server, end to end on a real port: the SDK's own MCP client
// with its OAuth client provider runs discovery, registration, authorization (the user signs in
// with a code read from a real SMTP server and posts the consent form), the token exchange, tools,
// refresh and revocation. Then the rules one by one: audience both ways, API keys on /mcp, a
// deactivated user, expiry on the clock, PKCE, redirect URIs, a replayed code, scopes beyond the
// role, CSRF, the code's limits, and every tool called with bad arguments.

let served: Awaited<ReturnType<typeof startServedHarness>>;
let base: string;
let h: Harness;
let t: Tenant; // its codes are read from the SMTP server (its mailbox is the loopback sink, so a test location)
let demo: Tenant; // a test location: the code shown on the page is used
let live: Tenant; // a real location: the code is never on the page
let mina: { id: string }; // a manager of `t` with an address an SMTP server accepts
const MINA = 'Mina.Manager@Assist.example';
let sink: SmtpSink;
let worker: Worker;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  registerAllJobs();
  sink = await startSmtpSink();
  served = await startServedHarness();
  ({ h, base } = served);
  t = await h.tenant('Assistant Brokers');
  demo = await h.tenant('Demo Brokers');
  live = await h.tenant('Live Brokers', { isTest: false });
  mina = await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Mina Manager', email: MINA, role: 'manager' });
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Assistant Brokers <deals@assist.example>' });
  worker = new Worker(h.deps, { concurrency: 2 });
});
// Each test starts in a fresh minute of the authorization server's per-address limit.
beforeEach(() => {
  h.clock.advance(61_000);
});
afterAll(async () => {
  await worker?.close();
  await served?.close();
  await sink?.close();
});

/** The harness's users: `<role>0@<location id>.example` (named tenants keep the counter at 0). */
const emailOf = (tenant: Tenant, role: 'admin' | 'manager' | 'user') => `${role}0@${tenant.locationId.toLowerCase()}.example`;

/** The assistant's side: what the SDK asks an OAuth client to keep. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authUrl?: URL;
  constructor(private readonly redirect = REDIRECT) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test <Assistant>', redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(c: OAuthClientInformationMixed) {
    this.client = c;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier!;
  }
}

/** The user's browser (the helpers below browse in it unless told otherwise). */
const jar = new Jar();
const browseIn = (url: string, form?: Record<string, string | string[]>, browser: Jar | null = jar): Promise<Page> => browseAt(base, url, form, browser);
const browse = (url: string, form?: Record<string, string | string[]>) => browseIn(url, form, jar);
const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';

/** Opens the authorization URL and signs in; answers the consent page and the authorization's id and CSRF token. */
async function signIn(authUrl: URL | string, email: string, browser: Jar = jar, readCode?: () => Promise<string>): Promise<{ consent: Page; authorization: string; csrf: string }> {
  const browse = (url: string, form?: Record<string, string | string[]>) => browseIn(url, form, browser);
  const start = await browse(String(authUrl));
  expect(start.status, start.text).toBe(302);
  expect(start.location).toMatch(/^\/oauth\/sign-in\?authorization=oaz_/);
  const signInPage = await browse(start.location!);
  expect(signInPage.status).toBe(200);
  const authorization = hidden(signInPage.text, 'authorization');
  const csrf = hidden(signInPage.text, '_csrf');
  const sent = await browse('/oauth/sign-in', { authorization, _csrf: csrf, email });
  expect(sent.status, sent.text).toBe(200);
  const read = readCode && (await readCode());
  const before = sink.inbox.length;
  await worker.drain();
  let code = read ?? /your code is <strong>(\d{6})<\/strong>/.exec(sent.text)?.[1];
  if (!read && email === MINA.toLowerCase()) {
    const mail = sink.inbox.slice(before).find((m) => m.rcpt.includes(email));
    expect(mail, `the sign-in code was emailed: ${JSON.stringify(await h.knex('outgoing_emails').select('status', 'to_addresses', 'last_error'))}`).toBeDefined();
    code = /\b(\d{6})\b/.exec(mail!.mail.text ?? '')![1];
  }
  const verified = await browse('/oauth/verify', { authorization, _csrf: csrf, code: code ?? '' });
  expect(verified.status, verified.text).toBe(303);
  const consent = await browse(verified.location!);
  expect(consent.status, consent.text).toBe(200);
  return { consent, authorization, csrf };
}

/** Signs in and allows (all offered scopes unless `scopes`); answers the code from the redirect. */
async function approve(authUrl: URL | string, email: string, scopes?: string[], browser: Jar = jar): Promise<{ code: string; consent: Page; redirect: URL }> {
  const { consent, authorization, csrf } = await signIn(authUrl, email, browser);
  const offered = [...consent.text.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]);
  const allowed = await browseIn('/oauth/consent', { authorization, _csrf: csrf, decision: 'allow', scope: scopes ?? offered }, browser);
  expect(allowed.status, allowed.text).toBe(302);
  const redirect = new URL(allowed.location!);
  return { code: redirect.searchParams.get('code') ?? '', consent, redirect };
}

/** The whole flow through the SDK: an MCP client connected with a fresh token. */
async function connect(email: string, scopes?: string[]): Promise<{ client: Client; provider: TestProvider; transport: StreamableHTTPClientTransport }> {
  const provider = new TestProvider();
  const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  await expect(new Client({ name: 'test', version: '1' }).connect(first)).rejects.toThrow(UnauthorizedError);
  const { code } = await approve(provider.authUrl!, email, scopes);
  await first.finishAuth(code);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  return { client, provider, transport };
}

// The raw protocol, for the cases the SDK client would never produce.
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
async function register(redirect = REDIRECT): Promise<string> {
  const res = await fetch(`${base}/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw client', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}
function authorizeUrl(clientId: string, challenge: string, o: { resource?: string; scope?: string; redirect?: string } = {}) {
  const u = new URL(`${base}/authorize`);
  u.search = new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: o.redirect ?? REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1',
    ...(o.resource ? { resource: o.resource } : {}), ...(o.scope ? { scope: o.scope } : {}),
  }).toString();
  return u;
}
async function token(form: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
/** A token minted by hand: register, authorize, approve, exchange. */
async function rawToken(email: string, o: { resource?: string; scope?: string } = {}) {
  const clientId = await register();
  const { verifier, challenge } = pkce();
  const { code } = await approve(authorizeUrl(clientId, challenge, o), email);
  const res = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, ...(o.resource ? { resource: o.resource } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { clientId, code, verifier, tokens: res.body as { access_token: string; refresh_token: string; scope: string } };
}
async function v1(path: string, bearer: string) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}
async function mcpRaw(bearer: string, body: object = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe(`OAuth and MCP with the SDK client (${ENGINE})`, () => {
  it('discovery, registration, emailed sign-in, consent, token, tools, a read and a write call, refresh, revocation', async () => {
    const provider = new TestProvider();
    const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'test', version: '1' }).connect(first)).rejects.toThrow(UnauthorizedError);
    // Discovery found our metadata, registration happened, and the authorization request binds /mcp with S256.
    expect(provider.client?.client_id).toMatch(/^oac_/);
    const authUrl = provider.authUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${base}/authorize`);
    expect(authUrl.searchParams.get('resource')).toBe(`${base}/mcp`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const { code, consent } = await approve(authUrl, MINA.toLowerCase());
    // The consent page names the client (escaped), the user, the location, and where the browser goes next.
    expect(consent.text).toContain('Test &lt;Assistant&gt; wants to act as Mina Manager in Assistant Brokers');
    expect(consent.text).toContain('http://127.0.0.1:9');
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9;");
    expect(consent.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The code went by email; the outgoing record no longer holds it once sent.
    const mail = sink.inbox.find((m) => m.rcpt.includes(MINA.toLowerCase()));
    expect(mail?.mail.subject).toBe('Your sign-in code');
    const stored = await h.knex('outgoing_emails').where({ kind: 'sign_in_code', location_id: t.locationId }).first();
    expect(stored.text_body).toContain('{{sealed:code}}');
    expect(stored.sealed_values).toBeNull();
    const emailed = /\b(\d{6})\b/.exec(mail!.mail.text ?? '')![1];
    expect(JSON.stringify(stored)).not.toContain(emailed);
    expect(h.logs.join('')).not.toContain(`"${emailed}"`);
    expect(h.logs.join('')).not.toContain(`code=${emailed}`);

    await first.finishAuth(code);
    const tokens = provider.saved!;
    expect(tokens.access_token).toMatch(/^svc_at_[0-9A-Za-z]{40}$/);
    expect(tokens.refresh_token).toMatch(/^svc_rt_/);
    expect(tokens.expires_in).toBe(ACCESS_TOKEN_TTL_MS / 1000);
    expect(tokens.scope!.split(' ').sort()).toEqual([...scopesForRole('manager')].sort());
    // Hash-only at rest.
    const row = await h.knex('oauth_access_tokens').where({ user_id: mina.id }).orderBy('created_at', 'desc').first();
    expect(row.token_hash).toBe(createHash('sha256').update(tokens.access_token).digest('hex'));
    expect(JSON.stringify(await h.knex('oauth_access_tokens').select())).not.toContain(tokens.access_token);
    expect(JSON.stringify(await h.knex('oauth_refresh_tokens').select())).not.toContain(tokens.refresh_token!);

    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const listed = await client.listTools();
    const expected = tools().filter((tool) => canUse({ credentialId: 'x', credentialType: 'oauth_token', locationId: t.locationId, locationIsTest: false, role: 'manager', scopes: tokens.scope!.split(' '), userId: null }, tool.op));
    expect(listed.tools.map((x) => x.name).sort()).toEqual(expected.map((x) => x.name).sort());
    expect(listed.tools.length).toBeGreaterThan(70);
    const listDeals = listed.tools.find((x) => x.name === 'listDeals')!;
    expect(listDeals.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(listed.tools.find((x) => x.name === 'deleteWebhook')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(listed.tools.find((x) => x.name === 'createBusiness')!.inputSchema.required).toEqual(['body']);

    // A write call: it acts as the manager, through the /v1 pipeline, and lands in the location.
    const created = await client.callTool({ name: 'createBusiness', arguments: { body: { legal_name: 'Assistant Made LLC' } } });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    const biz = (created.structuredContent as { data: { id: string; legal_name: string } }).data;
    expect(biz.legal_name).toBe('Assistant Made LLC');
    // Idempotent: the same arguments again answer the same business (no second one).
    const again = await client.callTool({ name: 'createBusiness', arguments: { body: { legal_name: 'Assistant Made LLC' } } });
    expect((again.structuredContent as { data: { id: string } }).data.id).toBe(biz.id);
    const seen = await h.api.get(`/v1/businesses/${biz.id}`).set(t.auth('admin'));
    expect(seen.status).toBe(200);
    // A read call with a query parameter, and the activity records the token's user.
    const deals = await client.callTool({ name: 'listBusinesses', arguments: { limit: 5 } });
    expect((deals.structuredContent as { data: { id: string }[] }).data.map((b) => b.id)).toContain(biz.id);
    // The API's error envelope becomes a tool error.
    const missing = await client.callTool({ name: 'getBusiness', arguments: { id: 'biz_01JD1A2B3C4D5E6F7G8H9J0K1M' } });
    expect(missing.isError).toBe(true);
    expect(json((missing.content as { text: string }[])[0].text).error).toMatchObject({ type: 'not_found', code: 'resource_missing' });
    // A path value is percent-encoded into one segment (no traversal), then validated by the pipeline.
    const odd = await client.callTool({ name: 'getBusiness', arguments: { id: "biz_$&$`/../x" } });
    expect(json((odd.content as { text: string }[])[0].text).error).toMatchObject({ type: 'validation_error', param: 'id' });
    const noId = await client.callTool({ name: 'getBusiness', arguments: {} });
    expect(json((noId.content as { text: string }[])[0].text).error).toMatchObject({ code: 'invalid_request', param: 'id', message: 'id is required (a string)' });
    const invalid = await client.callTool({ name: 'createBusiness', arguments: { body: { legal_name: 7 } } });
    expect(invalid.isError).toBe(true);
    expect(json((invalid.content as { text: string }[])[0].text).error).toMatchObject({ type: 'validation_error', param: 'legal_name' });

    // Where money is at stake the tool answers as /v1 does: the refusal is a tool error naming its
    // code; the same call with force: true goes through and is recorded as forced.
    const gated = await h.api.post('/v1/lenders').set(t.auth('admin')).send({ name: 'Assistant Gated', submission_email: 'gated@assist.example', criteria: { max_amount: 1000, hard_gates: ['max_amount'] } });
    const gatedDeal = await h.api.post('/v1/deals').set(t.auth('admin')).send({ business_id: biz.id, requested_amount: 50000 });
    const refusedCall = await client.callTool({ name: 'createDealSubmissions', arguments: { dealId: gatedDeal.body.data.id, body: { lender_ids: [gated.body.data.id], send: false } } });
    expect(refusedCall.isError).toBe(true);
    expect(json((refusedCall.content as { text: string }[])[0].text).error).toMatchObject({ type: 'conflict', code: 'lender_hard_rules_failed', param: 'lender_ids' });
    const forcedCall = await client.callTool({ name: 'createDealSubmissions', arguments: { dealId: gatedDeal.body.data.id, body: { lender_ids: [gated.body.data.id], send: false, force: true } } });
    expect(forcedCall.isError, JSON.stringify(forcedCall)).toBeFalsy();
    expect((forcedCall.structuredContent as { data: { forced: boolean }[]; meta: { warnings: { code: string }[] } })).toMatchObject({ data: [{ forced: true }], meta: { warnings: [{ code: 'hard_rule_forced' }] } });

    // The same token works on /v1.
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(200);

    // Refresh: a new pair; the used refresh token is spent (its reuse revokes the grant).
    const oldRefresh = tokens.refresh_token!;
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('AUTHORIZED');
    const refreshed = provider.saved!;
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(oldRefresh);
    expect((await v1('/v1/deals', refreshed.access_token)).status).toBe(200);
    await client.close();

    // Revocation (RFC 7009) of the refresh token ends the grant: both tokens fail on the next request.
    const revoked = await fetch(`${base}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: refreshed.refresh_token!, client_id: provider.client!.client_id }) });
    expect(revoked.status).toBe(200);
    expect((await v1('/v1/deals', refreshed.access_token)).status).toBe(401);
    expect((await mcpRaw(refreshed.access_token)).status).toBe(401);
    const refreshAgain = await token({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, client_id: provider.client!.client_id });
    expect(refreshAgain.body.error).toBe('invalid_grant');
  });

  it('revoking an access token ends that token only; a rotated refresh token used again revokes the grant', async () => {
    const { clientId, tokens } = await rawToken(emailOf(demo, 'admin'), { resource: `${base}/mcp` });
    const next = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(next.status).toBe(200);
    const r = await fetch(`${base}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token, client_id: clientId }) });
    expect(r.status).toBe(200);
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(401);
    expect((await v1('/v1/deals', next.body.access_token)).status).toBe(200);
    // The first refresh token again: stolen or replayed, so the whole grant ends.
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await v1('/v1/deals', next.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: next.body.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
  });
});

describe(`audience, credentials and expiry (${ENGINE})`, () => {
  it('a token for /mcp works on /mcp and /v1; a token for /v1 works on /v1 and is refused on /mcp with the resource metadata named', async () => {
    const mcp = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/mcp` });
    expect((await mcpRaw(mcp.tokens.access_token)).status).toBe(200);
    expect((await v1('/v1/deals', mcp.tokens.access_token)).status).toBe(200);

    const api = await rawToken(emailOf(demo, 'manager'), { resource: base });
    expect((await v1('/v1/deals', api.tokens.access_token)).status).toBe(200);
    const refused = await mcpRaw(api.tokens.access_token);
    expect(refused.status).toBe(401);
    expect(json(refused.text).error).toMatchObject({ type: 'authentication_error', code: 'invalid_token_audience' });
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // `${base}/v1` names the same audience as the base address.
    const apiV1 = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/v1` });
    expect((await mcpRaw(apiV1.tokens.access_token)).status).toBe(401);
    // Refreshing a /v1 grant for /mcp is refused.
    const widen = await token({ grant_type: 'refresh_token', refresh_token: api.tokens.refresh_token, client_id: api.clientId, resource: `${base}/mcp` });
    expect(widen.body.error).toBe('invalid_target');
    // A resource that is not ours is refused at authorization: on our page for a client nobody
    // approved yet, back to the redirect URI a user approved for one that was.
    const clientId = await register();
    const other = await browse(String(authorizeUrl(clientId, pkce().challenge, { resource: 'https://elsewhere.example/mcp' })));
    expect(other.status).toBe(400);
    expect(other.location).toBeNull();
    expect(other.text).toContain('Error: invalid_target');
    const approved = await browse(String(authorizeUrl(mcp.clientId, pkce().challenge, { resource: 'https://elsewhere.example/mcp' })));
    expect(approved.status).toBe(302);
    expect(new URL(approved.location!).searchParams.get('error')).toBe('invalid_target');
  });

  it('no credential, an API key, or a garbage token on /mcp: 401 naming the resource metadata; /v1 401s name its own', async () => {
    const none = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const key = await mcpRaw(demo.keys.admin);
    expect(key.status).toBe(401);
    expect(json(key.text).error.code).toBe('api_key_not_allowed');
    expect(key.headers.get('www-authenticate')).toContain('resource_metadata=');
    const garbage = await mcpRaw(`svc_at_${'x'.repeat(40)}`);
    expect(garbage.status).toBe(401);
    const v1none = await fetch(`${base}/v1/deals`);
    expect(v1none.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    // GET on /mcp (no server stream in a stateless server) is 405 for a valid token.
    const { tokens } = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/mcp` });
    const get = await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('a server whose public address is plain HTTP off loopback keeps OAuth and /mcp off, says so, and still serves /v1', async () => {
    const plain = await startHarness({ publicBaseUrl: 'http://api.example.com' });
    try {
      const tenant = await plain.tenant();
      expect(plain.logs.join('')).toContain('OAuth for assistants and /mcp are off');
      expect((await plain.api.post('/mcp').send({})).status).toBe(404);
      expect((await plain.api.get('/.well-known/oauth-authorization-server')).status).toBe(404);
      const none = await plain.api.get('/v1/deals');
      expect(none.headers['www-authenticate']).toBe('Bearer realm="svc"');
      expect((await plain.api.get('/v1/deals').set(tenant.auth('admin'))).status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it('a tool call\'s inner request: only a live nonce stands for authentication; unknown or released ones are ignored', async () => {
    const auth = { credentialId: 'tok_inner', credentialType: 'oauth_token' as const, locationId: demo.locationId, locationIsTest: true, role: 'admin' as const, scopes: ['deals:read'], userId: demo.users.admin.id };
    const call = registerInternalCall(auth, { allowed: true, used: 1, reset: 0, retryAfter: 0 });
    expect((await h.api.get('/v1/deals').set(INTERNAL_CALL_HEADER, call.nonce)).status).toBe(200);
    expect((await h.api.get('/v1/deals').set(INTERNAL_CALL_HEADER, 'f'.repeat(64))).status).toBe(401);
    call.release();
    expect((await h.api.get('/v1/deals').set(INTERNAL_CALL_HEADER, call.nonce)).status).toBe(401);
  });

  it('metadata: authorization server (RFC 8414) and protected resources (RFC 9728) for /mcp and /v1', async () => {
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, any>;
    expect(as).toMatchObject({
      issuer: `${base}/`, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`,
      revocation_endpoint: `${base}/revoke`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'],
    });
    const mcp = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, any>;
    expect(mcp).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [`${base}/`] });
    const api = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as Record<string, any>;
    expect(api).toMatchObject({ resource: base, authorization_servers: [`${base}/`], bearer_methods_supported: ['header'] });
    const apiV1 = (await (await fetch(`${base}/.well-known/oauth-protected-resource/v1`)).json()) as Record<string, any>;
    expect(apiV1.resource).toBe(`${base}/v1`);
  });

  it('a user deactivated mid-session: the next /mcp and /v1 request fails, and so does refresh', async () => {
    const { client, provider } = await connect(emailOf(demo, 'user'));
    // Role `user` holds deals:write and submissions:write, yet the contract keeps some of their operations from it.
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['createDeal', 'createDealSubmissions', 'listDeals']));
    for (const adminOnly of ['fundDeal', 'createPipelineStage', 'withdrawSubmission', 'updateOffer', 'listInboundEmails']) expect(names).not.toContain(adminOnly);
    await setUserActive(h.knex, h.clock, demo.users.user.id, false);
    try {
      expect((await mcpRaw(provider.saved!.access_token)).status).toBe(401);
      expect((await v1('/v1/deals', provider.saved!.access_token)).status).toBe(401);
      const refresh = await token({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id });
      expect(refresh.body.error).toBe('invalid_grant');
    } finally {
      await setUserActive(h.knex, h.clock, demo.users.user.id, true);
      await client.close();
    }
  });

  it('an access token expires on the clock after one hour; the refresh token still works', async () => {
    const { clientId, tokens } = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/mcp` });
    h.clock.advance(ACCESS_TOKEN_TTL_MS - 1000);
    expect((await mcpRaw(tokens.access_token)).status).toBe(200);
    h.clock.advance(1000);
    expect((await mcpRaw(tokens.access_token)).status).toBe(401);
    expect((await v1('/v1/deals', tokens.access_token)).body.error.code).toBe('api_key_expired');
    const next = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(next.status).toBe(200);
    expect((await mcpRaw(next.body.access_token)).status).toBe(200);
  });

  it('spent and expired OAuth rows are swept: codes and authorizations a day after expiry, refresh tokens at expiry, access tokens 30 days after', async () => {
    const { tokens, code } = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/mcp` });
    const count = async (table: string) => Number((await h.knex(table).count({ n: '*' }).first())!.n);
    const hash = createHash('sha256').update(tokens.access_token).digest('hex');
    const codeRow = () => h.knex('oauth_codes').where({ code_hash: createHash('sha256').update(code).digest('hex') }).first();
    await sweepOAuth(h.deps);
    expect(await h.knex('oauth_access_tokens').where({ token_hash: hash }).first()).toBeDefined();
    expect(await codeRow()).toBeDefined();
    h.clock.advance(10 * 60_000 + 24 * 3600_000 - 1000); // a day after the code expired, less a second
    await sweepOAuth(h.deps);
    expect(await codeRow()).toBeDefined();
    h.clock.advance(16 * 60_000); // every authorization and code of this file is now a day past expiry
    await sweepOAuth(h.deps);
    expect(await count('oauth_codes')).toBe(0);
    expect(await count('oauth_authorizations')).toBe(0);
    expect(await h.knex('oauth_access_tokens').where({ token_hash: hash }).first()).toBeDefined();
    h.clock.advance(30 * 24 * 3600_000);
    await sweepOAuth(h.deps);
    expect(await h.knex('oauth_access_tokens').where({ token_hash: hash }).first()).toBeUndefined();
    expect(await h.knex('oauth_refresh_tokens').where({ token_hash: createHash('sha256').update(tokens.refresh_token).digest('hex') }).first()).toBeUndefined();
    expect(await count('oauth_grants')).toBeGreaterThan(0); // grants are the record of consent: kept
  });

  it('the operator revokes a grant from the CLI: its tokens fail at once; clients and grants are listed', async () => {
    const { OAUTH_COMMANDS, OAuthUsageError } = await import('../../src/cli/oauth');
    const { tokens, clientId } = await rawToken(emailOf(demo, 'admin'), { resource: `${base}/mcp` });
    const grants = (await OAUTH_COMMANDS['oauth grants']({ user: demo.users.admin.id }, [])(h.knex, h.clock)) as { data: Record<string, any>[] };
    const grant = grants.data.find((g) => g.client_id === clientId)!;
    expect(grant).toMatchObject({ client_name: 'Raw client', audience: 'mcp', revoked_at: null, location_id: demo.locationId });
    const clients = (await OAUTH_COMMANDS['oauth clients']({}, [])(h.knex, h.clock)) as { data: Record<string, any>[] };
    expect(clients.data.find((c) => c.client_id === clientId)).toMatchObject({ client_name: 'Raw client', redirect_uris: [REDIRECT], live_grants: 1 });
    expect(JSON.stringify(clients)).not.toContain('secret');
    expect((await mcpRaw(tokens.access_token)).status).toBe(200);
    const out = (await OAUTH_COMMANDS['oauth revoke']({}, [grant.id])(h.knex, h.clock)) as Record<string, any>;
    expect(out).toMatchObject({ id: grant.id, revoked: true, revoked_at: h.clock.now().toISOString() });
    expect((await mcpRaw(tokens.access_token)).status).toBe(401);
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
    expect(() => OAUTH_COMMANDS['oauth grants']({}, [])).toThrow(OAuthUsageError);
    expect(() => OAUTH_COMMANDS['oauth revoke']({}, [])).toThrow(OAuthUsageError);
    await expect(OAUTH_COMMANDS['oauth revoke']({}, ['ogr_01JD1A2B3C4D5E6F7G8H9J0K1M'])(h.knex, h.clock)).rejects.toThrow(/No OAuth grant/);
  });
});

describe(`the authorization code's rules (${ENGINE})`, () => {
  it('a PKCE verifier that does not match is refused, and the code stays unused', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const { code } = await approve(authorizeUrl(clientId, challenge, { resource: `${base}/mcp` }), emailOf(demo, 'manager'));
    const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: pkce().verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const right = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(right.status).toBe(200);
    // plain PKCE is not offered: the authorization request is refused back to the client.
    const plain = new URL(authorizeUrl(clientId, verifier));
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = await browse(String(plain));
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('a redirect URI that was not registered is refused without redirecting', async () => {
    const clientId = await register();
    const res = await browse(String(authorizeUrl(clientId, pkce().challenge, { redirect: 'https://attacker.example/cb' })));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(json(res.text).error).toBe('invalid_request');
    // At the token endpoint too: a code is bound to the redirect URI it was issued for.
    const { verifier, challenge } = pkce();
    const { code } = await approve(authorizeUrl(clientId, challenge), emailOf(demo, 'manager'));
    const swapped = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: 'http://127.0.0.1:9/other' });
    expect(swapped.body.error).toBe('invalid_grant');
  });

  it('a replayed code is refused and the tokens from its first use are revoked', async () => {
    const { clientId, code, verifier, tokens } = await rawToken(emailOf(demo, 'manager'), { resource: `${base}/mcp` });
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(200);
    const replay = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
  });

  it('a code expires after 10 minutes; another client cannot use it', async () => {
    const clientId = await register();
    const otherClient = await register();
    const { verifier, challenge } = pkce();
    const { code } = await approve(authorizeUrl(clientId, challenge), emailOf(demo, 'manager'));
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: otherClient, redirect_uri: REDIRECT })).body.error).toBe('invalid_grant');
    h.clock.advance(10 * 60_000);
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).body.error).toBe('invalid_grant');
  });
});

describe(`consent and scopes (${ENGINE})`, () => {
  it('a scope beyond the role is shown as unavailable and never granted, even when the form is forged', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const { consent, authorization, csrf } = await signIn(authorizeUrl(clientId, challenge, { scope: 'deals:read webhooks:manage advances:read' }), emailOf(demo, 'user'));
    expect(consent.text).toContain('Not available to your role: webhooks:manage, advances:read');
    expect([...consent.text.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['deals:read']);
    const allowed = await browse('/oauth/consent', { authorization, _csrf: csrf, decision: 'allow', scope: ['deals:read', 'webhooks:manage', 'advances:read'] });
    const code = new URL(allowed.location!).searchParams.get('code')!;
    const res = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
    expect(res.body.scope).toBe('deals:read');
    const grant = await h.knex('oauth_grants').where({ client_id: clientId }).first();
    expect(typeof grant.scopes === 'string' ? JSON.parse(grant.scopes) : grant.scopes).toEqual(['deals:read']);
    // Scopes the user unticks are not granted; tools needing them are not listed, and calls are refused.
    const list = json((await mcpRaw(res.body.access_token)).text).result.tools.map((x: { name: string }) => x.name);
    expect(list).toContain('listDeals');
    expect(list).not.toContain('createDeal');
    expect(list).not.toContain('listWebhooks');
    const call = json((await mcpRaw(res.body.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'createBusiness', arguments: { body: { legal_name: 'Nope LLC' } } } })).text);
    expect(call.result?.isError, JSON.stringify(call)).toBe(true);
    expect(json(call.result.content[0].text).error.code).toBe('missing_scope');
  });

  it('an email with accounts in several locations chooses the location on the consent page', async () => {
    const second = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Mina in Demo', email: MINA, role: 'user' });
    try {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const a = await signIn(authorizeUrl(clientId, challenge, { resource: `${base}/mcp` }), MINA.toLowerCase());
      expect(a.consent.text).toContain('wants to act as Mina Manager in Assistant Brokers');
      expect(a.consent.text).toContain(`<option value="${second.id}">Demo Brokers</option>`);
      const stranger = await browse('/oauth/account', { authorization: a.authorization, _csrf: a.csrf, account: demo.users.admin.id });
      expect(stranger.status).toBe(400);
      const forged = await browse('/oauth/account', { authorization: a.authorization, _csrf: 'f'.repeat(64), account: second.id });
      expect(forged.status).toBe(403);
      const switched = await browse('/oauth/account', { authorization: a.authorization, _csrf: a.csrf, account: second.id });
      expect(switched.status).toBe(303);
      const consent = await browse(switched.location!);
      expect(consent.text).toContain('wants to act as Mina in Demo in Demo Brokers');
      expect(consent.text).toContain('with your role (user)');
      const allowed = await browse('/oauth/consent', { authorization: a.authorization, _csrf: a.csrf, decision: 'allow', scope: ['deals:read', 'webhooks:manage'] });
      const code = new URL(allowed.location!).searchParams.get('code')!;
      const res = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT });
      expect(res.body.scope).toBe('deals:read');
      expect(await h.knex('oauth_grants').where({ client_id: clientId }).first('location_id', 'user_id')).toEqual({ location_id: demo.locationId, user_id: second.id });
    } finally {
      await setUserActive(h.knex, h.clock, second.id, false);
    }
  });

  it('unknown scopes are refused; unticking every scope grants nothing; deny answers access_denied', async () => {
    const clientId = await register();
    const unknown = await browse(String(authorizeUrl(clientId, pkce().challenge, { scope: 'deals:read root:all' })));
    expect(unknown.status).toBe(400); // nobody approved this client: our page, no redirect
    expect(unknown.text).toContain('Error: invalid_scope');
    const a = await signIn(authorizeUrl(clientId, pkce().challenge), emailOf(demo, 'manager'));
    const none = await browse('/oauth/consent', { authorization: a.authorization, _csrf: a.csrf, decision: 'allow' });
    expect(new URL(none.location!).searchParams.get('error')).toBe('invalid_scope');
    const b = await signIn(authorizeUrl(clientId, pkce().challenge), emailOf(demo, 'manager'));
    const denied = await browse('/oauth/consent', { authorization: b.authorization, _csrf: b.csrf, decision: 'deny', scope: 'deals:read' });
    const back = new URL(denied.location!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(Number((await h.knex('oauth_grants').where({ client_id: clientId }).count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('forms need their CSRF token; an expired or finished authorization is a clear page', async () => {
    const clientId = await register();
    const a = await signIn(authorizeUrl(clientId, pkce().challenge), emailOf(demo, 'manager'));
    const forged = await browse('/oauth/consent', { authorization: a.authorization, _csrf: 'f'.repeat(64), decision: 'allow', scope: 'deals:read' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired');
    expect(forged.headers.get('content-security-policy')).toContain("default-src 'none'");
    const ok = await browse('/oauth/consent', { authorization: a.authorization, _csrf: a.csrf, decision: 'allow', scope: 'deals:read' });
    expect(ok.status).toBe(302);
    const again = await browse('/oauth/consent', { authorization: a.authorization, _csrf: a.csrf, decision: 'allow', scope: 'deals:read' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('This sign-in has expired');
    const bogus = await browse('/oauth/sign-in?authorization=<script>');
    expect(bogus.status).toBe(400);
    expect(bogus.text).not.toContain('<script>');
  });

  it(`a sign-in code allows ${MAX_CODE_ATTEMPTS} wrong tries, expires after 10 minutes, and at most ${SIGN_IN_EMAILS_PER_MINUTE} go to one address a minute`, async () => {
    const clientId = await register();
    const start = await browse(String(authorizeUrl(clientId, pkce().challenge)));
    const page = await browse(start.location!);
    const authorization = hidden(page.text, 'authorization');
    const csrf = hidden(page.text, '_csrf');
    const sent = await browse('/oauth/sign-in', { authorization, _csrf: csrf, email: emailOf(demo, 'manager') });
    const code = /your code is <strong>(\d{6})<\/strong>/.exec(sent.text)![1];
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) expect((await browse('/oauth/verify', { authorization, _csrf: csrf, code: wrong })).text).toContain('That code is not right');
    const locked = await browse('/oauth/verify', { authorization, _csrf: csrf, code });
    expect(locked.status).toBe(400);
    expect(locked.text).toContain('This code has expired');
    // A re-sent code does not give the authorization new tries (M8).
    const again = await browse('/oauth/sign-in', { authorization, _csrf: csrf, email: emailOf(demo, 'manager') });
    const code2 = /your code is <strong>(\d{6})<\/strong>/.exec(again.text)![1];
    const stillLocked = await browse('/oauth/verify', { authorization, _csrf: csrf, code: code2 });
    expect(stillLocked.status).toBe(400);
    expect(stillLocked.text).toContain('This code has expired');
    expect((await h.knex('oauth_authorizations').where({ id: authorization }).first('sign_in_attempts')).sign_in_attempts).toBe(MAX_CODE_ATTEMPTS);
    // Expiry on the clock.
    const fresh = await signInPageFor();
    const sent3 = await browse('/oauth/sign-in', { ...fresh, email: emailOf(demo, 'manager') });
    const code3 = /your code is <strong>(\d{6})<\/strong>/.exec(sent3.text)![1];
    h.clock.advance(10 * 60_000);
    expect((await browse('/oauth/verify', { ...fresh, code: code3 })).text).toContain('This code has expired');
    // A real location's code is only emailed, never shown.
    const real = await browse('/oauth/sign-in', { ...(await signInPageFor()), email: emailOf(live, 'admin') });
    expect(real.status).toBe(200);
    expect(real.text).not.toContain('your code is');
    // An address that has no account reads the same and gets nothing.
    const before = sink.inbox.length;
    const ghost = await signInPageFor();
    const nobody = await browse('/oauth/sign-in', { ...ghost, email: 'nobody@nowhere.example' });
    expect(nobody.status).toBe(200);
    expect(nobody.text).toContain('If nobody@nowhere.example has an account');
    await worker.drain();
    expect(sink.inbox.length).toBe(before);
    // Emails per address per minute.
    const email = MINA;
    for (let i = 0; i < SIGN_IN_EMAILS_PER_MINUTE; i++) expect((await browse('/oauth/sign-in', { ...(await signInPageFor()), email })).status).toBe(200);
    const flood = await browse('/oauth/sign-in', { ...(await signInPageFor()), email });
    expect(flood.status).toBe(429);
    expect(flood.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe(`the authorization server's own limit (${ENGINE})`, () => {
  it(`at most ${OAUTH_RATE_LIMIT} requests per client address a minute, on the clock, across its endpoints and pages`, async () => {
    h.clock.advance(61_000);
    for (let i = 0; i < OAUTH_RATE_LIMIT; i++) expect((await browse(i % 2 ? '/oauth/sign-in?authorization=oaz_x' : '/authorize')).status).not.toBe(429);
    const refused = await fetch(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toBe('too_many_requests');
    expect((await fetch(`${base}/register`, { method: 'POST' })).status).toBe(429);
    // Metadata is not limited; the API is not affected.
    expect((await fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
    h.clock.advance(61_000);
    expect((await browse('/authorize')).status).not.toBe(429);
  });
});

// The outside audit's findings, each reproduced as the attack it described.
describe(`audit: sign-in bound to the browser, shown codes, guessing, redirects (${ENGINE})`, () => {
  const codeOnPage = (page: Page) => /your code is <strong>(\d{6})<\/strong>/.exec(page.text)?.[1];
  const signInCodes = async () => Number((await h.knex('outgoing_emails').where({ kind: 'sign_in_code' }).count({ n: '*' }).first())!.n);

  it('H2: a sign-in link opened in another browser shows no form and issues no code; nobody but the signed-in browser can approve', async () => {
    const attacker = new Jar();
    const victim = new Jar();
    const clientId = await register();
    const start = await browseIn(String(authorizeUrl(clientId, pkce().challenge)), undefined, attacker);
    expect(start.status).toBe(302);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith('oauth_browser='));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    // On an HTTPS issuer the cookie is `__Host-` prefixed and Secure (a sibling subdomain cannot plant one).
    expect(browserCookie('https://api.example.com', 'v'.repeat(43), 900)).toBe(`__Host-oauth_browser=${'v'.repeat(43)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=900; Secure`);
    const own = await browseIn(start.location!, undefined, attacker);
    expect(own.status).toBe(200);
    const authorization = hidden(own.text, 'authorization');
    const csrf = hidden(own.text, '_csrf');
    // The victim opens the attacker's link: refused, with no form, with or without a cookie of its own.
    const opened = await browseIn(start.location!, undefined, victim);
    expect(opened.status).toBe(403);
    expect(opened.text).toContain('started in another browser');
    expect(opened.text).not.toContain('name="_csrf"');
    await browseIn(String(authorizeUrl(clientId, pkce().challenge)), undefined, victim);
    expect(victim.cookies.get('oauth_browser')).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(victim.cookies.get('oauth_browser')).not.toBe(attacker.cookies.get('oauth_browser'));
    expect((await browseIn(start.location!, undefined, victim)).status).toBe(403);
    // Even with the attacker's form fields (its CSRF token) the victim's sign-in is refused: no code is issued.
    const codesBefore = await signInCodes();
    for (const browser of [victim, null]) {
      const posted = await browseIn('/oauth/sign-in', { authorization, _csrf: csrf, email: emailOf(demo, 'admin') }, browser);
      expect(posted.status).toBe(403);
      expect(codeOnPage(posted)).toBeUndefined();
    }
    expect(await signInCodes()).toBe(codesBefore);
    expect(await h.knex('oauth_authorizations').where({ id: authorization }).first('status', 'email')).toEqual({ status: 'signing_in', email: null });

    // The other way round: the victim's browser starts the attacker's authorization request and signs
    // in; the attacker, holding the authorization id (and even the victim's CSRF token), cannot answer it.
    const { challenge } = pkce();
    const { consent, authorization: theirs, csrf: theirCsrf } = await signIn(authorizeUrl(clientId, challenge), emailOf(demo, 'admin'), victim);
    expect(consent.status).toBe(200);
    for (const form of [{ _csrf: theirCsrf }, { _csrf: csrf }]) {
      const stolen = await browseIn('/oauth/consent', { authorization: theirs, ...form, decision: 'allow', scope: ['webhooks:manage', 'deals:read'] }, attacker);
      expect(stolen.status).toBe(403);
      expect(stolen.location).toBeNull();
      expect((await browseIn('/oauth/account', { authorization: theirs, ...form, account: demo.users.admin.id }, attacker)).status).toBe(403);
      expect((await browseIn(`/oauth/consent?authorization=${theirs}`, undefined, attacker)).status).toBe(403);
    }
    expect(Number((await h.knex('oauth_grants').where({ client_id: clientId }).count({ n: '*' }).first())!.n)).toBe(0);
    // A form of one browser's authorization with another authorization's token (same browser) is refused too.
    const mine = await signInPageFor();
    expect((await browse('/oauth/sign-in', { authorization: mine.authorization, _csrf: theirCsrf, email: emailOf(demo, 'admin') })).status).toBe(403);
  });

  it('H1: a code is shown only when every account of the email is in a test location; after a shown code only test-location accounts can be chosen', async () => {
    // The audit's case: an older test-location account and a real-location admin with the same email.
    const realAdmin = await createUser(h.knex, h.clock, { locationId: live.locationId, name: 'Mina Live Admin', email: MINA, role: 'admin' });
    const twinEmail = `twin.${demo.locationId.toLowerCase()}@assist.example`;
    const twin = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Twin Demo', email: twinEmail, role: 'user' });
    const twinT = await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Twin Assist', email: twinEmail, role: 'user' });
    let twinLive: { id: string } | undefined;
    try {
      const attacker = new Jar();
      const clientId = await register();
      const start = await browseIn(String(authorizeUrl(clientId, pkce().challenge)), undefined, attacker);
      const page = await browseIn(start.location!, undefined, attacker);
      const form = { authorization: hidden(page.text, 'authorization'), _csrf: hidden(page.text, '_csrf') };
      const sent = await browseIn('/oauth/sign-in', { ...form, email: MINA.toLowerCase() }, attacker);
      expect(sent.status).toBe(200);
      expect(codeOnPage(sent)).toBeUndefined(); // one account is real: the code is only emailed
      expect((await h.knex('oauth_authorizations').where({ id: form.authorization }).first('sign_in_shown')).sign_in_shown).toBe(false);
      // It goes through the real location's mailbox, never the test location's (which may be a shared catcher).
      const lastCode = () => h.knex('outgoing_emails').where({ kind: 'sign_in_code' }).whereRaw('to_addresses::text like ?', [`%${MINA.toLowerCase()}%`])
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first('location_id', 'sealed_values');
      expect((await lastCode()).location_id).toBe(live.locationId);
      // The mailbox's holder signs in with the emailed code (read here as the mail would carry it) and may choose the real location.
      h.clock.advance(1000); // (the newest code is then the owner's)
      const fromMail = async () => (JSON.parse(h.deps.secrets.open((await lastCode()).sealed_values)) as { code: string }).code;
      const owner = await signIn(authorizeUrl(clientId, pkce().challenge), MINA.toLowerCase(), jar, fromMail);
      expect(owner.consent.text).toContain(`<option value="${realAdmin.id}">Live Brokers</option>`);
      const switched = await browse('/oauth/account', { authorization: owner.authorization, _csrf: owner.csrf, account: realAdmin.id });
      expect(switched.status).toBe(303);
      expect((await browse(switched.location!)).text).toContain('wants to act as Mina Live Admin in Live Brokers');

      // Every account of this email is in a test location: the code is shown, and whoever read it
      // may act only as those accounts, even when a real one with the same email appears meanwhile.
      const shown = await signIn(authorizeUrl(clientId, pkce().challenge), twinEmail);
      expect(shown.consent.text).toContain(`<option value="${twinT.id}">Assistant Brokers</option>`);
      twinLive = await createUser(h.knex, h.clock, { locationId: live.locationId, name: 'Twin Live Admin', email: twinEmail, role: 'admin' });
      const consent = await browse(`/oauth/consent?authorization=${shown.authorization}`);
      expect(consent.text).not.toContain(twinLive.id);
      expect(consent.text).not.toContain('Live Brokers');
      const widen = await browse('/oauth/account', { authorization: shown.authorization, _csrf: shown.csrf, account: twinLive.id });
      expect(widen.status).toBe(400);
      expect(widen.text).toContain('No such account');
      // And a new sign-in for that email no longer shows the code.
      const after = await browse('/oauth/sign-in', { ...(await signInPageFor()), email: twinEmail });
      expect(codeOnPage(after)).toBeUndefined();
      // Approving the shown-code sign-in grants the test account it proved, never the real one.
      const allowed = await browse('/oauth/consent', { authorization: shown.authorization, _csrf: shown.csrf, decision: 'allow', scope: 'deals:read' });
      expect(allowed.status).toBe(302);
      const grant = await h.knex('oauth_grants').where({ client_id: clientId }).orderBy('created_at', 'desc').first('user_id', 'location_id');
      expect(grant).toEqual({ user_id: twin.id, location_id: demo.locationId });
    } finally {
      for (const u of [realAdmin, twin, twinT, twinLive]) if (u) await setUserActive(h.knex, h.clock, u.id, false);
    }
  });

  it(`M8: tries are taken atomically, ${MAX_CODE_ATTEMPTS} per authorization and ${SIGN_IN_FAILURES_PER_EMAIL} wrong ones per address across authorizations, locked out on the clock`, async () => {
    const email = `guess.${demo.locationId.toLowerCase()}@assist.example`;
    const user = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Guessed', email, role: 'user' });
    try {
      const startSignIn = async () => {
        const form = await signInPageFor();
        const code = codeOnPage(await browse('/oauth/sign-in', { ...form, email }))!;
        return { form, code, wrong: code === '000000' ? '111111' : '000000' };
      };
      // Two authorizations spend the address's wrong tries, one after the other.
      for (let a = 0; a < SIGN_IN_FAILURES_PER_EMAIL / MAX_CODE_ATTEMPTS; a++) {
        const { form, wrong } = await startSignIn();
        for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) expect((await browse('/oauth/verify', { ...form, code: wrong })).text).toContain('That code is not right');
      }
      // A third authorization with the RIGHT code: the address is locked out for the rest of the hour.
      const third = await startSignIn();
      const locked = await browse('/oauth/verify', { ...third.form, code: third.code });
      expect(locked.status).toBe(429);
      expect(locked.text).toContain('Too many wrong codes');
      expect(Number(locked.headers.get('retry-after'))).toBe(SIGN_IN_LOCKOUT_MS / 1000);
      h.clock.advance(SIGN_IN_LOCKOUT_MS - 1000);
      const stillLocked = await startSignIn();
      expect((await browse('/oauth/verify', { ...stillLocked.form, code: stillLocked.code })).status).toBe(429);
      h.clock.advance(1000);
      // The window is over: a wrong try counts, a right one is given back, and the user is in.
      const next = await startSignIn();
      expect((await browse('/oauth/verify', { ...next.form, code: next.wrong })).text).toContain('That code is not right');
      expect((await browse('/oauth/verify', { ...next.form, code: next.code })).status).toBe(303);
      expect((await h.knex('oauth_sign_in_guards').select('failures')).map((r) => Number(r.failures))).toContain(1);
    } finally {
      await setUserActive(h.knex, h.clock, user.id, false);
    }
  });

  it(`M8: 110 wrong codes at once against one authorization: at most ${MAX_CODE_ATTEMPTS} are checked`, async () => {
    const form = await signInPageFor();
    const email = `burst.${demo.locationId.toLowerCase()}@assist.example`;
    const user = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Burst', email, role: 'user' });
    try {
      const code = codeOnPage(await browse('/oauth/sign-in', { ...form, email }))!;
      const guesses = Array.from({ length: 110 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const pages = await Promise.all(guesses.map((guess) => browse('/oauth/verify', { ...form, code: guess })));
      const checked = pages.filter((p) => p.text.includes('That code is not right')).length;
      const refused = pages.filter((p) => p.text.includes('This code has expired')).length;
      expect(checked).toBe(MAX_CODE_ATTEMPTS);
      expect(refused).toBe(110 - MAX_CODE_ATTEMPTS);
      expect((await h.knex('oauth_authorizations').where({ id: form.authorization }).first('sign_in_attempts')).sign_in_attempts).toBe(MAX_CODE_ATTEMPTS);
    } finally {
      await setUserActive(h.knex, h.clock, user.id, false);
    }
  });

  it(`M8: 3 authorizations x 30 wrong codes at once for one address: at most ${SIGN_IN_FAILURES_PER_EMAIL} are checked`, async () => {
    const email = `spread.${demo.locationId.toLowerCase()}@assist.example`;
    const user = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Spread', email, role: 'user' });
    try {
      const forms: { form: { authorization: string; _csrf: string }; code: string }[] = [];
      for (let a = 0; a < 3; a++) {
        const form = await signInPageFor();
        const sent = await browse('/oauth/sign-in', { ...form, email });
        forms.push({ form, code: codeOnPage(sent)! });
      }
      // Codes that cannot be right (each authorization's own code is skipped).
      const wrongFor = (i: number, n: number) => {
        const guess = String(n).padStart(6, '0');
        return guess === forms[i].code ? '999999' : guess;
      };
      const pages = await Promise.all(forms.flatMap(({ form }, i) => Array.from({ length: 30 }, (_, n) => browse('/oauth/verify', { ...form, code: wrongFor(i, n * 7) }))));
      const checked = pages.filter((p) => p.text.includes('That code is not right')).length;
      expect(checked).toBe(SIGN_IN_FAILURES_PER_EMAIL);
      expect(pages.filter((p) => p.status === 429).length + pages.filter((p) => p.text.includes('This code has expired')).length).toBe(90 - SIGN_IN_FAILURES_PER_EMAIL);
      expect(pages.every((p) => p.status < 500)).toBe(true);
    } finally {
      await setUserActive(h.knex, h.clock, user.id, false);
    }
  });

  it('lows: registration refuses unsafe redirect URIs with invalid_redirect_uri', async () => {
    const reg = async (redirect_uris: string[]) => {
      const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'R', redirect_uris, token_endpoint_auth_method: 'none' }) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    for (const bad of [['http://assistant.example/cb'], ['file:///etc/passwd'], ['myapp://callback'], ['ftp://127.0.0.1/cb'], ['https://a.example/cb#frag'],
      ['https://user:pw@a.example/cb'], [`https://a.example/${'x'.repeat(MAX_REDIRECT_URI_LENGTH)}`], Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `https://a.example/cb${i}`), []]) {
      const res = await reg(bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
    for (const good of [['https://assistant.example/cb'], ['http://127.0.0.1:33418/cb', 'http://localhost/cb', 'http://[::1]:8080/cb'], Array.from({ length: MAX_REDIRECT_URIS }, (_, i) => `https://a.example/cb${i}`)]) {
      expect((await reg(good)).status).toBe(201);
    }
  });

  it('lows: /authorize never redirects an error to a redirect URI no user approved; to an approved one it does', async () => {
    const evil = 'https://attacker.example/cb';
    const res = await fetch(`${base}/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Two URIs', redirect_uris: [REDIRECT, evil], token_endpoint_auth_method: 'none' }),
    });
    const clientId = ((await res.json()) as { client_id: string }).client_id;
    const bad = (redirect: string) => {
      const plain = authorizeUrl(clientId, pkce().challenge, { redirect });
      plain.searchParams.set('code_challenge_method', 'plain');
      const noType = authorizeUrl(clientId, pkce().challenge, { redirect });
      noType.searchParams.set('response_type', 'token');
      return [plain, noType, authorizeUrl(clientId, pkce().challenge, { redirect, scope: 'root:all' }), authorizeUrl(clientId, pkce().challenge, { redirect, resource: 'https://elsewhere.example/mcp' })];
    };
    // Before any user approved the client: every error is our page, for either redirect URI.
    for (const url of [...bad(evil), ...bad(REDIRECT)]) {
      const page = await browse(String(url));
      expect(page.status, String(url)).toBe(400);
      expect(page.location).toBeNull();
      expect(page.text).toContain('cannot be served');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    // A user approves it through REDIRECT: errors now go back there, with the state; never to the other URI.
    await approve(authorizeUrl(clientId, pkce().challenge), emailOf(demo, 'manager'));
    for (const url of bad(REDIRECT)) {
      const back = await browse(String(url));
      expect(back.status).toBe(302);
      expect(back.location!.startsWith(`${REDIRECT}?`)).toBe(true);
      expect(new URL(back.location!).searchParams.get('state')).toBe('st-1');
      expect(new URL(back.location!).searchParams.get('error')).toMatch(/^invalid_/);
    }
    for (const url of bad(evil)) expect((await browse(String(url))).status).toBe(400);
    // A good request to the unapproved URI still starts a sign-in (the user sees where it returns).
    expect((await browse(String(authorizeUrl(clientId, pkce().challenge, { redirect: evil })))).location).toMatch(/^\/oauth\/sign-in/);
  });

  it('lows: a client that no user approved and that started no authorization for 30 days is removed by the hourly sweep', async () => {
    const unused = await register();
    const used = await register();
    const { clientId: approved } = await rawToken(emailOf(demo, 'manager'));
    h.clock.advance(20 * 24 * 3600_000);
    expect((await browse(String(authorizeUrl(used, pkce().challenge)))).status).toBe(302); // used on day 20
    h.clock.advance(10 * 24 * 3600_000 + 3600_000);
    await sweepOAuth(h.deps);
    const exists = async (id: string) => Boolean(await h.knex('oauth_clients').where({ client_id: id }).first('client_id'));
    expect(await exists(unused)).toBe(false);
    expect(await exists(used)).toBe(true);
    expect(await exists(approved)).toBe(true);
    const gone = await browse(String(authorizeUrl(unused, pkce().challenge)));
    expect(gone.status).toBe(400);
    expect(json(gone.text).error).toBe('invalid_client');
    h.clock.advance(UNUSED_CLIENT_MS - 10 * 24 * 3600_000);
    await sweepOAuth(h.deps);
    expect(await exists(used)).toBe(false);
    expect(await exists(approved)).toBe(true); // its grant is the record of consent
  });
});

async function signInPageFor(): Promise<{ authorization: string; _csrf: string }> {
  const clientId = await register();
  const start = await browse(String(authorizeUrl(clientId, pkce().challenge)));
  const page = await browse(start.location!);
  return { authorization: hidden(page.text, 'authorization'), _csrf: hidden(page.text, '_csrf') };
}

describe(`MCP tools under attack (${ENGINE})`, () => {
  // 600+ calls through the MCP layer, whose answers do not depend on the engine (the API's own attack
  // suite runs on both): PostgreSQL only.
  it.skipIf(ENGINE !== 'pg')('every tool, called with no arguments, wrong types, unknown arguments and hostile strings, answers a result or a tool error, never a server error', { timeout: 120_000 }, async () => {
    const { tokens } = await rawToken(emailOf(demo, 'admin'), { resource: `${base}/mcp` });
    const listed = json((await mcpRaw(tokens.access_token)).text).result.tools as { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    expect(listed.length).toBe(tools().length);
    const hostile = ["'; DROP TABLE deals; --", '../../etc/passwd', '\u0000', 'x'.repeat(10_000), '%00', '<script>alert(1)</script>'];
    let calls = 0;
    for (const tool of listed) {
      const props = Object.keys(tool.inputSchema.properties ?? {});
      const attempts: Record<string, unknown>[] = [{}, { unexpected: 1 }, Object.fromEntries(props.map((p) => [p, 42]))];
      for (const s of hostile) attempts.push(Object.fromEntries(props.map((p) => [p, p === 'body' ? { name: s, legal_name: s } : s])));
      for (const args of attempts) {
        const res = await mcpRaw(tokens.access_token, { jsonrpc: '2.0', id: ++calls, method: 'tools/call', params: { name: tool.name, arguments: args } });
        const body = json(res.text);
        // A JSON-RPC answer, or (a NUL anywhere in the body) the API's own 400 before any JSON-RPC.
        if (res.status === 400) expect(body.error, `${tool.name}: ${res.text.slice(0, 300)}`).toMatchObject({ type: 'validation_error' });
        else expect(res.status, `${tool.name} ${JSON.stringify(args).slice(0, 200)}: ${res.text.slice(0, 300)}`).toBe(200);
        const text = body.result?.content?.[0]?.text ?? body.error?.message ?? '';
        expect(text, `${tool.name}`).not.toMatch(/internal_error|An unexpected error/);
      }
      h.clock.advance(7_000); // stay under the rate limit (and inside the token's hour)
    }
    expect(calls).toBeGreaterThan(600);
  });

  it('unknown tools, resources and prompts are JSON-RPC errors; the guide resource and prompts are served', async () => {
    const { client } = await connect(emailOf(demo, 'manager'));
    await expect(client.callTool({ name: 'dropEverything', arguments: {} })).rejects.toThrow(/Unknown tool/);
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual(['guide://api']);
    const guide = await client.readResource({ uri: 'guide://api' });
    expect((guide.contents[0] as { text: string }).text).toContain('# Assistants (MCP)');
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/Unknown resource/);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['pipeline_review', 'submit_deal']);
    const prompt = await client.getPrompt({ name: 'submit_deal', arguments: { deal_id: 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X' } });
    expect((prompt.messages[0].content as { text: string }).text).toContain('deal_01JD1B4D6F8H0K2M4P6R8T0V2X');
    expect(client.getInstructions()).toContain('idempotency_key');
    await client.close();
  });
});

describe(`MCP batches and the rate limit (${ENGINE})`, () => {
  it('every tool call of a JSON-RPC batch counts against the token: past 300 a minute the rest are rate_limited tool errors, not run; the window frees on the clock', async () => {
    const { tokens } = await rawToken(emailOf(demo, 'admin'), { resource: `${base}/mcp` });
    h.clock.advance(61_000); // a fresh window for this token (the token exchange does not count, but be sure)
    let id = 0;
    const batch = (n: number) => Array.from({ length: n }, () => ({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'listDeals', arguments: { limit: 1 } } }));
    const outcomes = { ok: 0, limited: 0, other: 0 };
    // 100 + 100 + 60 tool calls in three POSTs (260 counts), then a batch of 100: 40 fit, 60 do not.
    for (const n of [100, 100, 60, 100]) {
      const res = await mcpRaw(tokens.access_token, batch(n) as unknown as object);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      const answers = JSON.parse(res.text) as { result?: { isError?: boolean; content: { text: string }[] } }[];
      expect(answers).toHaveLength(n);
      for (const a of answers) {
        if (!a.result?.isError) outcomes.ok++;
        else if (/"code":"rate_limited"/.test(a.result.content[0].text)) {
          outcomes.limited++;
          expect(JSON.parse(a.result.content[0].text).error).toMatchObject({ type: 'rate_limit_error', status: 429, retry_after: expect.any(Number) });
        } else outcomes.other++;
      }
    }
    expect(outcomes).toEqual({ ok: 300, limited: 60, other: 0 });
    // The same window holds the token's /v1 requests and its next POST to /mcp.
    expect((await v1('/v1/deals', tokens.access_token)).status).toBe(429);
    expect((await mcpRaw(tokens.access_token, batch(1) as unknown as object)).status).toBe(429);
    h.clock.advance(61_000);
    const again = JSON.parse((await mcpRaw(tokens.access_token, batch(2) as unknown as object)).text) as { result: { isError?: boolean } }[];
    expect(again.map((a) => a.result.isError ?? false)).toEqual([false, false]);
  }, 240_000);
});
