import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/features/accounts/accounts.service';
import { sha256Hex } from '../../src/lib/crypto';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { launchBrowser, skipBrowserTests, warnIfNoBrowser } from '../support/browser';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// The app's settings pages in a real browser (Debian's Chromium through puppeteer-core): sign in
// with the code emailed to a real SMTP server, create an API key, copy it with the page's own
// script (the full key is on that one page only), use it on /v1, revoke it (then /v1 answers 401),
// revoke an assistant's grant (then its token gets 401).
// Every page is checked by axe-core at 390 px and 1366 px wide (zero violations), must not scroll
// sideways at 390 px, and nothing may break the Content-Security-Policy.

warnIfNoBrowser('app-browser.test.ts');

// axe-core's own build, evaluated through the DevTools protocol: a <script> tag of it (addScriptTag)
// is inline script, which the pages' Content-Security-Policy rightly refuses.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [390, 1366];
const EMAIL = 'ada@settings-brokers.example';

let h: Harness;
let t: Tenant;
let base: string;
let served: Awaited<ReturnType<typeof startServedHarness>>;
let sink: SmtpSink;
let worker: Worker;
let browser: Browser;
let dir: string;
const problems: string[] = [];

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('response', (r) => { if (r.status() >= 400 && !/\/favicon\.ico$/.test(r.url())) problems.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  page.on('dialog', (d) => void d.accept()); // the revoke buttons ask first
  return page;
}

/** axe-core's violations on this page at each width, and whether the page scrolls sideways at the narrow one. */
async function audit(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewport({ width, height: 900 });
    if ((await page.evaluate('typeof window.axe')) === 'undefined') await page.evaluate(AXE);
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    for (const v of result.violations) found.push(`${label} @${width}px: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    const sideways = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    if (sideways > width) found.push(`${label} @${width}px: the page is ${sideways}px wide`);
  }
  return found;
}

describe.skipIf(skipBrowserTests)(`the settings pages in Chromium (${ENGINE})`, () => {
  beforeAll(async () => {
    registerAllJobs();
    dir = mkdtempSync(join(tmpdir(), 'svc-app-browser-'));
    sink = await startSmtpSink();
    served = await startServedHarness();
    ({ h, base } = served);
    t = await h.tenant('Settings Brokers');
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Ada Admin', email: EMAIL, role: 'admin' });
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Settings Brokers <deals@settings-brokers.example>' });
    worker = new Worker(h.deps, { concurrency: 2 });
    browser = await launchBrowser(dir);
    await browser.defaultBrowserContext().overridePermissions(base, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await served?.close();
    await sink?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with the emailed code, creates a key, copies it once, uses it, revokes it; every page passes axe at 390 and 1366 px', async () => {
    const violations: string[] = [];
    const page = await newPage();
    await page.goto(`${base}/app`, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    violations.push(...(await audit(page, 'sign-in')));

    await page.type('#email', EMAIL);
    const before = sink.inbox.length;
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    violations.push(...(await audit(page, 'code')));
    await worker.drain();
    const mail = sink.inbox.slice(before).find((m) => m.rcpt.includes(EMAIL));
    const code = /\b(\d{6})\b/.exec(mail?.mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.type('#code', code!);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/app/settings/api-keys');
    const [session] = (await page.cookies()).filter((c) => c.name === 'app_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('app_session');
    violations.push(...(await audit(page, 'api keys')));

    // Create a key: a name, the role, the scopes left as offered but one.
    await page.type('#key-name', 'Browser key');
    await page.select('#key-role', 'manager');
    await page.click('input[name=scope][value="webhooks:manage"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('.create-key button[type=submit]')]);
    const key = (await page.$eval('#new-key-value', (e) => e.textContent ?? '')).trim();
    expect(key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    violations.push(...(await audit(page, 'key shown once')));
    await page.click('#copy-key');
    await page.waitForFunction(`document.getElementById('copy-status').textContent === 'Copied.'`);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    const use = await fetch(`${base}/v1/deals`, { headers: { authorization: `Bearer ${key}` } });
    expect(use.status).toBe(200);
    expect(((await (await fetch(`${base}/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } })).json()) as { error: { code: string } }).error.code).toBe('missing_scope');

    // Shown once: the list has its last four, never the key.
    await page.goto(`${base}/app/settings/api-keys`, { waitUntil: 'load' });
    expect(await page.content()).not.toContain(key);
    expect(await page.$('#new-key-value')).toBeNull();
    const row = (await page.$$eval('tr[data-key-id]', (rows) => rows.map((r) => r.textContent ?? ''))).find((r) => r.includes('Browser key')) ?? '';
    expect(row).toContain(key.slice(-4));
    expect(row).not.toContain('never'); // used once on /v1

    // Revoke (the page asks first): /v1 answers 401 at once.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[aria-label="Revoke Browser key"]')]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('revoked');
    const after = await fetch(`${base}/v1/deals`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    violations.push(...(await audit(page, 'after revoke')));

    // An assistant connected by Ada (as the consent page records it): listed, then revoked, and its token gets 401.
    const now = h.clock.now();
    await h.knex('oauth_clients').insert({ client_id: 'oac_01BROWSERCLIENT0000000000', metadata: JSON.stringify({ client_name: 'Desk Assistant', redirect_uris: ['http://127.0.0.1:9/cb'] }), created_at: now });
    const ada = await h.knex('users').where({ email: EMAIL }).first('id');
    await h.knex('oauth_grants').insert({ id: 'ogr_01BROWSERGRANT00000000000', client_id: 'oac_01BROWSERCLIENT0000000000', location_id: t.locationId, user_id: ada.id, scopes: JSON.stringify(['deals:read']), audience: 'mcp', created_at: now });
    const token = `svc_at_${'A'.repeat(40)}`;
    await h.knex('oauth_access_tokens').insert({
      id: 'tok_01BROWSERTOKEN00000000000', location_id: t.locationId, user_id: ada.id, token_hash: sha256Hex(token), scopes: JSON.stringify(['deals:read']), audience: 'mcp',
      expires_at: new Date(now.getTime() + 3600_000), created_at: now, grant_id: 'ogr_01BROWSERGRANT00000000000', client_id: 'oac_01BROWSERCLIENT0000000000',
    });
    expect((await fetch(`${base}/v1/deals`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.goto(`${base}/app/settings/assistants`, { waitUntil: 'load' });
    violations.push(...(await audit(page, 'assistants')));
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[aria-label="Revoke Desk Assistant for Ada Admin"]')]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('revoked');
    expect(await page.$('#no-grants')).not.toBeNull();
    expect((await fetch(`${base}/v1/deals`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

    for (const path of ['/app/settings/team', '/app/settings/assistants', '/app/settings/sessions', '/app/settings/notifications']) {
      await page.goto(`${base}${path}`, { waitUntil: 'load' });
      expect(new URL(page.url()).pathname).toBe(path);
      violations.push(...(await audit(page, path)));
    }
    // Your emails: a choice saved through the form, and the page after it.
    await page.goto(`${base}/app/settings/notifications`, { waitUntil: 'load' });
    await page.click('input[name="lender_answered"][value="daily_digest"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#save')]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('Saved');
    expect(await page.$eval('input[name="lender_answered"][value="daily_digest"]', (e) => (e as unknown as { checked: boolean }).checked)).toBe(true);
    violations.push(...(await audit(page, 'notifications saved')));
    // An error state too (a form sent without a name reaches the server's own check).
    await page.goto(`${base}/app/settings/api-keys`, { waitUntil: 'load' });
    await page.$eval('#key-name', (e) => e.removeAttribute('required'));
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('.create-key button[type=submit]')]);
    expect(await page.$eval('#error', (e) => e.textContent)).toContain('Give the key a name');
    // That 400 was asked for: its record in the problems goes (the response and the console's line).
    problems.splice(0, problems.length, ...problems.filter((p) => p !== '400 /app/settings/api-keys' && !p.includes('status of 400 (Bad Request)')));
    violations.push(...(await audit(page, 'form error')));

    // Sign out, from the header.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('.signout button')]);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    expect((await page.cookies()).filter((c) => c.name === 'app_session')).toEqual([]);

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('the location chooser, a page a role may not open and a refused form pass axe at 390 and 1366 px too', async () => {
    const other = await h.tenant('Second Brokers');
    const multi = 'multi@settings-brokers.example';
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Multi User', email: multi, role: 'user' });
    await createUser(h.knex, h.clock, { locationId: other.locationId, name: 'Multi Admin', email: multi, role: 'admin' });
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const violations: string[] = [];
    await page.goto(`${base}/app/sign-in`, { waitUntil: 'load' });
    await page.type('#email', multi);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    const code = await page.$eval('#test-code strong', (e) => e.textContent ?? ''); // both locations are test locations
    await page.type('#code', code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Choose a location');
    violations.push(...(await audit(page, 'chooser')));
    // The user account: the API keys page is not for its role.
    const radios = await page.$$eval('input[name=account]', (inputs) => inputs.map((i) => i.getAttribute('value') ?? ''));
    const userAccount = (await h.knex('users').whereIn('id', radios).where({ location_id: t.locationId }).first('id')).id;
    await page.click(`input[name=account][value="${userAccount}"]`);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
    const denied = await page.goto(`${base}/app/settings/api-keys`, { waitUntil: 'load' });
    expect(denied?.status()).toBe(403);
    violations.push(...(await audit(page, 'not for this role')));
    // A form whose CSRF token was tampered with: the refusal page.
    await page.goto(`${base}/app/settings/sessions`, { waitUntil: 'load' });
    await page.$eval('form[action$="/revoke"] input[name=_csrf]', (input) => input.setAttribute('value', '0'.repeat(64)));
    const [refused] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form[action$="/revoke"] button')]);
    expect(refused?.status()).toBe(403);
    expect(await page.$('form')).toBeNull();
    violations.push(...(await audit(page, 'refused form')));
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);
});
