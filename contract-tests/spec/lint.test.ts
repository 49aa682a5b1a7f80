/**
 * CI gates on the contract: `npm run lint` (Redocly, failing on any warning) and
 * `npm run generate:check` (generated/schema.d.ts matches openapi.yaml).
 * Both scripts run as child processes exactly as the npm scripts do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, run } from './helpers';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('contract gates', () => {
  it('the npm scripts are wired to the gate scripts', () => {
    expect(scripts.lint).toBe('tsx scripts/lint.ts');
    expect(scripts['generate:check']).toBe('tsx scripts/generate-check.ts');
    expect(scripts.generate).toMatch(/^openapi-typescript\b/);
  });

  it('npm run lint: openapi.yaml has no lint errors and no warnings', async () => {
    const result = await run(BIN('tsx'), [join(ROOT, 'scripts', 'lint.ts')], 120_000);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/0 error\(s\), 0 warning\(s\)/);
  });

  it('npm run generate:check: generated/schema.d.ts is up to date', async () => {
    const result = await run(BIN('tsx'), [join(ROOT, 'scripts', 'generate-check.ts')], 120_000);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  });
});
