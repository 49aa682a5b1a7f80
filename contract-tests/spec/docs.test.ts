/**
 * The published reference: `npm run docs` (redocly build-docs --inlineBundle) into a temporary
 * directory. The page must work offline (Redoc inlined, no external script) and carry the guides.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers';

const GUIDES = ['Quick start', 'Authentication', 'Roles and scopes', 'Errors', 'Pagination', 'Idempotency', 'Rate limits', 'Webhook deliveries', 'Assistants (MCP)', 'Sandbox and test mode', 'Versioning', 'Changelog'];

const dir = mkdtempSync(join(tmpdir(), 'docs-site-'));
const out = join(dir, 'index.html');
let html = '';

beforeAll(async () => {
  // The same command as the `docs` script (code samples added, then redocly build-docs), another output file.
  const result = await run(process.execPath, [join(ROOT, 'scripts', 'docs.mjs'), '--out', out], 120_000);
  if (result.code !== 0) throw new Error(`npm run docs failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  html = readFileSync(out, 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs-site (redocly build-docs --inlineBundle)', () => {
  it('shows curl, TypeScript and Python samples on every operation', () => {
    expect((html.match(/import urllib.request/g) ?? []).length).toBeGreaterThanOrEqual(85);
    expect((html.match(/createClient\(\{ baseUrl/g) ?? []).length).toBeGreaterThanOrEqual(84);
    expect((html.match(/curl -sS -X /g) ?? []).length).toBeGreaterThanOrEqual(85);
  });

  it('builds a single self-contained HTML page', () => {
    expect(statSync(out).size).toBeGreaterThan(500_000);
    expect(/^<!DOCTYPE html>/i.test(html), 'starts with a doctype').toBe(true);
    expect(html.includes('<title>Deal-Funding Platform API</title>'), 'page title').toBe(true);
  });

  it('inlines the Redoc bundle: no external scripts or stylesheets', () => {
    const scriptTags = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
    expect(scriptTags.length).toBeGreaterThan(0);
    expect(scriptTags.filter((tag) => /\bsrc\s*=/i.test(tag))).toEqual([]);
    const linkTags = [...html.matchAll(/<link\b[^>]*>/gi)].map((m) => m[0]);
    expect(linkTags.filter((tag) => /href\s*=\s*["']?(https?:)?\/\//i.test(tag))).toEqual([]);
    // (Booleans, so that a failure does not print the 3 MB page.)
    expect(/@import\s+url\(\s*["']?(https?:)?\/\//i.test(html), 'CSS @import of a remote stylesheet').toBe(false);
    expect(/<iframe\b[^>]*\bsrc\s*=\s*["']?(https?:)?\/\//i.test(html), 'remote iframe').toBe(false);
    // The bundle itself: at least one inline script of substantial size.
    const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1].length);
    expect(Math.max(...inline)).toBeGreaterThan(200_000);
  });

  // Each guide is a page of its own (a trait tag in the "Guides" group), so Redoc's search indexes it.
  it('makes every guide a page in the Guides group, ahead of the API', () => {
    const def = JSON.parse(/const __redoc_definition = (.*);\n/.exec(html)![1]);
    const groups = def['x-tagGroups'] as { name: string; tags: string[] }[];
    expect(groups.map((g) => g.name)).toEqual(['Guides', 'API']);
    expect(GUIDES.filter((g) => !groups[0].tags.includes(g))).toEqual([]);
    for (const g of groups[0].tags) expect(def.tags.find((t: { name: string }) => t.name === g)['x-traitTag']).toBe(true);
    expect(def.info.description).not.toMatch(/^# /m);
  });

  it('sends no usage data: telemetry off in the page, no remote badge image', () => {
    expect(html).toContain('"disableTelemetry":true');
    expect(html.includes('cdn.redoc.ly'), 'badge image from cdn.redoc.ly').toBe(false);
  });

  it('lists every tag and the event catalogue', () => {
    for (const tag of ['Businesses', 'Lender matches', 'Merchant portal', 'Webhooks'])
      expect(html.includes(`>${tag}<`), `tag ${tag} in the navigation`).toBe(true);
    expect(html.includes('submission.responded'), 'event submission.responded').toBe(true);
  });
});
