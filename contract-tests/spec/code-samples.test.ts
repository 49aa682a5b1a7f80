/**
 * The reference's code samples (scripts/code-samples.mjs, added by `npm run docs`): every operation
 * has curl, TypeScript and Python; the TypeScript ones type-check against generated/schema.d.ts
 * through the typed client (a wrong path, parameter, enum value or body field in the contract's
 * examples would not compile); the Python ones compile; the curl ones name the method, the path and
 * the credential.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { allSamples } from '../../scripts/code-samples.mjs';
import { loadSpec, ROOT } from './helpers';

type Sample = { lang: string; label: string; source: string };
const spec = loadSpec();
const all = allSamples(spec) as { operationId: string; path: string; method: string; samples: Sample[] }[];
const dir = mkdtempSync(join(tmpdir(), 'code-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('code samples in the reference', () => {
  it('every operation has curl, TypeScript and Python', () => {
    const operations = Object.values(spec.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
      Object.values(item).filter((op) => op && typeof op === 'object' && op.operationId),
    );
    expect(all.length).toBe(operations.length);
    for (const op of all) {
      expect(op.samples.map((s) => s.lang), op.operationId).toEqual(['Shell', 'TypeScript', 'Python']);
      for (const s of op.samples) expect(s.source.length, `${op.operationId} ${s.lang}`).toBeGreaterThan(40);
      const curl = op.samples[0].source;
      expect(curl, op.operationId).toContain(`curl -X ${op.method.toUpperCase()} "${spec.servers[0].url}`);
      expect(curl, op.operationId).toMatch(/Authorization: Bearer \$SVC_API_KEY|inbound:\$SVC_INBOUND_SECRET/);
    }
  });

  it('the TypeScript samples type-check against the generated types through the typed client', () => {
    const files: string[] = [];
    for (const op of all) {
      const file = join(dir, `${op.operationId}.ts`);
      // The package's own name resolves to src/client.ts inside this repository; here, by path.
      writeFileSync(file, op.samples[1].source.replace("'deal-funding-api/client'", `'${join(ROOT, 'src', 'client')}'`) + '\nexport {};\n');
      files.push(file);
    }
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2023.d.ts'],
      types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true, isolatedModules: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.replace(dir + '/', '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems.slice(0, 20)).toEqual([]);
  }, 120_000);

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('the Python samples compile (python3 -m py_compile)', () => {
    const files = all.map((op) => {
      const file = join(dir, `${op.operationId}.py`);
      writeFileSync(file, op.samples[2].source + '\n');
      return file;
    });
    const result = spawnSync('python3', ['-m', 'py_compile', ...files], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
  if (!python) console.log('Python samples not compiled: python3 is not installed here');
});
