import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/http/errors';
import { PENDING } from '../../src/features/pending';
import { loadSpec } from '../../src/http/spec';

// The errors guide in openapi.yaml is the partner's list of every code the server can answer. The
// server declares its codes once (ERROR_CODES); these tests keep the two identical.

const spec = loadSpec() as { info: { description: string }; components: { schemas: { Error: { properties: { type: { enum: string[] } } } } } };

/** Rows of the guide's "| Status | `type` | When | Codes |" table. */
function guideRows(): { status: number; type: string; codes: string[] }[] {
  const text = spec.info.description;
  const table = text.slice(text.indexOf('| Status | `type` | When | Codes |'));
  const rows: { status: number; type: string; codes: string[] }[] = [];
  for (const line of table.split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    rows.push({ status: Number(cells[1]), type: cells[2], codes: [...cells[4].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]) });
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('error codes: declared once in code, listed exactly in the errors guide', () => {
  it('the guide lists exactly the declared codes, each under its status and type', () => {
    const listed = guideRows().flatMap((r) => r.codes.map((code) => ({ code, status: r.status, type: r.type })));
    const declared = Object.entries(ERROR_CODES).map(([code, d]) => ({ code, status: d.status as number, type: d.type as string }));
    const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
    expect(listed.sort(byCode)).toEqual(declared.sort(byCode));
  });

  it('every declared type is one of the contract Error.type values', () => {
    const types = new Set(spec.components.schemas.Error.properties.type.enum);
    for (const d of Object.values(ERROR_CODES)) expect(types.has(d.type)).toBe(true);
  });

  it('every code not marked pending is answered somewhere in src; pending ones nowhere yet', () => {
    const src = sourceFiles('src').filter((f) => !f.endsWith(join('http', 'errors.ts'))).map((f) => readFileSync(f, 'utf8')).join('\n');
    const used = (code: string) => new RegExp(`'${code}'`).test(src);
    for (const [code, d] of Object.entries(ERROR_CODES) as [ErrorCode, { pending?: true }][]) {
      // Codes the middleware and error renderer build inside errors.ts itself.
      if (['invalid_request', 'malformed_json', 'body_too_large', 'unsupported_media_type', 'method_not_allowed', 'route_not_found', 'resource_missing', 'internal_error'].includes(code)) continue;
      expect({ code, used: used(code) }).toEqual({ code, used: !d.pending });
    }
    // While a pending operation exists, 501 not_implemented is in the guide (checked above) and declared.
    expect(PENDING.length > 0 ? 'not_implemented' in ERROR_CODES : true).toBe(true);
  });
});
