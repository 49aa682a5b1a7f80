import { createRequire } from 'node:module';

/**
 * express-openapi-validator's per-request work for an operation that takes only scalar query and
 * path parameters (every list and get): before its compiled ajv check it builds a parameter mutator
 * and runs it (re-reading every parameter's definition, parsing the raw query string, trying the
 * bracket, JSON, array and exploded-object forms), then looks for unknown and empty query
 * parameters. For such an operation all of that is a no-op on a request whose raw query string is
 * plain `name=value` pairs of unreserved characters and percent-escapes, each name one of the
 * operation's parameters, each value one non-empty string: nothing is mutated, nothing is refused.
 * Such a request goes straight to the validator's own compiled validators (the very functions its
 * middleware calls, read back from its ajv by the middleware's cache key), on copies of the query
 * and path parameters; when they pass, their coercions and defaults are copied onto the request, as
 * the validator would have left it. Every other request (any doubt, and every invalid one) is
 * handed to the validator's own middleware untouched, so every 400 is the validator's own: the same
 * envelope, the same messages, all errors. Operations with a body, header or cookie parameters,
 * content-typed, array or object parameters, or query-string security are never on this path.
 */
const require = createRequire(import.meta.url);
type Parameter = { in?: string; name?: string; content?: unknown; $ref?: string; schema?: unknown };
type Schema = { type?: unknown; $ref?: unknown; allOf?: unknown; oneOf?: unknown; anyOf?: unknown };
type Mw = (req: FastReq, res: unknown, next: (err?: unknown) => void) => unknown;
type AjvFn = ((data: unknown) => boolean) & { errors?: unknown };
interface FastReq {
  originalUrl: string;
  query: Record<string, unknown>;
  params?: Record<string, unknown>;
  headers: unknown;
  body?: unknown;
  cookies?: Record<string, unknown>;
  signedCookies?: Record<string, unknown>;
  openapi: { expressRoute: string; pathParams: Record<string, unknown> };
}
interface ValidatorThis {
  apiDoc: { security?: unknown[]; components?: { securitySchemes?: Record<string, { type?: string; in?: string }> } };
  ajv: { getSchema(key: string): AjvFn | undefined };
  ajvBody: { getSchema(key: string): AjvFn | undefined };
  requestOpts: { allowUnknownQueryParameters?: boolean };
}
type Build = (this: ValidatorThis, path: string, reqSchema: Record<string, unknown>, contentType: unknown, key: string) => Mw;

const lib = require('express-openapi-validator/dist/middlewares/openapi.request.validator') as {
  RequestValidator: { prototype: { buildMiddleware: Build } };
  __fastParameters?: boolean;
};
const util = require('express-openapi-validator/dist/middlewares/parsers/util') as {
  dereferenceParameter(apiDoc: unknown, p: Parameter): Parameter;
  normalizeParameter(ajv: unknown, p: Parameter): { name: string; schema: Schema | undefined };
};

const SCALAR = new Set(['string', 'integer', 'number', 'boolean']);
/** The raw query string the fast path takes: `name=value` pairs, unreserved characters and %-escapes only. */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~%]+=[A-Za-z0-9\-._~%]+(?:&[A-Za-z0-9\-._~%]+=[A-Za-z0-9\-._~%]+)*$/;

/** Counts of requests taken by each path, for tests (and a profile). */
export const fastPathStats = { fast: 0, full: 0 };
/** Tests only: off sends every request through the validator's own middleware (the reference). */
export const fastPath = { enabled: true };

/**
 * The query parameter names of an operation whose validation the fast path can take, or undefined
 * when it cannot. Reads each parameter as the validator's mutator does (its own functions).
 */
export function fastPlan(self: ValidatorThis, path: string, reqSchema: Record<string, unknown>): Set<string> | undefined {
  if (reqSchema.requestBody != null || path.endsWith('*')) return undefined;
  if (self.requestOpts.allowUnknownQueryParameters || reqSchema['x-eov-allow-unknown-query-parameters'] !== undefined || reqSchema['x-allow-unknown-query-parameters'] !== undefined) return undefined;
  // An API key in the query string would be whitelisted by the validator: not taken here.
  const security = (reqSchema.security ?? self.apiDoc.security ?? []) as Record<string, unknown>[];
  const schemes = self.apiDoc.components?.securitySchemes ?? {};
  if (security.some((s) => Object.keys(s).some((k) => schemes[k]?.type === 'apiKey' && schemes[k]?.in === 'query'))) return undefined;
  const names = new Set<string>();
  for (const raw of (reqSchema.parameters ?? []) as Parameter[]) {
    const p = util.dereferenceParameter(self.apiDoc, raw);
    if (!p || p.content !== undefined || (p.in !== 'query' && p.in !== 'path')) return undefined;
    const { name, schema } = util.normalizeParameter(self.ajv, p);
    if (!schema || schema.$ref !== undefined || schema.allOf || schema.oneOf || schema.anyOf) return undefined;
    if (typeof schema.type !== 'string' || !SCALAR.has(schema.type)) return undefined;
    if (p.in === 'query') {
      // allowReserved only lifts a check the plain raw query string passes anyway.
      if (name.includes('[')) return undefined;
      names.add(name);
    }
  }
  return names;
}

/** The request is one the validator's mutator and unknown/empty checks would leave exactly as it is. */
function plainRequest(req: FastReq, query: unknown, names: Set<string>): query is Record<string, string> {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  if (q >= 0 && q < url.length - 1 && !PLAIN_QUERY.test(url.slice(q + 1))) return false;
  if (query === null || typeof query !== 'object' || Object.getPrototypeOf(query) !== Object.prototype) return false;
  for (const k in query) {
    if (!Object.hasOwn(query, k) || !names.has(k)) return false;
    const v = (query as Record<string, unknown>)[k];
    if (typeof v !== 'string' || v === '') return false;
  }
  return true;
}

if (!lib.__fastParameters) {
  const proto = lib.RequestValidator.prototype;
  const build = proto.buildMiddleware;
  proto.buildMiddleware = function (this: ValidatorThis, path, reqSchema, contentType, key) {
    const full = build.call(this, path, reqSchema, contentType, key);
    const names = fastPlan(this, path, reqSchema);
    const general = names && this.ajv.getSchema(key);
    const body = names && this.ajvBody.getSchema(key);
    if (!names || !general || !body) return full;
    return (req, res, next) => {
      // Read once: Express 5 parses the query string again at every read of `req.query`.
      const own = Object.getOwnPropertyDescriptor(req, 'query');
      const query = req.query;
      if (!fastPath.enabled || !plainRequest(req, query, names)) {
        fastPathStats.full++;
        return full(req, res, next);
      }
      const pathParams = req.openapi.pathParams;
      const hasPathParams = Object.keys(pathParams).length > 0;
      const params = hasPathParams ? pathParams : req.params;
      const data = {
        query: { ...query },
        headers: req.headers,
        params: params === undefined ? undefined : { ...params },
        cookies: req.cookies ? { ...req.cookies, ...req.signedCookies } : undefined,
        body: req.body,
      };
      const valid = general(data);
      const validBody = body(data);
      if (!(valid && validBody)) {
        fastPathStats.full++;
        return full(req, res, next);
      }
      fastPathStats.fast++;
      // What the validator leaves on a valid request: its coercions and defaults, on the same objects.
      if (hasPathParams) req.params = pathParams;
      if (params !== undefined) Object.assign(params, data.params);
      Object.assign(query, data.query);
      if (!own) Object.defineProperty(req, 'query', { writable: true, value: query });
      next();
    };
  };
  lib.__fastParameters = true;
}
