// Body attacks: invalid or hostile values for one field at a time, and bounds on free-form objects.
import { RawJson } from './json';
import { allows, clone, getIn, mainType, resolveRef, type Schema, type Spec, typesOf, VALID_DATE, VALID_DATE_TIME, validValue } from './spec';
import { type AttackContext, IMPOSSIBLE_DATE_TIMES, IMPOSSIBLE_DATES, NUL } from './model';

/** Sets `value` at `path` in a copy of `body`, creating missing parents as valid minimal objects / arrays. */
export function withValue(ctx: AttackContext, rootSchema: Schema, body: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
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

export interface Mut {
  cls: string;
  value: unknown;
  expect: 'reject' | 'survive';
}

export function numberBoundsOk(s: Schema, n: number): boolean {
  if (!Number.isFinite(n)) return false;
  if (typeof s.minimum === 'number' && n < s.minimum) return false;
  if (typeof s.maximum === 'number' && n > s.maximum) return false;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
  return true;
}

export function patternMismatch(pattern: string, valid: unknown): string | undefined {
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
export function bodyObjects(spec: Spec, schema: Schema, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: Schema }[] {
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

export const deepText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
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
export function freeFormMutations(s: Schema): Mut[] {
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
export function avoidFor(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value.length > BODY_LONG) return [value.slice(0, BODY_LONG)];
  return undefined;
}
