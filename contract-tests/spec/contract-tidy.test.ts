import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SPEC_PATH } from '../../src/http/spec';

// The contract says each thing once, as far as every tool reading it follows the references:
// path parameters are shared components, an id pattern lives in its id schema, every event is the
// one envelope plus its own type and data, and an example record that appears again is the same
// node (a YAML alias of its first appearance, or a shared `components/examples` entry), not a copy.

const text = readFileSync(SPEC_PATH, 'utf8');
const doc = YAML.parseDocument(text);
const spec = doc.toJS({ maxAliasCount: -1 }) as Record<string, any>;
const lineStarts = [0];
for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
const lineOf = (offset: number) => {
  let a = 0;
  let b = lineStarts.length - 1;
  while (a < b) {
    const m = (a + b + 1) >> 1;
    if (lineStarts[m] <= offset) a = m;
    else b = m - 1;
  }
  return a + 1;
};

describe('a tidy contract', () => {
  it('every path parameter is a shared component', () => {
    const inline: string[] = [];
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of [...(item.parameters ?? []), ...((op as { parameters?: unknown[] })?.parameters ?? [])] as Array<{ $ref?: string; in?: string }>) {
          if (!p.$ref && p.in === 'path') inline.push(`${method} ${path}`);
        }
      }
    }
    expect(inline).toEqual([]);
  });

  it('a non-null id pattern is written once, in its id schema', () => {
    const copies: string[] = [];
    const walk = (node: unknown, path: string[]) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.pattern === 'string' && /^\^[a-z]+_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/.test(n.pattern)) {
        const ownSchema = path.length === 3 && path[0] === 'components' && path[1] === 'schemas' && path[2].endsWith('Id');
        // A nullable id keeps its pattern beside `null` (an anyOf would render as a choice of two types).
        const nullable = Array.isArray(n.type) && n.type.includes('null');
        // Kinds that appear only as their own object's `id` have no separate id schema.
        const ownId = path[path.length - 1] === 'id' && !(spec.components.schemas as Record<string, unknown>)[`${idKind(n.pattern)}Id`];
        if (!ownSchema && !nullable && !ownId) copies.push(`${path.join('.')}: ${n.pattern}`);
      }
      for (const [k, v] of Object.entries(n)) walk(v, [...path, k]);
    };
    walk(spec, []);
    expect(copies).toEqual([]);
  });

  it('every event is the shared envelope plus its own type and data', () => {
    const events = Object.entries(spec.components.schemas as Record<string, any>).filter(([name]) => name.endsWith('Event') && name !== 'Event');
    expect(events.length).toBeGreaterThanOrEqual(16);
    for (const [name, schema] of events) {
      expect({ name, envelope: schema.allOf?.[0]?.$ref, closed: schema.unevaluatedProperties }).toEqual({ name, envelope: '#/components/schemas/EventEnvelope', closed: false });
    }
  });

  it('no example record of 5 lines or more is copied: a repeat is an alias of the first', () => {
    const seen = new Map<string, string>();
    const copies: string[] = [];
    const walk = (node: unknown, path: string[]) => {
      if (!(YAML.isMap(node) || YAML.isSeq(node))) return;
      const inExample = path.some((k, i) => (k === 'examples' && path[i + 2] === 'value') || k === 'example');
      const exampleRoot = path.length >= 3 && path[path.length - 1] === 'value' && path[path.length - 3] === 'examples';
      if (inExample && !exampleRoot && node.range && lineOf(node.range[1]) - lineOf(node.range[0]) >= 5) {
        const key = JSON.stringify(node.toJSON());
        const first = seen.get(key);
        if (first) copies.push(`${path.join('.')} repeats ${first}`);
        else seen.set(key, path.join('.'));
      }
      if (YAML.isMap(node)) for (const p of node.items) walk(p.value, [...path, String((p.key as { value?: unknown })?.value)]);
      else node.items.forEach((v, i) => walk(v, [...path, String(i)]));
    };
    walk(doc.contents, []);
    expect(copies).toEqual([]);
  });
});

function idKind(pattern: string): string {
  const prefix = /^\^([a-z]+)_/.exec(pattern)![1];
  const kinds: Record<string, string> = { deal: 'Deal', biz: 'Business', per: 'Person', ofr: 'Offer', sub: 'Submission', adv: 'Advance', lnd: 'Lender', whk: 'Webhook', usr: 'User', task: 'Task', doc: 'Document', stg: 'Stage' };
  return kinds[prefix] ?? prefix;
}
