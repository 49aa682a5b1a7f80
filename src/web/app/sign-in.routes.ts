import { randomInt } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { take } from '../../http/rate-limit';
import { hmacHex, safeEqual, sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { queueEmail } from '../../mail';
import { MAX_CODE_ATTEMPTS, refundEmailTry, SIGN_IN_CODE_TTL_MS, SIGN_IN_EMAILS_PER_MINUTE, takeEmailTry } from '../oauth/oauth.routes';
import { html } from '../html';
import { appHeaders, messagePage, plainPage } from './layout';
import { appCookie, cookieValue, createSession, newCookieValue, signInCookieName } from './session';

// Signing in to the app with a one-time code emailed through the location's mailbox, by the OAuth
// sign-in's rules (src/web/oauth/oauth.routes.ts): the code lives SIGN_IN_CODE_TTL_MS; a sign-in may
// check MAX_CODE_ATTEMPTS codes, each try taken by one UPDATE ... RETURNING before the compare; wrong
// codes per email address are bounded across every sign-in, the OAuth one included (the same guard);
// codes emailed to one address are bounded per minute (the same count as the OAuth sign-in's); an
// unknown address gets the same page and no email. The code is also shown on the page only when
// every active account of the email is in a test location, and then only test-location accounts may
// be signed in to (issue 23, H1); otherwise it goes through a real location's mailbox.
//
// The sign-in belongs to the browser that started it: an HttpOnly cookie whose hash is on the
// sign-in row, and the forms' CSRF token is an HMAC of it. A user with active accounts in several
// locations picks one, among the accounts this sign-in proved.

const SIGN_IN_COOKIE_TTL_S = 30 * 60;
/** Requests per client address per 60 seconds to the sign-in pages (as the OAuth server's OAUTH_RATE_LIMIT). */
export const APP_SIGN_IN_RATE_LIMIT = 120;

interface SignInRow {
  id: string;
  browser_hash: string;
  email: string;
  code_hash: string | null;
  attempts: number;
  shown: boolean;
  status: 'code_sent' | 'choosing' | 'done';
  expires_at: Date;
}

interface Account {
  id: string;
  location_id: string;
  is_test: boolean;
  name: string;
  location_name: string;
  role: string;
}

export function signInRoutes(deps: Deps): Router {
  const router = express.Router();
  const base = deps.publicBaseUrl;
  const headers = appHeaders();
  const send = (res: Response, status: number, page: string, extra: Record<string, string> = {}) =>
    res.status(status).set({ ...headers, ...extra }).type('html').send(page);
  const browserHash = (value: string) => sha256Hex(`app-sign-in-browser:${value}`);
  const csrfOf = (value: string) => hmacHex(deps.portalKey, `app-sign-in-csrf:${value}`);
  const codeHash = (id: string, code: string) => sha256Hex(`app-sign-in:${id}:${code}`);

  /** Active accounts with this email, oldest first. */
  const accountsOf = (email: string): Promise<Account[]> =>
    deps.db.knex('users as u').join('locations as l', 'l.id', 'u.location_id').whereRaw('lower(u.email) = ?', [email]).where('u.active', true)
      .orderBy([{ column: 'u.created_at', order: 'asc' }, { column: 'u.id', order: 'asc' }])
      .select('u.id', 'u.location_id', 'l.is_test', 'u.name', 'l.name as location_name', 'u.role');
  /** The accounts this sign-in proved: all of the email's when the code was only emailed; test-location ones when it was on the page. */
  const eligibleOf = async (row: Pick<SignInRow, 'email' | 'shown'>) => {
    const accounts = await accountsOf(row.email);
    return row.shown ? accounts.filter((a) => a.is_test) : accounts;
  };

  const emailForm = (csrf: string, email = '') => html`<form method="post" action="/app/sign-in" class="stack">
    <input type="hidden" name="_csrf" value="${csrf}">
    <label for="email">Work email</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${email}">
    <button type="submit">Email me a code</button>
  </form>`;
  const codeForm = (csrf: string, id: string) => html`<form method="post" action="/app/verify" class="stack">
    <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="sign_in" value="${id}">
    <label for="code">6-digit code</label>
    <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
    <button type="submit">Sign in</button>
  </form>`;
  const chooser = (csrf: string, id: string, accounts: Account[], error?: string) => plainPage('Choose a location', html`
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <p>Your email has an account in more than one location. Choose where to sign in.</p>
    <form method="post" action="/app/choose" class="stack">
      <input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="sign_in" value="${id}">
      <fieldset><legend>Location</legend>
      ${accounts.map((a, i) => html`<label class="choice"><input type="radio" name="account" value="${a.id}"${i === 0 ? html` checked` : ''}> ${a.location_name}${a.is_test ? ' (test)' : ''}: ${a.name}, ${a.role}</label>`)}
      </fieldset>
      <button type="submit">Continue</button>
    </form>`);

  /** This browser's sign-in cookie (a new one when it has none) and its CSRF token. */
  function browser(req: Request, res: Response): { value: string; csrf: string } {
    let value = cookieValue(req, signInCookieName(base));
    if (!value) {
      value = newCookieValue();
      res.append('Set-Cookie', appCookie(base, signInCookieName(base), value, SIGN_IN_COOKIE_TTL_S));
    }
    return { value, csrf: csrfOf(value) };
  }

  /** A form post of this browser's sign-in: its cookie and CSRF token, else a 403 page with no form. */
  function posted(req: Request, res: Response): { value: string; csrf: string } | undefined {
    const value = cookieValue(req, signInCookieName(base));
    if (!value || !safeEqual(String(req.body?._csrf ?? ''), csrfOf(value))) {
      send(res, 403, messagePage('This form has expired', 'Open the sign-in page again and start over.', { href: '/app/sign-in', label: 'Sign in' }));
      return undefined;
    }
    return { value, csrf: csrfOf(value) };
  }

  /** The live sign-in of this form, if it belongs to this browser. */
  async function signInOf(req: Request, res: Response, value: string): Promise<SignInRow | undefined> {
    const id = String(req.body?.sign_in ?? '');
    const row = /^asi_[0-9A-Z]{26}$/.test(id) ? ((await deps.db.knex('app_sign_ins').where({ id }).first()) as SignInRow | undefined) : undefined;
    if (!row || !safeEqual(row.browser_hash, browserHash(value)) || row.status === 'done' || new Date(row.expires_at) <= deps.clock.now()) {
      send(res, 400, messagePage('This sign-in has expired', 'Codes work for 10 minutes and only in the browser that asked for them. Start again.', { href: '/app/sign-in', label: 'Sign in' }));
      return undefined;
    }
    return row;
  }

  async function finish(req: Request, res: Response, account: Account): Promise<void> {
    const session = await createSession(deps, { userId: account.id, locationId: account.location_id, userAgent: req.get('User-Agent') });
    req.log?.info({ app_session: session.id, user: account.id }, 'app: signed in');
    res.status(303).set(headers)
      .append('Set-Cookie', session.cookie)
      .append('Set-Cookie', appCookie(base, signInCookieName(base), '', 0))
      .location('/app').end();
  }

  const ENDED: Record<string, string> = {
    signed_out: 'You are signed out.',
    expired: 'Your session ended. Sign in again.',
    revoked: 'That session was signed out. Sign in again.',
    deactivated: 'Your account is deactivated. Ask an admin of your location.',
  };

  router.use(['/app/sign-in', '/app/verify', '/app/choose'], async (req, res, next) => {
    const verdict = await take(deps.db.knex, `app-sign-in:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, deps.clock.now().getTime(), APP_SIGN_IN_RATE_LIMIT);
    if (verdict.allowed) return next();
    send(res, 429, messagePage('Too many requests', `Too many requests from this address; try again in ${verdict.retryAfter} seconds.`), { 'Retry-After': String(verdict.retryAfter) });
  });

  router.get('/app/sign-in', (req, res) => {
    const { csrf } = browser(req, res);
    const ended = ENDED[String(req.query.ended ?? '')];
    send(res, 200, plainPage('Sign in', html`${ended ? html`<p class="notice" role="status" id="notice">${ended}</p>` : ''}
      <p>We email you a one-time code.</p>${emailForm(csrf)}`));
  });

  router.post('/app/sign-in', async (req, res) => {
    const b = posted(req, res);
    if (!b) return;
    const email = String(req.body?.email ?? '').trim().toLowerCase();
    if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) {
      send(res, 400, plainPage('Sign in', html`<p class="error" role="alert" id="error">Enter your work email address.</p>${emailForm(b.csrf)}`));
      return;
    }
    // The same per-address count as the OAuth sign-in's: an inbox gets at most this many codes a minute from either.
    const mails = await take(deps.db.knex, `oauth-mail:${email}`, deps.clock.now().getTime(), SIGN_IN_EMAILS_PER_MINUTE);
    if (!mails.allowed) {
      send(res, 429, messagePage('Too many codes', `Too many codes were sent to this address; try again in ${mails.retryAfter} seconds.`, { href: '/app/sign-in', label: 'Sign in' }),
        { 'Retry-After': String(mails.retryAfter) });
      return;
    }
    const users = await accountsOf(email);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const shown = users.length > 0 && users.every((u) => u.is_test) ? code : null;
    const now = deps.clock.now();
    const id = newId('asi', now.getTime());
    await deps.db.knex.transaction(async (trx) => {
      await trx('app_sign_ins').insert({
        id, browser_hash: browserHash(b.value), email, code_hash: codeHash(id, code), attempts: 0, shown: shown !== null, status: 'code_sent',
        expires_at: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS), created_at: now,
      });
      // No account: the same page, nothing sent. A real location's mailbox when there is one.
      const sender = users.find((u) => !u.is_test) ?? users[0];
      if (!sender) return;
      await queueEmail(trx, deps.clock, {
        locationId: sender.location_id, kind: 'sign_in_code', to: [email], subject: 'Your sign-in code',
        text: `Your code to sign in to the settings: {{sealed:code}}\n\nIt works for 10 minutes. If you did not ask for it, ignore this email.`,
        sealedValues: deps.secrets.seal(JSON.stringify({ code })),
      });
    });
    send(res, 200, plainPage('Check your email', html`<p>If ${email} has an account, a 6-digit code is on its way. It works for 10 minutes.</p>
      ${shown ? html`<p class="muted" id="test-code">Test location: your code is <strong>${shown}</strong></p>` : ''}
      ${codeForm(b.csrf, id)}
      <p><a href="/app/sign-in">Use another email</a></p>`));
  });

  router.post('/app/verify', async (req, res) => {
    const b = posted(req, res);
    if (!b) return;
    const row = await signInOf(req, res, b.value);
    if (!row) return;
    const code = String(req.body?.code ?? '');
    const wrong = () => send(res, 400, plainPage('Wrong code', html`<p class="error" role="alert" id="error">That code is not right.</p>${codeForm(b.csrf, row.id)}`));
    const expired = () => send(res, 400, messagePage('This code has expired', 'Ask for a new code.', { href: '/app/sign-in', label: 'Sign in' }));
    if (!/^\d{6}$/.test(code)) return void wrong(); // cannot match: no try spent
    // A try of this sign-in first, in one statement (check and count cannot be split)...
    const [tried] = (await deps.db.knex('app_sign_ins')
      .where({ id: row.id, status: 'code_sent' }).where('attempts', '<', MAX_CODE_ATTEMPTS).where('expires_at', '>', deps.clock.now())
      .increment('attempts', 1).returning(['code_hash', 'email', 'shown'])) as Pick<SignInRow, 'code_hash' | 'email' | 'shown'>[];
    if (!tried?.code_hash) return void expired();
    // ...then one of the address, across every sign-in (the OAuth one's too).
    const emailTry = await takeEmailTry(deps.db.knex, tried.email, deps.clock.now().getTime());
    if ('retryAfter' in emailTry) {
      const minutes = Math.ceil(emailTry.retryAfter / 60);
      send(res, 429, messagePage('Too many wrong codes', `Too many wrong codes were entered for this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`),
        { 'Retry-After': String(emailTry.retryAfter) });
      return;
    }
    if (!safeEqual(codeHash(row.id, code), tried.code_hash)) return void wrong();
    await refundEmailTry(deps.db.knex, emailTry);
    const accounts = await eligibleOf(tried);
    if (!accounts.length) return void send(res, 400, messagePage('No account', 'There is no active account with this email.', { href: '/app/sign-in', label: 'Sign in' }));
    const next = accounts.length === 1 ? 'done' : 'choosing';
    // One use: the code is spent by whichever request moves the sign-in on first.
    const moved = await deps.db.knex('app_sign_ins').where({ id: row.id, status: 'code_sent', code_hash: tried.code_hash }).update({ status: next, code_hash: null });
    if (!moved) return void expired();
    if (next === 'done') return void (await finish(req, res, accounts[0]));
    send(res, 200, chooser(b.csrf, row.id, accounts));
  });

  router.post('/app/choose', async (req, res) => {
    const b = posted(req, res);
    if (!b) return;
    const row = await signInOf(req, res, b.value);
    if (!row) return;
    if (row.status !== 'choosing') return void send(res, 400, messagePage('Enter your code first', 'Start again.', { href: '/app/sign-in', label: 'Sign in' }));
    const accounts = await eligibleOf(row);
    const chosen = accounts.find((a) => a.id === String(req.body?.account ?? ''));
    if (!chosen) return void send(res, 400, chooser(b.csrf, row.id, accounts, 'Choose one of the locations listed.'));
    const moved = await deps.db.knex('app_sign_ins').where({ id: row.id, status: 'choosing' }).update({ status: 'done' });
    if (!moved) return void send(res, 400, messagePage('This sign-in has expired', 'Start again.', { href: '/app/sign-in', label: 'Sign in' }));
    await finish(req, res, chosen);
  });

  return router;
}
