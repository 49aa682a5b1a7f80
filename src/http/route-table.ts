import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from './errors';

/**
 * The /v1 operations, keyed by method and path template: one walk down a tree of path segments
 * (literal segments before a template's parameter, as `/v1/lenders/api-specs` before
 * `/v1/lenders/{id}`) instead of Express trying ~85 route patterns in turn and the contract's
 * validator trying its ~46 path patterns in turn again. Matching is what both did before: case-
 * insensitive literal segments, at most one trailing slash, a parameter is one non-empty segment
 * (percent-escapes decoded; safeInput has already refused malformed ones).
 */
interface Node<T> {
  literal: Map<string, Node<T>>;
  /** Any one non-empty segment (templates name it differently: `{id}`, `{dealId}`). */
  param?: Node<T>;
  /** Operations ending here, by upper-case method, in the order added, with their parameters' names. */
  ops?: Map<string, { value: T; names: string[] }>;
}

export type RouteMatch<T> = { value: T; params: Record<string, string> } | { allow: string[] } | undefined;

const newNode = <T>(): Node<T> => ({ literal: new Map() });

export class RouteTable<T> {
  private readonly root: Node<T> = newNode();

  /** `template` is an OpenAPI path: `/v1/deals/{id}`. */
  add(method: string, template: string, value: T): void {
    let node = this.root;
    const names: string[] = [];
    for (const part of template.split('/').slice(1)) {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (param) {
        names.push(param[1]);
        node = node.param ??= newNode();
      } else {
        const key = part.toLowerCase();
        let next = node.literal.get(key);
        if (!next) node.literal.set(key, (next = newNode()));
        node = next;
      }
    }
    node.ops ??= new Map();
    const m = method.toUpperCase();
    if (node.ops.has(m)) throw new Error(`${m} ${template} added twice`);
    node.ops.set(m, { value, names });
  }

  /**
   * The operation for `method` on `path` (no query string) and its decoded path parameters; or, when
   * the path names a resource the method is not allowed on, the methods that are (`405`, `Allow`).
   */
  find(method: string, path: string): RouteMatch<T> {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    if (trimmed[0] !== '/') return undefined;
    const segments = trimmed.split('/');
    const m = method.toUpperCase();
    const found: string[] = [];
    let firstLeaf: Node<T> | undefined;
    // Depth first, literal before parameter: the first leaf holding `method` wins; the first leaf
    // at all answers 405.
    const walk = (node: Node<T>, i: number): Node<T> | undefined => {
      if (i === segments.length) {
        if (!node.ops) return undefined;
        firstLeaf ??= node;
        return node.ops.has(m) ? node : undefined;
      }
      const segment = segments[i];
      const lit = node.literal.get(segment.toLowerCase());
      if (lit) {
        const leaf = walk(lit, i + 1);
        if (leaf) return leaf;
      }
      if (node.param && segment !== '') {
        found.push(segment);
        const leaf = walk(node.param, i + 1);
        if (leaf) return leaf;
        found.pop();
      }
      return undefined;
    };
    const leaf = walk(this.root, 1);
    if (!leaf) return firstLeaf ? { allow: [...firstLeaf.ops!.keys()] } : undefined;
    const { value, names } = leaf.ops!.get(m)!;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = found[i].includes('%') ? decodeURIComponent(found[i]) : found[i]));
    return { value, params };
  }
}

/**
 * Runs Express handlers in turn, as a route would: `next()` moves on, `next(err)` or a throw or a
 * rejected promise ends the chain with that error at `done` (the error middleware).
 */
export function chain(handlers: RequestHandler[]): (req: Request, res: Response, done: (err?: unknown) => void) => void {
  return (req, res, done) => {
    let i = 0;
    let finished = false;
    const next = (err?: unknown): void => {
      if (finished) return;
      if (err !== undefined && err !== null && err !== false) {
        finished = true;
        done(err);
        return;
      }
      const fn = handlers[i++];
      if (!fn) {
        finished = true;
        done();
        return;
      }
      try {
        const r = fn(req, res, next) as unknown;
        if (r && typeof (r as Promise<unknown>).then === 'function') {
          (r as Promise<unknown>).then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
        }
      } catch (e) {
        next(e);
      }
    };
    next();
  };
}

/** 405 in the envelope, with the methods the resource allows. */
export function methodNotAllowed(req: Request, allow: string[]): ApiError {
  return new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}`, undefined, { Allow: allow.join(', ') });
}

/**
 * The request's Content-Type reduced to what the contract's validator needs to know, before it sees
 * the request. express-openapi-validator compiles a validator (tens of ms of CPU) and keeps it for
 * ever for every distinct Content-Type string it meets (`application/json; x=1`, `x=2`, ...): left
 * as sent, the header is a way to make the server compile without end and grow without bound. Every
 * request reaching it has either no body or a JSON one (jsonOnly refused the rest, and the JSON
 * parser has read it by its charset), so:
 * - an operation that takes no body: the header is dropped (the validator has nothing to check
 *   against it, and ignored it already);
 * - an operation that takes a JSON body: `application/json` in any spelling becomes exactly
 *   `application/json`; another media type (possible only without a body) is the 415 the validator
 *   would have answered, answered here; no header stays absent (the validator's own 415 or pass).
 * At most two keys per operation: the validator's cache is bounded by the contract.
 */
export function contentTypeForValidator(req: Request, takesJsonBody: boolean): void {
  const header = req.headers['content-type'];
  if (header === undefined) return;
  if (!takesJsonBody) {
    delete req.headers['content-type'];
    return;
  }
  if (header.split(';', 1)[0].trim().toLowerCase() !== 'application/json') {
    throw new ApiError('unsupported_media_type', 'Send the body as application/json');
  }
  req.headers['content-type'] = 'application/json';
}
