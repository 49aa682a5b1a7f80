import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { launchBrowser, skipBrowserTests, warnIfNoBrowser } from '../support/browser';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';
import { browserStatement } from '../support/portal-statement';

// The merchant portal in a real browser: Debian's Chromium driven by puppeteer-core (no browser is
// downloaded). The server listens on a loopback port and its public address is that port, so the
// page's upload goes straight to the local storage back end, as it would in production. A merchant
// opens the magic link, uploads a bank statement that arrives on the deal and is analysed, and
// chooses an offer; no page violates its Content-Security-Policy.

warnIfNoBrowser('portal-browser.test.ts');

let h: Harness;
let t: Tenant;
let served: Awaited<ReturnType<typeof startServedHarness>>;
let browser: Browser;
let worker: Worker;
let dir: string;
const problems: string[] = [];

type Json = Record<string, any>;
async function post(path: string, body?: object) {
  const req = h.api.post(path).set(t.auth());
  return ((body === undefined ? await req : await req.send(body)) as unknown as { status: number; body: Json });
}
const get = async (path: string) => ((await h.api.get(path).set(t.auth())) as unknown as { status: number; body: Json });

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  // Failed loads are recorded with their address (from the response); every other console error too.
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  return page;
}

describe.skipIf(skipBrowserTests)(`the merchant portal in Chromium (${ENGINE})`, () => {
  beforeAll(async () => {
    registerAllJobs();
    dir = mkdtempSync(join(tmpdir(), 'svc-browser-'));
    served = await startServedHarness();
    h = served.h;
    t = await h.tenant('Browser Brokers');
    worker = new Worker(h.deps, { concurrency: 2 });
    browser = await launchBrowser(dir);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens the magic link, uploads a bank statement straight to storage, and the statement arrives on the deal and is analysed', async () => {
    const biz = (await post('/v1/businesses', { legal_name: 'Sunrise Bakery LLC' })).body.data;
    await post('/v1/people', { first_name: 'Maria', last_name: 'Lopez', email: 'maria@sunrise.example', business_id: biz.id });
    const deal = (await post('/v1/deals', { business_id: biz.id, requested_amount: 60000 })).body.data;
    const req = (await post(`/v1/deals/${deal.id}/document-requests`, { items: ['bank_statement'], message: 'Three months, please.', send_email: false })).body.data;

    const statement = await browserStatement();
    const file = join(dir, 'sunrise-october.pdf');
    writeFileSync(file, statement.bytes);

    const page = await newPage();
    await page.goto(req.portal_url, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe('/portal'); // the token left the address bar
    expect(await page.$eval('h1', (e) => e.textContent)).toContain('Upload your documents');
    expect(await page.content()).toContain('Three months, please.');

    await page.select('#category', 'bank_statement');
    const input = await page.$('#file');
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(file);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#upload-form button')]);
    await page.waitForSelector('#uploads');
    expect(await page.$eval('#uploads', (e) => e.textContent)).toContain('sunrise-october.pdf');

    const docs = (await get(`/v1/deals/${deal.id}/documents`)).body.data;
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ filename: 'sunrise-october.pdf', source: 'merchant_portal', status: 'uploaded', category: 'bank_statement', size_bytes: statement.bytes.length });

    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit-documents')]);
    expect(await page.$('#fulfilled')).not.toBeNull();
    expect((await get(`/v1/deals/${deal.id}/document-requests`)).body.data[0].status).toBe('fulfilled');

    await worker.drain();
    const analysis = (await get(`/v1/deals/${deal.id}/statement-analysis`)).body.data;
    expect(analysis.status).toBe('completed');
    expect(analysis.statements[0]).toMatchObject({ document_id: docs[0].id, parsed: true, ending_balance: statement.expected.ending_balance });
    await page.close();
    expect(problems).toEqual([]);
  });

  it('an offers link: the merchant sees the offers and chooses one; the deal records it', async () => {
    const biz = (await post('/v1/businesses', { legal_name: 'Harbor Tools LLC' })).body.data;
    await post('/v1/people', { first_name: 'Dana', last_name: 'Reyes', email: 'dana@harbor.example', business_id: biz.id });
    const deal = (await post('/v1/deals', { business_id: biz.id, requested_amount: 80000 })).body.data;
    const lender = (await post('/v1/lenders', { name: 'Cobalt Merchant Funding' })).body.data;
    await post(`/v1/deals/${deal.id}/offers`, { lender_id: lender.id, amount: 75000, factor_rate: 1.38, term: 240, payment_frequency: 'daily' });
    const chosen = (await post(`/v1/deals/${deal.id}/offers`, { lender_id: lender.id, amount: 60000, factor_rate: 1.29, term: 180, payment_frequency: 'daily' })).body.data;
    const link = (await post(`/v1/deals/${deal.id}/portal-links`, { purpose: 'offers', send: false })).body.data;

    const page = await newPage();
    await page.goto(link.url, { waitUntil: 'load' });
    expect(await page.$$eval('.offer', (els) => els.length)).toBe(2);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(`.offer[data-offer-id="${chosen.id}"] button`)]);
    expect(await page.$eval(`.offer[data-offer-id="${chosen.id}"]`, (e) => e.textContent)).toContain('You chose this offer');
    const d = (await get(`/v1/deals/${deal.id}`)).body.data;
    expect(d.primary_offer.id).toBe(chosen.id);

    // Revoked: the next page says so, in plain words.
    await post(`/v1/portal-links/${link.id}/revoke`);
    const res = await page.goto(link.url, { waitUntil: 'load' });
    expect(res?.status()).toBe(410);
    expect(await page.$eval('main', (e) => e.textContent)).toContain('no longer active');
    await page.close();
    // The 410 itself is logged by Chromium as a failed load; nothing else may be.
    expect(problems.filter((p) => !p.startsWith('410 /p/'))).toEqual([]);
  });
});
