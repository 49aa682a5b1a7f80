import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps';
import type { JobRow } from '../jobs/queue';
import { PermanentJobError, registerJobHandler } from '../jobs/registry';
import { resolveAttachments, type ResolvedAttachment } from './attachments';
import { EMAIL_SEND_QUEUE } from './mail.outbox';
import { classifySmtpError, MailSendError } from './mail.errors';
import { mailTimeouts, sendThroughMailbox, type Delivered } from './mail.smtp';
import { loadMailboxForSending, type SendingMailbox } from './mailbox';
import { emailDeadHook, emailSentHook } from './sent-hooks';

export { classifySmtpError, MailSendError, type MailErrorCode } from './mail.errors';
export { checkMailboxConnection, DEFAULT_MAIL_TIMEOUTS, sendThroughMailbox, setMailTimeouts, type MailTimeouts, type OutgoingMessage } from './mail.smtp';

// The `email.send` job: one queued message (a row of `outgoing_emails`) out through its location's
// mailbox. Each attempt:
//
//   1. the row is read; `sent` means done (the job may run again after a crash: never send twice
//      what is recorded as sent);
//   2. no mailbox for the location: the row becomes `no_mailbox` and the job ends (a warning with
//      the email id, never an address): retrying would not conjure one;
//   3. our Message-ID is minted once and recorded before the first attempt, so every retry carries
//      the same one (a crash after the server accepted but before `sent` was written means the
//      message goes again, with the same Message-ID: mail clients collapse the duplicate);
//   4. attachments are produced by their registered sources (./attachments.ts): a source kind this
//      server does not have ends the message (`dead`); a source that throws, returns no bytes or takes
//      too long fails the attempt like any other failure (fixed sentences, never the source's text);
//   5. the SMTP host is vetted by the address policy of the location (./mailbox.ts vetSmtpHost), and
//      nodemailer connects only to a vetted IP address that the dial guard allows; the host name is
//      kept for TLS (SNI and the certificate check). smtp:// requires STARTTLS except for
//      localhost / 127.0.0.1 of a test location; certificates are always verified;
//   6. success: `sent`, `sent_at`; failure: `failed` (or `dead` on the job's last attempt, or at once
//      when the server refused every recipient for good, 5xx), `last_error` a fixed sentence of a
//      category (never library text, never an address or a credential), and the job fails so the
//      queue retries it on its backoff (1 m, 5 m, 30 m, 2 h).
//
// The whole attempt, attachments and exchange, is bounded (45 s, under the queue's 60 s lease) so no
// other worker can claim the job while this one may still be sending.

// The failures' fixed sentences are in ./mail.errors.ts, one SMTP exchange in ./mail.smtp.ts.

// ---------------------------------------------------------------- the job

interface EmailRow {
  id: string;
  location_id: string;
  kind: string;
  to_addresses: string[] | string;
  subject: string;
  text_body: string;
  html_body: string | null;
  sealed_values: string | null;
  cc_addresses: string[] | string;
  reply_to: string | null;
  attachments: unknown[] | string;
  status: 'queued' | 'sent' | 'failed' | 'dead' | 'no_mailbox';
  attempts: number;
  message_id: string | null;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** `<random@from-domain>`: ours, unique, and the same on every attempt of one message. */
export function mintMessageId(fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase() || 'localhost';
  return `<${randomUUID()}@${domain}>`;
}

/** The `email.send` job handler. Payload `{ email_id }`. */
export async function sendQueuedEmail(deps: Deps, payload: unknown, job: Pick<JobRow, 'attempts' | 'max_attempts'>): Promise<void> {
  const emailId = (payload as { email_id?: unknown } | null)?.email_id;
  if (typeof emailId !== 'string' || !emailId) throw new PermanentJobError('email.send job without an email_id');
  const knex = deps.db.knex;
  const email = (await knex('outgoing_emails').where({ id: emailId }).first()) as EmailRow | undefined;
  if (!email) throw new PermanentJobError(`email ${emailId} does not exist`);
  if (email.status === 'sent') {
    deps.logger.info({ email_id: email.id }, 'email already sent: not sending it again');
    return;
  }
  if (email.status === 'dead') {
    // Ended before this attempt ran (cancelled, e.g. its submission was withdrawn): nothing to send.
    deps.logger.info({ email_id: email.id }, 'email cancelled: not sending it');
    return;
  }
  const rowOf = () => knex('outgoing_emails').where({ id: email.id });

  const fail = async (f: MailSendError): Promise<never> => {
    const attempt = job.attempts + 1;
    const final = f.permanent || attempt >= job.max_attempts;
    const deadHook = final ? emailDeadHook(email.kind) : undefined;
    await knex.transaction(async (trx) => {
      await trx('outgoing_emails').where({ id: email.id }).update({
        status: final ? 'dead' : 'failed', attempts: knex.raw('attempts + 1'), last_error: f.message, updated_at: deps.clock.now(),
        ...(final ? { sealed_values: null } : {}),
      });
      await deadHook?.(trx, deps, { id: email.id, location_id: email.location_id, kind: email.kind, last_error: f.message });
    });
    deps.logger.warn({ email_id: email.id, location_id: email.location_id, error_code: f.code, attempt, final }, final ? 'email could not be sent: giving up' : 'email attempt failed: will retry');
    throw f.permanent ? new PermanentJobError(f.message) : new Error(f.message);
  };

  let mailbox: SendingMailbox | null;
  try {
    mailbox = await loadMailboxForSending(knex, deps.secrets, email.location_id);
  } catch {
    return fail(new MailSendError('mailbox_unreadable', 'The mailbox password could not be read (was SECRET_KEY changed? set the mailbox again)'));
  }
  if (!mailbox) {
    await rowOf().update({ status: 'no_mailbox', last_error: 'The location has no mailbox configured', updated_at: deps.clock.now() });
    deps.logger.warn({ email_id: email.id, location_id: email.location_id, kind: email.kind }, 'email not sent: the location has no mailbox');
    return;
  }

  let messageId = email.message_id;
  if (!messageId) {
    messageId = mintMessageId(mailbox.from.address);
    await rowOf().update({ message_id: messageId, updated_at: deps.clock.now() });
  }
  const to = json<string[]>(email.to_addresses);
  const cc = json<string[]>(email.cc_addresses ?? []);
  const stored = json<unknown[]>(email.attachments ?? []);

  const deadline = Date.now() + mailTimeouts().totalMs; // network time, not a rule of the domain
  let attachments: ResolvedAttachment[] = [];
  if (stored.length) {
    const resolved = await resolveAttachments(deps, stored, {
      locationId: email.location_id,
      emailId: email.id,
      timeoutMs: Math.min(mailTimeouts().attachmentsMs, mailTimeouts().totalMs),
    });
    if (!resolved.ok) {
      if (resolved.cause) deps.logger.warn({ email_id: email.id, location_id: email.location_id, error_code: resolved.code, source_error: resolved.cause }, 'email attachment source failed');
      return fail(new MailSendError(resolved.code, resolved.message, resolved.permanent));
    }
    attachments = resolved.attachments;
  }

  let text = email.text_body;
  let html = email.html_body;
  if (email.sealed_values) {
    let values: Record<string, string>;
    try {
      values = JSON.parse(deps.secrets.open(email.sealed_values)) as Record<string, string>;
    } catch {
      return fail(new MailSendError('mailbox_unreadable', 'A sealed value of the message could not be read (was SECRET_KEY changed?)', true));
    }
    const fill = (s: string) => s.replace(/\{\{sealed:([a-z0-9_]+)\}\}/g, (m, k: string) => values[k] ?? m);
    text = fill(text);
    html = html === null ? null : fill(html);
  }

  let delivered: Delivered;
  try {
    delivered = await sendThroughMailbox(
      mailbox,
      { to, cc, replyTo: email.reply_to, subject: email.subject, text, html, attachments, messageId, date: deps.clock.now() },
      { deadline },
    );
  } catch (err) {
    return fail(classifySmtpError(err, mailbox.target.host));
  }
  const codes = [...new Set(delivered.rejectedCodes)].join(', ');
  const partial = delivered.rejected.length
    ? `${delivered.rejected.length} of ${delivered.rejected.length + delivered.accepted.length} recipients were rejected${codes ? ` (SMTP ${codes})` : ''}`
    : null;
  const now = deps.clock.now();
  const hook = emailSentHook(email.kind);
  await knex.transaction(async (trx) => {
    await trx('outgoing_emails').where({ id: email.id }).update({ status: 'sent', sent_at: now, attempts: trx.raw('attempts + 1'), last_error: partial, sealed_values: null, updated_at: now });
    await hook?.(trx, deps, { id: email.id, location_id: email.location_id, kind: email.kind, message_id: messageId, sent_at: now });
  });
  deps.logger.info({ email_id: email.id, location_id: email.location_id, kind: email.kind }, 'email sent');
}

/**
 * Registers the `email.send` handler with the job queue. Call it once where the worker is wired (the
 * server and worker entry points); idempotent. Not done at module load: src/jobs/worker.ts must not
 * import this module (a cycle would run the registration before the queue's handler map exists).
 */
export function registerMailJobs(): void {
  registerJobHandler(EMAIL_SEND_QUEUE, sendQueuedEmail);
}
