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

export function buildDocs(out = join(root, 'docs-site', 'index.html')) {
  const spec = withCodeSamples(parse(readFileSync(join(root, 'openapi.yaml'), 'utf8')));
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(spec));
    const bin = join(root, 'node_modules', '.bin', 'redocly');
    // Built beside the target, then renamed: a reader (the server's /docs) never sees half a page.
    const tmp = `${out}.${process.pid}.tmp.html`;
    const result = spawnSync(bin, ['build-docs', file, '--inlineBundle', '-o', tmp], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) {
      rmSync(tmp, { force: true });
      throw new Error(`redocly build-docs failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    // Guides at common widths: a wide table scrolls inside its column instead of being cut off, and
    // long lines in code blocks wrap.
    const css = '<style>table{display:block;max-width:100%;overflow-x:auto}th,td{overflow-wrap:anywhere}pre{white-space:pre-wrap!important;overflow-wrap:anywhere}</style>';
    writeFileSync(tmp, readFileSync(tmp, 'utf8').replace('</head>', `${css}</head>`));
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
