import { randomInt } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';
import { hmacHex, safeEqual, sha256Hex } from '../../lib/crypto';
import { queueEmail } from '../../mail';
import type { Knex } from 'knex';
import { browserHash, browserOf } from '../../oauth/browser';
import { audienceOf, CODE_TTL_MS, SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_LOCKOUT_MS } from '../../oauth/provider';
import { html, pageHeaders, type Safe } from '../html';
import { layout } from '../portal/pages';
import { take } from '../../http/rate-limit';
import { scopeDescription, scopesForRole } from './scopes';
import { randomBase62 } from '../../lib/crypto';
import { newId } from '../../lib/ids';

// Sign-in and consent for the OAuth authorization server. Our /authorize (src/oauth/authorize.ts)
// validates the client and redirect URI, then DbOAuthProvider.authorize records the request, binds it
// to this browser (an HttpOnly cookie, src/oauth/browser.ts) and sends the browser here. Every page
// and form needs that browser's cookie, and the CSRF token is derived from it: nobody else can sign
// in, switch or approve (audit H2). The user proves who they are with a one-time code emailed
// through the location's mailbox; only when EVERY active account of the email is in a test location
// is the code also shown on the page, and then the sign-in proved nothing about the mailbox, so only
// test-location accounts may be chosen (audit H1). Each code check takes a try first, atomically:
// 5 per authorization (a re-sent code does not reset them) and 10 wrong ones per email address an
// hour across authorizations (audit M8). Then the user sees the client, the location and the scopes,
// may narrow them, and approves or denies. Only scopes the user's role allows can be granted.

export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
/** Codes one authorization may check (re-sending a code does not reset them) before it must start again. */
export const MAX_CODE_ATTEMPTS = 5;
export { SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_LOCKOUT_MS };
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
  sign_in_shown: boolean;
  browser_hash: string | null;
  status: 'signing_in' | 'code_sent' | 'consenting' | 'approved' | 'denied';
  expires_at: Date;
}

interface Account {
  id: string;
  location_id: string;
  is_test: boolean;
  name: string;
}

const list = (v: string[] | string): string[] => (typeof v === 'string' ? JSON.parse(v) : v);

/**
 * Takes one try of a sign-in code for this email address, atomically: at most `limit` unrefunded
 * tries in a window of `windowMs` from the first one. One statement, so parallel requests on any
 * process cannot pass the bound. Returns null when allowed, else the seconds until the window ends.
 */
export async function takeEmailTry(knex: Knex, email: string, nowMs: number, limit = SIGN_IN_FAILURES_PER_EMAIL, windowMs = SIGN_IN_LOCKOUT_MS): Promise<{ subject: string; windowStart: Date } | { retryAfter: number }> {
  const subject = sha256Hex(`oauth-sign-in-email:${email}`);
  const now = new Date(nowMs);
  const cutoff = new Date(nowMs - windowMs);
  const { rows } = await knex.raw<{ rows: { failures: number; window_start: Date }[] }>(
    `INSERT INTO oauth_sign_in_guards AS g (subject, failures, window_start) VALUES (?, 1, ?)
     ON CONFLICT (subject) DO UPDATE SET
       failures = CASE WHEN g.window_start <= ? THEN 1 ELSE g.failures + 1 END,
       window_start = CASE WHEN g.window_start <= ? THEN EXCLUDED.window_start ELSE g.window_start END
     WHERE g.window_start <= ? OR g.failures < ?
     RETURNING failures, window_start`,
    [subject, now, cutoff, cutoff, cutoff, limit],
  );
  if (rows[0]) return { subject, windowStart: new Date(rows[0].window_start) };
  const row = await knex('oauth_sign_in_guards').where({ subject }).first('window_start');
  const ends = new Date(row?.window_start ?? now).getTime() + windowMs;
  return { retryAfter: Math.max(1, Math.ceil((ends - nowMs) / 1000)) };
}

/** Gives back a try that turned out right (only failures count against the address). */
export async function refundEmailTry(knex: Knex, taken: { subject: string; windowStart: Date }): Promise<void> {
  await knex('oauth_sign_in_guards').where({ subject: taken.subject, window_start: taken.windowStart }).where('failures', '>', 0).decrement('failures', 1);
}

export function oauthPages(deps: Deps): Router {
  const router = express.Router();
  const headers = pageHeaders();
  /** The forms' CSRF token: bound to the authorization and to the browser's cookie. */
  const csrfOf = (id: string, browser: string) => hmacHex(deps.portalKey, `oauth-csrf:${id}:${browser}`);
  const send = (res: Response, status: number, page: string, extra: Record<string, string> = headers) =>
    res.status(status).set({ ...extra, 'Content-Type': 'text/html; charset=utf-8' }).send(page);
  const messagePage = (title: string, sentence: string) => layout(title, html`<section><h2>${title}</h2><p>${sentence}</p></section>`, { heading: HEADING });
  const page = (title: string, body: Safe) => layout(title, body, { heading: HEADING });
  /** Active accounts with this email, oldest first. */
  const accountsOf = (email: string): Promise<Account[]> =>
    deps.db.knex('users as u').join('locations as l', 'l.id', 'u.location_id').whereRaw('lower(u.email) = ?', [email]).where('u.active', true)
      .orderBy([{ column: 'u.created_at', order: 'asc' }, { column: 'u.id', order: 'asc' }]).select('u.id', 'u.location_id', 'l.is_test', 'l.name');
  /**
   * The accounts this sign-in may act as: every active account of the email when the code was only
   * emailed (its holder controls the mailbox); test-location ones only when the code was on the page
   * (whoever read it proved nothing), even if a real account of the email appeared since.
   */
  const eligibleOf = async (row: AuthorizationRow) => {
    const accounts = await accountsOf(row.email ?? '');
    return row.sign_in_shown ? accounts.filter((a) => a.is_test) : accounts;
  };
  const codeHash = (id: string, code: string) => sha256Hex(`oauth-sign-in:${id}:${code}`);

  /** The authorization of this page or form, if it is live and this is the browser it belongs to (and, for a form, its CSRF token matches). */
  async function load(req: Request, res: Response): Promise<{ row: AuthorizationRow; csrf: string } | undefined> {
    const id = String((req.method === 'GET' ? req.query.authorization : req.body?.authorization) ?? '');
    const row = /^oaz_[0-9A-Z]{26}$/.test(id) ? ((await deps.db.knex('oauth_authorizations').where({ id }).first()) as AuthorizationRow | undefined) : undefined;
    if (!row || new Date(row.expires_at) <= deps.clock.now() || row.status === 'approved' || row.status === 'denied') {
      send(res, 400, messagePage('This sign-in has expired', 'Start again from your assistant.'));
      return undefined;
    }
    const browser = browserOf(req, deps.publicBaseUrl);
    if (!browser || !row.browser_hash || !safeEqual(browserHash(browser), row.browser_hash)) {
      send(res, 403, messagePage('Open this from your assistant', 'This sign-in was started in another browser. Connect from your assistant in this browser to sign in here.'));
      return undefined;
    }
    const csrf = csrfOf(row.id, browser);
    if (req.method === 'POST' && !safeEqual(String(req.body?._csrf ?? ''), csrf)) {
      send(res, 403, messagePage('This form has expired', 'Start again from your assistant.'));
      return undefined;
    }
    return { row, csrf };
  }

  const form = (row: AuthorizationRow, csrf: string, action: string, body: Safe) =>
    html`<form method="post" action="${action}"><input type="hidden" name="authorization" value="${row.id}"><input type="hidden" name="_csrf" value="${csrf}">${body}</form>`;
  const emailForm = (row: AuthorizationRow, csrf: string) =>
    form(row, csrf, '/oauth/sign-in', html`<label for="email">Your work email</label><input id="email" name="email" type="email" autocomplete="email" required><button type="submit">Email me a code</button>`);
  const codeForm = (row: AuthorizationRow, csrf: string) =>
    form(row, csrf, '/oauth/verify', html`<label for="code">Code</label><input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" required><button type="submit">Continue</button>`);

  router.use('/oauth', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));

  router.get('/oauth/sign-in', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    send(res, 200, page('Sign in', html`<section><h2>Sign in to connect your assistant</h2>${emailForm(loaded.row, loaded.csrf)}</section>`));
  });

  router.post('/oauth/sign-in', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    const { row, csrf } = loaded;
    if (row.status !== 'signing_in' && row.status !== 'code_sent') return void send(res, 400, messagePage('Already signed in', 'Start again from your assistant to sign in as someone else.'));
    const email = String(req.body?.email ?? '').trim().toLowerCase();
    if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) {
      send(res, 400, page('Sign in', html`<section><p class="error">Enter your work email address.</p>${emailForm(row, csrf)}</section>`));
      return;
    }
    const mails = await take(deps.db.knex, `oauth-mail:${email}`, deps.clock.now().getTime(), SIGN_IN_EMAILS_PER_MINUTE);
    if (!mails.allowed) {
      send(res, 429, messagePage('Too many codes', `Too many codes were sent to this address; try again in ${mails.retryAfter} seconds.`), { ...headers, 'Retry-After': String(mails.retryAfter) });
      return;
    }
    const users = await accountsOf(email);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // On the page only when no account of this email is in a real location (H1).
    const shown = users.length > 0 && users.every((u) => u.is_test) ? code : null;
    await deps.db.knex.transaction(async (trx) => {
      // The tries already used stay (M8): a new code is not a new set of guesses.
      await trx('oauth_authorizations').where({ id: row.id }).update({
        email, status: 'code_sent', sign_in_code_hash: codeHash(row.id, code), sign_in_shown: shown !== null, user_id: null, location_id: null,
        sign_in_expires_at: new Date(deps.clock.now().getTime() + SIGN_IN_CODE_TTL_MS),
      });
      // No account: the page reads the same (nobody learns which emails exist), nothing is sent.
      // Through a real location's mailbox when the email has an account in one: a test location's
      // mailbox may be a shared local catcher, and this code must reach the address's holder only.
      const sender = users.find((u) => !u.is_test) ?? users[0];
      if (!sender) return;
      await queueEmail(trx, deps.clock, {
        locationId: sender.location_id, kind: 'sign_in_code', to: [email], subject: 'Your sign-in code',
        text: `Your code to connect an assistant: {{sealed:code}}\n\nIt works for 10 minutes. If you did not ask for it, ignore this email.`,
        sealedValues: deps.secrets.seal(JSON.stringify({ code })),
      });
    });
    send(res, 200, page('Enter your code', html`<section><h2>Check your email</h2><p>If ${email} has an account, a 6-digit code is on its way.</p>
      ${shown ? html`<p class="muted" id="test-code">Test location: your code is <strong>${shown}</strong></p>` : ''}
      ${codeForm(row, csrf)}
    </section>`));
  });

  router.post('/oauth/verify', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    const { row, csrf } = loaded;
    const code = String(req.body?.code ?? '');
    const expired = () => send(res, 400, messagePage('This code has expired', 'Start again from your assistant.'));
    const wrong = () => send(res, 400, page('Wrong code', html`<section><p class="error">That code is not right.</p>${codeForm(row, csrf)}</section>`));
    if (!/^\d{6}$/.test(code)) return void wrong(); // cannot match: no try is spent on it
    // A try of this authorization first, in one statement (check and count cannot be split, M8)...
    const [tried] = (await deps.db.knex('oauth_authorizations')
      .where({ id: row.id, status: 'code_sent' }).where('sign_in_attempts', '<', MAX_CODE_ATTEMPTS).where('sign_in_expires_at', '>', deps.clock.now())
      .increment('sign_in_attempts', 1).returning(['sign_in_code_hash', 'email', 'sign_in_shown'])) as Pick<AuthorizationRow, 'sign_in_code_hash' | 'email' | 'sign_in_shown'>[];
    if (!tried?.sign_in_code_hash || !tried.email) return void expired();
    // ...then one of the address, across every authorization.
    const emailTry = await takeEmailTry(deps.db.knex, tried.email, deps.clock.now().getTime());
    if ('retryAfter' in emailTry) {
      const minutes = Math.ceil(emailTry.retryAfter / 60);
      send(res, 429, messagePage('Too many wrong codes', `Too many wrong codes were entered for this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`),
        { ...headers, 'Retry-After': String(emailTry.retryAfter) });
      return;
    }
    if (!safeEqual(codeHash(row.id, code), tried.sign_in_code_hash)) return void wrong();
    await refundEmailTry(deps.db.knex, emailTry);
    const [user] = await eligibleOf({ ...row, ...tried });
    if (!user) return void send(res, 400, messagePage('No account', 'There is no active account with this email.'));
    const moved = await deps.db.knex('oauth_authorizations').where({ id: row.id, status: 'code_sent', sign_in_code_hash: tried.sign_in_code_hash })
      .update({ status: 'consenting', user_id: user.id, location_id: user.location_id, sign_in_code_hash: null });
    if (!moved) return void expired();
    res.redirect(303, `/oauth/consent?authorization=${encodeURIComponent(row.id)}`);
  });

  router.get('/oauth/consent', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    const { row, csrf } = loaded;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    // The same email may have an account in several locations: the user picks the one to connect.
    const accounts = await eligibleOf(row);
    if (!accounts.some((a) => a.id === row.user_id)) return void send(res, 400, messagePage('No account', 'There is no active account for this sign-in.'));
    const user = await deps.db.knex('users').where({ id: row.user_id! }).first('name', 'role');
    const location = await deps.db.knex('locations').where({ id: row.location_id! }).first('name');
    const client = await deps.db.knex('oauth_clients').where({ client_id: row.client_id }).first('metadata');
    const meta = typeof client?.metadata === 'string' ? JSON.parse(client.metadata) : client?.metadata ?? {};
    const allowed = scopesForRole(user.role as Role);
    const requested = list(row.requested_scopes);
    const offered = (requested.length ? requested : [...allowed]).filter((s) => allowed.has(s)).sort();
    const target = new URL(row.redirect_uri);
    const audience = audienceOf(deps.publicBaseUrl, row.resource) === 'mcp' ? 'the MCP server (and the API)' : 'the API';
    const chooser = accounts.length > 1
      ? form(row, csrf, '/oauth/account', html`<label for="account">Connect another location</label><select id="account" name="account">${accounts.map((a) => html`<option value="${a.id}"${a.id === row.user_id ? html` selected` : ''}>${a.name}</option>`)}</select> <button type="submit">Switch</button>`)
      : '';
    // The form's answer redirects to the client: the CSP lets the form go there, and nowhere else.
    send(res, 200, page('Allow access', html`<section><h2>${meta.client_name ?? 'An assistant'} wants to act as ${user.name} in ${location?.name ?? ''}</h2>
      ${chooser}
      <p>It will use ${audience} with your role (${user.role}) and only the scopes you leave ticked. After you answer, your browser returns to <strong>${target.origin}</strong>.</p>
      ${form(row, csrf, '/oauth/consent', html`<fieldset><legend>Scopes</legend>${offered.map((s) => html`<label class="scope"><input type="checkbox" name="scope" value="${s}" checked><span>${scopeDescription(s)} <code class="muted">${s}</code></span></label>`)}</fieldset>
        ${requested.filter((s) => !allowed.has(s)).length ? html`<p class="muted">Not available to your role: ${requested.filter((s) => !allowed.has(s)).join(', ')}</p>` : ''}
        <div class="actions"><button type="submit" name="decision" value="allow" class="primary">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>`)}
    </section>`), pageHeaders([], [target.origin]));
  });

  // Switches the account this authorization is for, among the accounts the sign-in proved (H1: never wider).
  router.post('/oauth/account', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    const { row } = loaded;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    const chosen = (await eligibleOf(row)).find((a) => a.id === String(req.body?.account ?? ''));
    if (!chosen) return void send(res, 400, messagePage('No such account', 'Choose one of the locations listed.'));
    await deps.db.knex('oauth_authorizations').where({ id: row.id, status: 'consenting' }).update({ user_id: chosen.id, location_id: chosen.location_id });
    res.redirect(303, `/oauth/consent?authorization=${encodeURIComponent(row.id)}`);
  });

  router.post('/oauth/consent', async (req, res) => {
    const loaded = await load(req, res);
    if (!loaded) return;
    const { row } = loaded;
    if (row.status !== 'consenting') return void send(res, 400, messagePage('Sign in first', 'Start again from your assistant.'));
    const back = new URL(row.redirect_uri);
    if (row.state) back.searchParams.set('state', row.state);
    const finish = (status: 'denied') => deps.db.knex('oauth_authorizations').where({ id: row.id, status: 'consenting' }).update({ status });
    if (req.body?.decision !== 'allow') {
      await finish('denied');
      back.searchParams.set('error', 'access_denied');
      return void res.redirect(302, back.href);
    }
    const account = (await eligibleOf(row)).find((a) => a.id === row.user_id);
    const user = account && await deps.db.knex('users').where({ id: account.id }).first('id', 'role', 'location_id', 'active');
    if (!user?.active) return void send(res, 400, messagePage('No account', 'There is no active account for this sign-in.'));
    // Only what the role allows and the client asked for (all the role allows when it asked for none).
    const allowed = scopesForRole(user.role as Role);
    const chosen = ([] as string[]).concat(req.body?.scope ?? []).map(String).filter((s) => allowed.has(s));
    const requested = list(row.requested_scopes);
    const scopes = [...new Set(requested.length ? chosen.filter((s) => requested.includes(s)) : chosen)].sort();
    if (!scopes.length) {
      // A grant with no scope would be useless (and an empty list must never mean "every scope").
      await finish('denied');
      back.searchParams.set('error', 'invalid_scope');
      back.searchParams.set('error_description', 'No scope was granted');
      return void res.redirect(302, back.href);
    }
    const at = deps.clock.now();
    const code = randomBase62(40);
    const approved = await deps.db.knex.transaction(async (trx) => {
      // One answer per authorization, even for two forms sent at once.
      const moved = await trx('oauth_authorizations').where({ id: row.id, status: 'consenting', user_id: user.id }).update({ status: 'approved' });
      if (!moved) return false;
      const grantId = newId('ogr', at.getTime());
      await trx('oauth_grants').insert({
        id: grantId, client_id: row.client_id, location_id: user.location_id, user_id: user.id, scopes: JSON.stringify(scopes),
        audience: audienceOf(deps.publicBaseUrl, row.resource) ?? 'mcp', created_at: at, redirect_uri: row.redirect_uri,
      });
      await trx('oauth_codes').insert({
        code_hash: sha256Hex(code), grant_id: grantId, client_id: row.client_id, redirect_uri: row.redirect_uri, code_challenge: row.code_challenge,
        resource: row.resource, expires_at: new Date(at.getTime() + CODE_TTL_MS), created_at: at,
      });
      return true;
    });
    if (!approved) return void send(res, 400, messagePage('This sign-in has expired', 'Start again from your assistant.'));
    back.searchParams.set('code', code);
    res.redirect(302, back.href);
  });

  return router;
}
