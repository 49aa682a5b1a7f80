/**
 * `npm run generate:check`: fails when generated/schema.d.ts is stale.
 *
 * Regenerates the types exactly as `npm run generate` does (openapi-typescript reading the
 * `apis.*.x-openapi-ts.output` entries of redocly.yaml, default options, the CLI's comment header)
 * into a temporary file, compares it with the committed output and reports the first difference.
 * Nothing in the repository is written. If flags are ever added to the `generate` script, pass
 * the same options to `openapiTS` below.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

// Load the Redocly config with the very copy of @redocly/openapi-core that openapi-typescript uses
// (a transitive dependency, resolved from openapi-typescript's own location, as its CLI does).
const requireFromOpenapiTs = createRequire(createRequire(import.meta.url).resolve('openapi-typescript'));
const { loadConfig } = requireFromOpenapiTs('@redocly/openapi-core') as typeof import('@redocly/openapi-core');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const configPath = join(root, 'redocly.yaml');
const redocly = await loadConfig({ configPath });

const targets = Object.entries(redocly.apis ?? {}).flatMap(([name, api]) => {
  const output = (api as { 'x-openapi-ts'?: { output?: string } })['x-openapi-ts']?.output;
  return output ? [{ name, input: resolve(root, api.root), output: resolve(root, output) }] : [];
});
if (targets.length === 0) {
  console.error('generate:check: redocly.yaml has no apis with an `x-openapi-ts.output`; nothing to check.');
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), 'generate-check-'));
let stale = 0;
try {
  for (const t of targets) {
    const fresh = `${COMMENT_HEADER}${astToString(await openapiTS(pathToFileURL(t.input), { redocly, silent: true }))}`;
    const tmpFile = join(tmp, `${t.name}.d.ts`);
    writeFileSync(tmpFile, fresh, 'utf8');
    const rel = relative(root, t.output);
    if (!existsSync(t.output)) {
      console.error(`generate:check: ${rel} does not exist. Run \`npm run generate\` and commit it.`);
      stale++;
      continue;
    }
    const committed = readFileSync(t.output, 'utf8');
    if (committed === fresh) {
      console.log(`generate:check: ${rel} is up to date with ${relative(root, t.input)}.`);
      continue;
    }
    stale++;
    const a = committed.split('\n');
    const b = fresh.split('\n');
    let line = 0;
    while (line < a.length && line < b.length && a[line] === b[line]) line++;
    console.error(
      [
        `generate:check: ${rel} is STALE: it no longer matches ${relative(root, t.input)}.`,
        `  first difference at line ${line + 1}:`,
        `    committed: ${a[line] === undefined ? '<end of file>' : a[line].trim()}`,
        `    expected:  ${b[line] === undefined ? '<end of file>' : b[line].trim()}`,
        `  (${a.length} committed lines, ${b.length} expected lines)`,
        '  Fix: run `npm run generate` and commit generated/ together with openapi.yaml.',
      ].join('\n'),
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(stale ? 1 : 0);
