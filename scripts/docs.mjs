// `npm run docs [-- --out FILE]`: the reference, docs-site/index.html. openapi.yaml plus a code sample
// in three languages on every operation (scripts/code-samples.mjs), built by Redocly into one
// self-contained page (--inlineBundle: it works offline). `npm start` runs it when the page is
// missing or older than the contract, so the server's /docs is never stale.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { withCodeSamples } from './code-samples.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The "API docs by Redocly" badge is drawn from cdn.redoc.ly: the page makes no remote call, so it
// is the word instead (an inline SVG). The attribution link itself stays.
const BADGE = (text) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 8}" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="gray">${text}</text></svg>`)}`;

// Tables in guides and operation descriptions: a wide table scrolls sideways inside its column; a
// cell's words are never cut between letters ("Mai lbo x"): a cell is at least as wide as its longest
// word. Long lines in code blocks wrap.
const CSS = [
  // Redoc 3 wraps a Markdown table in .md-table-wrapper and hides what overflows (`overflow: hidden`,
  // a wide table's last columns were cut off): both scroll instead.
  '.md-table-wrapper{max-width:100%;overflow-x:auto!important}',
  'table{display:block;max-width:100%;overflow-x:auto!important}',
  'th,td,th *,td *{overflow-wrap:normal!important;word-break:normal!important;hyphens:none!important}',
  'pre{white-space:pre-wrap!important;overflow-wrap:anywhere}',
].join('');

const slug = (s) => s.toLowerCase().replace(/\s+/g, '-');

/**
 * Old links (Redoc 2: `#section/Webhook-deliveries/Verifying-signatures`, `#tag/Lender-matches`,
 * `#operation/listDeals`, `#tag/Deals/operation/listDeals`; and `#/section/pagination` from before the
 * guides had pages) land on today's anchors (`#/webhook-deliveries/verifying-signatures`,
 * `#/lender-matches`, `#/deals/listdeals`).
 * Run before Redoc reads the address, and again on every change of the hash. Inline (the page is one
 * file and works from file://; its CSP admits the inline scripts Redoc itself needs).
 */
export function sectionLinkScript(spec) {
  const ops = {};
  for (const [kind, group] of [['path', spec.paths ?? {}], ['webhook', spec.webhooks ?? {}]])
    for (const item of Object.values(group))
      for (const op of Object.values(item))
        if (op && typeof op === 'object' && op.operationId) ops[op.operationId.toLowerCase()] = `${slug(op.tags?.[0] ?? kind)}/${op.operationId.toLowerCase()}`;
  const tags = Object.fromEntries((spec.tags ?? []).map((t) => [slug(t.name), slug(t.name)]));
  return `<script>(${landOldLinks.toString()})(${JSON.stringify(ops)},${JSON.stringify(tags)});</script>`;
}

/** In the page (serialised into it): rewrites an old hash to today's, now and on every hash change. */
function landOldLinks(ops, tags) {
  function target(h) {
    let m = /^#(?:tag\/[^/]+\/)?operation\/([^/?]+)$/i.exec(h);
    if (m) {
      const op = ops[decodeURIComponent(m[1]).toLowerCase()];
      return op ? `#/${op}` : null;
    }
    m = /^#\/?section\/(.+)$/i.exec(h);
    if (m) return `#/${decodeURIComponent(m[1]).toLowerCase()}`;
    m = /^#tag\/([^/]+)$/i.exec(h);
    if (m) {
      const tag = tags[decodeURIComponent(m[1]).toLowerCase().replace(/[\s-]+/g, '-')];
      return tag ? `#/${tag}` : null;
    }
    return null;
  }
  function land() {
    const t = target(location.hash);
    if (t) location.replace(t);
  }
  land();
  addEventListener('hashchange', land);
}

/**
 * The guides (the `# ` sections of info.description) become pages of their own, a "Guides" group
 * ahead of the API's tags (each a tag with `x-traitTag`: a page, no operations). Redoc's search
 * indexes a page per tag, so a guide is found by its name and its words and the hit lands on it;
 * kept inside info.description they were one page, and search answered only "Deal-Funding Platform
 * API". The contract keeps them in info.description (one place to edit); this is the page's layout.
 */
export function withGuideTags(spec) {
  // Split at `# ` headings outside code fences (a `# comment` in a sample is not a guide).
  const parts = [{ name: null, lines: [] }];
  let fenced = false;
  for (const line of spec.info.description.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (!fenced && line.startsWith('# ')) parts.push({ name: line.slice(2).trim(), lines: [] });
    // One level up: a guide's `## Verifying signatures` is a heading of the guide's page.
    else parts.at(-1).lines.push(!fenced && /^##+ /.test(line) ? line.slice(1) : line);
  }
  const [intro, ...sections] = parts;
  const guides = sections.map((p) => ({ name: p.name, description: p.lines.join('\n').trim(), 'x-traitTag': true }));
  const apiTags = (spec.tags ?? []).map((t) => t.name);
  for (const group of [spec.paths ?? {}, spec.webhooks ?? {}])
    for (const item of Object.values(group))
      for (const op of Object.values(item)) for (const t of (op && typeof op === 'object' && op.tags) || []) if (!apiTags.includes(t)) apiTags.push(t);
  const clash = guides.find((g) => apiTags.some((t) => slug(t) === slug(g.name)));
  if (clash) throw new Error(`guide "${clash.name}" has the address of a tag`);
  return {
    ...spec,
    info: { ...spec.info, description: intro.lines.join('\n').trim() },
    tags: [...guides, ...(spec.tags ?? [])],
    'x-tagGroups': [
      { name: 'Guides', tags: guides.map((g) => g.name) },
      { name: 'API', tags: apiTags },
    ],
  };
}

/** The built page, finished: our CSS, the old-link script, no remote badge. */
export function finishPage(html, spec) {
  let page = html
    .replace('https://cdn.redoc.ly/redoc/logo-mini-full.svg', BADGE('Redocly'))
    .replace('https://cdn.redoc.ly/redoc/logo-mini.svg', BADGE('R'));
  page = page.replace('</head>', () => `<style>${CSS}</style>${sectionLinkScript(spec)}</head>`);
  return page;
}

export function buildDocs(out = join(root, 'docs-site', 'index.html')) {
  const spec = withGuideTags(withCodeSamples(parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'))));
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(spec));
    const bin = join(root, 'node_modules', '.bin', 'redocly');
    // Built beside the target, then renamed: a reader (the server's /docs) never sees half a page.
    const tmp = `${out}.${process.pid}.tmp.html`;
    // Telemetry off: the CLI sends no usage data, and the page is built with Redoc's
    // `disableTelemetry` (redocly.yaml `telemetry: off` does the same for `npm run lint`).
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off' };
    const result = spawnSync(bin, ['build-docs', file, '--inlineBundle', '-o', tmp], { cwd: root, encoding: 'utf8', env });
    if (result.status !== 0) {
      rmSync(tmp, { force: true });
      throw new Error(`redocly build-docs failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    writeFileSync(tmp, finishPage(readFileSync(tmp, 'utf8'), spec));
    renameSync(tmp, out);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out');
  const out = buildDocs(at > 0 ? process.argv[at + 1] : undefined);
  process.stdout.write(`reference built: ${out}\n`);
}
