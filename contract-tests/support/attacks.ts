// The attack catalogue of contract-tests/api/attack.test.ts: everything here is derived from
// openapi.yaml (schemas, parameters, examples, x- bounds), nothing from a hand list of operations.
//
// An Attack is one concrete HTTP request that differs from a valid baseline request in ONE place
// (one body field, one query parameter, one path parameter, one header) or, for the few
// whole-request attacks, in its framing (encoding, media type, top-level JSON type). `expect`
// says what the server owes us: `reject` = a 4xx error envelope (the value is invalid, by the
// contract or by the server-wide rules: no NUL, no lone surrogate, finite numbers, bounded
// free-form objects); `survive` = anything but a 5xx (a hostile value the contract allows).
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

// ------------------------------------------------------------------------------------ JSON text

/** A number written verbatim into the JSON text (`1e309` parses to Infinity, `-0`, `9007199254740993`). */
export class RawJson {
  constructor(readonly text: string, readonly label = text) {}
}
/** Bytes spliced verbatim into the JSON text (invalid UTF-8 inside a string). */
export class RawBytes {
  constructor(readonly bytes: Buffer, readonly label: string) {}
}

/** JSON text of a value that may hold RawJson / RawBytes pieces. Lone surrogates become `\udXXX` escapes. */
export function jsonBytes(value: unknown): Buffer {
  const out: (string | Buffer)[] = [];
  const write = (v: unknown): void => {
    if (v instanceof RawJson) out.push(v.text);
    else if (v instanceof RawBytes) out.push(v.bytes);
    else if (v === null || typeof v !== 'object') out.push(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) {
      out.push('[');
      v.forEach((x, i) => {
        if (i) out.push(',');
        write(x);
      });
      out.push(']');
    } else {
      out.push('{');
      let first = true;
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue;
        if (!first) out.push(',');
        first = false;
        out.push(JSON.stringify(k), ':');
        write(x);
      }
      out.push('}');
    }
  };
  write(value);
  return Buffer.concat(out.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
}

/** Short printable description of a body for failure reports. */
export function describeBody(body: Buffer | undefined, max = 400): string {
  if (!body) return '(no body)';
  const text = body.toString('latin1');
  // Printable JSON stays readable; control bytes and non-ASCII bytes are shown escaped.
  const shown = text.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return shown.length > max ? `${shown.slice(0, max)}... (${body.length} bytes)` : shown;
}

// ------------------------------------------------------------------------------------ spec access

export type Schema = Record<string, any>;
export type Spec = Record<string, any>;

export function resolveRef(spec: Spec, node: Schema | undefined): Schema {
  let s = node ?? {};
  for (let i = 0; i < 20 && s && typeof s.$ref === 'string'; i++) {
    s = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((o: any, k: string) => (o == null ? o : o[k]), spec);
  }
  if (s && Array.isArray(s.allOf)) {
    // Shallow merge of allOf parts (enough for request schemas).
    const merged: Schema = { ...s };
    delete merged.allOf;
    for (const part of s.allOf.map((p: Schema) => resolveRef(spec, p))) {
      for (const [k, v] of Object.entries(part)) {
        if (k === 'properties') merged.properties = { ...(merged.properties ?? {}), ...(v as object) };
        else if (k === 'required') merged.required = [...(merged.required ?? []), ...(v as string[])];
        else if (!(k in merged)) merged[k] = v;
      }
    }
    return merged;
  }
  return s ?? {};
}

export interface ParamInfo {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
  example?: unknown;
}

export interface OperationDetail {
  operationId: string;
  method: string;
  path: string;
  params: ParamInfo[];
  body?: { required: boolean; schema: Schema; examples: unknown[] };
  responses: string[];
  /** Media types of its 2xx answers (what `Accept` may ask for). */
  produces: string[];
  /** Its body is not JSON (the inbound hook): served outside the JSON pipeline. */
  rawBody: boolean;
}

export function operationDetail(spec: Spec, path: string, method: string): OperationDetail {
  const item = spec.paths[path];
  const op = item[method];
  const params: ParamInfo[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => {
    const r = resolveRef(spec, p);
    return { name: r.name, in: r.in, required: !!r.required, schema: resolveRef(spec, r.schema), example: r.example ?? r.schema?.example };
  });
  let body: OperationDetail['body'];
  const content = op.requestBody ? resolveRef(spec, op.requestBody).content?.['application/json'] : undefined;
  if (content) {
    const examples: unknown[] = [];
    if (content.example !== undefined) examples.push(content.example);
    for (const e of Object.values<Schema>(content.examples ?? {})) {
      const r = resolveRef(spec, e);
      if (r.value !== undefined) examples.push(r.value);
    }
    body = { required: !!resolveRef(spec, op.requestBody).required, schema: resolveRef(spec, content.schema), examples };
  }
  const produces = [...new Set(Object.entries<Schema>(op.responses ?? {}).filter(([st]) => st.startsWith('2')).flatMap(([, r]) => Object.keys(resolveRef(spec, r).content ?? {})))];
  const rawBody = !!op.requestBody && !content;
  return { operationId: op.operationId, method, path, params, body, responses: Object.keys(op.responses ?? {}), produces, rawBody };
}

// ------------------------------------------------------------------------------------ schema helpers

export function typesOf(s: Schema): Set<string> | null {
  if (s.type) return new Set(Array.isArray(s.type) ? s.type : [s.type]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map((v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v)));
  if (s.properties || s.additionalProperties !== undefined) return new Set(['object']);
  return null;
}
const allows = (t: Set<string> | null, type: string) =>
  t === null || t.has(type) || (type === 'integer' && t.has('number'));
const mainType = (t: Set<string> | null) => (t ? [...t].filter((x) => x !== 'null')[0] ?? 'null' : 'any');

/** Object keys allowed beyond `properties`? */
const isOpenObject = (s: Schema) => s.additionalProperties !== false && !s.unevaluatedProperties;
/** A free-form object (custom_data, form_data): open, without declared properties. */
export const isFreeForm = (s: Schema) => allows(typesOf(s), 'object') && typesOf(s) !== null && isOpenObject(s) && !s.properties;

export function getIn(obj: unknown, path: (string | number)[]): unknown {
  return path.reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

export const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** A date in the middle of nowhere special, valid for every `format: date`. */
const VALID_DATE = '2026-12-15';
const VALID_DATE_TIME = '2026-12-15T10:30:00Z';

/** A valid value for a schema: its example, default or first enum value, else derived from type and bounds. */
export function validValue(spec: Spec, schema: Schema, idFor: (pattern: string) => string | undefined, depth = 0): unknown {
  const s = resolveRef(spec, schema);
  if (s.example !== undefined) return clone(s.example);
  if (Array.isArray(s.examples) && s.examples.length) return clone(s.examples[0]);
  if (s.default !== undefined) return clone(s.default);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null;
  const t = typesOf(s);
  const type = mainType(t);
  if (type === 'string') {
    if (s.pattern) {
      const id = idFor(s.pattern);
      if (id) return id;
    }
    if (s.format === 'date') return VALID_DATE;
    if (s.format === 'date-time') return VALID_DATE_TIME;
    if (s.format === 'email') return 'attack@example.com';
    if (s.format === 'uri' || s.format === 'url') return 'https://example.com/x';
    return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
  if (type === 'integer' || type === 'number') {
    if (typeof s.minimum === 'number') return s.minimum;
    if (typeof s.exclusiveMinimum === 'number') return s.exclusiveMinimum + 1;
    return 1;
  }
  if (type === 'boolean') return true;
  if (type === 'array') {
    const n = s.minItems ?? 0;
    return Array.from({ length: n }, (_, i) => {
      const v = validValue(spec, s.items ?? {}, idFor, depth + 1);
      return s.uniqueItems && typeof v === 'string' ? `${v}${i || ''}` : v;
    });
  }
  if (type === 'object') {
    const o: Record<string, unknown> = {};
    if (depth < 6) for (const k of s.required ?? []) o[k] = validValue(spec, s.properties?.[k] ?? {}, idFor, depth + 1);
    if (!s.required?.length && s.minProperties && s.properties) {
      const k = Object.keys(s.properties)[0];
      o[k] = validValue(spec, s.properties[k], idFor, depth + 1);
    }
    return o;
  }
  if (type === 'null') return null;
  return 'x';
}

// ------------------------------------------------------------------------------------ attacks

export interface Req {
  method: string;
  /** Concrete path, every segment already percent-encoded as it must travel. */
  path: string;
  /** Raw query string without `?` (already encoded). */
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Attack {
  /** Attack class, the key of the failure inventory (e.g. `string: NUL`). */
  cls: string;
  where: 'body' | 'query' | 'path' | 'header' | 'request';
  /** Field or parameter under attack (dotted), or a label for whole-request attacks. */
  target: string;
  expect: 'reject' | 'survive';
  /** Expected `error.param` when one field is at fault (descendants accepted); undefined: not checked. */
  param?: string;
  /** Path attacks: a 404 is an acceptable refusal too (param not checked then). */
  allow404?: boolean;
  /** Long hostile strings the error message must not echo. */
  avoid?: string[];
  /** Generated by fast-check (as opposed to the deterministic catalogue). */
  random?: boolean;
  /**
   * Invalid, but only the handler can tell (a forged cursor is a well-formed string): an operation
   * that is not built yet may answer it 501.
   */
  semantic?: boolean;
  req: Req;
}

/** The valid request every attack starts from. */
export interface Baseline {
  method: string;
  template: string;
  /** Path parameter values (raw, unencoded). */
  pathParams: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed body (undefined: no body is sent). */
  body?: unknown;
}

export function renderPath(template: string, values: Record<string, string>, encoded: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encoded[name] ?? encodeURIComponent(values[name] ?? ''));
}

export function baseReq(b: Baseline): Req {
  const headers: Record<string, string> = { ...b.headers };
  let body: Buffer | undefined;
  if (b.body !== undefined) {
    body = jsonBytes(b.body);
    headers['Content-Type'] = 'application/json';
  }
  return { method: b.method, path: renderPath(b.template, b.pathParams), query: '', headers, body };
}

export interface AttackContext {
  spec: Spec;
  op: OperationDetail;
  base: Baseline;
  /** Fixture id for an id pattern (`^biz_...$`), used when a parent object must be built. */
  idFor: (pattern: string) => string | undefined;
  /** Real cursors: one of this list when it has a second page, one of another list. */
  cursors: { own?: string; other: string };
}

const NUL = '\u0000';
export const IMPOSSIBLE_DATES = ['2019-02-30', '2019-13-01', '0000-00-00', '0000-01-01', '2019-02-29', '2026-04-31', '2026-00-10'];
export const IMPOSSIBLE_DATE_TIMES = [
  '2026-02-30T10:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T23:59:60Z', '2026-01-01T10:00:00+24:00',
  '2026-13-01T10:00:00Z', '0000-00-00T00:00:00Z', '2026-01-01T10:60:00Z',
];

const dotted = (path: (string | number)[]) => path.map(String).join('.');

/** Sets `value` at `path` in a copy of `body`, creating missing parents as valid minimal objects / arrays. */
function withValue(ctx: AttackContext, rootSchema: Schema, body: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const root = clone(body ?? {}) as any;
  let node = root;
  let schema = rootSchema;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    const childSchema = resolveRef(ctx.spec, typeof k === 'number' ? schema.items : schema.properties?.[k]);
    if (node[k] === undefined || node[k] === null || typeof node[k] !== 'object') {
      node[k] = typeof path[i + 1] === 'number' ? [] : validValue(ctx.spec, childSchema, ctx.idFor);
      if (typeof path[i + 1] !== 'number' && (typeof node[k] !== 'object' || node[k] === null || Array.isArray(node[k]))) node[k] = {};
    }
    if (typeof path[i + 1] === 'number' && Array.isArray(node[k])) node[k] = node[k].slice(0, 1);
    node = node[k];
    schema = childSchema;
  }
  const last = path[path.length - 1];
  if (remove) delete node[last];
  else node[last] = value;
  return root;
}

interface Mut {
  cls: string;
  value: unknown;
  expect: 'reject' | 'survive';
}

function numberBoundsOk(s: Schema, n: number): boolean {
  if (!Number.isFinite(n)) return false;
  if (typeof s.minimum === 'number' && n < s.minimum) return false;
  if (typeof s.maximum === 'number' && n > s.maximum) return false;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
  return true;
}

function patternMismatch(pattern: string, valid: unknown): string | undefined {
  const re = new RegExp(pattern, 'u');
  const v = typeof valid === 'string' ? valid : '';
  const m = /^\^([a-z]+)_/.exec(pattern);
  const candidates = [m && v.startsWith(`${m[1]}_`) ? `zzz_${v.slice(m[1].length + 1)}` : undefined, v.toLowerCase(), `${v} `, 'INVALID!', 'x'];
  return candidates.find((c) => c !== undefined && !re.test(c)) ?? undefined;
}

/** Schema-derived invalid or hostile values for one field (`salt` varies the choice of lone surrogate between fields). */
export function fieldMutations(spec: Spec, schema: Schema, valid: unknown, idFor: AttackContext['idFor'], salt = 0): Mut[] {
  const s = resolveRef(spec, schema);
  const t = typesOf(s);
  const out: Mut[] = [];
  const tname = mainType(t);
  const numeric = allows(t, 'number') || allows(t, 'integer');
  const intOnly = t !== null && t.has('integer') && !t.has('number');
  const enumVals: unknown[] | undefined = Array.isArray(s.enum) ? s.enum : undefined;
  const inEnum = (v: unknown) => !enumVals || enumVals.includes(v);

  // Wrong JSON types.
  if (t !== null) {
    if (!numeric) out.push({ cls: `type: number for ${tname}`, value: 42, expect: 'reject' });
    if (!allows(t, 'string')) {
      const str = numeric ? String(typeof valid === 'number' ? valid : 75000) : tname === 'boolean' ? 'true' : tname === 'array' ? '[]' : tname === 'object' ? '{}' : 'x';
      out.push({ cls: `type: string for ${tname}`, value: str, expect: 'reject' });
    }
    if (!allows(t, 'boolean')) out.push({ cls: `type: boolean for ${tname}`, value: true, expect: 'reject' });
    if (!allows(t, 'null') && !(enumVals && enumVals.includes(null))) out.push({ cls: 'type: null where not nullable', value: null, expect: 'reject' });
    if (!allows(t, 'array')) out.push({ cls: `type: array for ${tname}`, value: [valid ?? 'x'], expect: 'reject' });
    if (!allows(t, 'object')) out.push({ cls: `type: object for ${tname}`, value: {}, expect: 'reject' });
  }

  // Strings.
  if (allows(t, 'string') && t !== null) {
    out.push({ cls: 'string: NUL', value: `a${NUL}b`, expect: 'reject' });
    out.push({ cls: 'string: lone surrogate', value: salt % 2 ? 'x\udc00' : '\ud800', expect: 'reject' });
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push({ cls: 'bound: minLength-1', value: 'x'.repeat(s.minLength - 1), expect: 'reject' });
    if (typeof s.maxLength === 'number') out.push({ cls: 'bound: maxLength+1', value: 'x'.repeat(s.maxLength + 1), expect: 'reject' });
    if (enumVals) {
      out.push({ cls: 'enum: outsider', value: 'zzz_not_in_enum', expect: 'reject' });
      const first = enumVals.find((v) => typeof v === 'string') as string | undefined;
      if (first && first.toUpperCase() !== first && !inEnum(first.toUpperCase())) out.push({ cls: 'enum: case variant', value: first.toUpperCase(), expect: 'reject' });
    }
    if (s.pattern) {
      const bad = patternMismatch(s.pattern, valid ?? idFor(s.pattern));
      if (bad !== undefined) out.push({ cls: /^\^[a-z]+_/.test(s.pattern) ? 'id: malformed' : 'pattern: mismatch', value: bad, expect: 'reject' });
    }
    if (s.format === 'date') {
      for (const d of IMPOSSIBLE_DATES) out.push({ cls: 'date: impossible calendar date', value: d, expect: 'reject' });
      out.push({ cls: 'date: date-time for date', value: VALID_DATE_TIME, expect: 'reject' });
    }
    if (s.format === 'date-time') {
      for (const d of IMPOSSIBLE_DATE_TIMES) out.push({ cls: 'date-time: impossible', value: d, expect: 'reject' });
      out.push({ cls: 'date-time: date for date-time', value: VALID_DATE, expect: 'reject' });
    }
    if (s.format === 'email') out.push({ cls: 'format: bad email', value: 'not-an-email', expect: 'reject' });
    if (s.format === 'uri' || s.format === 'url') out.push({ cls: 'format: bad uri', value: 'not a uri', expect: 'reject' });
  }

  // Numbers.
  if (numeric && t !== null) {
    if (intOnly) out.push({ cls: 'integer: fraction', value: 0.1, expect: 'reject' });
    if (typeof s.minimum === 'number') out.push({ cls: 'bound: minimum-1', value: s.minimum - 1, expect: 'reject' });
    if (typeof s.maximum === 'number') out.push({ cls: 'bound: maximum+1', value: s.maximum + 1, expect: 'reject' });
    if (typeof s.exclusiveMinimum === 'number') out.push({ cls: 'bound: exclusiveMinimum', value: s.exclusiveMinimum, expect: 'reject' });
    if (typeof s.exclusiveMaximum === 'number') out.push({ cls: 'bound: exclusiveMaximum', value: s.exclusiveMaximum, expect: 'reject' });
    for (const n of [1e300, -1e300]) {
      out.push({ cls: 'number: huge (1e300)', value: n, expect: numberBoundsOk(s, n) && inEnum(n) ? 'survive' : 'reject' });
    }
    out.push({ cls: 'number: non-finite (1e309)', value: new RawJson('1e309'), expect: 'reject' });
    out.push({ cls: 'number: non-finite (1e309)', value: new RawJson('-1e309'), expect: 'reject' });
    out.push({ cls: 'number: -0', value: new RawJson('-0'), expect: numberBoundsOk(s, 0) && inEnum(0) ? 'survive' : 'reject' });
    out.push({ cls: 'number: 2^53+1', value: new RawJson('9007199254740993'), expect: numberBoundsOk(s, 2 ** 53) && inEnum(2 ** 53) ? 'survive' : 'reject' });
  }

  // Arrays.
  if (t?.has('array')) {
    const item = validValue(spec, s.items ?? {}, idFor);
    const items = (n: number) => Array.from({ length: n }, (_, i) => (s.uniqueItems && typeof item === 'string' && !s.items?.pattern && !resolveRef(spec, s.items ?? {}).enum && !resolveRef(spec, s.items ?? {}).format ? `${item}${i}` : item));
    if (typeof s.maxItems === 'number') out.push({ cls: 'bound: maxItems+1', value: items(s.maxItems + 1), expect: 'reject' });
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push({ cls: 'bound: minItems-1', value: items(s.minItems - 1), expect: 'reject' });
    if (s.uniqueItems) out.push({ cls: 'bound: duplicate items', value: [item, item], expect: 'reject' });
  }
  return out;
}

interface FieldRef {
  path: (string | number)[];
  schema: Schema;
  valid: unknown;
}

/** Every field of a body schema (nested objects, array items), with a valid value for each. */
export function bodyFields(spec: Spec, schema: Schema, baseline: unknown, idFor: AttackContext['idFor'], path: (string | number)[] = [], depth = 0): FieldRef[] {
  const s = resolveRef(spec, schema);
  const out: FieldRef[] = [];
  if (depth > 4) return out;
  for (const [k, raw] of Object.entries<Schema>(s.properties ?? {})) {
    const ps = resolveRef(spec, raw);
    if (ps.readOnly) continue;
    const p = [...path, k];
    const base = getIn(baseline, [k]);
    const valid = base !== undefined && base !== null ? base : validValue(spec, ps, idFor);
    out.push({ path: p, schema: ps, valid });
    const t = typesOf(ps);
    if (t?.has('object') && ps.properties) out.push(...bodyFields(spec, ps, valid, idFor, p, depth + 1));
    if (t?.has('array') && ps.items) {
      const is = resolveRef(spec, ps.items);
      const itemValid = Array.isArray(valid) && valid.length ? valid[0] : validValue(spec, is, idFor);
      out.push({ path: [...p, 0], schema: is, valid: itemValid });
      if (typesOf(is)?.has('object') && is.properties) out.push(...bodyFields(spec, is, itemValid, idFor, [...p, 0], depth + 1));
    }
  }
  return out;
}

/** Objects in the body schema (the root included) that take keys: closed ones refuse unknown keys. */
function bodyObjects(spec: Spec, schema: Schema, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: Schema }[] {
  const s = resolveRef(spec, schema);
  const out: { path: (string | number)[]; schema: Schema }[] = [];
  if (depth > 4) return out;
  if (typesOf(s)?.has('object')) out.push({ path, schema: s });
  for (const [k, raw] of Object.entries<Schema>(s.properties ?? {})) {
    const ps = resolveRef(spec, raw);
    if (typesOf(ps)?.has('object')) out.push(...bodyObjects(spec, ps, [...path, k], depth + 1));
    if (typesOf(ps)?.has('array') && ps.items && typesOf(resolveRef(spec, ps.items))?.has('object')) out.push(...bodyObjects(spec, ps.items, [...path, k, 0], depth + 1));
  }
  return out;
}

const deepText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
const deepArrayText = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
function wideText(keys: number): string {
  const parts: string[] = [];
  for (let i = 0; i < keys; i++) parts.push(`"k${i}":${i}`);
  return `{${parts.join(',')}}`;
}
/** Nested object of exactly `levels` levels (the object itself is level 1). */
function nested(levels: number): Record<string, unknown> {
  let o: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) o = { a: o };
  return o;
}

/** Attacks on a free-form object field (custom_data, form_data): depth, width, size, hostile keys and values. */
function freeFormMutations(s: Schema): Mut[] {
  const out: Mut[] = [];
  const maxDepth = typeof s['x-max-depth'] === 'number' ? s['x-max-depth'] : undefined;
  const maxBytes = typeof s['x-max-bytes'] === 'number' ? s['x-max-bytes'] : undefined;
  const maxItems = typeof s['x-max-items'] === 'number' ? s['x-max-items'] : undefined;
  const keyMax = s.propertyNames?.maxLength;
  out.push({ cls: 'object: deep (5000 levels)', value: new RawJson(deepText(5000), '<object nested 5000 levels>'), expect: 'reject' });
  out.push({ cls: 'object: deep (5000 levels)', value: new RawJson(`{"a":${deepArrayText(5000)}}`, '<array nested 5000 levels>'), expect: 'reject' });
  out.push({ cls: 'object: wide (20000 keys)', value: new RawJson(wideText(20000), '<object with 20000 keys>'), expect: 'reject' });
  if (maxDepth) out.push({ cls: 'object: depth x-max-depth+1', value: nested(maxDepth + 1), expect: 'reject' });
  if (typeof s.maxProperties === 'number') out.push({ cls: 'object: maxProperties+1', value: Object.fromEntries(Array.from({ length: s.maxProperties + 1 }, (_, i) => [`k${i}`, i])), expect: 'reject' });
  if (maxItems) out.push({ cls: 'object: array over x-max-items', value: { list: Array.from({ length: maxItems + 1 }, (_, i) => i) }, expect: 'reject' });
  if (maxBytes) out.push({ cls: 'object: over x-max-bytes', value: { blob: 'x'.repeat(maxBytes + 1) }, expect: 'reject' });
  if (typeof keyMax === 'number') out.push({ cls: 'object: key over maxLength', value: { ['k'.repeat(keyMax + 1)]: 1 }, expect: 'reject' });
  if (s.propertyNames?.minLength) out.push({ cls: 'object: empty key', value: { '': 1 }, expect: 'reject' });
  out.push({ cls: 'key: NUL', value: { [`a${NUL}b`]: 1 }, expect: 'reject' });
  out.push({ cls: 'key: lone surrogate', value: { '\ud800': 1 }, expect: 'reject' });
  out.push({ cls: 'key: lone surrogate', value: { ok: { 'x\udc00': 1 } }, expect: 'reject' });
  out.push({ cls: 'string: NUL (nested value)', value: { note: `a${NUL}b` }, expect: 'reject' });
  out.push({ cls: 'string: lone surrogate (nested value)', value: { list: ['ok', '\ud800'] }, expect: 'reject' });
  out.push({ cls: 'number: non-finite (nested value)', value: { n: new RawJson('1e309') }, expect: 'reject' });
  out.push({ cls: 'object: prototype keys', value: new RawJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}', '<__proto__ / constructor keys>'), expect: 'survive' });
  return out;
}

const BODY_LONG = 200;
function avoidFor(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value.length > BODY_LONG) return [value.slice(0, BODY_LONG)];
  return undefined;
}

/** The deterministic catalogue for one operation. */
export function catalogue(ctx: AttackContext): Attack[] {
  const { spec, op, base } = ctx;
  const out: Attack[] = [];
  const b0 = baseReq(base);
  const withBody = (body: unknown): Req => ({ ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json' }, body: jsonBytes(body) });

  // ---- body fields
  if (op.body && base.body !== undefined) {
    const root = op.body.schema;
    for (const [i, f] of bodyFields(spec, root, base.body, ctx.idFor).entries()) {
      const target = dotted(f.path);
      for (const m of fieldMutations(spec, f.schema, f.valid, ctx.idFor, i)) {
        const body = withValue(ctx, root, base.body, f.path, m.value);
        out.push({ cls: m.cls, where: 'body', target, expect: m.expect, param: target, avoid: avoidFor(m.value), req: withBody(body) });
      }
      if (isFreeForm(f.schema)) {
        for (const m of freeFormMutations(f.schema)) {
          const body = withValue(ctx, root, base.body, f.path, m.value);
          out.push({ cls: m.cls, where: 'body', target, expect: m.expect, param: target, req: withBody(body) });
        }
      }
    }
    // Required fields missing; unknown keys; hostile keys in closed objects; empty objects with minProperties.
    for (const o of bodyObjects(spec, root)) {
      const prefix = o.path.length ? `${dotted(o.path)}.` : '';
      const present = o.path.length === 0 || getIn(base.body, o.path) !== undefined;
      if (present) {
        for (const k of o.schema.required ?? []) {
          const body = withValue(ctx, root, base.body, [...o.path, k], undefined, true);
          out.push({ cls: 'required: missing', where: 'body', target: `${prefix}${k}`, expect: 'reject', param: `${prefix}${k}`, req: withBody(body) });
        }
      }
      if (o.schema.additionalProperties === false) {
        const container = getIn(base.body, o.path) ?? validValue(spec, o.schema, ctx.idFor);
        const add = (extra: Record<string, unknown>) => (o.path.length ? withValue(ctx, root, base.body, o.path, { ...(container as object), ...extra }) : { ...(base.body as object), ...extra });
        out.push({ cls: 'unknown field', where: 'body', target: `${prefix}zz_unknown_field`, expect: 'reject', param: `${prefix}zz_unknown_field`, req: withBody(add({ zz_unknown_field: 1 })) });
        out.push({ cls: 'key: NUL', where: 'body', target: `${prefix}<key>`, expect: 'reject', req: withBody(add({ [`a${NUL}b`]: 1 })) });
        out.push({ cls: 'key: lone surrogate', where: 'body', target: `${prefix}<key>`, expect: 'reject', req: withBody(add({ '\ud800': 1 })) });
        if (o.schema.minProperties && o.path.length) {
          out.push({ cls: 'bound: minProperties', where: 'body', target: dotted(o.path), expect: 'reject', param: dotted(o.path), req: withBody(withValue(ctx, root, base.body, o.path, {})) });
        }
      }
    }
    // A string with bytes that are not UTF-8.
    const firstString = bodyFields(spec, root, base.body, ctx.idFor).find((f) => typeof getIn(base.body, f.path) === 'string' && f.path.length === 1);
    if (firstString) {
      const bad = withValue(ctx, root, base.body, firstString.path, new RawBytes(Buffer.from([0x22, 0x61, 0xff, 0xfe, 0x62, 0x22]), '"a\\xff\\xfeb"'));
      out.push({ cls: 'string: invalid UTF-8 bytes', where: 'body', target: dotted(firstString.path), expect: 'reject', req: withBody(bad) });
      const cesu = withValue(ctx, root, base.body, firstString.path, new RawBytes(Buffer.from([0x22, 0x61, 0xed, 0xa0, 0x80, 0x22]), '"a\\xed\\xa0\\x80" (UTF-8 encoded surrogate)'));
      out.push({ cls: 'string: invalid UTF-8 bytes', where: 'body', target: dotted(firstString.path), expect: 'reject', req: withBody(cesu) });
    }
  }

  // ---- whole-request attacks on the body
  if (op.body) {
    const valid = base.body ?? {};
    const json = (text: string | Buffer, extra: Record<string, string> = {}): Req => ({
      ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json', ...extra }, body: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
    });
    const gz = gzipSync(jsonBytes(valid));
    const corrupt = Buffer.from(gz);
    for (let i = 10; i < corrupt.length - 8; i += 3) corrupt[i] ^= 0x5a;
    out.push({ cls: 'request: corrupt gzip body', where: 'request', target: '(body)', expect: 'reject', req: json(corrupt, { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: corrupt gzip body', where: 'request', target: '(body)', expect: 'reject', req: json(gz.subarray(0, Math.max(12, gz.length >> 1)), { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: gzip bomb', where: 'request', target: '(body)', expect: 'reject', req: json(gzipBomb(), { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: unsupported Content-Encoding', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes(valid), { 'Content-Encoding': 'compress' }) });
    out.push({ cls: 'request: body is a JSON array', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes([valid])) });
    out.push({ cls: 'request: body is a JSON string', where: 'request', target: '(body)', expect: 'reject', req: json('"x"') });
    out.push({ cls: 'request: body is a JSON number', where: 'request', target: '(body)', expect: 'reject', req: json('42') });
    out.push({ cls: 'request: body is JSON null', where: 'request', target: '(body)', expect: 'reject', req: json('null') });
    out.push({ cls: 'request: truncated JSON', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes(valid).subarray(0, Math.max(1, jsonBytes(valid).length - 1))) });
    out.push({ cls: 'request: text/plain body', where: 'request', target: '(body)', expect: 'reject', req: { ...json(jsonBytes(valid)), headers: { ...b0.headers, 'Content-Type': 'text/plain' } } });
    const empty: Req = { ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json', 'Content-Length': '0' }, body: undefined };
    out.push({ cls: 'request: empty body', where: 'request', target: '(body)', expect: op.body.required ? 'reject' : 'survive', req: empty });
    const firstKey = valid && typeof valid === 'object' ? Object.keys(valid)[0] : undefined;
    if (firstKey !== undefined) {
      // The same key twice, the first time hostile: JSON.parse keeps the last (valid) one.
      const dup = Buffer.concat([Buffer.from(`{${JSON.stringify(firstKey)}:"a\\u0000b",`), jsonBytes(valid).subarray(1)]);
      out.push({ cls: 'request: duplicate keys', where: 'request', target: '(body)', expect: 'survive', req: json(dup) });
    }
  }

  // ---- query parameters
  for (const p of op.params.filter((x) => x.in === 'query')) {
    for (const q of queryMutations(p, ctx)) out.push({ cls: q.cls, where: 'query', target: p.name, expect: q.expect, param: p.name, semantic: q.semantic, req: { ...b0, query: q.query } });
  }
  if (op.params.some((x) => x.in === 'query') || op.method === 'get') {
    out.push({ cls: 'query: unknown parameter', where: 'query', target: 'zz_unknown', expect: 'reject', param: 'zz_unknown', req: { ...b0, query: 'zz_unknown=1' } });
  }

  // ---- path parameters
  for (const p of op.params.filter((x) => x.in === 'path')) {
    for (const m of pathMutations(p, base.pathParams[p.name])) {
      out.push({ cls: m.cls, where: 'path', target: p.name, expect: 'reject', param: p.name, allow404: true, req: { ...b0, path: renderPath(base.template, base.pathParams, { [p.name]: m.encoded }) } });
    }
  }

  // ---- headers
  for (const p of op.params.filter((x) => x.in === 'header')) {
    const s = p.schema;
    const vals: { cls: string; v: string }[] = [];
    if (typeof s.maxLength === 'number') vals.push({ cls: 'header: maxLength+1', v: 'k'.repeat(s.maxLength + 1) });
    if (s.pattern) {
      const re = new RegExp(s.pattern, 'u');
      for (const v of ['a b', 'caf\u00e9']) if (!re.test(v)) vals.push({ cls: 'header: pattern mismatch', v });
    }
    for (const { cls, v } of vals) out.push({ cls, where: 'header', target: p.name, expect: 'reject', param: p.name, req: { ...b0, headers: { ...b0.headers, [p.name]: v } } });
  }

  // ---- Accept (content negotiation): an Accept the operation cannot answer is 406 naming Accept,
  // before anything runs; each media type it declares (JSON, a list's text/csv, the export's NDJSON) is served.
  if (!op.rawBody && op.produces.length) {
    // None of these allows a media type any operation answers (q=2 is no quality value: ignored).
    const refused = ['application/xml', '*/*;q=0', 'text/csv;q=0, application/json;q=0, application/x-ndjson;q=0', `${'x'.repeat(3000)}/y`, 'text/html, image/*', 'application/json;q=2'];
    for (const v of refused) {
      const cls = v.length > 100 ? 'header: Accept very long and unanswerable' : `header: Accept ${v}`;
      out.push({ cls, where: 'header', target: 'Accept', expect: 'reject', param: 'Accept', avoid: v.length > 100 ? [v] : undefined, req: { ...b0, headers: { ...b0.headers, Accept: v } } });
    }
    if (!op.produces.includes('text/csv')) {
      out.push({ cls: 'header: Accept text/csv where not offered', where: 'header', target: 'Accept', expect: 'reject', param: 'Accept', req: { ...b0, headers: { ...b0.headers, Accept: 'text/csv' } } });
    }
    if (op.method === 'get') {
      for (const m of op.produces) out.push({ cls: `header: Accept ${m} (offered)`, where: 'header', target: 'Accept', expect: 'survive', req: { ...b0, headers: { ...b0.headers, Accept: m } } });
    }
  }
  return out;
}

let bomb: Buffer | undefined;
/** 20 MB of JSON whitespace around `{}`, gzipped to a few KB. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.concat([Buffer.from('{'), Buffer.alloc(20 * 1024 * 1024, 0x20), Buffer.from('}')]), { level: 9 });
  return bomb;
}

/** Percent-encodes every byte of the string's UTF-8 except unreserved characters. */
export function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

interface QueryMut {
  cls: string;
  expect: 'reject' | 'survive';
  query: string;
  semantic?: boolean;
}

function queryMutations(p: ParamInfo, ctx: AttackContext): QueryMut[] {
  const s = p.schema;
  const t = typesOf(s);
  const n = encodeURIComponent(p.name);
  const out: QueryMut[] = [];
  const one = (cls: string, raw: string, expect: 'reject' | 'survive' = 'reject') => out.push({ cls, expect, query: `${n}=${raw}`, semantic: cls.startsWith('cursor:') });
  if (t?.has('integer') || t?.has('number')) {
    const canonical = (v: string) => /^-?(0|[1-9][0-9]*)$/.test(v) && numberBoundsOk(s, Number(v)) && (!t.has('integer') || Number.isSafeInteger(Number(v)));
    const vals = ['1e309', 'Infinity', '-Infinity', 'NaN', '-1', '0', '2.5', 'abc', ''];
    if (typeof s.maximum === 'number') vals.push(String(s.maximum + 1));
    if (typeof s.minimum === 'number') vals.push(String(s.minimum - 1));
    vals.push('9007199254740993');
    for (const v of [...new Set(vals)]) one(`query: ${p.name}=${v === '' ? '(empty)' : v}`, encodeURIComponent(v), canonical(v) ? 'survive' : 'reject');
    out.push({ cls: `query: ${p.name} repeated`, expect: 'reject', query: `${n}=1&${n}=2` });
    out.push({ cls: `query: ${p.name} as object`, expect: 'reject', query: `${n}%5Ba%5D=1` });
  } else if (t?.has('boolean')) {
    for (const v of ['maybe', '1', 'TRUE', '']) one(`query: boolean ${v === '' ? '(empty)' : v}`, v);
    out.push({ cls: 'query: boolean repeated', expect: 'reject', query: `${n}=true&${n}=false` });
  } else {
    const enumVals: unknown[] | undefined = s.enum;
    const isCursor = p.name === 'cursor';
    if (enumVals) one('query: enum outsider', 'zzz_not_in_enum');
    if (s.pattern) {
      const bad = patternMismatch(s.pattern, p.example ?? ctx.idFor(s.pattern));
      if (bad !== undefined) one('query: pattern mismatch', pct(bad));
    }
    if (s.format === 'email') one('query: bad email', 'not-an-email');
    if (typeof s.maxLength === 'number') one('query: maxLength+1', 'x'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0) one('query: empty string', '');
    one('query: NUL', '%00');
    one('query: NUL', 'a%00b');
    one('query: lone surrogate (UTF-8 encoded)', 'a%ED%A0%80');
    one('query: invalid UTF-8', 'a%FF%FE');
    one('query: malformed percent-encoding', 'a%E0%A4%A');
    out.push({ cls: `query: ${isCursor ? 'cursor' : 'string'} repeated`, expect: 'reject', query: `${n}=a&${n}=b` });
    out.push({ cls: `query: ${isCursor ? 'cursor' : 'string'} as object`, expect: 'reject', query: `${n}%5B%24ne%5D=x` });
    if (isCursor) {
      one('cursor: random base64', pct(Buffer.from('{"l":"businesses","t":"2026-01-01T00:00:00.000Z","i":"biz_x"}').toString('base64url')));
      one('cursor: random base64', pct(`${Buffer.from('hello world').toString('base64url')}.${'0'.repeat(32)}`));
      one('cursor: random base64', 'a.b.c');
      const sig = (c: string) => {
        const i = c.lastIndexOf('.');
        const last = c[c.length - 1] === '0' ? '1' : '0';
        return i > 0 ? `${c.slice(0, -1)}${last}` : `${c}x`;
      };
      one('cursor: altered signature', pct(sig(ctx.cursors.own ?? ctx.cursors.other)));
      if (ctx.cursors.own) {
        // Payload altered, signature kept.
        const [payload, signature] = ctx.cursors.own.split('.');
        const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...body, i: `${String(body.i)}0` })).toString('base64url');
        one('cursor: altered payload', pct(`${forged}.${signature}`));
      }
      one('cursor: of another list', pct(ctx.cursors.other));
    }
  }
  return out;
}

interface PathMut {
  cls: string;
  encoded: string;
}
function pathMutations(p: ParamInfo, valid: string): PathMut[] {
  const m = /^\^([a-z]+)_/.exec(p.schema.pattern ?? '');
  const prefix = m ? `${m[1]}_` : '';
  const rest = prefix && valid.startsWith(prefix) ? valid.slice(prefix.length) : valid;
  const out: PathMut[] = [];
  if (prefix) out.push({ cls: 'path: wrong prefix', encoded: pct(`zzz_${rest}`) });
  out.push({ cls: 'path: NUL', encoded: '%00' });
  out.push({ cls: 'path: NUL', encoded: `${pct(valid.slice(0, 5))}%00${pct(valid.slice(5))}` });
  out.push({ cls: 'path: dot segment', encoded: '..' });
  out.push({ cls: 'path: very long', encoded: pct(`${prefix}${'A'.repeat(5000)}`) });
  out.push({ cls: 'path: unicode', encoded: pct(`${prefix}\u00c5\u00c9\u00ce${rest.slice(3)}`) });
  out.push({ cls: 'path: unicode', encoded: pct(`${prefix}\u{1F600}${rest.slice(2)}`) });
  out.push({ cls: 'path: lone surrogate (UTF-8 encoded)', encoded: `${pct(prefix)}%ED%A0%80${pct(rest.slice(1))}` });
  out.push({ cls: 'path: malformed percent-encoding', encoded: `${pct(valid)}%zz` });
  out.push({ cls: 'path: malformed percent-encoding', encoded: `${pct(prefix)}%E0%A4%A` });
  out.push({ cls: 'path: lower case', encoded: pct(valid.toLowerCase()) });
  out.push({ cls: 'path: trailing space', encoded: `${pct(valid)}%20` });
  out.push({ cls: 'path: SQL-ish', encoded: pct(`${valid}' OR '1'='1`) });
  const re = p.schema.pattern ? new RegExp(p.schema.pattern, 'u') : undefined;
  const stillValid = (encoded: string) => {
    try {
      return re ? re.test(decodeURIComponent(encoded)) : false;
    } catch {
      return false; // not decodable: certainly not valid
    }
  };
  return out.filter((x) => x.encoded !== pct(valid) && !stillValid(x.encoded));
}

// ------------------------------------------------------------------------------------ fast-check

const hostileChar = fc.constantFrom(NUL, '\ud800', '\udbff', '\udc00', '\udfff');
/** Printable text with at least one NUL or lone surrogate somewhere. */
export const hostileString = fc
  .tuple(fc.string({ maxLength: 12 }), hostileChar, fc.string({ maxLength: 12 }))
  .map(([a, h, b]) => `${a}${h}${b}`);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
/** `YYYY-MM-DD` strings that name no calendar day. */
export const impossibleDate = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })), fc.integer({ min: 1, max: 28 })),
  fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 99 })).filter(([y, m, d]) => d === 0 || d > daysIn(y, m)),
  fc.tuple(fc.constant(0), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })),
).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
/** RFC 3339 shaped date-times with an impossible date, hour, minute, second or offset. */
export const impossibleDateTime = fc.oneof(
  fc.tuple(impossibleDate, fc.constant('10:00:00Z')).map(([d, t]) => `${d}T${t}`),
  fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `2026-06-15T${pad(h, 2)}:${pad(m, 2)}:00Z`),
  fc.integer({ min: 60, max: 99 }).map((m) => `2026-06-15T10:${pad(m, 2)}:00Z`),
  fc.integer({ min: 60, max: 99 }).map((s) => `2026-06-15T10:00:${pad(s, 2)}Z`),
  fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 24, max: 99 })).map(([sg, h]) => `2026-06-15T10:00:00${sg}${pad(h, 2)}:00`),
);

/** A random invalid value for one field, or undefined when fast-check has nothing for its schema. */
function randomFieldValue(spec: Spec, s: Schema): fc.Arbitrary<Mut> | undefined {
  const t = typesOf(s);
  if (!t) return undefined;
  const arbs: fc.Arbitrary<Mut>[] = [];
  if (t.has('string')) {
    arbs.push(hostileString.map((v) => ({ cls: /\u0000/.test(v) ? 'string: NUL' : 'string: lone surrogate', value: v, expect: 'reject' as const })));
    if (s.format === 'date') arbs.push(impossibleDate.map((v) => ({ cls: 'date: impossible calendar date', value: v, expect: 'reject' as const })));
    if (s.format === 'date-time') arbs.push(impossibleDateTime.map((v) => ({ cls: 'date-time: impossible', value: v, expect: 'reject' as const })));
    if (Array.isArray(s.enum)) arbs.push(fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !s.enum.includes(v)).map((v) => ({ cls: 'enum: outsider', value: v, expect: 'reject' as const })));
    if (typeof s.maxLength === 'number') arbs.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 64 }).map((n) => ({ cls: 'bound: maxLength+1', value: 'y'.repeat(n), expect: 'reject' as const })));
  }
  if (t.has('number') || t.has('integer')) {
    const intOnly = t.has('integer') && !t.has('number');
    if (typeof s.maximum === 'number') arbs.push(fc.double({ min: s.maximum + 1, max: 1e300, noNaN: true, noDefaultInfinity: true }).map((v) => ({ cls: 'bound: maximum+1', value: intOnly ? Math.floor(v) : v, expect: 'reject' as const })));
    const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
    if (lo !== undefined) arbs.push(fc.double({ min: -1e300, max: lo - 1, noNaN: true, noDefaultInfinity: true }).map((v) => ({ cls: 'bound: minimum-1', value: intOnly ? Math.ceil(v) : v, expect: 'reject' as const })));
    const min = typeof s.minimum === 'number' ? s.minimum : -1e6;
    const max = typeof s.maximum === 'number' ? s.maximum : 1e6;
    if (intOnly && max - min >= 1) {
      arbs.push(fc.double({ min, max, noNaN: true, noDefaultInfinity: true, noInteger: true }).map((v) => ({ cls: 'integer: fraction', value: v, expect: 'reject' as const })));
    }
    arbs.push(fc.constantFrom('1e309', '-1e309', '1E400', '-9e999').map((v) => ({ cls: 'number: non-finite (1e309)', value: new RawJson(v), expect: 'reject' as const })));
  }
  if (t.has('boolean')) arbs.push(fc.constantFrom<unknown>('true', 'false', 1, 0, 'yes').map((v) => ({ cls: `type: ${typeof v} for boolean`, value: v, expect: 'reject' as const })));
  if (t.has('object') && isFreeForm(s)) {
    arbs.push(fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }).map((v) => ({ cls: Object.keys(v).some((k) => k.includes(NUL)) ? 'key: NUL' : 'key: lone surrogate', value: v, expect: 'reject' as const })));
    const maxDepth = typeof s['x-max-depth'] === 'number' ? s['x-max-depth'] : 64;
    arbs.push(fc.integer({ min: maxDepth + 1, max: maxDepth + 200 }).map((d) => ({ cls: 'object: deep', value: new RawJson(deepText(d), `<object nested ${d} levels>`), expect: 'reject' as const })));
  }
  if (!t.has('null')) arbs.push(fc.constant({ cls: 'type: null where not nullable', value: null, expect: 'reject' as const }));
  return arbs.length ? fc.oneof(...arbs) : undefined;
}

/** fast-check arbitrary of random attacks on one operation (fields, query, path, cursor). */
export function randomAttacks(ctx: AttackContext): fc.Arbitrary<Attack> | undefined {
  const { spec, op, base } = ctx;
  const b0 = baseReq(base);
  const arbs: fc.Arbitrary<Attack>[] = [];
  if (op.body && base.body !== undefined) {
    const root = op.body.schema;
    for (const f of bodyFields(spec, root, base.body, ctx.idFor)) {
      const arb = randomFieldValue(spec, f.schema);
      if (!arb) continue;
      const target = dotted(f.path);
      arbs.push(
        arb.map((m) => ({
          cls: m.cls, where: 'body' as const, target, expect: m.expect, param: target, random: true, avoid: avoidFor(m.value),
          req: { ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json' }, body: jsonBytes(withValue(ctx, root, base.body, f.path, m.value)) },
        })),
      );
    }
  }
  for (const p of op.params.filter((x) => x.in === 'query')) {
    const t = typesOf(p.schema);
    const arb: fc.Arbitrary<{ cls: string; raw: string }> =
      t?.has('integer') || t?.has('number')
        ? fc.oneof(
            fc.integer({ min: (p.schema.maximum ?? 1e6) + 1, max: Number.MAX_SAFE_INTEGER }).map((v) => ({ cls: `query: ${p.name} above maximum`, raw: String(v) })),
            fc.integer({ min: Number.MIN_SAFE_INTEGER, max: (p.schema.minimum ?? -1e6) - 1 }).map((v) => ({ cls: `query: ${p.name} below minimum`, raw: String(v) })),
            fc.double({ min: p.schema.minimum ?? 0, max: p.schema.maximum ?? 1e6, noNaN: true, noInteger: true }).map((v) => ({ cls: `query: ${p.name} fraction`, raw: String(v) })),
          )
        : t?.has('boolean')
          ? fc.string({ minLength: 1, maxLength: 8 }).filter((v) => v !== 'true' && v !== 'false').map((v) => ({ cls: 'query: boolean garbage', raw: pct(v) }))
          : p.name === 'cursor'
            ? fc.oneof(
                fc.base64String({ minLength: 4, maxLength: 120 }).map((v) => ({ cls: 'cursor: random base64', raw: pct(v) })),
                fc.tuple(fc.base64String({ minLength: 4, maxLength: 80 }), fc.stringMatching(/^[0-9a-f]{32}$/)).map(([a, b]) => ({ cls: 'cursor: random base64', raw: pct(`${a.replace(/=+$/, '')}.${b}`) })),
              )
            : fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom('%00', '%ED%A0%80', '%ED%B0%80', '%FF', '%C0%80'), fc.string({ maxLength: 10 })).map(([a, h, b]) => ({
                cls: h === '%00' ? 'query: NUL' : h.startsWith('%ED') ? 'query: lone surrogate (UTF-8 encoded)' : 'query: invalid UTF-8', raw: `${pct(a)}${h}${pct(b)}`,
              }));
    arbs.push(arb.map(({ cls, raw }) => ({ cls, where: 'query' as const, target: p.name, expect: 'reject' as const, param: p.name, random: true, semantic: cls.startsWith('cursor:'), req: { ...b0, query: `${encodeURIComponent(p.name)}=${raw}` } })));
  }
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const re = p.schema.pattern ? new RegExp(p.schema.pattern, 'u') : undefined;
    arbs.push(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })
        .filter((v) => (re ? !re.test(v) : false) && v !== '.' && !/[/\\?#]/.test(v))
        .map((v) => ({ cls: 'path: random garbage', where: 'path' as const, target: p.name, expect: 'reject' as const, param: p.name, allow404: true, random: true, req: { ...b0, path: renderPath(base.template, base.pathParams, { [p.name]: pct(v) }) } })),
    );
  }
  return arbs.length ? fc.oneof(...arbs) : undefined;
}

/** FNV-1a, to give each operation its own stable seed derived from the run's seed. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// ------------------------------------------------------------------------------------ verdicts

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  text: string;
  json?: any;
}

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Every string (keys included) of a parsed JSON value. */
function stringsIn(v: unknown, acc: string[] = []): string[] {
  if (typeof v === 'string') acc.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, acc));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) acc.push(k), stringsIn(x, acc);
  return acc;
}

/** What is wrong with the answer to an attack (empty: fine). */
export function judge(a: Attack, res: Res, opts: { pending: boolean; errorTypes: string[] }): string[] {
  const problems: string[] = [];
  const s = res.status;
  const err = res.json && typeof res.json === 'object' ? res.json.error : undefined;
  if (s === 501 && opts.pending && err?.code === 'not_implemented') {
    if (a.expect === 'reject' && !a.semantic) problems.push('501 not_implemented for invalid input (validation must answer 400 first)');
    return problems;
  }
  if (s >= 500) problems.push(`${s}${err?.code ? ` ${err.code}` : ''}`);
  else if (s >= 200 && s < 300) {
    if (a.expect === 'reject') problems.push(`${s} accepted`);
    return problems;
  } else if (s < 400) {
    problems.push(`unexpected status ${s}`);
    return problems;
  }
  // An error: the envelope, the param, no echo of hostile bytes.
  const env = res.json;
  const keys = env && typeof env === 'object' && !Array.isArray(env) ? Object.keys(env) : [];
  if (!err || typeof err !== 'object' || keys.length !== 1) problems.push(`no error envelope: ${res.text.slice(0, 120)}`);
  else {
    const extra = Object.keys(err).filter((k) => !['type', 'message', 'code', 'param', 'request_id'].includes(k));
    if (!opts.errorTypes.includes(err.type)) problems.push(`envelope: type ${JSON.stringify(err.type)} not in the contract's enum`);
    if (typeof err.message !== 'string' || !err.message) problems.push('envelope: message missing');
    if (typeof err.request_id !== 'string' || !err.request_id) problems.push('envelope: request_id missing');
    if (err.code !== undefined && typeof err.code !== 'string') problems.push('envelope: code not a string');
    if (err.param !== undefined && typeof err.param !== 'string') problems.push('envelope: param not a string');
    if (extra.length) problems.push(`envelope: unexpected keys ${extra.join(',')}`);
    if (s < 500 && a.expect === 'reject' && a.param !== undefined && !(a.allow404 && s === 404)) {
      const p = err.param;
      const ok = typeof p === 'string' && (p === a.param || p.startsWith(`${a.param}.`) || a.param.startsWith(`${p}.`) && /^\d+$/.test(a.param.slice(p.length + 1).split('.')[0]));
      if (!ok && s !== 400 && s !== 413 && s !== 415) problems.push(`${s} ${err.code ?? err.type}: the invalid value passed validation (expected 400 naming ${a.param})`);
      else if (!ok) problems.push(p === undefined ? `param missing (expected ${a.param})` : `param ${JSON.stringify(p)} (expected ${a.param})`);
    }
  }
  if (res.raw.includes(0)) problems.push('echo: raw NUL byte in the response');
  const strings = res.json !== undefined ? stringsIn(res.json) : [res.text];
  if (strings.some((x) => x.includes(NUL))) problems.push('echo: NUL in the response');
  if (strings.some((x) => LONE_SURROGATE.test(x))) problems.push('echo: lone surrogate in the response');
  if (strings.some((x) => x.includes('\ufffd'))) problems.push('echo: U+FFFD (a mangled hostile value) in the response');
  for (const v of a.avoid ?? []) if (res.text.includes(v)) problems.push('echo: the long hostile value is echoed');
  return problems;
}

export function describeReq(r: Req): string {
  const q = r.query ? `?${r.query}` : '';
  const path = `${r.path}${q}`;
  const shownPath = path.length > 200 ? `${path.slice(0, 200)}...(${path.length} chars)` : path;
  const hdrs = Object.entries(r.headers)
    .filter(([k]) => !['authorization', 'x-request-id', 'content-type'].includes(k.toLowerCase()) || (k.toLowerCase() === 'content-type' && r.headers[k] !== 'application/json'))
    .map(([k, v]) => ` -H '${k}: ${v.length > 60 ? `${v.slice(0, 60)}...(${v.length})` : v}'`)
    .join('');
  return `${r.method.toUpperCase()} ${shownPath}${hdrs}${r.body !== undefined ? ` body=${describeBody(r.body)}` : ''}`;
}
