import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ApiError, invalid } from './errors';
import type { JsonLimit, OperationInfo } from './spec';

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
  // JSON has no Infinity: 1e400 parses to it, and would be stored as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return invalid(`${path || 'The body'} must be a finite number`, path || undefined);
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

/** body-parser `verify`: remember whether the raw bytes were UTF-8 (the decoder would replace bad bytes with U+FFFD). */
export function markInvalidUtf8(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  if (!isUtf8(buf)) (req as IncomingMessage & { invalidUtf8?: boolean }).invalidUtf8 = true;
}

/** The first string in a value holding U+FFFD (where undecodable bytes landed), for `param`. */
function replacedAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\uFFFD') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = (typeof k === 'string' && k.includes('\uFFFD') ? path : undefined) ?? replacedAt(v, join(path, k));
    if (found !== undefined) return found;
  }
  return undefined;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * Part of body parsing: bodies that are not UTF-8; strings with NUL or unpaired surrogates, and
 * non-finite numbers, anywhere in the body (values and keys) or the query; query and path text with
 * a malformed %-escape or escaping bytes that are not UTF-8; and bodies nested absurdly deep are
 * refused before anything else reads them. (A lenient decoder would hand the rest of the pipeline
 * `a%E0%A4%A` or U+FFFD instead of what the client meant.)
 */
export function safeInput(operations: OperationInfo[]): RequestHandler {
  const templates = operations.map((op) => op.path.split('/'));
  /** The path parameter at segment `index` of a URL path, from the contract's templates. */
  const paramAt = (segments: string[], index: number): string | undefined => {
    for (const t of templates) {
      if (t.length !== segments.length) continue;
      if (t.every((part, i) => part.startsWith('{') || i === index || part === segments[i])) {
        const m = /^\{(.+)\}$/.exec(t[index]);
        if (m) return m[1];
      }
    }
    return undefined;
  };

  return (req, _res, next) => {
    const [rawPath, rawQuery = ''] = req.originalUrl.split(/\?(.*)/s, 2);
    const segments = rawPath.split('/');
    segments.forEach((segment, i) => {
      if (!decodes(segment)) throw new ApiError('invalid_request', 'The request URL has a malformed %-escape, or escapes bytes that are not UTF-8', paramAt(segments, i));
    });
    for (const pair of rawQuery ? rawQuery.split('&') : []) {
      const [key, value = ''] = pair.split(/=(.*)/s, 2);
      if (!decodes(key) || !decodes(value)) {
        const name = decodes(key) ? decodeURIComponent(key.replace(/\+/g, ' ')) : undefined;
        throw new ApiError('invalid_request', `${name ?? 'A query parameter'} has a malformed %-escape, or escapes bytes that are not UTF-8`, name?.replace(/\[.*$/, ''));
      }
    }
    if ((req as typeof req & { invalidUtf8?: boolean }).invalidUtf8) {
      throw invalid('The request body is not valid UTF-8', replacedAt(req.body, '') || undefined);
    }
    if (req.body !== undefined) {
      const bad = findBadText(req.body, '', 0);
      if (bad) throw bad;
    }
    // Express 5 parses the query string again at every read of `req.query` (the validator reads it
    // too): parsed once here and kept on the request, the object every later stage reads and the
    // validator coerces in place.
    const query = req.query;
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    for (const [name, value] of Object.entries(query ?? {})) {
      const bad = findBadText(value, name, 1);
      if (bad) throw new ApiError('invalid_request', bad.message, name);
      // No parameter of the contract is an object: `type[$ne]=x` is refused here, not passed on.
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        throw new ApiError('invalid_request', `${name} must be a plain value: the bracket form ${name}[...]= is not accepted`, name);
      }
    }
    next();
  };
}

/** A route whose operation requires a body refuses a request without one (the validator lets an empty one through). */
export function bodyRequired(op: Pick<OperationInfo, 'bodyRequired'>): RequestHandler {
  return (req, _res, next) => {
    const sent = Number(req.get('Content-Length') ?? 0) > 0 || req.get('Transfer-Encoding') !== undefined;
    if (op.bodyRequired && (!sent || req.body === undefined || req.body === null)) throw invalid('This operation needs a JSON request body');
    next();
  };
}

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
