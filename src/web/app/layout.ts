// PLACEHOLDER (app-ops): replaced by app-core's file on merge.
import { html, type Safe } from '../html';
import type { AppContext } from './context';

export function appPage(ctx: AppContext, p: { title: string; active: string; body: Safe; notice?: string; error?: string }): string {
  return html`<!doctype html><html lang="en"><head><title>${p.title}</title></head><body><main>${p.notice ? html`<p role="status">${p.notice}</p>` : ''}${p.error ? html`<p role="alert">${p.error}</p>` : ''}${p.body}</main></body></html>`.value;
}

export function csrfField(ctx: AppContext): Safe {
  return html`<input type="hidden" name="csrf" value="${ctx.csrf}">`;
}
