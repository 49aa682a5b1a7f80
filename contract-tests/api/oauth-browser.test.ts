import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/features/accounts/accounts.service';
import { launchBrowser, skipBrowserTests, warnIfNoBrowser } from '../support/browser';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';

// Connecting an assistant in a real browser (Debian's Chromium through puppeteer-core): the
// authorization request, the sign-in page, the code (a test location shows it), the consent page,
// and the redirect back to the assistant's own address on another origin, which the consent page's
// Content-Security-Policy (form-action) must allow and nothing else may violate. The browser's
// binding cookie (set by /authorize) must travel with every step, and only in this browser.

warnIfNoBrowser('oauth-browser.test.ts');

let h: Harness;
let t: Tenant;
let served: Awaited<ReturnType<typeof startServedHarness>>;
let callback: Server;
let base: string;
let callbackUrl: string;
let browser: Browser;
let dir: string;
const arrived: URL[] = [];
const problems: string[] = [];

describe.skipIf(skipBrowserTests)(`connecting an assistant in Chromium (${ENGINE})`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-oauth-browser-'));
    served = await startServedHarness();
    ({ h, base } = served);
    t = await h.tenant('Browser Assistants');
    // An address a browser's email field accepts (the harness's have an underscore in the domain).
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Ada Admin', email: 'ada@browser.example', role: 'admin' });
    // The assistant's redirect URI: another origin (another port), as a desktop assistant's would be.
    callback = createServer((req, res) => {
      const url = new URL(req.url!, 'http://127.0.0.1');
      if (url.pathname === '/callback') arrived.push(url); // (the browser also asks for /favicon.ico)
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', () => resolve()));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchBrowser(dir);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with the code, narrows the scopes on the consent page, and lands back at the assistant with a code that buys a token', async () => {
    const registered = (await (await fetch(`${base}/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Desk Assistant', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' }),
    })).json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${base}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: registered.client_id, redirect_uri: callbackUrl, code_challenge: challenge, code_challenge_method: 'S256',
      state: 'xyz', scope: 'deals:read deals:write businesses:read', resource: `${base}/mcp`,
    }).toString();

    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });

    await page.goto(authorize.href, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
    // The sign-in belongs to this browser: an HttpOnly, SameSite=Lax cookie scripts cannot read...
    const [binding] = (await page.cookies()).filter((c) => c.name === 'oauth_browser');
    expect(binding).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('oauth_browser');
    // ...and the same link in another browser (a fresh profile) opens nothing to sign in with.
    const elsewhere = await browser.createBrowserContext();
    const other = await elsewhere.newPage();
    const refused = await other.goto(page.url(), { waitUntil: 'load' });
    expect(refused?.status()).toBe(403);
    expect(await other.$('#email')).toBeNull();
    await elsewhere.close();
    await page.type('#email', 'ada@browser.example');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    const code = await page.$eval('#test-code strong', (el) => el.textContent ?? '');
    expect(code).toMatch(/^\d{6}$/);
    await page.type('#code', code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/oauth/consent');
    expect(await page.$eval('h2', (el) => el.textContent)).toContain('Desk Assistant wants to act as Ada Admin in Browser Assistants');
    // Each checkbox sits on its scope's line, with the scope in plain words; Allow and Deny look different.
    const layout = await page.$$eval('label.scope', (labels) =>
      labels.map((l) => {
        const box = l.querySelector('input')!.getBoundingClientRect();
        const text = l.querySelector('span')!.getBoundingClientRect();
        return { text: l.textContent ?? '', boxTop: box.top, boxBottom: box.bottom, textTop: text.top, textBottom: text.bottom, boxWidth: box.width };
      }),
    );
    expect(layout.map((l) => l.text.trim())).toEqual(['Read businesses and their notes, tasks, activity businesses:read', 'Read deals, submissions and the pipeline deals:read', 'Create and update deals, move stages deals:write']);
    for (const l of layout) {
      expect(l.boxTop, l.text).toBeLessThan(l.textBottom);
      expect(l.boxBottom, l.text).toBeGreaterThan(l.textTop);
      expect(l.boxWidth, l.text).toBeLessThan(40);
    }
    const looks = await page.$$eval('button[name=decision]', (bs) => bs.map((b) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b).backgroundColor));
    expect(looks).toHaveLength(2);
    expect(looks[0]).not.toBe(looks[1]);
    // Untick one scope, then allow: the browser goes to the assistant's address with the code.
    await page.click('input[name=scope][value="deals:write"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[name=decision][value=allow]')]);
    expect(page.url().startsWith(callbackUrl)).toBe(true);
    expect(arrived).toHaveLength(1);
    expect(arrived[0].searchParams.get('state')).toBe('xyz');
    const authCode = arrived[0].searchParams.get('code')!;

    const tokenRes = await fetch(`${base}/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: authCode, code_verifier: verifier, client_id: registered.client_id, redirect_uri: callbackUrl }),
    });
    const tokens = (await tokenRes.json()) as { access_token: string; scope: string };
    expect(tokenRes.status).toBe(200);
    expect(tokens.scope.split(' ').sort()).toEqual(['businesses:read', 'deals:read']);
    expect((await fetch(`${base}/v1/deals`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
