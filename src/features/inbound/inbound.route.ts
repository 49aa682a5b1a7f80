import express, { type RequestHandler } from 'express';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { AUTH_FAILURE_LIMIT, RATE_LIMIT, take } from '../../http/rate-limit';
import type { Handler } from '../../http/types';
import { INBOUND_MAX_BYTES, locationOfInboundSecret, systemScope } from './inbound.service';

// POST /v1/inbound-emails: the one operation outside the JSON pipeline. An email provider's inbound
// hook (or a relay) posts the raw message; it authenticates with the location's inbound secret as
// HTTP Basic credentials. Order: credentials (before a byte of the body is read, so nobody without
// the secret can make us read 25 MB), the per-location rate limit, the media type, the body (at most
// 25 MB after any Content-Encoding is undone), then the handler.

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="svc-inbound"' };

function basicPassword(header: string): string | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : null;
}

export function inboundEmailRoute(deps: Deps, handler: Handler<'receiveInboundEmail'>): RequestHandler[] {
  const readBody = express.raw({ type: () => true, limit: INBOUND_MAX_BYTES });
  const authenticate: RequestHandler = async (req, res, next) => {
    const header = req.get('Authorization') ?? '';
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const nowMs = deps.clock.now().getTime();
    const password = basicPassword(header);
    const locationId = password ? await locationOfInboundSecret(deps.db.knex, password) : null;
    if (!locationId) {
      const failed = await take(deps.db.knex, `authfail:${address}`, nowMs, AUTH_FAILURE_LIMIT);
      if (!failed.allowed) {
        throw new ApiError('too_many_failed_authentications', `Too many failed authentications from this address; retry after ${failed.retryAfter} seconds`, undefined, { 'Retry-After': String(failed.retryAfter) });
      }
      if (!header) throw new ApiError('missing_credential', 'Send the inbound secret as HTTP Basic credentials', undefined, CHALLENGE);
      throw new ApiError('invalid_inbound_secret', 'The inbound secret is not valid', undefined, CHALLENGE);
    }
    const verdict = await take(deps.db.knex, `inbound:${locationId}`, nowMs, RATE_LIMIT);
    if (!verdict.allowed) {
      throw new ApiError('rate_limited', `Too many messages; retry after ${verdict.retryAfter} seconds`, undefined, { 'Retry-After': String(verdict.retryAfter) });
    }
    res.locals.inboundLocationId = locationId;
    next();
  };
  const mediaType: RequestHandler = (req, _res, next) => {
    if (!req.is('message/rfc822')) throw new ApiError('unsupported_media_type', 'Send the raw message with Content-Type: message/rfc822');
    next();
  };
  const body: RequestHandler = (req, res, next) => {
    readBody(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string };
      if (e.type === 'entity.too.large') return next(new ApiError('body_too_large', 'The message is larger than 25 MB'));
      if (e.type === 'encoding.unsupported') return next(new ApiError('unsupported_media_type', 'Content-Encoding must be gzip, deflate or none'));
      return next(new ApiError('invalid_email', 'The body could not be read (a corrupt Content-Encoding or an aborted upload)'));
    });
  };
  const run: RequestHandler = async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const reply = await handler({
      params: {} as never,
      query: {} as never,
      body: raw as never,
      auth: undefined as never, // no credential: the inbound secret names only a location
      scope: systemScope(res.locals.inboundLocationId as string),
      deps,
      req,
    });
    res.status(reply.status).json(reply.body);
  };
  return [authenticate, mediaType, body, run];
}
