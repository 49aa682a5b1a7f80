import type { components } from '../../../generated/schema';
import type { PortalContext } from '../../features/portal/portal.actions';
import { html, type Safe } from '../html';
import { BUSINESS_FIELDS, OWNER_FIELDS, type Field } from './fields';

type Offer = components['schemas']['Offer'];
type Document = components['schemas']['Document'];

const CATEGORIES: Array<[string, string]> = [
  ['bank_statement', 'Bank statement'], ['voided_check', 'Voided check'], ['id', 'Photo ID'], ['application', 'Signed application'],
  ['tax_return', 'Tax return'], ['contract', 'Contract'], ['other', 'Other'],
];
const CATEGORY_LABEL = Object.fromEntries(CATEGORIES);
const money = (n: number | null | undefined) => (n === null || n === undefined ? '' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

export function layout(title: string, body: Safe, o: { csrf?: string; heading?: string } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${o.csrf ? html`<meta name="csrf-token" content="${o.csrf}">` : ''}
<title>${title}</title>
<link rel="stylesheet" href="/portal/assets/portal.css">
</head>
<body>
<header><h1>${o.heading ?? title}</h1></header>
<main>
${body}
</main>
<script src="/portal/assets/portal.js"></script>
</body>
</html>
`.value;
}

/** A page for a link that cannot be used, or any other refusal: a sentence, never a stack trace. */
export function messagePage(title: string, sentence: string): string {
  return layout(title, html`<section><h2>${title}</h2><p>${sentence}</p></section>`, { heading: 'Merchant portal' });
}

function documentsSection(ctx: PortalContext, docs: Document[], csrf: string): Safe {
  const req = ctx.request;
  return html`
<section>
  <h2>Documents requested</h2>
  ${req?.message ? html`<p>${req.message}</p>` : ''}
  ${req ? html`<ul id="requested-items">${(typeof req.items === 'string' ? (JSON.parse(req.items) as string[]) : req.items).map((i) => html`<li>${CATEGORY_LABEL[i] ?? i}</li>`)}</ul>` : ''}
  ${req?.status === 'fulfilled' ? html`<p class="ok" id="fulfilled">Thank you: your documents were submitted.</p>` : ''}
</section>
<section>
  <h2>Upload a file</h2>
  <form id="upload-form">
    <label for="category">What is it?</label>
    <select id="category" name="category">${CATEGORIES.map(([v, l]) => html`<option value="${v}">${l}</option>`)}</select>
    <label for="file">File (PDF or photo, up to 25 MB)</label>
    <input id="file" name="file" type="file" accept="application/pdf,image/png,image/jpeg,image/heic,image/tiff">
    <button type="submit">Upload</button>
    <div id="upload-status" class="status" role="status"></div>
  </form>
</section>
<section>
  <h2>Your uploads</h2>
  ${docs.length
    ? html`<table id="uploads"><tr><th>File</th><th>Type</th><th>Status</th></tr>${docs.map((d) => html`<tr><td>${d.filename}</td><td>${CATEGORY_LABEL[d.category] ?? d.category}</td><td>received</td></tr>`)}</table>`
    : html`<p class="muted">Nothing uploaded yet.</p>`}
  ${req && req.status === 'open' && docs.length
    ? html`<form method="post" action="/portal/submit"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" id="submit-documents">I have uploaded everything</button></form>`
    : ''}
</section>`;
}

function offersSection(ctx: PortalContext, offers: Offer[], csrf: string): Safe {
  if (!offers.length) return html`<section><h2>Your offers</h2><p class="muted">No offers yet. We will email you when one arrives.</p></section>`;
  return html`
<section>
  <h2>Your offers</h2>
  ${offers.map((o) => {
    const chosen = ctx.deal.primary_offer_id === o.id && o.status === 'accepted';
    return html`<div class="offer${chosen ? ' chosen' : ''}" data-offer-id="${o.id}">
      <strong>${o.lender_name}</strong>
      <table>
        <tr><td>Amount</td><td>${money(o.amount)}</td></tr>
        <tr><td>Factor rate</td><td>${o.factor_rate ?? ''}</td></tr>
        <tr><td>Total payback</td><td>${money(o.payback_amount)}</td></tr>
        <tr><td>Term</td><td>${o.term ?? ''} ${o.term_unit ?? ''}</td></tr>
        <tr><td>Payment</td><td>${money(o.payment_amount)} ${o.payment_frequency ?? ''}</td></tr>
      </table>
      ${chosen
        ? html`<p class="ok">You chose this offer. Your advisor will contact you with the next steps.</p>`
        : ctx.deal.status === 'open'
          ? html`<form method="post" action="/portal/offers/${o.id}/choose"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Choose this offer</button></form>`
          : ''}
    </div>`;
  })}
</section>`;
}

function fieldInputs(fields: Field[], prefix: string, values: Record<string, unknown>): Safe {
  return html`${fields.map((f) => html`
    <label for="${prefix}.${f.name}">${f.label}${f.required ? ' *' : ''}</label>
    <input id="${prefix}.${f.name}" name="${prefix}.${f.name}" type="${f.type ?? 'text'}" maxlength="${f.max}" autocomplete="off"
      value="${f.secret ? '' : String(values[f.name] ?? '')}"${f.hint ? html` placeholder="${f.hint}"` : ''}>`)}`;
}

function applicationSection(business: Record<string, unknown>, owner: Record<string, unknown>, csrf: string, o: { error?: string; saved?: boolean }): Safe {
  return html`
<section>
  <h2>Your application</h2>
  ${o.error ? html`<p class="error" id="form-error">${o.error}</p>` : ''}
  ${o.saved ? html`<p class="ok" id="saved">Saved. Thank you.</p>` : ''}
  <form method="post" action="/portal/application">
    <input type="hidden" name="_csrf" value="${csrf}">
    <h2>Business</h2>
    ${fieldInputs(BUSINESS_FIELDS, 'business', business)}
    <h2>Owner</h2>
    ${fieldInputs(OWNER_FIELDS, 'owner', owner)}
    <button type="submit">Save application</button>
  </form>
</section>`;
}

export function portalPage(
  ctx: PortalContext,
  csrf: string,
  parts: { docs?: Document[]; offers?: Offer[]; business?: Record<string, unknown>; owner?: Record<string, unknown>; error?: string; saved?: boolean; notice?: string },
): string {
  const intro = html`<section><p>Hi ${ctx.person.first_name}, this page is for <strong>${ctx.deal.business_name}</strong>'s funding request with ${ctx.location.name}.</p>
  <p class="muted">This link is personal. It works until ${new Date(ctx.link.expires_at).toUTCString()}.</p>
  ${parts.notice ? html`<p class="ok" id="notice">${parts.notice}</p>` : ''}</section>`;
  const body =
    ctx.link.purpose === 'documents'
      ? documentsSection(ctx, parts.docs ?? [], csrf)
      : ctx.link.purpose === 'offers'
        ? offersSection(ctx, parts.offers ?? [], csrf)
        : applicationSection(parts.business ?? {}, parts.owner ?? {}, csrf, { error: parts.error, saved: parts.saved });
  const title = { documents: 'Upload your documents', offers: 'Review your offers', application: 'Complete your application' }[ctx.link.purpose];
  return layout(title, html`${intro}${body}`, { csrf, heading: `${ctx.location.name}: ${title}` });
}
