import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, setUserActive } from '../../src/features/accounts/accounts.service';
import { MAX_CODE_ATTEMPTS, SIGN_IN_FAILURES_PER_EMAIL } from '../../src/web/oauth/oauth.routes';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';
import { browseAt, Jar, type Page } from '../support/browser-jar';

let served: Awaited<ReturnType<typeof startServedHarness>>;
let base: string;
let h: Harness;
let demo: Tenant;
let live: Tenant;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  served = await startServedHarness();
  ({ h, base } = served);
  demo = await h.tenant('Demo Brokers');
  live = await h.tenant('Live Brokers', { isTest: false });
});
beforeEach(() => {
  h.clock.advance(61_000);
});
afterAll(async () => {
  await served?.close();
});

const browseIn = (url: string, form: Record<string, string | string[]> | undefined, browser: Jar | null): Promise<Page> => browseAt(base, url, form, browser);
const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
const codeOnPage = (page: Page) => /your code is <strong>(\d{6})<\/strong>/.exec(page.text)?.[1];
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
async function register(redirects: string[] = [REDIRECT]): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${base}/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw client', redirect_uris: redirects, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
function authorizeUrl(clientId: string, challenge: string, o: { redirect?: string; path?: string } = {}) {
  const u = new URL(`${base}${o.path ?? '/authorize'}`);
  u.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: o.redirect ?? REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1' }).toString();
  return u;
}

// An outside red-team pass over the sign-in and consent flow (after the audit fixes of issue 23).
describe(`red team: OAuth sign-in and consent (${ENGINE})`, () => {
  it('no path variant of /authorize reaches the SDK\'s own handler: errors never go to a redirect URI no user approved', async () => {
    // Express's router.use('/authorize') (how the SDK mounts its handler) also matches /authorize//,
    // which our router.all('/authorize') does not: that path served the SDK's handler, which sends
    // every request error (here plain PKCE) straight to the client's redirect URI (open redirect).
    const evil = 'https://attacker.example/cb';
    const { status, body } = await register([evil]);
    expect(status).toBe(201);
    for (const path of ['/authorize', '/authorize/', '/authorize//', '/authorize///', '/AUTHORIZE//', '/authorize//x']) {
      const u = authorizeUrl(body.client_id as string, pkce().challenge, { redirect: evil, path });
      u.searchParams.set('code_challenge_method', 'plain');
      const got = await fetch(`${base}${path}?${u.searchParams}`, { redirect: 'manual' });
      const posted = await fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: u.searchParams.toString() });
      for (const res of [got, posted]) {
        expect(res.headers.get('location'), `${res.url} ${path}`).toBeNull();
        expect([400, 404], path).toContain(res.status);
      }
    }
  });

  it('the per-address lockout cannot be dodged by writing the address differently (case, spaces, a Kelvin sign); a shown code never opens a real account of any spelling', async () => {
    const jar = new Jar();
    const email = `kvar.${demo.locationId.toLowerCase()}@assist.example`;
    const user = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Variant', email, role: 'user' });
    try {
      const spellings = [`  ${email.toUpperCase()} `, `\u212A${email.slice(1)}`, email.replace('kvar', 'KVar'), `${email}\t`];
      const startWith = async (typed: string) => {
        h.clock.advance(61_000); // past the 5-codes-a-minute limit of the address's mail
        const { body } = await register();
        const start = await browseIn(String(authorizeUrl(body.client_id as string, pkce().challenge)), undefined, jar);
        const page = await browseIn(start.location!, undefined, jar);
        const form = { authorization: hidden(page.text, 'authorization'), _csrf: hidden(page.text, '_csrf') };
        const sent = await browseIn('/oauth/sign-in', { ...form, email: typed }, jar);
        expect(sent.status, typed).toBe(200);
        const code = codeOnPage(sent)!;
        expect(code, typed).toMatch(/^\d{6}$/); // every spelling reaches the one (test) account
        return { form, code, wrong: code === '000000' ? '111111' : '000000' };
      };
      let wrongTries = 0;
      for (const typed of spellings.slice(0, SIGN_IN_FAILURES_PER_EMAIL / MAX_CODE_ATTEMPTS)) {
        const { form, wrong } = await startWith(typed);
        for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
          const page = await browseIn('/oauth/verify', { ...form, code: wrong }, jar);
          if (page.text.includes('That code is not right')) wrongTries++;
        }
      }
      expect(wrongTries).toBe(SIGN_IN_FAILURES_PER_EMAIL);
      for (const typed of spellings) {
        const { form, code } = await startWith(typed);
        expect((await browseIn('/oauth/verify', { ...form, code }, jar)).status, typed).toBe(429);
      }
    } finally {
      await setUserActive(h.knex, h.clock, user.id, false);
    }
    // A real account whose address differs only in case and spaces from a test one: no code on the page.
    const mixed = `Mixed.${live.locationId.toLowerCase()}@Assist.example`;
    const realOne = await createUser(h.knex, h.clock, { locationId: live.locationId, name: 'Mixed Live', email: mixed, role: 'admin' });
    const testOne = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Mixed Demo', email: mixed.toLowerCase(), role: 'user' });
    try {
      for (const typed of [mixed, ` ${mixed.toUpperCase()}`, mixed.toLowerCase()]) {
        const { body } = await register();
        const start = await browseIn(String(authorizeUrl(body.client_id as string, pkce().challenge)), undefined, jar);
        const page = await browseIn(start.location!, undefined, jar);
        const sent = await browseIn('/oauth/sign-in', { authorization: hidden(page.text, 'authorization'), _csrf: hidden(page.text, '_csrf'), email: typed }, jar);
        expect(sent.status).toBe(200);
        expect(codeOnPage(sent), typed).toBeUndefined();
      }
    } finally {
      for (const u of [realOne, testOne]) await setUserActive(h.knex, h.clock, u.id, false);
    }
  });

  it('a sign-in form sent while the consent is approved cannot reopen the answered authorization (one answer per authorization)', async () => {
    // Sign-in forms of the same browser sent while it approves: each is refused and
    // none moves the authorization back to a signing state where it could be signed in and answered again.
    const jar = new Jar();
    const email = `race.${demo.locationId.toLowerCase()}@assist.example`;
    const user = await createUser(h.knex, h.clock, { locationId: demo.locationId, name: 'Race', email, role: 'user' });
    try {
      let reopened = 0;
      for (let round = 0; round < 10 && !reopened; round++) {
        h.clock.advance(61_000);
        const { body } = await register();
        const start = await browseIn(String(authorizeUrl(body.client_id as string, pkce().challenge)), undefined, jar);
        const page = await browseIn(start.location!, undefined, jar);
        const form = { authorization: hidden(page.text, 'authorization'), _csrf: hidden(page.text, '_csrf') };
        const code = codeOnPage(await browseIn('/oauth/sign-in', { ...form, email }, jar))!;
        expect((await browseIn('/oauth/verify', { ...form, code }, jar)).status).toBe(303);
        const [consent, ...signIns] = await Promise.all([
          browseIn('/oauth/consent', { ...form, decision: 'allow', scope: 'deals:read' }, jar),
          // Sign-in forms spread over the consent's time, some reading the row before it is approved.
          ...Array.from({ length: 16 }, (_, i) => new Promise((r) => setTimeout(r, i * 2)).then(() => browseIn('/oauth/sign-in', { ...form, email: `nobody${round}.${i}@assist.example` }, jar))),
        ]);
        // ("Already signed in" while it is answered, "expired" once it is)
        expect(signIns.every((p) => p.status === 400 && /Already signed in|This sign-in has expired/.test(p.text)), signIns.map((p) => p.status).join()).toBe(true);
        const row = await h.knex('oauth_authorizations').where({ id: form.authorization }).first('status');
        if (consent.status === 302 && new URL(consent.location!).searchParams.get('code') && row.status !== 'approved') reopened++;
      }
      expect(reopened).toBe(0);
    } finally {
      await setUserActive(h.knex, h.clock, user.id, false);
    }
  });
});
