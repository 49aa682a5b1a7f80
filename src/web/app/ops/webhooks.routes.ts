import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import * as webhooks from '../../../features/webhooks/webhooks.service';
import { html, type Safe } from '../../html';
import type { AppContext } from '../context';
import { formBody, isId, notFoundPage, page, postForm, sendPage, when } from './common';
import { once, ONCE_FIELD } from './once';
import { DELIVERY_STATUS } from './words';

// Settings, Developers, Webhooks: the location's webhook subscriptions with their health (status,
// failing since, why disabled), turning a disabled one back on, its delivery history with each
// delivery's attempts and "send again", a new signing secret (shown once) and a test event. Every
// action is the /v1 operation's own service function (updateWebhook, retryWebhookDelivery,
// rotateWebhookSecret, testWebhook), with a form key for idempotency (./once.ts).

export const WEBHOOKS_PATH = '/settings/webhooks';
const BASE = `/app${WEBHOOKS_PATH}`;
const ACTIVE = 'webhooks';
const PAGE = 50;

const DONE: Record<string, string> = {
  enabled: 'The webhook is turned back on. New events will be delivered to it from now on.',
  retried: 'The delivery will be sent again in a moment.',
};

type Webhook = Awaited<ReturnType<typeof webhooks.getWebhook>>;

function statusLine(w: Webhook): Safe {
  if (w.status === 'active' && w.failing_since) {
    return html`<p class="state warn"><strong>On, but failing</strong> since ${when(w.failing_since)}. If deliveries keep failing for 3 days it will be turned off.</p>`;
  }
  if (w.status === 'active') return html`<p class="state ok"><strong>On</strong>: events are delivered.</p>`;
  return html`<p class="state bad"><strong>Off</strong>: nothing is delivered. ${w.disabled_reason ? html`Why: ${w.disabled_reason}.` : ''}</p>`;
}

function webhookCard(ctx: AppContext, w: Webhook): Safe {
  const events = w.events.length ? w.events.join(', ') : 'all events';
  return html`<article class="card" data-webhook-id="${w.id}" aria-labelledby="t-${w.id}">
  <h2 id="t-${w.id}" class="wrap">${w.description || w.url}</h2>
  ${w.description ? html`<p class="wrap muted">${w.url}</p>` : ''}
  ${statusLine(w)}
  <dl class="facts">
    <dt>Sends</dt><dd>${events}</dd>
    <dt>Last delivered</dt><dd>${when(w.last_success_at)}</dd>
    <dt>Last failure</dt><dd>${when(w.last_failure_at)}</dd>
  </dl>
  <div class="actions">
    ${w.status !== 'active' ? postForm(`${BASE}/${w.id}/enable`, html`<button type="submit" class="primary">Turn back on</button>`, ctx, { className: 'inline enable' }) : ''}
    ${postForm(`${BASE}/${w.id}/test`, html`<button type="submit">Send a test event</button>`, ctx, { className: 'inline test' })}
    ${postForm(`${BASE}/${w.id}/rotate`, html`<button type="submit">Change the signing secret</button>`, ctx, { className: 'inline rotate' })}
    <a class="button" href="${BASE}/${w.id}">Delivery history</a>
  </div>
</article>`;
}

async function listPage(deps: Deps, req: Request, res: Response, ctx: AppContext, extra: { notice?: string; error?: string; status?: number; top?: Safe } = {}) {
  const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
  const list = await webhooks.listWebhooks(deps, ctx.scope, { limit: PAGE, cursor });
  const more = list.meta.has_more && list.meta.next_cursor ? html`<p><a href="${BASE}?cursor=${list.meta.next_cursor}">Show more webhooks</a></p>` : '';
  const body = html`${extra.top ?? ''}
<p class="lead">Webhooks send a message to another system (your CRM, for example) each time something happens here, such as a deal being funded.
A webhook that keeps failing for 3 days is turned off; you can turn it back on here once the other system works again.</p>
${list.data.length ? list.data.map((w) => webhookCard(ctx, w)) : html`<p>No webhooks are set up for ${ctx.location.name}.</p>`}
${more}`;
  sendPage(res, ctx, { title: 'Webhooks', active: ACTIVE, body, notice: extra.notice, error: extra.error }, extra.status ?? 200);
}

type Delivery = Awaited<ReturnType<typeof webhooks.getWebhookDelivery>>;

function deliveryRow(ctx: AppContext, w: Webhook, d: Delivery): Safe {
  const canRetry = w.status === 'active' && (d.status === 'failed' || d.status === 'dead');
  return html`<li class="delivery" data-delivery-id="${d.id}">
  <p><strong>${d.event_type}</strong> · ${DELIVERY_STATUS[d.status] ?? d.status} · ${when(d.created_at)}</p>
  <p class="muted">Tries so far: ${d.attempts}${d.next_attempt_at ? html` · next try ${when(d.next_attempt_at)}` : ''}${d.last_response_status ? html` · the other system answered ${d.last_response_status}` : ''}</p>
  ${d.last_error ? html`<p class="muted wrap">Last problem: ${d.last_error}</p>` : ''}
  <div class="actions">
    <a class="button" href="${BASE}/${w.id}/deliveries/${d.id}">See each try</a>
    ${canRetry ? postForm(`${BASE}/${w.id}/deliveries/${d.id}/retry`, html`<button type="submit">Send again</button>`, ctx, { className: 'inline retry' }) : ''}
  </div>
</li>`;
}

async function detailPage(deps: Deps, req: Request, res: Response, ctx: AppContext, id: string, extra: { notice?: string; error?: string; status?: number } = {}) {
  const w = await webhooks.getWebhook(deps, ctx.scope, id);
  const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
  const list = await webhooks.listWebhookDeliveries(deps, ctx.scope, id, { limit: PAGE, cursor });
  const more = list.meta.has_more && list.meta.next_cursor ? html`<p><a href="${BASE}/${id}?cursor=${list.meta.next_cursor}">Show older deliveries</a></p>` : '';
  const body = html`<p><a href="${BASE}">Back to all webhooks</a></p>
${webhookCard(ctx, w)}
<section aria-labelledby="deliveries-title">
  <h2 id="deliveries-title">Delivery history</h2>
  ${w.status !== 'active' ? html`<p>Turn the webhook back on to send failed deliveries again.</p>` : ''}
  ${list.data.length ? html`<ul class="plain" id="deliveries">${list.data.map((d) => deliveryRow(ctx, w, d))}</ul>` : html`<p>Nothing was sent to this webhook yet.</p>`}
  ${more}
</section>`;
  sendPage(res, ctx, { title: `Webhook: ${w.description || w.url}`, active: ACTIVE, body, notice: extra.notice, error: extra.error }, extra.status ?? 200);
}

export function webhooksRouter(deps: Deps): Router {
  const router = express.Router();
  router.use(formBody);

  const listAgain = (req: Request, res: Response, ctx: AppContext, e: { status: number; message: string }) => listPage(deps, req, res, ctx, { error: e.message, status: e.status });
  const detailAgain = async (req: Request, res: Response, ctx: AppContext, e: { status: number; message: string }) => {
    const id = String(req.params.id);
    if (e.status === 404 || !isId(id)) return notFoundPage(res, ctx, ACTIVE, 'This webhook');
    return detailPage(deps, req, res, ctx, id, { error: e.message, status: e.status });
  };
  const idOf = (req: Request, param = 'id'): string => {
    const id = req.params[param];
    if (!isId(id)) throw notFound('webhook', '?');
    return id;
  };

  router.get('/', page(async (req, res, ctx) => {
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    await listPage(deps, req, res, ctx, { notice: done });
  }, listAgain));

  router.get('/:id', page(async (req, res, ctx) => {
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    await detailPage(deps, req, res, ctx, idOf(req), { notice: done });
  }, detailAgain));

  router.get('/:id/deliveries/:deliveryId', page(async (req, res, ctx) => {
    const id = idOf(req);
    const deliveryId = idOf(req, 'deliveryId');
    const w = await webhooks.getWebhook(deps, ctx.scope, id);
    const d = await webhooks.getWebhookDelivery(deps, ctx.scope, id, deliveryId);
    const attempts = await webhooks.listWebhookDeliveryAttempts(deps, ctx.scope, id, deliveryId, { limit: 100 });
    const body = html`<p><a href="${BASE}/${id}">Back to the delivery history</a></p>
<section aria-labelledby="d-title">
  <h2 id="d-title">${d.event_type}, ${when(d.created_at)}</h2>
  <p>${DELIVERY_STATUS[d.status] ?? d.status}. Sent to <span class="wrap">${w.url}</span>.</p>
  ${attempts.data.length
    ? html`<ol id="attempts">${attempts.data.map((a) => html`<li><p><strong>Try ${a.attempt_number}</strong>, ${when(a.attempted_at)}: ${a.response_status
      ? html`the other system answered ${a.response_status}${a.response_status >= 200 && a.response_status < 300 ? ' (received)' : ' (not accepted)'}`
      : html`no answer`}${a.duration_ms !== null ? html` after ${a.duration_ms} ms` : ''}.</p>${a.error ? html`<p class="muted wrap">${a.error}</p>` : ''}</li>`)}</ol>`
    : html`<p>No try was made yet.</p>`}
</section>`;
    sendPage(res, ctx, { title: 'Delivery', active: ACTIVE, body });
  }, detailAgain));

  router.post('/:id/enable', page(async (req, res, ctx) => {
    const id = idOf(req);
    await once(deps, ctx, req.body?.[ONCE_FIELD], `enable ${id}`, (d) => webhooks.updateWebhook(d, ctx.scope, id, { status: 'active' }));
    res.redirect(303, `${BASE}?done=enabled`);
  }, listAgain));

  router.post('/:id/deliveries/:deliveryId/retry', page(async (req, res, ctx) => {
    const id = idOf(req);
    const deliveryId = idOf(req, 'deliveryId');
    await once(deps, ctx, req.body?.[ONCE_FIELD], `retry ${id} ${deliveryId}`, (d) => webhooks.retryWebhookDelivery(d, ctx.scope, id, deliveryId));
    res.redirect(303, `${BASE}/${id}?done=retried`);
  }, detailAgain));

  router.post('/:id/rotate', page(async (req, res, ctx) => {
    const id = idOf(req);
    const { value } = await once(deps, ctx, req.body?.[ONCE_FIELD], `rotate ${id}`, (d) => webhooks.rotateWebhookSecret(d, ctx.scope, id, undefined));
    const top = html`<section class="card secret" aria-labelledby="secret-title">
  <h2 id="secret-title">New signing secret</h2>
  <p>Copy it now and give it to whoever runs the receiving system: it is shown only this once.
  ${value.previous_secret_expires_at ? html`The old secret keeps working until ${when(value.previous_secret_expires_at)}, so there is time to switch.` : ''}</p>
  <code class="secret" id="new-secret">${value.secret}</code>
  <button type="button" data-copy="new-secret" data-status="copy-status" id="copy-secret">Copy</button>
  <p role="status" aria-live="polite" id="copy-status" class="muted"></p>
</section>`;
    await listPage(deps, req, res, ctx, { top, notice: 'The signing secret was changed.' });
  }, listAgain));

  router.post('/:id/test', page(async (req, res, ctx) => {
    const id = idOf(req);
    const { value: r } = await once(deps, ctx, req.body?.[ONCE_FIELD], `test ${id}`, (d) => webhooks.testWebhook(d, ctx.scope, id), { network: true });
    if (r.status === 'succeeded') {
      await listPage(deps, req, res, ctx, { notice: `The test event arrived: the other system answered ${r.response_status} in ${r.duration_ms} ms.` });
    } else {
      const why = r.response_status ? `the other system answered ${r.response_status}` : (r.error ?? 'no answer');
      await listPage(deps, req, res, ctx, { error: `The test event did not arrive: ${why}.` });
    }
  }, listAgain));

  return router;
}
