/**
 * `npm run contract:diff`: the breaking-change gate. Compares openapi.yaml with the frozen copy of
 * the last released contract (contract-tests/spec/released/openapi-v1.0.0.yaml, kept in the
 * repository so a fresh clone without tags can run it) and fails on a break that is not declared in
 * contract-tests/spec/released/declared-breaks.json.
 *
 *   npx tsx scripts/contract-diff.ts [released.yaml] [current.yaml]
 *
 * Offline and dependency-free (the `yaml` parser only). What counts as a break for a partner:
 * - an operation (path and method) or an event (webhook) removed;
 * - a parameter removed, a new required parameter, an optional parameter made required;
 * - in what a client sends (parameters, request bodies): a property removed from a closed object,
 *   a new required property, a type narrowed, an enum value removed, a bound tightened or added
 *   (maxLength, maxItems, maximum, minLength, minItems, minimum, pattern), additionalProperties closed;
 * - in what a client receives (2xx responses, event payloads): a property removed, a required
 *   property made optional, a type changed or widened to something new, a success status removed.
 * Adding optional fields, responses, error codes and enum values in answers is additive (the
 * versioning guide tells clients to ignore unknown fields and values).
 *
 * Each break has a stable key (`kind: where`); a declared break names that key with a reason.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

type Json = any;
export interface Break { kind: string; where: string; key: string; detail: string }
export interface Declared { key: string; reason: string; since?: string }

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RELEASED = join(ROOT, 'contract-tests/spec/released/openapi-v1.0.0.yaml');
export const DECLARED = join(ROOT, 'contract-tests/spec/released/declared-breaks.json');
export const CURRENT = join(ROOT, 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const MAX_DEPTH = 12;

function resolver(doc: Json) {
  return (v: Json): Json => {
    let cur = v;
    for (let i = 0; cur && typeof cur === 'object' && typeof cur.$ref === 'string' && i < 50; i++) {
      const ref: string = cur.$ref;
      if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, got ${ref}`);
      const { $ref: _r, ...siblings } = cur;
      const target = ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((o: Json, k) => o?.[k], doc);
      cur = Object.keys(siblings).length ? { ...target, ...siblings } : target;
    }
    return cur;
  };
}

/** A schema's types as a set (`type` string or list, nullable, or `null` in an enum). */
function typesOf(s: Json): Set<string> | null {
  if (!s || typeof s !== 'object') return null;
  const t = Array.isArray(s.type) ? s.type : s.type ? [s.type] : null;
  if (!t) return null;
  const out = new Set<string>(t);
  if (s.nullable) out.add('null');
  if (out.has('number')) out.add('integer');
  return out;
}

/** Properties of an object schema, following allOf (the event envelope and friends). */
function objectView(s: Json, deref: (v: Json) => Json, depth = 0): { props: Record<string, Json>; required: Set<string>; closed: boolean } {
  const props: Record<string, Json> = {};
  const required = new Set<string>();
  let closed = s?.additionalProperties === false || s?.unevaluatedProperties === false;
  for (const [k, v] of Object.entries<Json>(s?.properties ?? {})) props[k] = v;
  for (const r of s?.required ?? []) required.add(r);
  if (depth < 5) {
    for (const part of s?.allOf ?? []) {
      const sub = objectView(deref(part), deref, depth + 1);
      Object.assign(props, sub.props);
      sub.required.forEach((r) => required.add(r));
      closed ||= sub.closed;
    }
  }
  return { props, required, closed };
}

export function diffContracts(oldDoc: Json, newDoc: Json): Break[] {
  const dOld = resolver(oldDoc);
  const dNew = resolver(newDoc);
  const breaks: Break[] = [];
  const add = (kind: string, where: string, detail: string) => breaks.push({ kind, where, key: `${kind}: ${where}`, detail });

  /**
   * Compares a schema in one direction. `request`: what clients send must still be accepted.
   * `response`: what clients read must still be there, with the same meaning.
   */
  function schema(a0: Json, b0: Json, where: string, dir: 'request' | 'response', depth: number, seen: Set<string>): void {
    if (depth > MAX_DEPTH || a0 === undefined || b0 === undefined) return;
    const pair = `${a0?.$ref ?? ''}|${b0?.$ref ?? ''}|${dir}`;
    if (a0?.$ref && b0?.$ref) {
      if (seen.has(pair)) return;
      seen = new Set(seen).add(pair);
    }
    const a = dOld(a0);
    const b = dNew(b0);
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return;
    const ta = typesOf(a);
    const tb = typesOf(b);
    if (ta && tb) {
      if (dir === 'request') {
        const lost = [...ta].filter((t) => !tb.has(t) && !(t === 'integer' && tb.has('number')));
        if (lost.length) add('request-type-narrowed', where, `no longer accepts ${lost.join(', ')}`);
      } else {
        const gained = [...tb].filter((t) => !ta.has(t) && !(t === 'integer' && ta.has('number')));
        if (gained.length) add('response-type-changed', where, `may now be ${gained.join(', ')}`);
      }
    }
    if (Array.isArray(a.enum) && dir === 'request') {
      const lost = a.enum.filter((v: unknown) => !(Array.isArray(b.enum) ? b.enum : [v]).some((w: unknown) => JSON.stringify(w) === JSON.stringify(v)));
      if (lost.length) add('request-enum-value-removed', where, `no longer accepts ${lost.map((v: unknown) => JSON.stringify(v)).join(', ')}`);
    }
    if (!Array.isArray(a.enum) && Array.isArray(b.enum) && dir === 'request') add('request-enum-added', where, 'now restricted to an enum');
    if (Array.isArray(a.enum) && dir === 'response' && !Array.isArray(b.enum)) add('response-enum-opened', where, 'no longer an enum');
    if (dir === 'request') {
      for (const k of ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties']) {
        if (typeof b[k] === 'number' && (typeof a[k] !== 'number' || b[k] < a[k])) add('request-bound-tightened', `${where} ${k}`, `${a[k] ?? 'none'} -> ${b[k]}`);
      }
      for (const k of ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties']) {
        if (typeof b[k] === 'number' && (typeof a[k] !== 'number' || b[k] > a[k])) add('request-bound-tightened', `${where} ${k}`, `${a[k] ?? 'none'} -> ${b[k]}`);
      }
      if (b.pattern && b.pattern !== a.pattern) add('request-pattern-changed', where, `${a.pattern ?? 'none'} -> ${b.pattern}`);
    }
    // Objects.
    if (a.properties || b.properties || a.allOf || b.allOf) {
      const oa = objectView(a, dOld);
      const ob = objectView(b, dNew);
      for (const [name, sa] of Object.entries<Json>(oa.props)) {
        const at = `${where}.${name}`;
        const sb = ob.props[name];
        if (sb === undefined) {
          if (dir === 'response') add('response-property-removed', at, 'no longer returned');
          else if (ob.closed) add('request-property-removed', at, 'no longer accepted (the object is closed)');
          continue;
        }
        if (dir === 'response' && oa.required.has(name) && !ob.required.has(name)) add('response-property-optional', at, 'was always present, now optional');
        schema(sa, sb, at, dir, depth + 1, seen);
      }
      if (dir === 'request') {
        for (const name of ob.required) if (!oa.required.has(name)) add('request-property-required', `${where}.${name}`, 'newly required');
        if (ob.closed && !oa.closed) add('request-object-closed', where, 'additional properties no longer accepted');
      }
    }
    if (a.items && b.items) schema(a.items, b.items, `${where}[]`, dir, depth + 1, seen);
    // Variants: compared by position when both sides have the same number (a simple, honest bound).
    for (const k of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(a[k]) && Array.isArray(b[k])) {
        if (dir === 'request' && b[k].length < a[k].length) add('request-variant-removed', where, `${k} ${a[k].length} -> ${b[k].length}`);
        if (a[k].length === b[k].length) a[k].forEach((x: Json, i: number) => schema(x, b[k][i], `${where}<${k}${i}>`, dir, depth + 1, seen));
      }
    }
  }

  const jsonSchema = (content: Json, d: (v: Json) => Json) => {
    const c = d(content) ?? {};
    const type = Object.keys(c).find((t) => t.includes('json')) ?? Object.keys(c)[0];
    return type ? c[type]?.schema : undefined;
  };
  const paramsOf = (item: Json, op: Json, d: (v: Json) => Json) => {
    const out = new Map<string, Json>();
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map(d)) out.set(`${p.in}:${p.name}`, p);
    return out;
  };

  function operation(label: string, ia: Json, oa: Json, ib: Json, ob: Json, isWebhook: boolean): void {
    const pa = paramsOf(ia, oa, dOld);
    const pb = paramsOf(ib, ob, dNew);
    for (const [k, p] of pa) {
      const q = pb.get(k);
      if (!q) { add('parameter-removed', `${label} ${k}`, 'no longer accepted'); continue; }
      if (q.required && !p.required) add('parameter-required', `${label} ${k}`, 'optional before, required now');
      schema(p.schema, q.schema, `${label} ${k}`, 'request', 0, new Set());
    }
    for (const [k, q] of pb) if (!pa.has(k) && q.required) add('parameter-required', `${label} ${k}`, 'new required parameter');
    const ra = oa.requestBody ? dOld(oa.requestBody) : undefined;
    const rb = ob.requestBody ? dNew(ob.requestBody) : undefined;
    // A webhook's request body is what the partner receives.
    const bodyDir = isWebhook ? 'response' : 'request';
    if (ra && rb) {
      if (!isWebhook && rb.required && !ra.required) add('request-body-required', label, 'a body is now required');
      schema(jsonSchema(ra.content, dOld), jsonSchema(rb.content, dNew), `${label} body`, bodyDir, 0, new Set());
    } else if (!ra && rb?.required && !isWebhook) add('request-body-required', label, 'a body is now required');
    else if (ra && !rb && isWebhook) add('response-property-removed', `${label} body`, 'payload removed');
    for (const [status, resA] of Object.entries<Json>(oa.responses ?? {})) {
      if (!/^2/.test(status)) continue;
      const resB = ob.responses?.[status];
      if (!resB) { add('response-status-removed', `${label} ${status}`, 'success status no longer returned'); continue; }
      const sa = jsonSchema(dOld(resA).content, dOld);
      const sb = jsonSchema(dNew(resB).content, dNew);
      if (sa && !sb) add('response-property-removed', `${label} ${status} body`, 'body removed');
      else schema(sa, sb, `${label} ${status}`, 'response', 0, new Set());
    }
  }

  for (const section of ['paths', 'webhooks'] as const) {
    for (const [key, itemA0] of Object.entries<Json>(oldDoc[section] ?? {})) {
      const itemA = dOld(itemA0);
      const itemB = newDoc[section]?.[key] ? dNew(newDoc[section][key]) : undefined;
      for (const m of METHODS) {
        if (!itemA[m]) continue;
        const label = section === 'paths' ? `${m.toUpperCase()} ${key}` : `webhook ${key}`;
        if (!itemB?.[m]) { add(section === 'paths' ? 'operation-removed' : 'event-removed', label, 'removed'); continue; }
        operation(label, itemA, itemA[m], itemB, itemB[m], section === 'webhooks');
      }
    }
  }
  return breaks;
}

export function loadDeclared(file = DECLARED): Declared[] {
  const list = JSON.parse(readFileSync(file, 'utf8')) as { breaks: Declared[] };
  return list.breaks;
}

/** Breaks not declared, and declarations that match no break (stale: remove them). */
export function gate(oldFile = RELEASED, newFile = CURRENT, declared: Declared[] = loadDeclared()) {
  const breaks = diffContracts(parse(readFileSync(oldFile, 'utf8')), parse(readFileSync(newFile, 'utf8')));
  const keys = new Set(declared.map((d) => d.key));
  const undeclared = breaks.filter((b) => !keys.has(b.key));
  const found = new Set(breaks.map((b) => b.key));
  const stale = declared.filter((d) => !found.has(d.key));
  return { breaks, undeclared, stale };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [oldFile = RELEASED, newFile = CURRENT] = process.argv.slice(2);
  const { breaks, undeclared, stale } = gate(resolve(oldFile), resolve(newFile));
  console.log(`contract-diff: ${breaks.length} breaking change(s) against ${oldFile}, ${breaks.length - undeclared.length} declared`);
  for (const b of undeclared) console.error(`UNDECLARED ${b.key} (${b.detail})`);
  for (const d of stale) console.error(`STALE declaration (matches no change): ${d.key}`);
  if (undeclared.length || stale.length) {
    console.error(`Declare an intended break in ${DECLARED} with its key and a reason (and a changelog line), or undo it.`);
    process.exit(1);
  }
}
