import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { html, type Safe } from '../../html';
import { appContext, type AppContext } from '../context';
import { appHeaders, appPage, csrfField } from '../layout';
import { onceField } from './once';
import { plainError } from './words';

// What the webhook, mailbox and review pages share: page sending, forms, ids, dates, refusals.

/** Form bodies of these pages (small: a few fields). Parsed here so the pages do not depend on where /app parses. */
export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });

/** The ids the services mint (`whk_...`, `dlv_...`, `inb_...`, `sub_...`): anything else is not found. */
const ID = /^[a-z]{2,5}_[0-9A-Za-z]{10,40}$/;
export const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);

export interface PageParts {
  title: string;
  active: string;
  body: Safe;
  notice?: string;
  error?: string;
}

export function sendPage(res: Response, ctx: AppContext, parts: PageParts, status = 200): void {
  res.status(status).set(appHeaders()).type('html').send(appPage(ctx, parts));
}

/** A POST form with the session's CSRF token and a fresh idempotency key. */
export function postForm(action: string, inner: Safe | string | (Safe | string)[], ctx: AppContext, opts: { className?: string; label?: string } = {}): Safe {
  return html`<form method="post" action="${action}" class="${opts.className ?? 'inline'}"${opts.label ? html` aria-label="${opts.label}"` : ''}>${csrfField(ctx)}${onceField()}${inner}</form>`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `27 Nov 2026, 10:15 UTC` (or a dash). */
export function when(iso: string | Date | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

export const money = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`);

/**
 * Wraps a page handler: a service's refusal (ApiError) is drawn as the page again by `redraw` with
 * the refusal in plain words and its status (4xx); anything else goes to the app's error handler.
 */
export function page(handler: (req: Request, res: Response, ctx: AppContext) => Promise<void>, redraw: (req: Request, res: Response, ctx: AppContext, error: { status: number; message: string }) => Promise<void>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const ctx = appContext(res);
    try {
      await handler(req, res, ctx);
    } catch (err) {
      const plain = plainError(err);
      if (!plain) return next(err);
      try {
        await redraw(req, res, ctx, plain);
      } catch (again) {
        next(again);
      }
    }
  };
}

/** A thing that is not there (or is another location's): a plain 404 page. */
export function notFoundPage(res: Response, ctx: AppContext, active: string, what: string): void {
  sendPage(res, ctx, { title: 'Not found', active, body: html`<p>${what} was not found. It may have been removed, or it belongs to another location.</p>` }, 404);
}
