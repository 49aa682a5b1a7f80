import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec';

// What a client may send is bounded in the contract itself, so the validator (and the sandbox)
// refuse out-of-range input before any code or database sees it: every number and integer of a
// request body or parameter has a minimum and a maximum; every string a maxLength, an enum, a
// pattern or a date format. (The attack suite found `sort_order: 1e300` and criteria amounts of
// 1e300 accepted while these were missing.)

type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; oneOf?: Schema[]; anyOf?: Schema[] };
const spec = loadSpec() as { paths: Record<string, Record<string, { operationId?: string; parameters?: { $ref?: string; name?: string; in?: string; schema?: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>; components: Record<string, Record<string, unknown>> };

const deref = <T>(node: T & { $ref?: string }): T => {
  let n: unknown = node;
  while (n && typeof n === 'object' && '$ref' in n) n = (n as { $ref: string }).$ref.slice(2).split('/').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], spec);
  return n as T;
};

function unbounded(schema: Schema, path: string, out: string[], seen = new Set<Schema>()): void {
  const s = deref(schema);
  if (!s || seen.has(s)) return;
  seen.add(s);
  const types = ([] as unknown[]).concat(s.type ?? []);
  if ((types.includes('number') || types.includes('integer')) && s.enum === undefined) {
    const lower = s.minimum ?? s.exclusiveMinimum;
    const upper = s.maximum ?? s.exclusiveMaximum;
    if (lower === undefined || upper === undefined) out.push(`${path}: number without ${lower === undefined ? 'minimum' : 'maximum'}`);
  }
  if (types.includes('string') && s.maxLength === undefined && s.enum === undefined && s.pattern === undefined && s.format !== 'date' && s.format !== 'date-time') {
    out.push(`${path}: string without maxLength, enum, pattern or date format`);
  }
  for (const [k, v] of Object.entries(s.properties ?? {})) unbounded(v, `${path}.${k}`, out, seen);
  if (s.items) unbounded(s.items, `${path}[]`, out, seen);
  for (const alt of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) unbounded(alt, path, out, seen);
}

describe('request bounds in openapi.yaml', () => {
  it('every number, integer and string a client can send is bounded', () => {
    const out: string[] = [];
    for (const item of Object.values(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== 'object' || !op.operationId) continue;
        for (const p of op.parameters ?? []) {
          const param = deref(p);
          if (param.in !== 'header' && param.schema) unbounded(param.schema, `${op.operationId}:${param.in}:${param.name}`, out);
        }
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (body) unbounded(body, `${op.operationId} (${method.toUpperCase()}) body`, out);
      }
    }
    expect(out).toEqual([]);
  });
});
