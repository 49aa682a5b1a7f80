import { randomInt } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';
import { hmacHex, safeEqual, sha256Hex } from '../../lib/crypto';
import { queueEmail } from '../../mail';
import { audienceOf, CODE_TTL_MS } from '../../oauth/provider';
import { html, pageHeaders, type Safe } from '../html';
import { layout } from '../portal/pages';
import { take } from '../../http/rate-limit';
import { scopesForRole } from './scopes';
import { randomBase62 } from '../../lib/crypto';
import { newId } from '../../lib/ids';

// Sign-in and consent for the OAuth authorization server. The SDK's
// /authorize handler validates the client and redirect URI, then DbOAuthProvider.authorize records
// the request and sends the browser here: the user proves who they are with a one-time code emailed
// through the location's mailbox (a test location shows it on the page), then sees the client, the
// location and the scopes, may narrow them, and approves or denies. Only scopes the user's role
// allows can be granted. Pages: strict CSP, a CSRF token bound to the authorization.

export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
/** Wrong codes one authorization may try before it must start again. */
export const MAX_CODE_ATTEMPTS = 5;
/** Sign-in codes emailed to one address per 60 seconds (nobody can flood a user's inbox). */
export const SIGN_IN_EMAILS_PER_MINUTE = 5;
const HEADING = 'Connect an assistant';

interface AuthorizationRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  requested_scopes: string[] | string;
  resource: string;
  email: string | null;
  location_id: string | null;
  user_id: string | null;
  sign_in_code_hash: string | null;
  sign_in_attempts: number;
  sign_in_expires_at: Date | null;
  status: 'signing_in' | 'code_sent' | 'consenting' | 'approved' | 'denied';
  expires_at: Date;
}

const list = (v: string[] | string): string[] => (typeof v === 'string' ? JSON.parse(v) : v);

export function oauthPages(deps: Deps): Router {
  const router = express.Router();
  const headers = pageHeaders();
  const csrfOf = (id: string) => hmacHex(deps.portalKey, `oauth-csrf:${id}`);
  const send = (res: Response, status: number, page: string, extra: Record<string, string> = headers) =>
    res.status(status).set({ ...extra, 'Content-Type': 'text/html; charset=utf-8' }).send(page);
  const messagePage = (title: string, sentence: string) => layout(title, html`<section><h2>${title}</h2><p>${sentence}</p></section>`, { heading: HEADING });
  const page = (title: string, body: Safe) => layout(title, body, { heading: HEADING });
  /** Active accounts with this email, oldest first (the sign-in and its check pick the same one). */
  const accountsOf = (email: string) =>
    deps.db.knex('users as u').join('locations as l', 'l.id', 'u.location_id').whereRaw('lower(u.email) = ?', [email]).where('u.active', true)
      .orderBy([{ column: 'u.created_at', order: 'asc' }, { column: 'u.id', order: 'asc' }]).select('u.id', 'u.location_id', 'l.is_test', 'l.name');
  const codeHash = (id: string, code: string) => sha256Hex(`oauth-sign-in:${id}:${code}`);

  async function load(req: Request, res: Response): Promise<AuthorizationRow | undefined> {
    const id = String((req.method === 'GET' ? req.query.authorization : req.body?.authorization) ?? '');
    const row = /^oaz_[0-9A-Z]{26}$/.test(id) ? ((await deps.db.knex('oauth_authorizations').where({ id }).first()) as AuthorizationRow | undefined) : undefined;
    if (!row || new Date(row.expires_at) <= deps.clock.now() || row.status === 'approved' || row.status === 'denied') {
      send(res, 400, messagePage('This sign-in has expired', 'Start again from your assistant.'));
      return undefined;
    }
    if (req.method === 'POST' && !safeEqual(String(req.body?._csrf ?? ''), csrfOf(row.id))) {
      send(res, 403, messagePage('This form has expired', 'Start again from your assistant.'));
      return undefined;
    }
    return row;
  }

  const form = (row: AuthorizationRow, action: string, body: Safe) =>
    html`<form method="post" action="${action}"><input type="hidden" name="authorization" value="${row.id}"><input type="hidden" name="_csrf" value="${csrfOf(row.id)}">${body}</form>`;

  router.use('/oauth', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));

  router.get('/oauth/sign-in', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    send(res, 200, page('Sign in', html`<section><h2>Sign in to connect your assistant</h2>
      ${form(row, '/oauth/sign-in', html`<label for="email">Your work email</label><input id="email" name="email" type="email" autocomplete="email" required><button type="submit">Email me a code</button>`)}
    </section>`));
  });

  router.post('/oauth/sign-in', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    const email = String(req.body?.email ?? '').trim().toLowerCase();
    if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) {
      send(res, 400, page('Sign in', html`<section><p class="error">Enter your work email address.</p>
        ${form(row, '/oauth/sign-in', html`<label for="email">Your work email</label><input id="email" name="email" type="email" autocomplete="email" required><button type="submit">Email me a code</button>`)}</section>`));
      return;
    }
    const mails = await take(deps.db.knex, `oauth-mail:${email}`, deps.clock.now().getTime(), SIGN_IN_EMAILS_PER_MINUTE);
    if (!mails.allowed) {
      send(res, 429, messagePage('Too many codes', `Too many codes were sent to this address; try again in ${mails.retryAfter} seconds.`), { ...headers, 'Retry-After': String(mails.retryAfter) });
      return;
    }
    const users = await accountsOf(email);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    let shown: string | null = null;
    await deps.db.knex.transaction(async (trx) => {
      await trx('oauth_authorizations').where({ id: row.id }).update({
        email, status: 'code_sent', sign_in_code_hash: codeHash(row.id, code), sign_in_attempts: 0, sign_in_expires_at: new Date(deps.clock.now().getTime() + SIGN_IN_CODE_TTL_MS),
      });
      // No account: the page reads the same (nobody learns which emails exist), nothing is sent.
      const user = users[0];
      if (!user) return;
      if (user.is_test) shown = code;
      await queueEmail(trx, deps.clock, {
        locationId: user.location_id, kind: 'sign_in_code', to: [email], subject: 'Your sign-in code',
        text: `Your code to connect an assistant: {{sealed:code}}\n\nIt works for 10 minutes. If you did not ask for it, ignore this email.`,
        sealedValues: deps.secrets.seal(JSON.stringify({ code })),
      });
    });
    send(res, 200, page('Enter your code', html`<section><h2>Check your email</h2><p>If ${email} has an account, a 6-digit code is on its way.</p>
      ${shown ? html`<p class="muted" id="test-code">Test location: your code is <strong>${shown}</strong></p>` : ''}
      ${form(row, '/oauth/verify', html`<label for="code">Code</label><input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" required><button type="submit">Continue</button>`)}
    </section>`));
  });

  router.post('/oauth/verify', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    const code = String(req.body?.code ?? '');
    const expired = !row.sign_in_expires_at || new Date(row.sign_in_expires_at) <= deps.clock.now();
    if (row.status !== 'code_sent' || expired || row.sign_in_attempts >= MAX_CODE_ATTEMPTS) {
      send(res, 400, messagePage('This code has expired', 'Start again from your assistant.'));
      return;
    }
    if (!row.sign_in_code_hash || !safeEqual(codeHash(row.id, code), row.sign_in_code_hash)) {
      await deps.db.knex('oauth_authorizations').where({ id: row.id }).increment('sign_in_attempts', 1);
      send(res, 400, page('Wrong code', html`<section><p class="error">That code is not right.</p>
        ${form(row, '/oauth/verify', html`<label for="code">Code</label><input id="code" name="code" inputmode="numeric" required><button type="submit">Continue</button>`)}</section>`));
      return;
    }
    const [user] = await accountsOf(row.email ?? '');
    if (!user) {
      send(res, 400, messagePage('No account', 'There is no active account with this email.'));
      return;
    }
    await deps.db.knex('oauth_authorizations').where({ id: row.id }).update({ status: 'consenting', user_id: user.id, location_id: user.location_id, sign_in_code_hash: null });
    res.redirect(303, `/oauth/consent?authorization=${encodeURIComponent(row.id)}`);
  });

  router.get('/oauth/consent', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    const user = await deps.db.knex('users').where({ id: row.user_id! }).first('name', 'role');
    const location = await deps.db.knex('locations').where({ id: row.location_id! }).first('name');
    const client = await deps.db.knex('oauth_clients').where({ client_id: row.client_id }).first('metadata');
    const meta = typeof client?.metadata === 'string' ? JSON.parse(client.metadata) : client?.metadata ?? {};
    const allowed = scopesForRole(user.role as Role);
    const requested = list(row.requested_scopes);
    const offered = (requested.length ? requested : [...allowed]).filter((s) => allowed.has(s)).sort();
    const target = new URL(row.redirect_uri);
    const audience = audienceOf(deps.publicBaseUrl, row.resource) === 'mcp' ? 'the MCP server (and the API)' : 'the API';
    // The same email may have an account in several locations: the user picks the one to connect.
    const accounts = await accountsOf(row.email ?? '');
    const chooser = accounts.length > 1
      ? form(row, '/oauth/account', html`<label for="account">Connect another location</label><select id="account" name="account">${accounts.map((a) => html`<option value="${a.id}"${a.id === row.user_id ? html` selected` : ''}>${a.name}</option>`)}</select> <button type="submit">Switch</button>`)
      : '';
    // The form's answer redirects to the client: the CSP lets the form go there, and nowhere else.
    send(res, 200, page('Allow access', html`<section><h2>${meta.client_name ?? 'An assistant'} wants to act as ${user.name} in ${location?.name ?? ''}</h2>
      ${chooser}
      <p>It will use ${audience} with your role (${user.role}) and only the scopes you leave ticked. After you answer, your browser returns to <strong>${target.origin}</strong>.</p>
      ${form(row, '/oauth/consent', html`<fieldset><legend>Scopes</legend>${offered.map((s) => html`<label><input type="checkbox" name="scope" value="${s}" checked> ${s}</label>`)}</fieldset>
        ${requested.filter((s) => !allowed.has(s)).length ? html`<p class="muted">Not available to your role: ${requested.filter((s) => !allowed.has(s)).join(', ')}</p>` : ''}
        <button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button>`)}
    </section>`), pageHeaders([], [target.origin]));
  });

  // Switches the account this authorization is for, among the active accounts of the email that signed in.
  router.post('/oauth/account', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    const chosen = (await accountsOf(row.email ?? '')).find((a) => a.id === String(req.body?.account ?? ''));
    if (!chosen) return void send(res, 400, messagePage('No such account', 'Choose one of the locations listed.'));
    await deps.db.knex('oauth_authorizations').where({ id: row.id }).update({ user_id: chosen.id, location_id: chosen.location_id });
    res.redirect(303, `/oauth/consent?authorization=${encodeURIComponent(row.id)}`);
  });

  router.post('/oauth/consent', async (req, res) => {
    const row = await load(req, res);
    if (!row) return;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    const back = new URL(row.redirect_uri);
    if (row.state) back.searchParams.set('state', row.state);
    if (req.body?.decision !== 'allow') {
      await deps.db.knex('oauth_authorizations').where({ id: row.id }).update({ status: 'denied' });
      back.searchParams.set('error', 'access_denied');
      return void res.redirect(302, back.href);
    }
    const user = await deps.db.knex('users').where({ id: row.user_id! }).first('id', 'role', 'location_id', 'active');
    if (!user?.active) return void send(res, 400, messagePage('No account', 'There is no active account for this sign-in.'));
    // Only what the role allows and the client asked for (all the role allows when it asked for none).
    const allowed = scopesForRole(user.role as Role);
    const chosen = ([] as string[]).concat(req.body?.scope ?? []).map(String).filter((s) => allowed.has(s));
    const requested = list(row.requested_scopes);
    const scopes = [...new Set(requested.length ? chosen.filter((s) => requested.includes(s)) : chosen)].sort();
    if (!scopes.length) {
      // A grant with no scope would be useless (and an empty list must never mean "every scope").
      await deps.db.knex('oauth_authorizations').where({ id: row.id }).update({ status: 'denied' });
      back.searchParams.set('error', 'invalid_scope');
      back.searchParams.set('error_description', 'No scope was granted');
      return void res.redirect(302, back.href);
    }
    const at = deps.clock.now();
    const code = randomBase62(40);
    await deps.db.knex.transaction(async (trx) => {
      const grantId = newId('ogr', at.getTime());
      await trx('oauth_grants').insert({
        id: grantId, client_id: row.client_id, location_id: user.location_id, user_id: user.id, scopes: JSON.stringify(scopes),
        audience: audienceOf(deps.publicBaseUrl, row.resource) ?? 'mcp', created_at: at,
      });
      await trx('oauth_codes').insert({
        code_hash: sha256Hex(code), grant_id: grantId, client_id: row.client_id, redirect_uri: row.redirect_uri, code_challenge: row.code_challenge,
        resource: row.resource, expires_at: new Date(at.getTime() + CODE_TTL_MS), created_at: at,
      });
      await trx('oauth_authorizations').where({ id: row.id }).update({ status: 'approved' });
    });
    back.searchParams.set('code', code);
    res.redirect(302, back.href);
  });

  return router;
}
