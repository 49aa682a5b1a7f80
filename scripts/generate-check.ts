/**
 * `npm run generate:check`: fails when generated/schema.d.ts is stale.
 *
 * Regenerates the types exactly as `npm run generate` does (openapi-typescript reading the
 * `apis.*.x-openapi-ts.output` entries of redocly.yaml, with the boolean flags written in the
 * `generate` script of package.json, and the CLI's comment header) into a temporary file, compares
 * it with the committed output and reports the first difference. Nothing in the repository is
 * written.
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

/** The CLI's boolean flags (openapi-typescript/bin/cli.js), as `openapiTS` option names. */
const BOOLEAN_FLAGS = [
  'additionalProperties', 'alphabetize', 'arrayLength', 'contentNever', 'defaultNonNullable',
  'propertiesRequiredByDefault', 'emptyObjectsUnknown', 'enum', 'enumValues', 'conditionalEnums',
  'dedupeEnums', 'excludeDeprecated', 'exportType', 'immutable', 'pathParamsAsTypes', 'rootTypes',
  'rootTypesNoSchemaPrefix', 'rootTypesKeepCasing', 'makePathsEnum', 'generatePathParams', 'readWriteMarkers',
] as const;
type FlagOptions = Partial<Record<(typeof BOOLEAN_FLAGS)[number], boolean>>;

/** Reads the options of `scripts.generate` so that this check cannot drift from `npm run generate`. */
function generateScriptOptions(): FlagOptions {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.generate ?? '';
  const [bin, ...args] = script.trim().split(/\s+/);
  const unsupported = (why: string): never => {
    console.error(`generate:check: cannot mirror \`"generate": "${script}"\` (${why}); update scripts/generate-check.ts.`);
    process.exit(2);
  };
  if (bin !== 'openapi-typescript') unsupported('it does not start with openapi-typescript');
  const options: FlagOptions = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-t') {
      options.exportType = true;
      continue;
    }
    const m = /^--(no-)?([a-z-]+)(?:=(true|false))?$/.exec(args[i]) ?? unsupported(`unsupported argument ${args[i]}`);
    const [, negated, kebab, inline] = m;
    const camel = kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const flag = BOOLEAN_FLAGS.find((f) => f === camel) ?? unsupported(`unsupported flag ${args[i]}`);
    let value = inline ? inline === 'true' : true;
    if (!inline && (args[i + 1] === 'true' || args[i + 1] === 'false')) value = args[++i] === 'true';
    options[flag] = negated ? !value : value;
  }
  return options;
}

const configPath = join(root, 'redocly.yaml');
const redocly = await loadConfig({ configPath });
const flagOptions = generateScriptOptions();

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
    const fresh = `${COMMENT_HEADER}${astToString(await openapiTS(pathToFileURL(t.input), { ...flagOptions, redocly, silent: true }))}`;
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
