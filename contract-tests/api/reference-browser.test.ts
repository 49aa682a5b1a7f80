import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withGuideTags } from '../../scripts/docs.mjs';
import { SPEC_PATH } from '../../src/http/spec';
import { DOCS_PATH } from '../../src/web/reference/reference.routes';
import { docsPage } from '../support/global-setup-docs';
import { launchBrowser, skipBrowserTests, warnIfNoBrowser } from '../support/browser';
import { ENGINE } from '../support/harness';
import { startServedHarness } from '../support/served';

// The reference at /docs in Debian's Chromium, served by a running server on a loopback port: the
// page calls nothing off its origin (no telemetry, fonts or CDNs; no request blocked by its CSP
// either, so nothing even tried), its search finds every guide, tables in guides and operation
// descriptions read at 390 and 1366 px without a word cut between letters (screenshots in a temp
// folder), and old `#section/...`, `#tag/...` and `#operation/...` links land.

warnIfNoBrowser('reference-browser.test.ts');

// The functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any, location: any, getComputedStyle: any, NodeFilter: any;
type HTMLInputElement = any;

let served: Awaited<ReturnType<typeof startServedHarness>>;
let browser: Browser;
let dir: string;
const offOrigin: string[] = [];
const problems: string[] = [];

const slug = (s: string) => s.toLowerCase().replace(/\s+/g, '-');
const spec = withGuideTags(parse(readFileSync(SPEC_PATH, 'utf8')));
const guides: { name: string; description: string }[] = spec.tags.filter((t: { 'x-traitTag'?: boolean }) => t['x-traitTag']);
const hasTable = (md: string) => /\n\|[- :|]+\|\n/.test(md);

async function newPage(width: number): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${served.base}/`) && !/^(data|blob):/.test(url)) offOrigin.push(url);
  });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  // A request refused by the page's CSP never reaches the network: count those attempts too. (Not
  // the bundle's probe for `eval`, which the CSP refuses and Redoc does without: no address.)
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e: any) => {
      if (/^(https?|wss?):/.test(e.blockedURI)) ((window as unknown as { __csp: string[] }).__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return page;
}

/** Waits for the element with this id (a guide, a heading, an operation) to be on the page. */
async function waitForAnchor(page: Page, id: string): Promise<void> {
  await page.waitForFunction((i) => !!document.getElementById(i), { timeout: 10_000 }, id);
}

describe.skipIf(skipBrowserTests)(`the reference in Chromium (${ENGINE})`, () => {
  beforeAll(async () => {
    // The page from this checkout's contract and build script, as `npm start` would build it (once
    // per run, for this file and reference.test.ts: global-setup-docs.ts), where the server reads it.
    expect(await docsPage()).toBe(DOCS_PATH);
    dir = mkdtempSync(join(tmpdir(), 'svc-reference-'));
    served = await startServedHarness();
    browser = await launchBrowser(dir);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('makes no request off its origin: no telemetry, fonts or CDNs, and nothing refused by its CSP', async () => {
    const page = await newPage(1366);
    await page.goto(`${served.base}/`, { waitUntil: 'networkidle0' }); // GET / redirects to /docs
    expect(new URL(page.url()).pathname).toBe('/docs');
    await waitForAnchor(page, 'quick-start');
    // Reading around: a guide, an operation, the search.
    await page.goto(`${served.base}/docs#/webhook-deliveries`, { waitUntil: 'networkidle0' });
    await waitForAnchor(page, 'webhook-deliveries/verifying-signatures');
    await page.goto(`${served.base}/docs#/deals/listdeals`, { waitUntil: 'networkidle0' });
    await waitForAnchor(page, 'deals/listdeals');
    await page.keyboard.down('Control');
    await page.keyboard.press('k');
    await page.keyboard.up('Control');
    await page.type('input[placeholder="Search docs..."]', 'webhook');
    await new Promise((r) => setTimeout(r, 1500)); // real time for the page's own debounce; no clock of ours is involved
    await page.keyboard.press('Escape');
    await page.waitForNetworkIdle({ idleTime: 500 });
    expect(offOrigin).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("finds every guide with the page's search box, and the first hit opens the guide", async () => {
    const page = await newPage(1366);
    await page.goto(`${served.base}/docs`, { waitUntil: 'networkidle0' });
    await waitForAnchor(page, 'quick-start');
    const missed: string[] = [];
    // Every guide, and a section inside one (Python next to the Node verification).
    const wanted = [...guides.map((g) => ({ name: g.name, anchor: slug(g.name) })), { name: 'Verifying signatures in Python', anchor: 'webhook-deliveries/verifying-signatures-in-python' }];
    expect(wanted.map((w) => w.name)).toEqual(expect.arrayContaining(['Pagination', 'Errors', 'Rate limits', 'Webhook deliveries', 'Documents and statement analysis', 'Merchant portal links']));
    for (const g of wanted) {
      await page.click('[data-testid="search-trigger"]');
      const box = await page.waitForSelector('input[placeholder="Search docs..."]');
      await box!.evaluate((e) => (e as HTMLInputElement).select());
      await page.keyboard.press('Backspace');
      await box!.type(g.name);
      // The first hit is the guide (its title first in the item); choosing it opens the guide's page.
      const top = () => page.evaluate(() => document.querySelector('[data-component-name="Search/SearchItem"]')?.textContent ?? '');
      const ok = await page
        .waitForFunction((name) => (document.querySelector('[data-component-name="Search/SearchItem"]')?.textContent ?? '').toLowerCase().startsWith(name.toLowerCase()), { timeout: 10_000 }, g.name)
        .then(() => true, () => false);
      if (!ok) {
        missed.push(`${g.name}: first hit "${(await top()).slice(0, 80)}"`);
        await page.keyboard.press('Escape');
        continue;
      }
      await page.click('[data-component-name="Search/SearchItem"]');
      if (!(await waitForAnchor(page, g.anchor).then(() => true, () => false))) {
        missed.push(`${g.name}: the hit opened ${page.url()}`);
        continue;
      }
      // Redoc scrolls after it has laid the section out, later on a loaded machine: wait (bounded) for the
      // heading to come into view rather than measure once, the moment the address changed.
      const inView = (id: string) => { const t = document.getElementById(id)?.getBoundingClientRect().top; return t !== undefined && t >= -5 && t <= 900; };
      if (!(await page.waitForFunction(inView, { timeout: 10_000 }, g.anchor).then(() => true, () => false))) {
        const at = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, g.anchor);
        missed.push(`${g.name}: opened, but its heading is at ${at}px`);
      }
    }
    expect(missed).toEqual([]);
    expect(offOrigin).toEqual([]);
    await page.close();
  }, 180_000);

  it('reads tables in guides and operation descriptions at 390 and 1366 px: no word cut between letters, wide tables scroll', async () => {
    const pages = [
      ...guides.filter((g) => hasTable(g.description)).map((g) => slug(g.name)),
      ...Object.values({ ...spec.paths, ...spec.webhooks }).flatMap((item) =>
        Object.values(item as Record<string, { operationId?: string; tags?: string[]; description?: string }>)
          .filter((op) => op?.operationId && hasTable(op.description ?? ''))
          .map((op) => `${slug(op.tags![0])}/${op.operationId!.toLowerCase()}`),
      ),
    ];
    expect(pages.length).toBeGreaterThanOrEqual(10);
    const shots: string[] = [];
    const broken: string[] = [];
    let tables = 0;
    let wideAt390 = 0;
    for (const width of [390, 1366]) {
      const page = await newPage(width);
      for (const at of pages) {
        await page.goto(`${served.base}/docs#/${at}`, { waitUntil: 'load' });
        await waitForAnchor(page, at);
        await page.waitForFunction(() => document.querySelectorAll('[data-component-name="Markdown/Markdown"] table').length > 0, { timeout: 10_000 });
        const found = await page.evaluate(() => {
          const out: { table: number; word: string; lines: number }[] = [];
          const unscrolled: number[] = [];
          // The tables written in Markdown (guides, descriptions), not Redoc's own layout.
          const all = [...document.querySelectorAll('[data-component-name="Markdown/Markdown"] table')];
          all.forEach((table, i) => {
            // A table wider than its column must be its own scroll box (display:block; overflow-x:auto).
            const style = getComputedStyle(table);
            const parent = table.parentElement!;
            if (table.getBoundingClientRect().width > parent.clientWidth + 1 || (table.scrollWidth > table.clientWidth + 1 && !/auto|scroll/.test(style.overflowX))) unscrolled.push(i);
            for (const cell of table.querySelectorAll('th, td')) {
              const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
              for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                for (const m of (n.textContent ?? '').matchAll(/[A-Za-z0-9_]+/g)) {
                  const range = document.createRange();
                  range.setStart(n, m.index!);
                  range.setEnd(n, m.index! + m[0].length);
                  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                  if (tops.size > 1) out.push({ table: i, word: m[0], lines: tops.size });
                }
              }
            }
          });
          return { count: all.length, out, unscrolled, wide: all.filter((t) => t.scrollWidth > t.clientWidth + 1).length };
        });
        tables += found.count;
        if (width === 390) wideAt390 += found.wide;
        for (const b of found.out) broken.push(`${width}px ${at} table ${b.table}: "${b.word}" on ${b.lines} lines`);
        for (const i of found.unscrolled) broken.push(`${width}px ${at} table ${i} overflows its column without scrolling`);
        await page.evaluate(() => document.querySelector('[data-component-name="Markdown/Markdown"] table')!.scrollIntoView({ block: 'center' }));
        const file = join(dir, `${width}-${at.replace(/\//g, '_')}.png`);
        await page.screenshot({ path: file });
        shots.push(file);
      }
      await page.close();
    }
    expect(broken).toEqual([]);
    expect(tables).toBeGreaterThanOrEqual(pages.length * 2);
    expect(shots.filter((f) => statSync(f).size < 10_000)).toEqual([]);
    // At 390 px some tables are wider than the column: they scroll (checked above) rather than squeeze.
    expect(wideAt390).toBeGreaterThan(0);
    console.log(`${tables} tables on ${pages.length} pages at 390 and 1366 px (${wideAt390} scroll sideways at 390 px); ${shots.length} screenshots in ${dir}`);
    expect(offOrigin).toEqual([]);
  }, 300_000);

  it('lands old links: #section/..., #tag/..., #operation/... and #/section/... open today\'s page', async () => {
    const page = await newPage(1366);
    const cases: [string, string][] = [
      ['#section/Authentication', 'authentication'],
      ['#section/Webhook-deliveries/Verifying-signatures', 'webhook-deliveries/verifying-signatures'],
      ['#section/Errors/What-counts-as-invalid-input', 'errors/what-counts-as-invalid-input'],
      ['#section/Changelog', 'changelog'], // the Deprecation header's Link
      ['#/section/pagination', 'pagination'],
      ['#tag/Lender-matches', 'lender-matches'],
      ['#operation/listDealSubmissions', 'submissions/listdealsubmissions'],
      ['#tag/Deals/operation/listDeals', 'deals/listdeals'],
    ];
    for (const [old, anchor] of cases) {
      await page.goto(`${served.base}/docs${old}`, { waitUntil: 'load' });
      await waitForAnchor(page, anchor);
      const seen = await page.evaluate((a) => {
        const r = document.getElementById(a)!.getBoundingClientRect();
        return { top: r.top, notFound: /No page at this address/i.test(document.body.innerText) };
      }, anchor);
      expect(seen.notFound, old).toBe(false);
      expect(seen.top, `${old} scrolled to ${anchor}`).toBeLessThan(900);
      expect(seen.top, `${old} scrolled to ${anchor}`).toBeGreaterThanOrEqual(-5);
    }
    // A link followed inside the page (a hash change, no load) lands too.
    await page.evaluate(() => { location.hash = '#section/Rate-limits'; });
    await waitForAnchor(page, 'rate-limits');
    expect(offOrigin).toEqual([]);
    await page.close();
  }, 180_000);
});
