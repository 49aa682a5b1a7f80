import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { ApiError, typeOfStatus } from '../../http/errors';
import { take } from '../../http/rate-limit';
import { hmacHex, safeEqual } from '../../lib/crypto';
import {
  chooseOffer, finishMerchantUpload, fulfillRequest, linkOfId, linkOfToken, linkState, portalContext, portalDocuments, portalOffers,
  startMerchantUpload, touchLink, updateApplication, type PortalContext,
} from '../../features/portal/portal.actions';
import type { PortalLinkRow } from '../../features/portal/portal.repository';
import { MAX_DOCUMENT_BYTES } from '../../features/documents/documents.service';
import { pageHeaders } from '../html';
import { PORTAL_CSS, PORTAL_JS } from './assets';
import { BUSINESS_FIELDS, OWNER_FIELDS, readFields } from './fields';
import { messagePage, portalPage } from './pages';

// The merchant portal (server-rendered, no build step).
//
// GET /p/{token} is the magic link. The token is a bearer credential: only its hash is stored, and
// the link must be neither expired nor revoked. A good link starts a session (an HttpOnly cookie
// bound to the link and to its token's hash) and redirects to /portal, so the token leaves the
// address bar and browser history at once. Every /portal request loads the link again: revoking
// it or its expiry ends the session on the next request.
//
// Forms and the upload script carry a CSRF token derived from the session (HMAC), checked with a
// constant-time compare; cross-origin posts are refused by their Origin too. Opening links is
// limited per client address, portal use per link. Pages carry a strict Content-Security-Policy.

export const SESSION_COOKIE = 'svc_portal';
/** Magic-link opens per client address in any 60 seconds (a guessing attempt costs one). */
export const LINK_OPENS_PER_MINUTE = 30;
/** Portal requests per link in any 60 seconds. */
export const PORTAL_REQUESTS_PER_MINUTE = 120;
const ALLOWED_UPLOAD_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/heic', 'image/tiff']);
const CATEGORIES = new Set(['bank_statement', 'application', 'id', 'voided_check', 'tax_return', 'contract', 'other']);

class PageError extends Error {
  constructor(readonly status: number, readonly title: string, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('Cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export function portalRoutes(deps: Deps): Router {
  const router = express.Router();
  const secure = deps.publicBaseUrl.startsWith('https:');
  const origin = new URL(deps.publicBaseUrl).origin;
  const headers = pageHeaders(deps.storage.uploadOrigin ? [deps.storage.uploadOrigin] : []);
  const sessionSig = (link: PortalLinkRow) => hmacHex(deps.portalKey, `session:${link.id}:${link.token_hash}`);
  const csrfOf = (session: string) => hmacHex(deps.portalKey, `csrf:${session}`);

  const send = (res: Response, status: number, page: string, extra: Record<string, string> = {}) => {
    res.status(status).set({ ...headers, 'Content-Type': 'text/html; charset=utf-8', ...extra }).send(page);
  };

  const refusal = (state: 'expired' | 'revoked' | 'unknown', locationName?: string) => {
    const ask = locationName ? `Ask ${locationName} for a new link.` : 'Ask the person who sent it for a new link.';
    if (state === 'expired') return new PageError(410, 'This link has expired', `For your security, portal links work for a limited time. ${ask}`);
    if (state === 'revoked') return new PageError(410, 'This link is no longer active', `It was turned off. ${ask}`);
    return new PageError(404, 'This link is not valid', 'Check that you opened the whole link from your email, or ask for a new one.');
  };

  async function limit(subject: string, max: number): Promise<void> {
    const v = await take(deps.db.knex, subject, deps.clock.now().getTime(), max);
    if (!v.allowed) {
      throw new PageError(429, 'Too many requests', `Please wait ${v.retryAfter} seconds and try again.`, { 'Retry-After': String(v.retryAfter) });
    }
  }

  /** The session's link and its context, or a refusal page. */
  async function session(req: Request): Promise<{ ctx: PortalContext; csrf: string }> {
    const cookie = cookieOf(req, SESSION_COOKIE);
    const [id, sig] = (cookie ?? '').split('.');
    const link = id && sig ? await linkOfId(deps.db.knex, id) : undefined;
    if (!link || !safeEqual(sig, sessionSig(link))) {
      throw new PageError(401, 'Please open your link again', 'Your session has ended. Open the link from your email to continue.');
    }
    const state = linkState(link, deps.clock.now());
    if (state !== 'valid') throw refusal(state);
    await limit(`portal-link:${link.id}`, PORTAL_REQUESTS_PER_MINUTE);
    await touchLink(deps, link);
    return { ctx: await portalContext(deps, link), csrf: csrfOf(cookie!) };
  }

  /** State-changing requests: the session's CSRF token, and no cross-origin Origin. */
  function checkCsrf(req: Request, csrf: string): void {
    const sentOrigin = req.get('Origin');
    const token = req.get('X-CSRF-Token') ?? (typeof req.body?._csrf === 'string' ? req.body._csrf : '');
    if ((sentOrigin && sentOrigin !== 'null' && sentOrigin !== origin) || !token || !safeEqual(token, csrf)) {
      throw new PageError(403, 'This form has expired', 'Reload the page and try again.');
    }
  }

  const page = (fn: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      await fn(req, res);
    } catch (err) {
      const json = req.path.startsWith('/portal/uploads');
      if (err instanceof PageError) {
        if (json) res.status(err.status).set(err.headers).json({ error: { type: typeOfStatus(err.status), message: `${err.title}. ${err.message}`, request_id: req.requestId } });
        else send(res, err.status, messagePage(err.title, err.message), err.headers);
        return;
      }
      if (err instanceof ApiError) {
        if (json) res.status(err.status).json({ error: { type: err.type, code: err.code, message: err.message, ...(err.param ? { param: err.param } : {}), request_id: req.requestId } });
        else send(res, err.status, messagePage('That did not work', err.message));
        return;
      }
      req.log?.error({ err: err instanceof Error ? err.message : String(err) }, 'portal request failed');
      if (json) res.status(500).json({ error: { type: 'api_error', message: 'Something went wrong on our side; try again', request_id: req.requestId } });
      else send(res, 500, messagePage('Something went wrong', 'Something went wrong on our side. Please try again in a moment.'));
    }
  };

  router.use('/portal', express.json({ limit: '16kb' }), express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));

  router.get('/portal/assets/portal.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(PORTAL_JS);
  });
  router.get('/portal/assets/portal.css', (_req, res) => {
    res.set({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(PORTAL_CSS);
  });

  // Browsers ask every origin for an icon; the portal has none.
  router.get('/favicon.ico', (_req, res) => {
    res.status(204).set('Cache-Control', 'public, max-age=86400').end();
  });

  router.get('/p/:token', page(async (req, res) => {
    await limit(`portal-open:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, LINK_OPENS_PER_MINUTE);
    const token = String(req.params.token);
    const link = /^[0-9A-Za-z]{32}$/.test(token) ? await linkOfToken(deps.db.knex, token) : undefined;
    const state = linkState(link, deps.clock.now());
    if (state !== 'valid') {
      const location = link ? await deps.db.knex('locations').where({ id: link.location_id }).first('name') : undefined;
      throw refusal(state, location?.name);
    }
    await limit(`portal-link:${link!.id}`, PORTAL_REQUESTS_PER_MINUTE);
    await touchLink(deps, link!);
    const maxAge = Math.max(1, Math.floor((new Date(link!.expires_at).getTime() - deps.clock.now().getTime()) / 1000));
    const cookie = `${SESSION_COOKIE}=${link!.id}.${sessionSig(link!)}; Path=/portal; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
    res.status(303).set({ ...headers, 'Set-Cookie': cookie, Location: '/portal' }).end();
  }));

  router.get('/portal', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    const notice = req.query.done === 'chosen' ? 'Your choice was sent. Thank you.' : undefined;
    send(res, 200, await render(ctx, csrf, { saved: req.query.done === 'saved', notice }));
  }));

  async function render(ctx: PortalContext, csrf: string, extra: { error?: string; saved?: boolean; notice?: string; form?: Record<string, unknown> } = {}): Promise<string> {
    if (ctx.link.purpose === 'documents') return portalPage(ctx, csrf, { docs: await portalDocuments(deps, ctx.link), notice: extra.notice });
    if (ctx.link.purpose === 'offers') return portalPage(ctx, csrf, { offers: await portalOffers(deps, ctx.link), notice: extra.notice });
    const business = await deps.db.knex('businesses').where({ id: ctx.deal.business_id, location_id: ctx.link.location_id }).first();
    const owner = await deps.db.knex('people').where({ id: ctx.link.person_id, location_id: ctx.link.location_id }).first();
    const fromForm = (prefix: string) =>
      Object.fromEntries(Object.entries(extra.form ?? {}).filter(([k]) => k.startsWith(`${prefix}.`)).map(([k, v]) => [k.slice(prefix.length + 1), v]));
    return portalPage(ctx, csrf, {
      business: { ...business, ...fromForm('business') }, owner: { ...owner, ...fromForm('owner') }, error: extra.error, saved: extra.saved, notice: extra.notice,
    });
  }

  router.post('/portal/uploads', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    checkCsrf(req, csrf);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const bad = (param: string, message: string) => new ApiError('invalid_request', message, param);
    if (typeof b.filename !== 'string' || !b.filename.trim() || b.filename.length > 255) throw bad('filename', 'filename must be 1-255 characters');
    if (typeof b.content_type !== 'string' || !ALLOWED_UPLOAD_TYPES.has(b.content_type)) throw bad('content_type', 'Upload a PDF or a photo (PNG, JPEG, HEIC or TIFF)');
    if (!Number.isInteger(b.size_bytes) || (b.size_bytes as number) < 1 || (b.size_bytes as number) > MAX_DOCUMENT_BYTES) throw bad('size_bytes', 'The file must be between 1 byte and 25 MB');
    if (typeof b.category !== 'string' || !CATEGORIES.has(b.category)) throw bad('category', 'Choose what the document is');
    const slot = await startMerchantUpload(deps, ctx, { filename: b.filename.trim(), content_type: b.content_type as never, size_bytes: b.size_bytes as number, category: b.category as never });
    res.status(201).set({ 'Cache-Control': 'no-store' }).json({ document_id: slot.document.id, upload_url: slot.upload_url, upload_method: slot.upload_method, upload_headers: slot.upload_headers, expires_at: slot.expires_at });
  }));

  router.post('/portal/uploads/:id/finalize', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    checkCsrf(req, csrf);
    const doc = await finishMerchantUpload(deps, ctx, String(req.params.id));
    res.status(200).set({ 'Cache-Control': 'no-store' }).json({ document_id: doc.id, status: doc.status });
  }));

  router.post('/portal/submit', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    checkCsrf(req, csrf);
    await fulfillRequest(deps, ctx);
    res.redirect(303, '/portal');
  }));

  router.post('/portal/offers/:id/choose', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    checkCsrf(req, csrf);
    await chooseOffer(deps, ctx, String(req.params.id));
    res.redirect(303, '/portal?done=chosen');
  }));

  router.post('/portal/application', page(async (req, res) => {
    const { ctx, csrf } = await session(req);
    checkCsrf(req, csrf);
    if (ctx.link.purpose !== 'application') throw new PageError(403, 'Not available', 'This link does not open the application.');
    const form = (req.body ?? {}) as Record<string, unknown>;
    const business = await deps.db.knex('businesses').where({ id: ctx.deal.business_id, location_id: ctx.link.location_id }).first();
    const owner = await deps.db.knex('people').where({ id: ctx.link.person_id, location_id: ctx.link.location_id }).first();
    const b = readFields(BUSINESS_FIELDS, 'business', form, business ?? {});
    const o = readFields(OWNER_FIELDS, 'owner', form, owner ?? {});
    const problem = b.problem ?? o.problem;
    if (problem) {
      send(res, 400, await render(ctx, csrf, { error: problem.message, form }));
      return;
    }
    try {
      await updateApplication(deps, ctx, b.patch!, o.patch!);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) {
        send(res, err.status, await render(ctx, csrf, { error: err.message, form }));
        return;
      }
      throw err;
    }
    res.redirect(303, '/portal?done=saved');
  }));

  return router;
}
