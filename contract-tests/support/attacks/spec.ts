// Reading the contract: $refs, an operation's parameters and body schema, and a valid value for a schema.

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
export const allows = (t: Set<string> | null, type: string) =>
  t === null || t.has(type) || (type === 'integer' && t.has('number'));
export const mainType = (t: Set<string> | null) => (t ? [...t].filter((x) => x !== 'null')[0] ?? 'null' : 'any');

/** Object keys allowed beyond `properties`? */
const isOpenObject = (s: Schema) => s.additionalProperties !== false && !s.unevaluatedProperties;
/** A free-form object (custom_data, form_data): open, without declared properties. */
export const isFreeForm = (s: Schema) => allows(typesOf(s), 'object') && typesOf(s) !== null && isOpenObject(s) && !s.properties;

export function getIn(obj: unknown, path: (string | number)[]): unknown {
  return path.reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

export const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** A date in the middle of nowhere special, valid for every `format: date`. */
export const VALID_DATE = '2026-12-15';
export const VALID_DATE_TIME = '2026-12-15T10:30:00Z';

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
