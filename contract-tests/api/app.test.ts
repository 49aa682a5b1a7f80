import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocation, createUser, setUserActive } from '../../src/features/accounts/accounts.service';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { randomBase62, sha256Hex } from '../../src/lib/crypto';
import { setMailbox } from '../../src/mail/mailbox';
import { SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_LOCKOUT_MS } from '../../src/oauth/provider';
import { APP_SESSION_IDLE_MS, APP_SESSION_MAX_MS, appCookie, sessionCookieName, signInCookieName, sweepApp } from '../../src/web/app/session';
import { SECTIONS } from '../../src/web/app/sections';
import { APP_SIGN_IN_RATE_LIMIT } from '../../src/web/app/sign-in.routes';
import { MAX_CODE_ATTEMPTS, SIGN_IN_CODE_TTL_MS, SIGN_IN_EMAILS_PER_MINUTE } from '../../src/web/oauth/oauth.routes';
import { scopesForRole } from '../../src/web/oauth/scopes';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { appBrowser, signInApp, type AppSession } from '../support/app-session';

// The app's settings pages (/app, issue 28) through supertest against the harness's app: sign-in by
// an emailed code (its limits on the injected clock), the session (cookie, hashing, expiry,
// revocation, deactivation), the Origin and CSRF checks, the roles of each page, tenancy, and the
// keys, team and assistants pages going through the same functions as the CLI and the API.

let h: Harness;
let t: Tenant;
let other: Tenant;
let sink: SmtpSink;
let worker: Worker;
const ADA = 'ada@app-brokers.example'; // admin of t
const MAX = 'max@app-brokers.example'; // manager of t
const UMA = 'uma@app-brokers.example'; // user of t
const OLGA = 'olga@other-brokers.example'; // admin of `other`
const users: Record<string, string> = {};

beforeAll(async () => {
  registerAllJobs();
  sink = await startSmtpSink();
  h = await startHarness();
  t = await h.tenant('App Brokers');
  other = await h.tenant('Other Brokers');
  for (const [email, name, role, loc] of [[ADA, 'Ada Admin', 'admin', t], [MAX, 'Max Manager', 'manager', t], [UMA, 'Uma User', 'user', t], [OLGA, 'Olga Other', 'admin', other]] as const) {
    users[email] = (await createUser(h.knex, h.clock, { locationId: loc.locationId, name, email, role })).id;
  }
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'App Brokers <deals@app-brokers.example>' });
  worker = new Worker(h.deps, { concurrency: 2 });
});
// Each test starts in a fresh minute of the per-address email limit.
beforeEach(() => {
  h.clock.advance(61_000);
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
  await sink?.close();
});

const hidden = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(text)?.[1] ?? '';
const shownCode = (text: string) => /your code is <strong>(\d{6})<\/strong>/.exec(text)?.[1];
/** The date `days` from the injected clock's today (YYYY-MM-DD, UTC). */
const day = (days: number) => new Date(h.clock.now().getTime() + days * 24 * 3600_000).toISOString().slice(0, 10);
const v1 = (path: string, key: string) => h.api.get(path).set('Authorization', `Bearer ${key}`);

/** Starts a sign-in in a fresh browser: its CSRF token, the sign-in id and the page. */
async function startSignIn(email: string, b = appBrowser(h)) {
  const start = await b.get('/app/sign-in');
  const csrf = hidden(start.text, '_csrf');
  const sent = await b.post('/app/sign-in', { _csrf: csrf, email });
  return { b, csrf, sent, signIn: hidden(sent.text, 'sign_in') };
}

describe(`signing in (${ENGINE})`, () => {
  it('the code arrives by email through the location mailbox; the session cookie is HttpOnly, SameSite=Lax, and stored only as a hash', async () => {
    const before = sink.inbox.length;
    const { b, csrf, sent, signIn } = await startSignIn(ADA);
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(`If ${ADA} has an account, a 6-digit code is on its way`);
    await worker.drain();
    const mail = sink.inbox.slice(before).find((m) => m.rcpt.includes(ADA));
    expect(mail?.mail.subject).toBe('Your sign-in code');
    const code = /\b(\d{6})\b/.exec(mail!.mail.text ?? '')![1];
    // The outgoing record keeps no code once sent; nor does the log.
    const stored = await h.knex('outgoing_emails').where({ kind: 'sign_in_code', location_id: t.locationId }).orderBy('created_at', 'desc').first();
    expect(JSON.stringify(stored)).not.toContain(code);
    const verified = await b.post('/app/verify', { _csrf: csrf, sign_in: signIn, code });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe('/app');
    const setCookie = ([] as string[]).concat(verified.headers['set-cookie'] as string[]);
    const session = setCookie.find((c) => c.startsWith('app_session='))!;
    expect(session).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/); // plain http: loopback development, no Secure
    const value = /^app_session=([^;]+)/.exec(session)![1];
    const rows = await h.knex('app_sessions').where({ user_id: users[ADA] });
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(value);
    expect(rows.some((r: { token_hash: string }) => r.token_hash === sha256Hex(`app-session:${value}`))).toBe(true);
    expect(h.logs.join('')).not.toContain(value);
    expect(h.logs.join('')).not.toContain(`"${code}"`);
    // The code is spent: the same form again does nothing (the sign-in cookie went with it).
    const replayed = await b.post('/app/verify', { _csrf: csrf, sign_in: signIn, code });
    expect(replayed.status).toBe(403);
    expect(replayed.text).not.toContain('<form');
    expect(Number((await h.knex('app_sessions').where({ user_id: users[ADA] }).count({ n: '*' }).first())!.n)).toBe(rows.length);
    // Over HTTPS: `__Host-` and Secure.
    expect(sessionCookieName('https://app.example')).toBe('__Host-app_session');
    expect(signInCookieName('https://app.example')).toBe('__Host-app_sign_in');
    expect(appCookie('https://app.example', '__Host-app_session', 'v', 60)).toBe('__Host-app_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure');
  });

  it('an unknown address gets the same page and no email', async () => {
    const emails = async () => Number((await h.knex('outgoing_emails').where({ kind: 'sign_in_code' }).count({ n: '*' }).first())!.n);
    const n = await emails();
    const unknown = await startSignIn('nobody@app-brokers.example');
    expect(unknown.sent.status).toBe(200);
    expect(await emails()).toBe(n);
    const known = await startSignIn(MAX);
    const strip = (text: string, email: string) => text.replaceAll(email, 'EMAIL').replace(/name="(_csrf|sign_in)" value="[^"]+"/g, '').replace(/<p class="muted" id="test-code">.*?<\/p>/s, '');
    expect(strip(unknown.sent.text, 'nobody@app-brokers.example')).toBe(strip(known.sent.text, MAX));
    // Nor does a wrong code tell them apart.
    const a = await unknown.b.post('/app/verify', { _csrf: unknown.csrf, sign_in: unknown.signIn, code: '000000' });
    const k = await known.b.post('/app/verify', { _csrf: known.csrf, sign_in: known.signIn, code: shownCode(known.sent.text) === '000000' ? '000001' : '000000' });
    expect([a.status, k.status]).toEqual([400, 400]);
  });

  it(`a sign-in checks at most ${MAX_CODE_ATTEMPTS} codes, and a code works ${SIGN_IN_CODE_TTL_MS / 60_000} minutes`, async () => {
    const email = 'tries@app-brokers.example';
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Tries', email, role: 'user' });
    const s = await startSignIn(email);
    const code = shownCode(s.sent.text)!; // every account of the email is in a test location: shown
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
      const r = await s.b.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code: wrong });
      expect(r.text).toContain('That code is not right');
    }
    const spent = await s.b.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code });
    expect(spent.status).toBe(400);
    expect(spent.text).toContain('This code has expired');
    // Parallel wrong codes cannot pass the bound either: exactly MAX_CODE_ATTEMPTS are checked.
    h.clock.advance(61_000);
    const p = await startSignIn(email);
    const answers = await Promise.all(Array.from({ length: 12 }, () => p.b.post('/app/verify', { _csrf: p.csrf, sign_in: p.signIn, code: shownCode(p.sent.text) === '111111' ? '222222' : '111111' })));
    expect(answers.filter((r) => r.text.includes('That code is not right'))).toHaveLength(MAX_CODE_ATTEMPTS);
    expect((await h.knex('app_sign_ins').where({ id: p.signIn }).first()).attempts).toBe(MAX_CODE_ATTEMPTS);
    // Expiry, on the injected clock.
    h.clock.advance(61_000);
    const late = await startSignIn(ADA);
    h.clock.advance(SIGN_IN_CODE_TTL_MS);
    const expired = await late.b.post('/app/verify', { _csrf: late.csrf, sign_in: late.signIn, code: shownCode(late.sent.text)! });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('expired');
  });

  it(`at most ${SIGN_IN_FAILURES_PER_EMAIL} wrong codes an hour per address, across sign-ins (and the OAuth sign-in's count), on the injected clock`, async () => {
    const email = 'guess@app-brokers.example';
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Guess', email, role: 'user' });
    let wrongs = 0;
    let last: Awaited<ReturnType<typeof startSignIn>> | undefined;
    while (wrongs < SIGN_IN_FAILURES_PER_EMAIL) {
      h.clock.advance(13_000);
      last = await startSignIn(email);
      const code = shownCode(last.sent.text)!;
      for (let i = 0; i < 4 && wrongs < SIGN_IN_FAILURES_PER_EMAIL; i++, wrongs++) {
        const r = await last.b.post('/app/verify', { _csrf: last.csrf, sign_in: last.signIn, code: code === '333333' ? '444444' : '333333' });
        expect(r.status).toBe(400);
      }
    }
    h.clock.advance(61_000);
    const s = await startSignIn(email);
    const locked = await s.b.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code: shownCode(s.sent.text)! });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.text).toContain('Too many wrong codes');
    // The OAuth sign-in's guard is the same one.
    expect(await h.knex('oauth_sign_in_guards').where({ subject: sha256Hex(`oauth-sign-in-email:${email}`) }).first('failures')).toMatchObject({ failures: SIGN_IN_FAILURES_PER_EMAIL });
    h.clock.advance(SIGN_IN_LOCKOUT_MS);
    const again = await startSignIn(email);
    expect((await again.b.post('/app/verify', { _csrf: again.csrf, sign_in: again.signIn, code: shownCode(again.sent.text)! })).status).toBe(303);
  });

  it(`at most ${SIGN_IN_EMAILS_PER_MINUTE} codes a minute to one address`, async () => {
    for (let i = 0; i < SIGN_IN_EMAILS_PER_MINUTE; i++) expect((await startSignIn(UMA)).sent.status).toBe(200);
    const flooded = await startSignIn(UMA);
    expect(flooded.sent.status).toBe(429);
    expect(flooded.sent.headers['retry-after']).toBeDefined();
    h.clock.advance(61_000);
    expect((await startSignIn(UMA)).sent.status).toBe(200);
  });

  it(`at most ${APP_SIGN_IN_RATE_LIMIT} requests a minute from one address to the sign-in pages`, async () => {
    h.clock.advance(61_000);
    const b = appBrowser(h);
    let last = 0;
    for (let i = 0; i < APP_SIGN_IN_RATE_LIMIT; i++) last = (await b.get('/app/sign-in')).status;
    expect(last).toBe(200);
    const refused = await b.get('/app/sign-in');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    h.clock.advance(61_000);
    expect((await b.get('/app/sign-in')).status).toBe(200);
  });

  it('a sign-in belongs to the browser that started it', async () => {
    const s = await startSignIn(ADA);
    const thief = appBrowser(h);
    const own = hidden((await thief.get('/app/sign-in')).text, '_csrf');
    // With the victim's CSRF token: refused (no cookie to match); with its own: not its sign-in.
    expect((await thief.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code: shownCode(s.sent.text)! })).status).toBe(403);
    const r = await thief.post('/app/verify', { _csrf: own, sign_in: s.signIn, code: shownCode(s.sent.text)! });
    expect(r.status).toBe(400);
    expect(r.headers['set-cookie']?.toString() ?? '').not.toContain('app_session=');
  });

  it('H1: the code is on the page only when every account of the email is in a test location; a shown code never signs in to a real location', async () => {
    const live = await createLocation(h.knex, h.clock, { name: 'Live Brokers', isTest: false });
    const both = 'both@app-brokers.example';
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Both Test', email: both, role: 'user' });
    const liveUser = await createUser(h.knex, h.clock, { locationId: live.id, name: 'Both Live', email: both, role: 'admin' });
    const s = await startSignIn(both);
    expect(shownCode(s.sent.text)).toBeUndefined();
    // It went through the real location's mailbox (the only holder of the code is the address's owner).
    const queued = await h.knex('outgoing_emails').where({ kind: 'sign_in_code' }).whereRaw('to_addresses::text like ?', [`%${both}%`]).orderBy('created_at', 'desc').first();
    expect(queued.location_id).toBe(live.id);
    const code = JSON.parse(h.deps.secrets.open(queued.sealed_values)).code as string;
    const chooser = await s.b.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code });
    expect(chooser.status).toBe(200);
    expect(chooser.text).toContain('Live Brokers');
    expect(chooser.text).toContain('App Brokers');
    const chosen = await s.b.post('/app/choose', { _csrf: s.csrf, sign_in: s.signIn, account: liveUser.id });
    expect(chosen.status).toBe(303);
    expect((await s.b.get('/app/settings/api-keys')).text).toContain('Keys of Live Brokers');

    // A shown code (only test accounts then), and a real account of the email appears before the answer: never offered.
    const later = 'later@app-brokers.example';
    const testUser = await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Later Test', email: later, role: 'user' });
    const l = await startSignIn(later);
    const shown = shownCode(l.sent.text)!;
    expect(shown).toMatch(/^\d{6}$/);
    const realUser = await createUser(h.knex, h.clock, { locationId: live.id, name: 'Later Live', email: later, role: 'admin' });
    const done = await l.b.post('/app/verify', { _csrf: l.csrf, sign_in: l.signIn, code: shown });
    expect(done.status).toBe(303); // one eligible account: signed in to it directly
    const row = await h.knex('app_sessions').where({ user_id: testUser.id }).first();
    expect(row.location_id).toBe(t.locationId);
    expect(await h.knex('app_sessions').where({ user_id: realUser.id }).first()).toBeUndefined();
  });

  it('an email with accounts in several locations picks one, among those the sign-in proved', async () => {
    const multi = 'multi@app-brokers.example';
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Multi Here', email: multi, role: 'manager' });
    const there = await createUser(h.knex, h.clock, { locationId: other.locationId, name: 'Multi There', email: multi, role: 'admin' });
    const s = await startSignIn(multi);
    const chooser = await s.b.post('/app/verify', { _csrf: s.csrf, sign_in: s.signIn, code: shownCode(s.sent.text)! });
    expect(chooser.status).toBe(200);
    expect(chooser.text).toContain('Choose a location');
    // Someone else's account is not among the choices.
    expect((await s.b.post('/app/choose', { _csrf: s.csrf, sign_in: s.signIn, account: users[OLGA] })).status).toBe(400);
    const chosen = await s.b.post('/app/choose', { _csrf: s.csrf, sign_in: s.signIn, account: there.id });
    expect(chosen.status).toBe(303);
    const page = await s.b.get('/app/settings/api-keys');
    expect(page.text).toContain('Keys of Other Brokers');
    expect(page.text).toContain('Create a key'); // an admin there
    // The choice is made once (and the sign-in cookie is gone with it).
    expect((await s.b.post('/app/choose', { _csrf: s.csrf, sign_in: s.signIn, account: there.id })).status).toBe(403);
    expect(Number((await h.knex('app_sessions').where({ user_id: there.id }).count({ n: '*' }).first())!.n)).toBe(1);
  });
});

describe(`sessions (${ENGINE})`, () => {
  it(`end after ${APP_SESSION_IDLE_MS / 60_000} idle minutes and ${APP_SESSION_MAX_MS / 3600_000} hours in all, on the injected clock`, async () => {
    const idle = await signInApp(h, { email: MAX });
    h.clock.advance(APP_SESSION_IDLE_MS - 1000);
    expect((await idle.get('/app/settings/team')).status).toBe(200);
    h.clock.advance(APP_SESSION_IDLE_MS);
    const ended = await idle.get('/app/settings/team');
    expect(ended.status).toBe(303);
    expect(ended.location).toBe('/app/sign-in?ended=expired');
    expect((await idle.get('/app/settings/team')).location).toBe('/app/sign-in'); // the cookie was cleared

    const busy = await signInApp(h, { email: MAX });
    for (let used = 0; used + 20 * 60_000 < APP_SESSION_MAX_MS; used += 20 * 60_000) {
      h.clock.advance(20 * 60_000);
      expect((await busy.get('/app/settings/team')).status).toBe(200);
    }
    h.clock.advance(20 * 60_000);
    expect((await busy.get('/app/settings/team')).location).toBe('/app/sign-in?ended=expired');
  });

  it('sign out ends the session; the sessions page lists and revokes your own sessions only', async () => {
    const one = await signInApp(h, { email: MAX });
    const two = await signInApp(h, { email: MAX });
    const listed = await one.get('/app/settings/sessions');
    const ids = [...listed.text.matchAll(/data-session-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const sessionIdOf = async (cookie: string) => (await h.knex('app_sessions').where({ token_hash: sha256Hex(`app-session:${/app_session=([^;]+)/.exec(cookie)![1]}`) }).first()).id as string;
    const twoId = await sessionIdOf(two.cookie);
    expect(ids).toContain(twoId);
    // Another user's session id changes nothing.
    const ada = await signInApp(h, { email: ADA });
    expect((await ada.post(`/app/settings/sessions/${twoId}/revoke`)).status).toBe(303);
    expect((await two.get('/app/settings/team')).status).toBe(200);
    // Its owner revokes it from the other browser.
    expect((await one.post(`/app/settings/sessions/${twoId}/revoke`)).status).toBe(303);
    expect((await two.get('/app/settings/team')).location).toBe('/app/sign-in?ended=revoked');
    // Signing out.
    const out = await one.post('/app/sign-out');
    expect(out.location).toBe('/app/sign-in?ended=signed_out');
    expect((await one.get('/app/settings/team')).location).toBe('/app/sign-in');
    // Its cookie, replayed, opens nothing either.
    const replay = appBrowser(h, { app_session: /app_session=([^;]+)/.exec(one.cookie)![1] });
    expect((await replay.get('/app/settings/team')).location).toBe('/app/sign-in?ended=revoked');
    // The sweep deletes ended sessions after their retention.
    h.clock.advance(31 * 24 * 3600_000);
    expect(await sweepApp(h.deps)).toBeGreaterThan(0);
  });

  it('a deactivated user is signed out on the next request (from the Team page, or by the CLI)', async () => {
    const victim = 'deact@app-brokers.example';
    const u = await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Deact User', email: victim, role: 'manager' });
    const s = await signInApp(h, { email: victim });
    expect((await s.get('/app/settings/team')).status).toBe(200);
    await setUserActive(h.knex, h.clock, u.id, false); // the CLI: no session is touched...
    const out = await s.get('/app/settings/team'); // ...yet the next request ends it
    expect(out.location).toBe('/app/sign-in?ended=deactivated');
    await setUserActive(h.knex, h.clock, u.id, true);
    expect((await s.get('/app/settings/team')).location).toBe('/app/sign-in'); // not back

    const s2 = await signInApp(h, { email: victim });
    const s3 = await signInApp(h, { email: victim });
    const ada = await signInApp(h, { email: ADA });
    expect((await ada.post(`/app/settings/team/${u.id}/deactivate`)).status).toBe(303);
    // Deactivating from the Team page ends every session at once: reactivated, none comes back.
    expect((await h.knex('app_sessions').where({ user_id: u.id }).whereNull('revoked_at')).length).toBe(0);
    expect((await ada.post(`/app/settings/team/${u.id}/reactivate`)).status).toBe(303);
    expect((await s3.get('/app/settings/team')).location).toBe('/app/sign-in?ended=revoked');
    expect((await ada.post(`/app/settings/team/${u.id}/deactivate`)).status).toBe(303);
    const ended = await s2.post('/app/settings/sessions/others/revoke'); // a post: a page saying so, no form
    expect(ended.status).toBe(403);
    expect(ended.text).toContain('Your session has ended');
    expect(ended.text).not.toContain('<form');
    expect((await s2.get('/app/settings/team')).location).toBe('/app/sign-in');
    // And cannot sign in while deactivated: no account to sign in to.
    const again = await startSignIn(victim);
    expect(shownCode(again.sent.text)).toBeUndefined();
  });
});

describe(`Origin and CSRF (${ENGINE})`, () => {
  let ada: AppSession;
  beforeAll(async () => {
    ada = await signInApp(h, { email: ADA });
  });
  const keyCount = async () => Number((await h.knex('api_keys').where({ location_id: t.locationId }).count({ n: '*' }).first())!.n);
  const form = { name: 'CSRF probe', role: 'user', scope: 'deals:read' };

  it('every post needs the session CSRF token and this origin; the refusal is a 403 page with no form', async () => {
    const n = await keyCount();
    for (const refused of [
      await ada.post('/app/settings/api-keys', form, { csrf: null }),
      await ada.post('/app/settings/api-keys', form, { csrf: 'f'.repeat(64) }),
      await ada.post('/app/settings/api-keys', form, { origin: 'http://evil.example' }),
      await ada.post('/app/settings/api-keys', form, { origin: 'null' }),
      await ada.post('/app/settings/api-keys', form, { origin: null }), // neither Origin nor Referer
      await ada.post('/app/settings/api-keys', form, { origin: null, referer: 'http://evil.example/app/settings/api-keys' }),
    ]) {
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain('<form');
      expect(refused.headers['content-security-policy']).toContain("script-src 'self'");
    }
    // Another session's token is not this one's.
    const max = await signInApp(h, { email: MAX });
    expect((await ada.post('/app/settings/api-keys', form, { csrf: max.csrf })).status).toBe(403);
    expect(await keyCount()).toBe(n);
    // A browser that sends only a same-origin Referer is fine.
    const ok = await ada.post('/app/settings/api-keys', form, { origin: null, referer: `${h.deps.publicBaseUrl}/app/settings/api-keys` });
    expect(ok.status).toBe(201);
    expect(await keyCount()).toBe(n + 1);
    // The sign-in forms too.
    const b = appBrowser(h);
    const csrf = hidden((await b.get('/app/sign-in')).text, '_csrf');
    expect((await b.post('/app/sign-in', { _csrf: csrf, email: ADA }, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await b.post('/app/sign-in', { _csrf: 'x', email: ADA })).status).toBe(403);
  });

  it('pages carry a strict CSP; script and style come from /app/assets; API keys are refused on /app', async () => {
    const page = await ada.get('/app/settings/api-keys');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).not.toMatch(/<script>|<style|style="/);
    expect((await h.api.get('/app/assets/app.js')).headers['content-type']).toContain('text/javascript');
    expect((await h.api.get('/app/assets/app.css')).headers['content-type']).toContain('text/css');
    const withKey = await h.api.get('/app/settings/api-keys').set(t.auth('admin'));
    expect(withKey.status).toBe(401);
    expect(withKey.body.error.code).toBe('api_key_not_allowed');
    // Signed out: a page asks to sign in.
    expect((await h.api.get('/app/settings/api-keys')).headers.location).toBe('/app/sign-in');
  });
});

describe(`API keys (${ENGINE})`, () => {
  it('an admin creates a key shown once, it works on /v1, shows its last use, and after revoke /v1 answers 401', async () => {
    const ada = await signInApp(h, { email: ADA });
    const formPage = await ada.get('/app/settings/api-keys');
    const once = hidden(formPage.text, '_form');
    expect(once).toMatch(/^[0-9A-Za-z]{24}$/);
    const form = { _form: once, name: 'CRM sync', role: 'manager', scope: ['deals:read', 'businesses:read'] };
    const created = await ada.post('/app/settings/api-keys', form);
    expect(created.status).toBe(201);
    // The same form sent again (a double click, a reload): no second key, and the key is not shown again.
    const twice = await ada.post('/app/settings/api-keys', form);
    expect(twice.status).toBe(409);
    expect(twice.text).not.toMatch(/svc_test_[0-9A-Za-z]{32}/);
    expect(await h.knex('api_keys').where({ name: 'CRM sync', location_id: t.locationId }).count({ n: '*' }).first().then((r) => Number(r!.n))).toBe(1);
    const key = /id="new-key-value">(svc_test_[0-9A-Za-z]{32})</.exec(created.text)![1];
    expect(created.text).toContain('data-copy="new-key-value"');
    const row = await h.knex('api_keys').where({ key_hash: sha256Hex(key) }).first();
    expect(row).toMatchObject({ location_id: t.locationId, name: 'CRM sync', role: 'manager', user_id: users[ADA], last4: key.slice(-4), last_used_at: null });
    expect(row.scopes).toEqual(['deals:read', 'businesses:read']);
    // Works on /v1, within its scopes.
    expect((await v1('/v1/deals', key)).status).toBe(200);
    expect((await v1('/v1/lenders', key)).status).toBe(403);
    // The list: prefix and last four, last used, never the key itself.
    const list = await ada.get('/app/settings/api-keys');
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`svc_test_…${key.slice(-4)}`);
    expect(list.text).toContain(`<span class="badge test">TEST</span>`); // a test location's key says so
    expect((await h.knex('api_keys').where({ id: row.id }).first()).last_used_at).not.toBeNull();
    const line = new RegExp(`data-key-id="${row.id}"[\\s\\S]*?</tr>`).exec(list.text)![0];
    expect(line).toMatch(/data-label="Last used">\d{1,2} [A-Z][a-z]{2} 2026/);
    // Revoke: 401 at once, recorded in the activity with the acting user.
    const revoked = await ada.post(`/app/settings/api-keys/${row.id}/revoke`);
    expect(revoked.status).toBe(303);
    const after = await v1('/v1/deals', key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('api_key_revoked');
    const acts = await h.knex('activities').where({ entity_id: row.id }).orderBy('created_at').select('action', 'actor_user_id', 'business_id', 'location_id');
    expect(acts).toEqual([
      { action: 'api_key.created', actor_user_id: users[ADA], business_id: null, location_id: t.locationId },
      { action: 'api_key.revoked', actor_user_id: users[ADA], business_id: null, location_id: t.locationId },
    ]);
    expect(h.logs.join('')).not.toContain(key);
  });

  it('a key gets only scopes its role has in the contract, at least one, and an expiry in the future', async () => {
    const ada = await signInApp(h, { email: ADA });
    const notForUsers = [...scopesForRole('admin')].find((s) => !scopesForRole('user').has(s))!;
    expect(notForUsers).toBeDefined();
    const n = Number((await h.knex('api_keys').count({ n: '*' }).first())!.n);
    for (const [form, message] of [
      [{ name: 'x', role: 'user', scope: ['deals:read', notForUsers] }, `Not available to the user role: ${notForUsers}`],
      [{ name: 'x', role: 'manager' }, 'Tick at least one scope'],
      [{ name: '', role: 'manager', scope: 'deals:read' }, 'Give the key a name'],
      [{ name: 'x', role: 'owner', scope: 'deals:read' }, 'Choose a role up to your own'],
      [{ name: 'x', role: 'manager', scope: 'deals:read', expires_on: day(-1) }, 'expires_at must be in the future'],
      [{ name: 'x', role: 'manager', scope: 'deals:read', expires_on: '2026-02-30' }, 'expires_at must be an ISO 8601 timestamp'],
      [{ name: 'x', role: 'manager', scope: 'made:up' }, 'Not available to the manager role: made:up'],
    ] as const) {
      const r = await ada.post('/app/settings/api-keys', form as Record<string, string | string[]>);
      expect(r.status, message).toBe(400);
      expect(r.text).toContain(message.replace(/"/g, '&quot;'));
    }
    expect(Number((await h.knex('api_keys').count({ n: '*' }).first())!.n)).toBe(n);
    // The form offers the scopes of the contract's x-roles for the admin's role.
    const page = await ada.get('/app/settings/api-keys');
    expect([...page.text.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual([...scopesForRole('admin')].sort());
    // An expiry: works until then, 401 api_key_expired after, on the injected clock.
    const made = await ada.post('/app/settings/api-keys', { name: 'Short', role: 'user', scope: 'deals:read', expires_on: day(2) });
    expect(made.status).toBe(201);
    const key = /id="new-key-value">(svc_test_[0-9A-Za-z]{32})</.exec(made.text)![1];
    expect((await v1('/v1/deals', key)).status).toBe(200);
    h.clock.advance(2 * 24 * 3600_000);
    expect((await v1('/v1/deals', key)).body.error.code).toBe('api_key_expired');
  });

  it('a manager sees the keys read-only and cannot create or revoke one; a user cannot open the page', async () => {
    const max = await signInApp(h, { email: MAX });
    const page = await max.get('/app/settings/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Only an admin can create or revoke API keys');
    expect(page.text).not.toContain('Create a key');
    expect(page.text).not.toContain('/revoke"');
    const n = Number((await h.knex('api_keys').count({ n: '*' }).first())!.n);
    const refused = await max.post('/app/settings/api-keys', { name: 'Sneaky', role: 'manager', scope: 'deals:read' });
    expect(refused.status).toBe(403);
    const target = await t.key({ role: 'user', name: 'Target' });
    expect((await max.post(`/app/settings/api-keys/${target.id}/revoke`)).status).toBe(403);
    expect(Number((await h.knex('api_keys').count({ n: '*' }).first())!.n)).toBe(n + 1);
    expect((await v1('/v1/deals', target.key)).status).toBe(200);

    const uma = await signInApp(h, { email: UMA });
    const denied = await uma.get('/app/settings/api-keys');
    expect(denied.status).toBe(403);
    expect(denied.text).not.toContain('Keys of');
    expect((await uma.post('/app/settings/api-keys', { name: 'Sneaky', role: 'user', scope: 'deals:read' })).status).toBe(403);
    // The navigation shows a user only what the role may open.
    const home = await uma.get('/app');
    const landing = await uma.get(home.location!);
    for (const s of SECTIONS) expect(landing.text.includes(`href="/app${s.path}"`), s.key).toBe(s.roles.includes('user'));
  });
});

describe(`Team (${ENGINE})`, () => {
  it('an admin adds a user, changes a role, deactivates and reactivates; not themselves; a manager sees it read-only', async () => {
    const ada = await signInApp(h, { email: ADA });
    const once = hidden((await ada.get('/app/settings/team')).text, '_form');
    const added = await ada.post('/app/settings/team', { _form: once, name: 'Nora New', email: 'Nora@App-Brokers.example', role: 'user' });
    expect(added.status).toBe(303);
    expect((await ada.post('/app/settings/team', { _form: once, name: 'Nora New', email: 'Nora@App-Brokers.example', role: 'user' })).status).toBe(409);
    const nora = await h.knex('users').where({ location_id: t.locationId, email: 'nora@app-brokers.example' }).first();
    expect(nora).toMatchObject({ name: 'Nora New', role: 'user', active: true });
    const dup = await ada.post('/app/settings/team', { name: 'Nora Again', email: 'nora@app-brokers.example', role: 'user' });
    expect(dup.status).toBe(400);
    expect(dup.text).toContain('already exists');
    expect((await ada.post('/app/settings/team', { name: 'Bad', email: 'not-an-email', role: 'user' })).status).toBe(400);
    expect((await ada.post('/app/settings/team', { name: 'Bad', email: 'bad@app-brokers.example', role: 'owner' })).status).toBe(400);

    expect((await ada.post(`/app/settings/team/${nora.id}/role`, { role: 'manager' })).status).toBe(303);
    expect((await h.knex('users').where({ id: nora.id }).first()).role).toBe('manager');
    // The new role applies on the next request of her session.
    const ns = await signInApp(h, { email: 'nora@app-brokers.example' });
    expect((await ns.get('/app/settings/team')).status).toBe(200);
    expect((await ada.post(`/app/settings/team/${nora.id}/role`, { role: 'user' })).status).toBe(303);
    expect((await ns.get('/app/settings/team')).status).toBe(403);

    expect((await ada.post(`/app/settings/team/${nora.id}/deactivate`)).status).toBe(303);
    expect((await h.knex('users').where({ id: nora.id }).first()).active).toBe(false);
    expect((await ada.post(`/app/settings/team/${nora.id}/reactivate`)).status).toBe(303);
    expect((await h.knex('users').where({ id: nora.id }).first()).active).toBe(true);
    const self = await ada.post(`/app/settings/team/${users[ADA]}/deactivate`);
    expect(self.status).toBe(400);
    expect((await ada.post(`/app/settings/team/${users[ADA]}/role`, { role: 'user' })).status).toBe(400);
    const acts = await h.knex('activities').where({ entity_id: nora.id }).orderBy('created_at').pluck('action');
    expect(acts).toEqual(['user.created', 'user.role_changed', 'user.role_changed', 'user.deactivated', 'user.reactivated']);

    const max = await signInApp(h, { email: MAX });
    const page = await max.get('/app/settings/team');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Nora New');
    expect(page.text).toContain('read-only');
    expect(page.text).not.toContain('/deactivate"');
    expect((await max.post('/app/settings/team', { name: 'Sneaky', email: 'sneaky@app-brokers.example', role: 'admin' })).status).toBe(403);
    expect((await max.post(`/app/settings/team/${nora.id}/deactivate`)).status).toBe(403);
    expect((await h.knex('users').where({ id: nora.id }).first()).active).toBe(true);
  });
});

/** A grant as the consent page makes it, with a live access token for /v1. */
async function grant(userId: string, locationId: string, clientName: string) {
  const now = h.clock.now();
  const clientId = `oac_${randomBase62(26).toUpperCase()}`;
  await h.knex('oauth_clients').insert({ client_id: clientId, metadata: JSON.stringify({ client_id: clientId, client_name: clientName, redirect_uris: ['http://127.0.0.1:9/cb'] }), created_at: now });
  const grantId = `ogr_${randomBase62(26).toUpperCase()}`;
  await h.knex('oauth_grants').insert({ id: grantId, client_id: clientId, location_id: locationId, user_id: userId, scopes: JSON.stringify(['deals:read']), audience: 'mcp', created_at: now });
  const token = `svc_at_${randomBase62(40)}`;
  await h.knex('oauth_access_tokens').insert({
    id: `tok_${randomBase62(26).toUpperCase()}`, location_id: locationId, user_id: userId, token_hash: sha256Hex(token), scopes: JSON.stringify(['deals:read']),
    audience: 'mcp', expires_at: new Date(now.getTime() + 3600_000), created_at: now, grant_id: grantId, client_id: clientId,
  });
  return { grantId, token };
}

describe(`Connected assistants (${ENGINE})`, () => {
  it('an admin sees every grant of the location and revokes one (its tokens then get 401); others see and revoke their own', async () => {
    const maxGrant = await grant(users[MAX], t.locationId, 'Max <Desk> Assistant');
    const adaGrant = await grant(users[ADA], t.locationId, 'Ada Assistant');
    const ada = await signInApp(h, { email: ADA });
    const page = await ada.get('/app/settings/assistants');
    expect(page.text).toContain('Max &lt;Desk&gt; Assistant');
    expect(page.text).toContain('Ada Assistant');
    const max = await signInApp(h, { email: MAX });
    const own = await max.get('/app/settings/assistants');
    expect(own.text).toContain('Max &lt;Desk&gt; Assistant');
    expect(own.text).not.toContain('Ada Assistant');
    expect((await max.post(`/app/settings/assistants/${adaGrant.grantId}/revoke`)).status).toBe(404);
    expect((await v1('/v1/deals', adaGrant.token)).status).toBe(200);

    expect((await v1('/v1/deals', maxGrant.token)).status).toBe(200);
    expect((await ada.post(`/app/settings/assistants/${maxGrant.grantId}/revoke`)).status).toBe(303);
    expect((await v1('/v1/deals', maxGrant.token)).status).toBe(401);
    expect((await h.knex('oauth_grants').where({ id: maxGrant.grantId }).first()).revoked_at).not.toBeNull();
    expect(await h.knex('activities').where({ entity_id: maxGrant.grantId }).pluck('action')).toEqual(['oauth_grant.revoked']);
    expect((await max.get('/app/settings/assistants')).text).not.toContain('Max &lt;Desk&gt; Assistant');
  });
});

describe(`tenancy (${ENGINE})`, () => {
  it("a second location's admin sees nothing of the first, and can change nothing of it", async () => {
    const firstKey = await t.key({ role: 'manager', name: 'First location secret name' });
    const g = await grant(users[ADA], t.locationId, 'First Location Assistant');
    const firstSession = await signInApp(h, { email: MAX });
    const firstSessionId = (await h.knex('app_sessions').where({ user_id: users[MAX] }).whereNull('revoked_at').orderBy('created_at', 'desc').first()).id;
    const olga = await signInApp(h, { email: OLGA });
    for (const path of ['/app/settings/api-keys', '/app/settings/team', '/app/settings/assistants', '/app/settings/sessions']) {
      const page = await olga.get(path);
      expect(page.status).toBe(200);
      for (const secret of ['First location secret name', firstKey.id, firstKey.key.slice(-4) + '<', 'Ada Admin', ADA, MAX, 'First Location Assistant', 'App Brokers', t.locationId]) {
        expect(page.text, `${path} shows ${secret}`).not.toContain(secret);
      }
    }
    expect((await olga.post(`/app/settings/api-keys/${firstKey.id}/revoke`)).status).toBe(404);
    expect((await v1('/v1/deals', firstKey.key)).status).toBe(200);
    expect((await olga.post(`/app/settings/team/${users[MAX]}/deactivate`)).status).toBe(404);
    expect((await olga.post(`/app/settings/team/${users[MAX]}/role`, { role: 'user' })).status).toBe(404);
    expect((await h.knex('users').where({ id: users[MAX] }).first()).active).toBe(true);
    expect((await olga.post(`/app/settings/assistants/${g.grantId}/revoke`)).status).toBe(404);
    expect((await v1('/v1/deals', g.token)).status).toBe(200);
    expect((await olga.post(`/app/settings/sessions/${firstSessionId}/revoke`)).status).toBe(303);
    expect((await firstSession.get('/app/settings/team')).status).toBe(200);
  });
});
