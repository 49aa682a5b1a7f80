import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SPEC_PATH } from './helpers';

// The contract's example policy (docs-site/ARCHITECTURE.md, "Examples in the contract"):
// - A resource is a schema some success answer returns alone as its `data` ({ data: { $ref } }).
// - A record of a schema is an object in an example, where the schema applies, that holds every
//   property the schema requires (a "full record"; a PATCH body or a short error is not one).
// - Each resource has exactly one full record in `components/examples`, under the schema's own name,
//   written as the answer that returns it ({ data, meta }) and valid against that answer's schema.
// - An answer that shows that record refers to it with `$ref` (Prism serves it, Redocly shows it);
//   inside a list or an event the record is a YAML alias of it (an Example `value` is literal to
//   Redocly and the OpenAPI spec, so a `$ref` there would be shown and served as `{ "$ref": ... }`).
// - Another full record of the same schema shows another state: it differs in something other than
//   its timestamps (`*_at`). A record that differs only in timestamps is the same record: an alias.

const text = readFileSync(SPEC_PATH, 'utf8');
// Aliases parse to the very same object, a `$ref` is followed to the same object: identity is "the same node".
const spec = YAML.parse(text, { maxAliasCount: -1 }) as Record<string, any>;
const schemas = spec.components.schemas as Record<string, any>;
const componentExamples = (spec.components.examples ?? {}) as Record<string, any>;

const refName = (ref: unknown) => (typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined);
function resolve(ref: string): any {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, k) => node?.[k], spec);
}
const deref = (v: any): any => (v && typeof v === 'object' && typeof v.$ref === 'string' ? deref(resolve(v.$ref)) : v);

/** Every property a schema requires, following `allOf` (the event envelope and friends). */
function requiredOf(schema: any, seen = new Set<any>()): Set<string> {
  const s = deref(schema);
  const out = new Set<string>();
  if (!s || typeof s !== 'object' || seen.has(s)) return out;
  seen.add(s);
  for (const r of s.required ?? []) out.add(r);
  for (const part of s.allOf ?? []) for (const r of requiredOf(part, seen)) out.add(r);
  return out;
}

/** Resources: the schemas a success answer returns alone as `data`. */
function resources(): Set<string> {
  const out = new Set<string>();
  for (const item of Object.values<any>(spec.paths))
    for (const op of Object.values<any>(item)) {
      if (!op?.responses) continue;
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (!status.startsWith('2')) continue;
        const name = refName(deref(deref(response).content?.['application/json']?.schema)?.properties?.data?.$ref);
        if (name) out.add(name);
      }
    }
  return out;
}

interface Found {
  schema: string;
  record: Record<string, unknown>;
  where: string;
}

/** Every full record of a named schema inside `value`, read with `schema` (properties, items, allOf, anyOf/oneOf). */
function recordsIn(value: unknown, schema: any, where: string, out: Found[] = [], depth = 0): Found[] {
  if (depth > 40 || value === null || typeof value !== 'object' || !schema) return out;
  const name = refName(schema.$ref);
  const s = deref(schema);
  if (!s || typeof s !== 'object') return out;
  if (Array.isArray(value)) {
    if (s.items) value.forEach((v, i) => recordsIn(v, s.items, `${where}/${i}`, out, depth + 1));
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) recordsIn(value, branch, where, out, depth + 1);
    return out;
  }
  const obj = value as Record<string, unknown>;
  if (name) {
    const required = requiredOf(s);
    if (required.size > 0 && [...required].every((k) => k in obj)) out.push({ schema: name, record: obj, where });
  }
  const props: Record<string, any> = { ...(s.properties ?? {}) };
  for (const part of s.allOf ?? []) {
    const p = deref(part);
    Object.assign(props, p?.properties ?? {});
    for (const branch of [...(p?.anyOf ?? []), ...(p?.oneOf ?? [])]) recordsIn(value, branch, where, out, depth + 1);
  }
  for (const [k, v] of Object.entries(obj)) {
    const sub = props[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (sub) recordsIn(v, sub, `${where}/${k}`, out, depth + 1);
  }
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) recordsIn(value, branch, where, out, depth + 1);
  return out;
}

interface ExampleSite {
  where: string;
  schema: any;
  /** The Example object as written (maybe a `$ref`), or undefined for a media type's or schema's `example`. */
  written?: any;
  value: unknown;
}

/** Every example of the contract with the schema it is read against (components/examples through their users). */
function exampleSites(): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const media = (content: any, where: string) => {
    for (const [type, m] of Object.entries<any>(content ?? {})) {
      if (!m?.schema) continue;
      if (m.example !== undefined) sites.push({ where: `${where} ${type} example`, schema: m.schema, value: m.example });
      for (const [name, ex] of Object.entries<any>(m.examples ?? {})) sites.push({ where: `${where} ${type} ${name}`, schema: m.schema, written: ex, value: deref(ex)?.value });
    }
  };
  for (const section of ['paths', 'webhooks'] as const)
    for (const [key, item] of Object.entries<any>(spec[section] ?? {}))
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op || typeof op !== 'object' || !(op.responses || op.requestBody)) continue;
        const label = `${section === 'paths' ? method.toUpperCase() : 'webhook'} ${key}`;
        if (op.requestBody) media(deref(op.requestBody).content, `${label} request`);
        for (const [status, response] of Object.entries<any>(op.responses ?? {})) media(deref(response).content, `${label} ${status}`);
      }
  for (const [name, schema] of Object.entries<any>(schemas))
    if (schema?.example !== undefined) sites.push({ where: `schema ${name} example`, schema: { $ref: `#/components/schemas/${name}` }, value: schema.example });
  return sites;
}

const isTimestamp = (key: string) => key.endsWith('_at');
/** Equal but for the moment: a timestamp (`*_at`) may move, not appear or vanish (null or not is a state), at any depth. */
function sameButTimestamps(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameButTimestamps(x, (b as unknown[])[i]));
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (isTimestamp(k) && ((a as any)[k] == null) === ((b as any)[k] == null)) || sameButTimestamps((a as any)[k], (b as any)[k]));
}

/** Leaves two records spell out each on their own (a subtree that is the same node counts once, as nothing). */
function ownLeaves(a: unknown, b: unknown): number {
  if (a === b && a !== null && typeof a === 'object') return 0;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return 1;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].reduce((n, k) => n + ownLeaves((a as any)[k], (b as any)[k]), 0);
}
/** A copy: the same record but for timestamps, spelled out again, 8 values or more (a short flow line like `{ polls: true, ... }` is not worth an anchor). */
const isCopy = (a: unknown, b: unknown) => a !== b && sameButTimestamps(a, b) && ownLeaves(a, b) >= 8;

describe('the example policy: one full record per resource, in components/examples', () => {
  const RESOURCES = resources();
  const sites = exampleSites();

  it('finds the resources and the examples it rules over', () => {
    expect(RESOURCES.size).toBeGreaterThanOrEqual(25);
    for (const r of ['Deal', 'Business', 'Person', 'Submission', 'Offer', 'Advance', 'Document', 'Lender', 'WebhookSubscription']) expect(RESOURCES).toContain(r);
    expect(sites.length).toBeGreaterThanOrEqual(200);
  });

  it('every resource has its one full record in components/examples, under its own name, as the { data, meta } answer', () => {
    const problems: string[] = [];
    for (const name of RESOURCES) {
      const ex = componentExamples[name];
      if (!ex) {
        problems.push(`${name}: no components/examples/${name}`);
        continue;
      }
      const data = ex.value?.data;
      if (!ex.summary || !data || typeof data !== 'object' || Array.isArray(data) || !ex.value.meta) {
        problems.push(`${name}: components/examples/${name} is not a summarised { data, meta } answer`);
        continue;
      }
      const missing = [...requiredOf({ $ref: `#/components/schemas/${name}` })].filter((k) => !(k in data));
      if (missing.length) problems.push(`${name}: components/examples/${name} is not a full record (no ${missing.join(', ')})`);
    }
    // Exactly one: no other shared example carries a full record of a resource.
    for (const name of RESOURCES) {
      const holders = Object.entries<any>(componentExamples)
        // A resource that extends another (BusinessWithIncludes) has its own entry; it is not a second one.
        .filter(([exName, ex]) => exName === name || (!RESOURCES.has(exName) && isFullRecordOf(name, ex?.value?.data)))
        .map(([exName]) => exName);
      if (holders.length > 1) problems.push(`${name}: ${holders.length} full records in components/examples (${holders.join(', ')})`);
    }
    expect(problems).toEqual([]);
  });

  // Every example anywhere is checked against its schema, unknown fields refused, by `npm run lint`
  // (Redocly's no-invalid-media-type-examples and no-invalid-schema-examples): lint.test.ts.
  it('every shared record is valid against its schema', () => {
    const require = createRequire(import.meta.url);
    const Ajv = require('ajv/dist/2020').default;
    const addFormats = require('ajv-formats').default;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(spec, 'openapi');
    const problems: string[] = [];
    for (const name of RESOURCES) {
      const data = componentExamples[name]?.value?.data;
      if (!data) continue;
      const validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      if (!validate(data)) problems.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
  });

  it('an answer that shows the shared record refers to it with $ref; in a list or an event it is an alias of it', () => {
    const problems: string[] = [];
    // A YAML alias points backwards, and paths come before components: the first answer showing a
    // shared record may hold it (anchored) for components/examples to alias; every later one refers.
    const seen = new Set<unknown>();
    for (const site of sites) {
      const records = recordsIn(site.value, site.schema, site.where);
      for (const found of records) {
        const shared = componentExamples[found.schema]?.value?.data;
        if (!shared || found.record === shared) continue;
        if (isCopy(found.record, shared)) problems.push(`${found.where}: a copy of components/examples/${found.schema} (alias or $ref it)`);
      }
      // The whole answer is the shared one: `$ref`, not `{ data: *alias, meta: {} }` written again.
      const v = site.value as any;
      const name = refName(deref(site.schema)?.properties?.data?.$ref);
      const shared = name && componentExamples[name];
      const again = shared && site.written && !site.written.$ref && v?.data === shared.value?.data && JSON.stringify(v.meta) === JSON.stringify(shared.value.meta);
      if (again && seen.has(v.data)) problems.push(`${site.where}: the shared ${name} answer written again; use $ref: '#/components/examples/${name}'`);
      for (const found of records) seen.add(found.record);
    }
    expect(problems).toEqual([]);
  });

  it('two full records of one schema are the same node or differ in more than their timestamps', () => {
    const bySchema = new Map<string, Found[]>();
    const seen = new Set<unknown>();
    for (const site of sites)
      for (const found of recordsIn(site.value, site.schema, site.where)) {
        const list = bySchema.get(found.schema) ?? [];
        if (!list.some((f) => f.record === found.record)) list.push(found);
        bySchema.set(found.schema, list);
        seen.add(found.record);
      }
    const problems: string[] = [];
    for (const [schema, list] of bySchema)
      list.forEach((a, i) =>
        list.slice(i + 1).forEach((b) => {
          if (isCopy(a.record, b.record)) problems.push(`${schema}: ${b.where} repeats ${a.where} but for timestamps (make it an alias)`);
        }),
      );
    expect(seen.size).toBeGreaterThanOrEqual(100);
    expect(problems).toEqual([]);
  });
});

/** Whether `data` is a full `name` record: every property the schema requires, nothing it does not know. */
function isFullRecordOf(name: string, data: unknown): boolean {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const s = deref({ $ref: `#/components/schemas/${name}` });
  const props = new Set<string>(Object.keys(s.properties ?? {}));
  for (const part of s.allOf ?? []) for (const k of Object.keys(deref(part)?.properties ?? {})) props.add(k);
  const required = requiredOf(s);
  return required.size > 0 && [...required].every((k) => k in data) && Object.keys(data).every((k) => props.has(k));
}
