import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/features/accounts/accounts.service';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { launchBrowser, skipBrowserTests, warnIfNoBrowser } from '../support/browser';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startReceiver, type LoopbackReceiver } from '../support/receiver';
import { startServedHarness } from '../support/served';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// The webhook and review-queue pages in a real browser (Debian's Chromium through puppeteer-core):
// an admin signs in with the emailed code, turns a disabled webhook back on and assigns a waiting
// lender reply to its submission, and /v1 shows both. Each page is checked by axe-core at 390 px
// (a phone) and at 1366 px (a laptop): zero violations, no console error, no CSP report.

warnIfNoBrowser('app-ops-browser.test.ts');

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [390, 1366];

let h: Harness;
let t: Tenant;
let served: Awaited<ReturnType<typeof startServedHarness>>;
let browser: Browser;
let worker: Worker;
let receiver: LoopbackReceiver;
let sink: SmtpSink;
let dir: string;
const problems: string[] = [];

type Json = Record<string, any>;
const post = async (path: string, body?: object) => (await h.api.post(path).set(t.auth()).send(body ?? {})) as unknown as { status: number; body: Json };
const get = async (path: string) => ((await h.api.get(path).set(t.auth())) as unknown as { status: number; body: Json }).body;

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  return page;
}

/** axe-core on the page as it is, at each width: the violations, with the elements they name. */
async function axeAtWidths(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewport({ width, height: 900 });
    // Injected through the DevTools protocol (evaluate), not a <script>: the page's CSP stays as served.
    await page.evaluate(AXE);
    // (Strings, not functions: this file is compiled without the DOM's types.)
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`)) as string[];
    found.push(...result.map((v) => `${width}px ${v}`));
    // Nothing wider than the screen: no sideways scrolling at a phone's width.
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    if (overflow > 0) found.push(`${width}px: the page is ${overflow}px wider than the screen`);
  }
  return found;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${served.base}/app/sign-in`, { waitUntil: 'load' });
  await page.type('#email', email);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form[action="/app/sign-in"] button')]);
  const code = await page.$eval('#test-code strong', (e) => e.textContent ?? '');
  await page.type('#code', code);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form[action="/app/verify"] button')]);
  expect(new URL(page.url()).pathname).toMatch(/^\/app\/settings\//);
}

describe.skipIf(skipBrowserTests)(`webhooks and the review queue in Chromium (${ENGINE})`, () => {
  beforeAll(async () => {
    registerAllJobs();
    dir = mkdtempSync(join(tmpdir(), 'svc-app-ops-'));
    served = await startServedHarness();
    h = served.h;
    h.deps.config.inboundTrustedAuthservIds = ['mx.relay.test'];
    t = await h.tenant('Browser Ops Brokers');
    worker = new Worker(h.deps, { concurrency: 2 });
    receiver = await startReceiver((_got, _req, res) => res.end('ok'));
    sink = await startSmtpSink();
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Browser Ops <deals@browserops.example>' });
    browser = await launchBrowser(dir);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await receiver?.close();
    await sink?.close();
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an admin turns a disabled webhook back on and assigns a waiting reply; every page passes axe at 390 and 1366 px', async () => {
    // A webhook the platform turned off, and a lender reply nobody could match.
    const hook = (await post('/v1/webhooks', { url: `${receiver.base}/crm`, events: [], description: 'Our CRM' })).body.data;
    await h.knex('webhook_subscriptions').where({ id: hook.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days', failing_since: h.clock.now() });
    const biz = (await post('/v1/businesses', { legal_name: 'Harbor Tools LLC' })).body.data;
    const deal = (await post('/v1/deals', { business_id: biz.id, requested_amount: 50000 })).body.data;
    const lender = (await post('/v1/lenders', { name: 'Cobalt Funding', submission_email: 'subs@cobalt.example' })).body.data;
    const sub = (await post(`/v1/deals/${deal.id}/submissions`, { lender_ids: [lender.id] })).body.data[0];
    await worker.drain();
    const secret = (await post('/v1/inbound-emails/rotate-secret')).body.data.secret;
    const raw = await new MailComposer({ from: 'Kim Park <kim@cobalt.example>', to: 'deals@browserops.example', subject: 'Harbor Tools', text: 'Approved! $50,000 at a 1.29 factor, 120 days, daily payments.', messageId: '<r1@cobalt.example>' }).compile().build();
    const inbound = await h.api.post('/v1/inbound-emails').set('Content-Type', 'message/rfc822').set('Authorization', `Basic ${Buffer.from(`inbound:${secret}`).toString('base64')}`)
      .send(Buffer.concat([Buffer.from('Authentication-Results: mx.relay.test; dkim=pass header.d=cobalt.example; spf=none\r\n', 'latin1'), raw]));
    expect(inbound.body.data).toMatchObject({ status: 'unmatched', review_reason: 'no_match' });

    const page = await newPage();
    // (The harness's users have addresses a browser's email field refuses: an underscore in the domain.)
    await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Robin Admin', email: 'robin@browserops.example', role: 'admin' });
    await signIn(page, 'robin@browserops.example');

    // Webhooks: why it is off, then "Turn back on".
    await page.goto(`${served.base}/app/settings/webhooks`, { waitUntil: 'load' });
    expect(await page.$eval(`[data-webhook-id="${hook.id}"]`, (e) => e.textContent)).toContain('Deliveries failed for 3 days');
    expect(await axeAtWidths(page)).toEqual([]);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(`[data-webhook-id="${hook.id}"] form.enable button`)]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('turned back on');
    expect((await get(`/v1/webhooks/${hook.id}`)).data).toMatchObject({ status: 'active', disabled_reason: null });
    // A test event from its button; its delivery, try by try.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(`[data-webhook-id="${hook.id}"] form.test button`)]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('The test event arrived');
    await page.goto(`${served.base}/app/settings/webhooks/${hook.id}`, { waitUntil: 'load' });
    expect(await axeAtWidths(page)).toEqual([]);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#deliveries li a.button')]);
    expect(await page.$eval('#attempts', (e) => e.textContent)).toContain('the other system answered 200 (received)');
    expect(await axeAtWidths(page)).toEqual([]);

    // The review queue: the reply, why it waits, what was read; assigned to its submission.
    await page.goto(`${served.base}/app/review`, { waitUntil: 'load' });
    const card = `[data-inbound-id="${inbound.body.data.id}"]`;
    expect(await page.$eval(card, (e) => e.textContent)).toContain('We could not tell which submission this reply is about.');
    await page.$eval(`${card} details`, (e) => e.setAttribute('open', '')); // the evidence, opened, is checked too
    expect(await axeAtWidths(page)).toEqual([]);
    await page.select(`${card} select[name="submission_id"]`, sub.id);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(`${card} form.assign button[type="submit"]`)]);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain('recorded on the submission');
    expect(await page.$eval('#waiting-count', (e) => e.textContent)).toBe('No replies wait for review.');
    expect((await get(`/v1/submissions/${sub.id}`)).data).toMatchObject({ status: 'approved', response_type: 'approved' });
    expect(await axeAtWidths(page)).toEqual([]);

    // The mailbox page too (an admin's): axe at both widths.
    await page.goto(`${served.base}/app/settings/mailbox`, { waitUntil: 'load' });
    expect(await axeAtWidths(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
