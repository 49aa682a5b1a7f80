/**
 * The reference's code samples (scripts/code-samples.mjs, added by `npm run docs`): every operation
 * has curl, TypeScript and Python; the TypeScript ones type-check against generated/schema.d.ts
 * through the typed client (a wrong path, parameter, enum value or body field in the contract's
 * examples would not compile); the Python ones compile and import the standard library only; the curl
 * ones name the method, the path and the credential. contract-tests/api/samples-live.test.ts runs a
 * representative set of them, verbatim, against a live server.
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
      expect(curl, op.operationId).toContain(`curl -sS -X ${op.method.toUpperCase()} "${spec.servers[0].url}`);
      expect(curl, op.operationId).toMatch(/Authorization: Bearer \$SVC_API_KEY|inbound:\$SVC_INBOUND_SECRET/);
      // Run as pasted: no tool a fresh Debian lacks, no top-level await (an error in a default
      // `npm init` project, where a .ts compiles to CommonJS), no Python package to install.
      expect(curl, op.operationId).not.toContain('uuidgen');
      const ts = op.samples[1].source;
      expect(ts.split('\n').filter((l) => /^(const|let|if|console|export)\b.*\bawait\b/.test(l) || /^await\b/.test(l)), op.operationId).toEqual([]);
      expect(ts, op.operationId).toContain('async function main()');
      const imports = [...op.samples[2].source.matchAll(/^(?:import|from) ([\w.]+)/gm)].map((m) => m[1].split('.')[0]);
      expect(imports.filter((m) => !['base64', 'json', 'os', 'urllib', 'uuid'].includes(m)), op.operationId).toEqual([]);
    }
  });

  it('a POST with an Idempotency-Key makes it in curl with od and /dev/urandom, which Debian and macOS both have, and the key is valid', () => {
    const create = all.find((op) => op.operationId === 'createBusiness')!;
    const curl = create.samples[0].source;
    expect(curl).toContain(`-H "Idempotency-Key: $(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')"`);
    // The shell's own expansion of that command: 32 hex digits, the header's pattern (^[\x21-\x7E]+$, at most 255).
    const keys = [1, 2].map(() => spawnSync('sh', ['-c', `printf %s "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')"`], { encoding: 'utf8' }).stdout);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('a list sample shows its page size and a filter', () => {
    const list = all.find((op) => op.operationId === 'listDeals')!;
    expect(list.samples[0].source).toContain('/v1/deals?limit=25&status=open"');
    expect(list.samples[1].source).toContain('query: { limit: 25, status: "open" }');
    expect(list.samples[2].source).toContain('"https://api.svc.example/v1/deals?limit=25&status=open"');
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
