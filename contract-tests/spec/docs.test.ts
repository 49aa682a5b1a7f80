/**
 * The published reference: `npm run docs` (redocly build-docs --inlineBundle) into a temporary
 * directory. The page must work offline (Redoc inlined, no external script) and carry the guides.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers';

const GUIDES = ['Authentication', 'Roles and scopes', 'Errors', 'Pagination', 'Idempotency', 'Rate limits', 'Webhook deliveries', 'Assistants (MCP)', 'Sandbox and test mode', 'Versioning', 'Changelog'];

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

  // Only the "API docs by Redocly" badge image points at cdn.redoc.ly; offline it is simply hidden.
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

  it('renders the guide sections as headings', () => {
    const headings = [...html.matchAll(/<h([1-6])\b[^>]*\bid="section\/[^"]+"[^>]*>([\s\S]*?)<\/h\1>/gi)].map((m) =>
      m[2].replace(/<[^>]+>/g, '').trim(),
    );
    expect(GUIDES.filter((g) => !headings.includes(g))).toEqual([]);
  });

  it('lists every tag and the event catalogue', () => {
    for (const tag of ['Businesses', 'Lender matches', 'Merchant portal', 'Webhooks'])
      expect(html.includes(`>${tag}<`), `tag ${tag} in the navigation`).toBe(true);
    expect(html.includes('submission.responded'), 'event submission.responded').toBe(true);
  });
});
