import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { API_KEY_BEARER } from '../../http/auth';
import type { Role } from '../../http/spec';
import { AccountError } from '../../features/accounts/accounts.service';
import { safeEqual } from '../../lib/crypto';
import { html } from '../html';
import { APP_CSS, APP_JS } from './assets';
import { appContext, type AppContext } from './context';
import { appHeaders, appPage, messagePage } from './layout';
import { SECTIONS } from './sections';
import { appCookie, loadSession, revokeSession, sessionCookieName } from './session';
import { signInRoutes } from './sign-in.routes';

// The app (issue 28): server-rendered settings pages at /app for admins who do not use a terminal.
// In this order: API keys are refused (they work only on /v1); the stylesheet and script; form
// bodies (urlencoded, small); every non-GET must come from this origin (Origin, else Referer; a
// 403 page with no form otherwise); sign-in (./sign-in.routes.ts); the session (./session.ts: none
// or ended -> the sign-in page); every non-GET must carry the session's `_csrf`; then each section
// of ./sections.ts at /app<path>, behind its roles. Pages carry the strict CSP of src/web/html.ts.

export function appRoutes(deps: Deps): Router {
  const router = express.Router();
  const headers = appHeaders();
  const origin = new URL(deps.publicBaseUrl).origin;
  const send = (res: Response, status: number, page: string, extra: Record<string, string> = {}) =>
    res.status(status).set({ ...headers, ...extra }).type('html').send(page);
  const refused = (res: Response) =>
    send(res, 403, messagePage('This form has expired', 'Reload the page and try again.', { href: '/app', label: 'Back to the settings' }));

  router.use('/app', (req, _res, next) => {
    if (API_KEY_BEARER.test(req.get('Authorization') ?? '')) throw new ApiError('api_key_not_allowed', 'API keys are accepted only on /v1');
    next();
  });

  router.get('/app/assets/app.css', (_req, res) => {
    res.set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).type('text/css; charset=utf-8').send(APP_CSS);
  });
  router.get('/app/assets/app.js', (_req, res) => {
    res.set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).type('text/javascript; charset=utf-8').send(APP_JS);
  });

  router.use('/app', express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 }));

  // Same origin only, for anything that changes state: the Origin header, or the Referer when a
  // browser sent no Origin; a request with neither is refused too.
  router.use('/app', (req, res, next) => {
    if (req.method === 'GET') return next();
    const sent = req.get('Origin');
    const referer = req.get('Referer');
    const ok = sent !== undefined ? sent === origin : referer !== undefined && URL.canParse(referer) && new URL(referer).origin === origin;
    if (!ok) return void refused(res);
    next();
  });

  router.use(signInRoutes(deps));

  router.use('/app', async (req, res, next) => {
    const loaded = await loadSession(deps, req);
    if ('end' in loaded) {
      const clear: Record<string, string> = loaded.end === 'none' ? {} : { 'Set-Cookie': appCookie(deps.publicBaseUrl, sessionCookieName(deps.publicBaseUrl), '', 0) };
      if (req.method === 'GET') {
        res.status(303).set({ ...headers, ...clear }).location(loaded.end === 'none' ? '/app/sign-in' : `/app/sign-in?ended=${loaded.end}`).end();
      } else {
        send(res, 403, messagePage('Your session has ended', 'Sign in again to continue.', { href: '/app/sign-in', label: 'Sign in' }), clear);
      }
      return;
    }
    // The navigation: the sections this role may open (the layout reads it; it imports no section).
    const nav = SECTIONS.filter((s) => s.roles.includes(loaded.ctx.user.role)).map(({ key, label, path }) => ({ key, label, path }));
    res.locals.app = { ...loaded.ctx, nav } satisfies AppContext;
    next();
  });

  router.use('/app', (req, res, next) => {
    if (req.method === 'GET') return next();
    if (!safeEqual(String(req.body?._csrf ?? ''), appContext(res).csrf)) return void refused(res);
    next();
  });

  router.get('/app', (_req, res) => {
    const ctx = appContext(res);
    const first = SECTIONS.find((s) => s.roles.includes(ctx.user.role));
    res.redirect(303, first ? `/app${first.path}` : '/app/sign-in');
  });

  router.post('/app/sign-out', async (req, res) => {
    const ctx = appContext(res);
    await revokeSession(deps.db.knex, ctx.sessionId, deps.clock.now());
    req.log?.info({ app_session: ctx.sessionId }, 'app: signed out');
    res.status(303).set({ ...headers, 'Set-Cookie': appCookie(deps.publicBaseUrl, sessionCookieName(deps.publicBaseUrl), '', 0) }).location('/app/sign-in?ended=signed_out').end();
  });

  const onlyFor = (key: string, roles: Role[]): RequestHandler => (_req, res, next) => {
    const ctx = appContext(res);
    if (roles.includes(ctx.user.role)) return next();
    send(res, 403, appPage(ctx, { title: 'Not available to your role', active: key, body: html`<p>Your role (${ctx.user.role}) cannot open this page. Ask an admin of ${ctx.location.name}.</p>` }));
  };
  for (const section of SECTIONS) {
    router.use(`/app${section.path}`, onlyFor(section.key, section.roles), section.router(deps));
  }

  router.use('/app', (_req, res) => {
    const ctx = appContext(res);
    send(res, 404, appPage(ctx, { title: 'Page not found', active: '', body: html`<p>There is no such page. <a href="/app">Back to the settings</a>.</p>` }));
  });

  // A failure in a section: a page, never a stack trace or JSON.
  router.use('/app', (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const ctx = res.locals.app as ReturnType<typeof appContext> | undefined;
    const page = (status: number, title: string, sentence: string) =>
      send(res, status, ctx ? appPage(ctx, { title, active: '', body: html`<p>${sentence}</p><p><a href="/app">Back to the settings</a></p>` }) : messagePage(title, sentence, { href: '/app', label: 'Back to the settings' }));
    if (err instanceof AccountError) return void page(400, 'That did not work', err.message);
    if (err instanceof ApiError && err.status < 500) {
      if (err.code === 'api_key_not_allowed') return next(err);
      return void page(err.status, 'That did not work', err.message);
    }
    const status = (err as { status?: number; type?: string }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return void page(status, 'That did not work', 'The form could not be read. Reload the page and try again.');
    req.log?.error({ err: err instanceof Error ? err.message : String(err) }, 'app request failed');
    page(500, 'Something went wrong', 'Something went wrong on our side. Try again in a moment.');
  });

  return router;
}
