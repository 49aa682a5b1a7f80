import type { Response } from 'express';
import { html, pageHeaders, type Safe } from '../html';
import type { AppContext } from './context';

// The app's pages: one layout, server-rendered, no inline script or style (the CSP allows neither):
// the stylesheet and the one script are /app/assets/app.css and /app/assets/app.js. The navigation
// lists only the sections the user's role may open.

/**
 * The pages' headers: src/web/html.ts's strict ones, but the referrer kept for this origin
 * (`same-origin`): with `no-referrer` Chromium sends `Origin: null` with a form post, and every
 * post under /app must prove its origin. Nothing leaves for another site (and no /app URL carries a
 * secret). The meta tag in each page says the same, for a page answered with pageHeaders() alone.
 */
export function appHeaders(): Record<string, string> {
  return { ...pageHeaders(), 'Referrer-Policy': 'same-origin' };
}

const head = (title: string) => html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Settings</title>
<link rel="stylesheet" href="/app/assets/app.css">
<script src="/app/assets/app.js" defer></script>`;

/** The hidden `_csrf` field every form under /app carries (checked before any section runs). */
export function csrfField(ctx: AppContext): Safe {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;
}

/** A full page for a signed-in user: header, the navigation their role may see, a notice or error, the body. */
export function appPage(ctx: AppContext, opts: { title: string; active: string; body: Safe; notice?: string; error?: string }): string {
  return html`<!doctype html>
<html lang="en">
<head>
${head(opts.title)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <div class="bar">
    <p class="brand">Settings<span class="where">${ctx.location.name}${ctx.location.isTest ? ' (test)' : ''}</span></p>
    <form method="post" action="/app/sign-out" class="signout">${csrfField(ctx)}<span class="who">${ctx.user.name} · ${ctx.user.role}</span> <button type="submit" class="link">Sign out</button></form>
  </div>
  <nav aria-label="Settings">
    <ul>${ctx.nav.map((s) => html`<li><a href="/app${s.path}"${s.key === opts.active ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul>
  </nav>
</header>
<main id="main">
<h1>${opts.title}</h1>
${opts.notice ? html`<p class="notice" role="status" id="notice">${opts.notice}</p>` : ''}
${opts.error ? html`<p class="error" role="alert" id="error">${opts.error}</p>` : ''}
${opts.body}
</main>
</body>
</html>
`.value;
}

/** A page without a session (sign-in, refusals): no navigation, no form unless `body` has one. */
export function plainPage(title: string, body: Safe): string {
  return html`<!doctype html>
<html lang="en">
<head>
${head(title)}
</head>
<body>
<header class="top"><div class="bar"><p class="brand">Settings</p></div></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

/** A refusal or a dead end: a heading and a sentence (and at most a link), never a form. */
export function messagePage(title: string, sentence: string, link?: { href: string; label: string }): string {
  return plainPage(title, html`<p>${sentence}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`);
}

/** Answers a signed-in page with the app's headers (strict CSP, no caching). */
export function sendAppPage(res: Response, ctx: AppContext, opts: Parameters<typeof appPage>[1], status = 200): void {
  res.status(status).set(appHeaders()).type('html').send(appPage(ctx, opts));
}

/** A date for people: `27 Nov 2026, 09:30 UTC` (the server does not know the reader's zone). */
export function when(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}
