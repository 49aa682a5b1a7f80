import express, { type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { ApiError } from '../../http/errors';
import { html } from '../html';
import {
  changeSettings, NOTIFICATION_KINDS, readSettings, type NotificationKind, type NotificationMode, type NotificationSettings, type SettingsChange,
} from '../../features/notifications/notifications.service';
import { appContext } from './context';
import { csrfField, sendAppPage, when } from './layout';

// Your emails: which updates this person gets by email and when (right away, once a day, never), and
// for an admin whether about every deal or only their own. The same function as
// PATCH /v1/notification-settings (changeSettings), with an activity line in the same transaction.

const KIND_WORDS: Record<NotificationKind, { label: string; hint: string }> = {
  lender_answered: { label: 'A lender answers', hint: 'approved, made a counter-offer, declined, or asked for more information' },
  document_request_fulfilled: { label: 'A merchant sends the documents you asked for', hint: 'they finished a document request in the portal' },
  offer_accepted: { label: 'An offer is accepted', hint: 'the merchant chose it in the portal, or someone on your team accepted it' },
  submission_failed: { label: 'A submission could not be sent', hint: 'the lender never got it, after every retry' },
  webhook_delivery_failed: { label: 'A webhook could not be delivered', hint: 'for admins: your developers’ endpoint refused an update after every retry' },
};
const MODE_WORDS: Record<NotificationMode, string> = { immediate: 'Right away', daily_digest: 'Once a day, in one summary', off: 'Never' };
const MODES = Object.keys(MODE_WORDS) as NotificationMode[];

export function notificationsRouter(deps: Deps): Router {
  const router = express.Router();

  async function render(res: Response, opts: { notice?: string; error?: string; status?: number; settings?: NotificationSettings } = {}) {
    const ctx = appContext(res);
    const s = opts.settings ?? (await readSettings(deps.db.knex, ctx.location.id, ctx.user.id));
    const kinds = NOTIFICATION_KINDS.filter((k) => k !== 'webhook_delivery_failed' || s.role === 'admin');
    const body = html`<section aria-labelledby="emails-heading"><h2 id="emails-heading">Emails to ${s.email}</h2>
      <p>Choose which updates you get by email, and when. The emails name the business and the lender, never personal details of the merchant, and link back here.</p>
      <form method="post" action="/app/settings/notifications" id="notification-settings">${csrfField(ctx)}
        ${kinds.map((k) => html`<fieldset id="kind-${k}"><legend>${KIND_WORDS[k].label}</legend><p class="muted">${KIND_WORDS[k].hint}</p>
          ${MODES.map((m) => html`<label class="choice"><input type="radio" name="${k}" value="${m}"${s.notifications[k] === m ? html` checked` : ''}> ${MODE_WORDS[m]}</label>`)}
        </fieldset>`)}
        ${s.role === 'admin'
          ? html`<fieldset id="which-deals"><legend>Which deals</legend>
              <label class="choice"><input type="radio" name="all_deals" value="false"${s.all_deals ? '' : html` checked`}> Only deals I created</label>
              <label class="choice"><input type="radio" name="all_deals" value="true"${s.all_deals ? html` checked` : ''}> Every deal in ${ctx.location.name}</label>
            </fieldset>`
          : html`<p class="muted" id="own-deals">You get emails about the deals you created.</p>`}
        <button type="submit" id="save">Save</button>
      </form>
      ${s.updated_at ? html`<p class="muted">Last changed ${when(s.updated_at)}.</p>` : html`<p class="muted">These are the standard choices; you have not changed them.</p>`}
    </section>`;
    sendAppPage(res, ctx, { title: 'Your emails', active: 'notifications', body, notice: opts.notice, error: opts.error }, opts.status);
  }

  router.get('/', async (req, res) => {
    await render(res, { notice: req.query.done === 'saved' ? 'Saved. Your email choices are changed.' : undefined });
  });

  router.post('/', async (req, res) => {
    const ctx = appContext(res);
    const form = (req.body ?? {}) as Record<string, unknown>;
    const change: SettingsChange = {};
    const notifications: Partial<Record<NotificationKind, NotificationMode>> = {};
    for (const k of NOTIFICATION_KINDS) {
      if (form[k] === undefined) continue;
      const v = String(form[k]);
      if (!(MODES as string[]).includes(v)) return void (await render(res, { status: 400, error: `Choose right away, once a day or never for “${KIND_WORDS[k].label}”.` }));
      notifications[k] = v as NotificationMode;
    }
    if (Object.keys(notifications).length) change.notifications = notifications;
    if (form.all_deals !== undefined) {
      if (form.all_deals !== 'true' && form.all_deals !== 'false') return void (await render(res, { status: 400, error: 'Choose which deals you want emails about.' }));
      change.all_deals = form.all_deals === 'true';
    }
    if (!change.notifications && change.all_deals === undefined) return void (await render(res, { status: 400, error: 'Nothing was chosen: pick at least one option.' }));
    try {
      await deps.db.knex.transaction(async (trx) => {
        await changeSettings(trx, deps.clock, ctx.location.id, ctx.user.id, change);
        await recordActivity(trx, deps.clock, ctx.scope, {
          businessId: null, entityType: 'user', entityId: ctx.user.id, entityName: ctx.user.name, action: 'user.notifications_changed',
          description: `${ctx.user.name} changed their email choices`, data: { ...(change.notifications ? { notifications: change.notifications } : {}), ...(change.all_deals !== undefined ? { all_deals: change.all_deals } : {}) },
        });
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'role_not_allowed') return void (await render(res, { status: 403, error: 'Only an admin can get emails about every deal.' }));
      throw err;
    }
    res.redirect(303, `${req.baseUrl}?done=saved`);
  });

  return router;
}
