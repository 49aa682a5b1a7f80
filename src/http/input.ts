import type { RequestHandler } from 'express';
import { ApiError, invalid } from './errors';
import type { JsonLimit } from './spec';

/** Nesting allowed in any request body, whatever its schema (free-form fields are bounded lower). */
export const MAX_BODY_NESTING = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored (PostgreSQL text and jsonb refuse both), or null. */
export function badText(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (it contains an unpaired UTF-16 surrogate)';
  return null;
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** The first unstorable string (value or key) in a JSON value, with its dotted path, or null. */
function findBadText(value: unknown, path: string, depth: number): ApiError | null {
  if (typeof value === 'string') {
    const why = badText(value);
    return why ? invalid(`${path || 'The body'} ${why}`, path || undefined) : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_BODY_NESTING) return invalid(`${path || 'The body'} is nested more than ${MAX_BODY_NESTING} levels deep`, path || undefined);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findBadText(value[i], join(path, i), depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const why = badText(k);
    if (why) return invalid(`${path ? `A key in ${path}` : 'A key of the body'} ${why}`, path || undefined);
    const bad = findBadText(v, join(path, k), depth + 1);
    if (bad) return bad;
  }
  return null;
}

/**
 * Part of body parsing: strings with NUL or unpaired surrogates, anywhere in the body (values and
 * keys) or the query, and bodies nested absurdly deep are refused before anything else reads them.
 */
export const safeInput: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined) {
    const bad = findBadText(req.body, '', 0);
    if (bad) throw bad;
  }
  for (const [name, value] of Object.entries(req.query ?? {})) {
    const bad = findBadText(value, name, 1);
    if (bad) throw new ApiError('invalid_request', bad.message, name);
  }
  next();
};

/**
 * After validation: path parameters (decoded by the router) under the same rule as every other
 * string, and numbers coerced from the query finite (ajv lets `limit=1e309`, coerced to Infinity,
 * through `maximum`).
 */
export const safeParams: RequestHandler = (req, _res, next) => {
  for (const [name, value] of Object.entries(req.params ?? {})) {
    const why = typeof value === 'string' ? badText(value) : null;
    if (why) throw invalid(`${name} ${why}`, name);
  }
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (typeof value === 'number' && !Number.isFinite(value)) throw invalid(`${name} must be a finite number`, name);
  }
  next();
};

interface Shape {
  depth: number;
  widest: number;
  longest: number;
}

function shape(value: unknown, depth = 1): Shape {
  if (value === null || typeof value !== 'object') return { depth: depth - 1, widest: 0, longest: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const own: Shape = Array.isArray(value) ? { depth, widest: 0, longest: value.length } : { depth, widest: children.length, longest: 0 };
  for (const child of children) {
    const s = shape(child, depth + 1);
    own.depth = Math.max(own.depth, s.depth);
    own.widest = Math.max(own.widest, s.widest);
    own.longest = Math.max(own.longest, s.longest);
  }
  return own;
}

/**
 * The bounds openapi.yaml writes on client-supplied JSON objects (`x-max-depth`, `x-max-bytes`,
 * `x-max-items`, `maxProperties` applied at every level), which JSON Schema alone cannot express.
 */
export function jsonLimits(limits: JsonLimit[]): RequestHandler {
  return (req, _res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    for (const limit of limits) {
      const value = body?.[limit.field];
      if (value === null || typeof value !== 'object') continue;
      const s = shape(value);
      if (limit.maxDepth !== undefined && s.depth > limit.maxDepth) throw invalid(`${limit.field} is nested ${s.depth} levels deep; at most ${limit.maxDepth} are allowed`, limit.field);
      if (limit.maxProperties !== undefined && s.widest > limit.maxProperties) throw invalid(`${limit.field} has an object with ${s.widest} keys; at most ${limit.maxProperties} are allowed`, limit.field);
      if (limit.maxItems !== undefined && s.longest > limit.maxItems) throw invalid(`${limit.field} has an array with ${s.longest} items; at most ${limit.maxItems} are allowed`, limit.field);
      if (limit.maxBytes !== undefined) {
        const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
        if (bytes > limit.maxBytes) throw invalid(`${limit.field} is ${bytes} bytes as JSON; at most ${limit.maxBytes} are allowed`, limit.field);
      }
    }
    next();
  };
}
