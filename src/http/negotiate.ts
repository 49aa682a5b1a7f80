import type { RequestHandler } from 'express';
import { ApiError } from './errors';
import type { OperationInfo } from './spec';

interface Range {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  header.split(',').forEach((part, order) => {
    const [range, ...params] = part.trim().split(';');
    const m = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/i.exec(range.trim());
    if (!m) return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((x) => x.trim());
      if (k.toLowerCase() === 'q') q = Number(v);
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) return;
    out.push({ type: m[1].toLowerCase(), subtype: m[2].toLowerCase(), q, order });
  });
  return out;
}

/**
 * The media type to answer with: one of `offered` (the operation's success media types, in the
 * contract's order), chosen by the request's `Accept`. No `Accept` (or an empty one): the first
 * offered. Parameters other than `q` are ignored (`text/csv; charset=utf-8` is text/csv). Undefined
 * when nothing offered is acceptable.
 */
export function negotiate(accept: string | undefined, offered: string[]): string | undefined {
  if (!accept || !accept.trim()) return offered[0];
  const ranges = parseAccept(accept);
  let best: { type: string; q: number; order: number; ours: number } | undefined;
  offered.forEach((t, ours) => {
    const [type, subtype] = t.split('/');
    // The most specific range that matches decides this type's q (RFC 9110 12.5.1).
    const match = ranges
      .filter((r) => (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype))
      .sort((a, b) => (b.type === '*' ? 0 : b.subtype === '*' ? 1 : 2) - (a.type === '*' ? 0 : a.subtype === '*' ? 1 : 2))[0];
    if (!match || match.q === 0) return;
    const cand = { type: t, q: match.q, order: match.order, ours };
    if (!best || cand.q > best.q || (cand.q === best.q && (cand.order < best.order || (cand.order === best.order && cand.ours < best.ours)))) best = cand;
  });
  return best?.type;
}

/**
 * Content negotiation of one operation, before its handler: the chosen media type is left in
 * `res.locals.mediaType`; an `Accept` the operation cannot satisfy is `406 not_acceptable` in the
 * error envelope (errors are always JSON, whatever was asked).
 */
export function contentNegotiation(op: Pick<OperationInfo, 'produces'>): RequestHandler {
  return (req, res, next) => {
    if (op.produces.length === 0) return next();
    const chosen = negotiate(req.get('Accept'), op.produces);
    if (!chosen) {
      throw new ApiError('not_acceptable', `This operation answers ${op.produces.join(' or ')}; send one of them (or */*) in Accept`, 'Accept');
    }
    res.locals.mediaType = chosen;
    next();
  };
}
