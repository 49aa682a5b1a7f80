import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../../deps';
import { rotateInboundSecret } from '../../../features/inbound/inbound.service';
import { checkMailboxConnection, MailSendError } from '../../../mail/mail.sender';
import { loadMailboxForSending, MailboxError, parseFromAddress, parseSmtpUrl, setMailbox, showMailbox, SMTP_DEFAULT_PORT, type MailboxView } from '../../../mail/mailbox';
import { html, type Safe } from '../../html';
import type { AppContext } from '../context';
import { csrfField } from '../layout';
import { formBody, page, postForm, sendPage, when } from './common';
import { once, ONCE_FIELD } from './once';
import { mailTestFailure } from './words';

// Settings, Mailbox: the SMTP server the location's mail leaves through (src/mail/mailbox.ts
// setMailbox, the same function as the CLI: the same URL rules and the same outbound address
// policy), a connection test that dials it exactly as a send would (mail.sender.ts
// checkMailboxConnection) and sends nothing, and the inbound side: where lender replies arrive and
// the inbound password (rotateInboundSecret, the /v1 operation's service, shown once).
// The SMTP password is never shown again, not even as the form's value: a blank password field
// keeps the saved one only while server, port, security and user name stay the same.

export const MAILBOX_PATH = '/settings/mailbox';
const BASE = `/app${MAILBOX_PATH}`;
const ACTIVE = 'mailbox';
const DONE: Record<string, string> = { saved: 'The mail server settings were saved. Use "Test the connection" to check them.' };

interface Fields {
  host: string;
  port: string;
  security: 'tls' | 'starttls';
  user: string;
  from_name: string;
  from_address: string;
}

/** A host name or an IP address, nothing else (no scheme, user, path or spaces). */
const HOST = /^(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]+$|^\[?[0-9A-Fa-f:.]+\]?$/;

const str = (v: unknown, max = 500): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');

function fieldsOf(view: MailboxView | null): Fields {
  if (!view) return { host: '', port: '465', security: 'tls', user: '', from_name: '', from_address: '' };
  const t = parseSmtpUrl(view.smtp_url, { stored: true });
  let from = { name: null as string | null, address: '' };
  try {
    from = parseFromAddress(view.from);
  } catch {
    // shown empty: the person enters it again
  }
  return { host: t.host, port: String(t.port), security: t.protocol === 'smtps:' ? 'tls' : 'starttls', user: t.user ?? '', from_name: from.name ?? '', from_address: from.address };
}

/** The CLI's sentences name its flags; here the fields. */
const plainMailboxError = (message: string) =>
  message.replace(/^--smtp-url refused: SMTP host/, 'The mail server').replace(/--smtp-url/g, 'The mail server settings').replace(/--from/g, 'The From address');

async function inboundSecretSince(deps: Deps, locationId: string): Promise<Date | null> {
  const row = (await deps.db.knex('inbound_secrets').where({ location_id: locationId }).first('created_at')) as { created_at: Date } | undefined;
  return row ? new Date(row.created_at) : null;
}

function input(id: keyof Fields | 'password', label: string, value: string, opts: { type?: string; hint?: string; autocomplete?: string; required?: boolean; inputmode?: string } = {}): Safe {
  return html`<label for="f-${id}">${label}</label>
${opts.hint ? html`<p class="hint" id="h-${id}">${opts.hint}</p>` : ''}
<input id="f-${id}" name="${id}" type="${opts.type ?? 'text'}" value="${value}"${opts.hint ? html` aria-describedby="h-${id}"` : ''}${opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ''}${opts.inputmode ? html` inputmode="${opts.inputmode}"` : ''}${opts.required ? html` required` : ''}>`;
}

async function mailboxPage(deps: Deps, res: Response, ctx: AppContext, extra: { notice?: string; error?: string; status?: number; fields?: Fields; top?: Safe } = {}) {
  const view = await showMailbox(deps.db.knex, ctx.location.id);
  const f = extra.fields ?? fieldsOf(view);
  const since = await inboundSecretSince(deps, ctx.location.id);
  let replyAddress: string | null = null;
  if (view) {
    try {
      const from = parseFromAddress(view.from).address;
      const at = from.lastIndexOf('@');
      replyAddress = `${from.slice(0, at)}+code@${from.slice(at + 1)}`;
    } catch {
      replyAddress = null;
    }
  }
  const endpoint = `${deps.publicBaseUrl.replace(/\/$/, '')}/v1/inbound-emails`;
  const body = html`${extra.top ?? ''}
<section class="card" aria-labelledby="out-title">
  <h2 id="out-title">Sending email</h2>
  <p>Submissions, document requests and sign-in codes are sent through your own email provider's mail server (SMTP).
  Your provider gives you these settings.</p>
  ${view
    ? html`<p id="mailbox-state">Saved: mail goes out through <strong>${f.host}</strong> (port ${f.port}) as <strong>${view.from}</strong>.
      ${view.has_password ? 'A password is saved (it is never shown).' : 'No password is saved.'} Last changed ${when(view.updated_at)}.</p>`
    : html`<p id="mailbox-state">No mail server is set up yet: nothing can be emailed until one is.</p>`}
  <form method="post" action="${BASE}/save" aria-label="Mail server settings">
    ${csrfField(ctx)}
    ${input('host', 'Mail server (SMTP host)', f.host, { hint: 'For example smtp.gmail.com or smtp.office365.com', autocomplete: 'off', required: true })}
    <fieldset>
      <legend>Security</legend>
      <label class="choice option"><input type="radio" name="security" value="tls"${f.security === 'tls' ? html` checked` : ''}> Secure from the start (SSL/TLS, usually port 465)</label>
      <label class="choice option"><input type="radio" name="security" value="starttls"${f.security === 'starttls' ? html` checked` : ''}> Upgraded to secure (STARTTLS, usually port 587)</label>
    </fieldset>
    ${input('port', 'Port', f.port, { inputmode: 'numeric', required: true })}
    ${input('user', 'User name', f.user, { hint: 'Usually your full email address. Leave empty if your server needs no login.', autocomplete: 'off' })}
    ${input('password', 'Password', '', { type: 'password', autocomplete: 'new-password', hint: view?.has_password ? 'Leave empty to keep the saved password.' : 'Some providers call this an app password.' })}
    ${input('from_name', 'Sender name', f.from_name, { hint: 'The name people see, for example your company name.', autocomplete: 'organization' })}
    ${input('from_address', 'Sender email address', f.from_address, { type: 'email', autocomplete: 'email', required: true })}
    <button type="submit" class="primary">Save</button>
  </form>
  ${view ? postForm(`${BASE}/test`, html`<button type="submit" id="test-connection">Test the connection</button>`, ctx, { className: 'inline test', label: 'Test the connection' }) : ''}
</section>
<section class="card" aria-labelledby="in-title">
  <h2 id="in-title">Replies from lenders</h2>
  ${replyAddress
    ? html`<p>Lenders answer submissions by replying to the email. Replies come back to <strong class="wrap">${replyAddress}</strong>, where <em>code</em> is the submission's reference, so each reply finds its submission.</p>`
    : html`<p>Once a mail server is saved, replies to submissions come back to your sender address with the submission's reference added.</p>`}
  <p>If your email provider forwards those replies to us, it sends them to <strong class="wrap" id="inbound-endpoint">${endpoint}</strong> with the user name <strong>inbound</strong> and the inbound password.</p>
  <p id="inbound-state">${since ? `An inbound password was created on ${when(since)}. It is never shown again.` : 'No inbound password exists yet.'}</p>
  ${postForm(`${BASE}/inbound/rotate`, html`<button type="submit" id="rotate-inbound">${since ? 'Create a new inbound password' : 'Create the inbound password'}</button>`, ctx, { className: 'inline rotate', label: 'Inbound password' })}
  ${since ? html`<p class="hint">A new password replaces the old one at once: update your email provider's forwarding right after.</p>` : ''}
</section>`;
  sendPage(res, ctx, { title: 'Mailbox', active: ACTIVE, body, notice: extra.notice, error: extra.error }, extra.status ?? 200);
}

export function mailboxRouter(deps: Deps): Router {
  const router = express.Router();
  router.use(formBody);
  const again = (_req: Request, res: Response, ctx: AppContext, e: { status: number; message: string }) => mailboxPage(deps, res, ctx, { error: e.message, status: e.status });

  router.get('/', page(async (req, res, ctx) => mailboxPage(deps, res, ctx, { notice: typeof req.query.done === 'string' ? DONE[req.query.done] : undefined }), again));

  router.post('/save', page(async (req, res, ctx) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const fields: Fields = {
      host: str(b.host, 253), port: str(b.port, 10), security: b.security === 'starttls' ? 'starttls' : 'tls', user: str(b.user, 320),
      from_name: str(b.from_name, 100), from_address: str(b.from_address, 254),
    };
    const password = typeof b.password === 'string' ? b.password.slice(0, 1000) : '';
    const refuse = (error: string) => mailboxPage(deps, res, ctx, { error, status: 400, fields });
    if (!HOST.test(fields.host)) return refuse('Enter the mail server name, for example smtp.gmail.com (no spaces, no "smtp://").');
    const protocol = fields.security === 'tls' ? 'smtps' : 'smtp';
    const port = fields.port === '' ? SMTP_DEFAULT_PORT[`${protocol}:`] : Number(fields.port);
    if (!/^\d{1,5}$/.test(fields.port || String(port)) || !Number.isInteger(port) || port < 1 || port > 65535) return refuse('The port must be a number between 1 and 65535 (usually 465 or 587).');
    if (!fields.from_address) return refuse('Enter the sender email address.');

    let pass = password;
    if (!pass && fields.user) {
      // Blank: keep the saved password, but only for the same server, port, security and user.
      const saved = await loadMailboxForSending(deps.db.knex, deps.secrets, ctx.location.id).catch(() => null);
      const t = saved?.target;
      if (t && t.password && t.protocol === `${protocol}:` && t.host === fields.host.toLowerCase() && t.port === port && t.user === fields.user) pass = t.password;
      else return refuse('Enter the password for this user name (a saved password is kept only while the server, port, security and user name stay the same).');
    }
    const host = fields.host.includes(':') && !fields.host.startsWith('[') ? `[${fields.host}]` : fields.host;
    const login = fields.user ? `${encodeURIComponent(fields.user)}:${encodeURIComponent(pass)}@` : '';
    const from = fields.from_name ? `"${fields.from_name.replace(/["\\]/g, '')}" <${fields.from_address}>` : fields.from_address;
    try {
      await setMailbox(deps.db.knex, deps.secrets, deps.clock, { locationId: ctx.location.id, smtpUrl: `${protocol}://${login}${host}:${port}`, from });
    } catch (err) {
      if (err instanceof MailboxError) return refuse(plainMailboxError(err.message));
      throw err;
    }
    req.log?.info({ location_id: ctx.location.id, user_id: ctx.user.id }, 'mailbox set in the app');
    res.redirect(303, `${BASE}?done=saved`);
  }, again));

  router.post('/test', page(async (_req, res, ctx) => {
    let mailbox;
    try {
      mailbox = await loadMailboxForSending(deps.db.knex, deps.secrets, ctx.location.id);
    } catch {
      return mailboxPage(deps, res, ctx, { error: mailTestFailure(new MailSendError('mailbox_unreadable', ''), '', 0) });
    }
    if (!mailbox) return mailboxPage(deps, res, ctx, { error: 'No mail server is saved yet: save the settings first, then test them.', status: 409 });
    try {
      await checkMailboxConnection(mailbox);
    } catch (err) {
      const failure = err instanceof MailSendError ? err : new MailSendError('send_failed', `Connecting to ${mailbox.target.host} failed`);
      return mailboxPage(deps, res, ctx, { error: mailTestFailure(failure, mailbox.target.host, mailbox.target.port) });
    }
    await mailboxPage(deps, res, ctx, { notice: `The connection works: ${mailbox.target.host} answered and is ready to send. No email was sent.` });
  }, again));

  router.post('/inbound/rotate', page(async (req, res, ctx) => {
    const { value } = await once(deps, ctx, req.body?.[ONCE_FIELD], 'rotate inbound secret', (d) => rotateInboundSecret(d, ctx.scope));
    const top = html`<section class="card secret" aria-labelledby="secret-title">
  <h2 id="secret-title">New inbound password</h2>
  <p>Copy it now and enter it in your email provider's forwarding settings (user name <strong>${value.username}</strong>): it is shown only this once. The old password no longer works.</p>
  <code class="secret" id="new-secret">${value.secret}</code>
  <button type="button" data-copy="new-secret" data-status="copy-status" id="copy-secret">Copy</button>
  <p role="status" aria-live="polite" id="copy-status" class="muted"></p>
</section>`;
    await mailboxPage(deps, res, ctx, { top, notice: 'A new inbound password was created.' });
  }, again));

  return router;
}
