import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { Deps } from '../deps';
import type { JobRow } from '../jobs/queue';
import { PermanentJobError, registerJobHandler } from '../jobs/registry';
import { dialAllowed, policyForLocation } from '../outbound/policy';
import { resolveAttachments, type ResolvedAttachment } from './attachments';
import { EMAIL_SEND_QUEUE } from './mail.outbox';
import { loadMailboxForSending, vetSmtpHost, type SendingMailbox } from './mailbox';
import { emailDeadHook, emailSentHook } from './sent-hooks';

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

export interface MailTimeouts {
  /** TCP connect (and, for smtps, the TLS handshake). */
  connectMs: number;
  /** Waiting for the server's greeting. */
  greetingMs: number;
  /** Inactivity on an open connection. */
  socketMs: number;
  /** The whole attempt, producing the attachments to the server's last answer. Keep under the job lease (60 s). */
  totalMs: number;
  /** Producing every attachment of one message (within `totalMs`). */
  attachmentsMs: number;
}

export const DEFAULT_MAIL_TIMEOUTS: Readonly<MailTimeouts> = Object.freeze({ connectMs: 10_000, greetingMs: 10_000, socketMs: 20_000, totalMs: 45_000, attachmentsMs: 20_000 });
let timeouts: MailTimeouts = { ...DEFAULT_MAIL_TIMEOUTS };

/** Tests: shorter network timeouts. Returns a function restoring the previous ones. */
export function setMailTimeouts(next: Partial<MailTimeouts> | null): () => void {
  const previous = timeouts;
  timeouts = { ...DEFAULT_MAIL_TIMEOUTS, ...next };
  return () => {
    timeouts = previous;
  };
}

// ---------------------------------------------------------------- failures: fixed sentences

export type MailErrorCode =
  | 'blocked_address' | 'dns_error' | 'connection_refused' | 'connection_error' | 'timeout' | 'tls_error'
  | 'auth_failed' | 'auth_required' | 'server_unavailable' | 'sender_rejected' | 'recipients_rejected'
  | 'message_rejected' | 'deferred' | 'protocol_error' | 'mailbox_unreadable' | 'invalid_message' | 'send_failed'
  | 'attachment_source_unknown' | 'attachment_failed' | 'attachments_too_large';

/** A failed attempt: a stable code and a sentence safe to store and show (no library text, no addresses, no credentials). */
export class MailSendError extends Error {
  constructor(
    readonly code: MailErrorCode,
    message: string,
    /** Sending the same message again would meet the same answer (a 5xx refusal of every recipient). */
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

/** Every `code` (and `originalCode`) of an error, its `errors` and its cause. */
function codesOf(err: unknown, seen = new Set<unknown>()): string[] {
  if (!err || typeof err !== 'object' || seen.has(err)) return [];
  seen.add(err);
  const e = err as { code?: unknown; originalCode?: unknown; errors?: unknown[]; cause?: unknown };
  return [
    ...(typeof e.code === 'string' ? [e.code] : []),
    ...(typeof e.originalCode === 'string' ? [e.originalCode] : []),
    ...(Array.isArray(e.errors) ? e.errors.flatMap((x) => codesOf(x, seen)) : []),
    ...codesOf(e.cause, seen),
  ];
}

const TLS_CODE = /^(ETLS|ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

interface SmtpLibraryError {
  code?: string;
  command?: string;
  responseCode?: number;
}

/** The category of a nodemailer (or socket) failure, as a fixed sentence naming at most the configured host and a reply code. */
export function classifySmtpError(err: unknown, host: string): MailSendError {
  if (err instanceof MailSendError) return err;
  const e = (err && typeof err === 'object' ? err : {}) as SmtpLibraryError;
  const codes = codesOf(err);
  const rc = typeof e.responseCode === 'number' && e.responseCode >= 200 && e.responseCode < 600 ? e.responseCode : null;
  const smtp = rc ? ` (SMTP ${rc})` : '';
  const command = typeof e.command === 'string' ? e.command.toUpperCase() : '';
  const permanentReply = rc !== null && rc >= 500 && rc !== 503;

  if (codes.includes('EAUTH')) return new MailSendError('auth_failed', `SMTP server refused the login${smtp}`);
  if (codes.includes('ENOAUTH') || rc === 530) return new MailSendError('auth_required', `SMTP server requires a login the mailbox does not have${smtp}`);
  if (codes.includes('ECONNREFUSED')) return new MailSendError('connection_refused', `Connection refused by ${host}`);
  if (codes.includes('ETIMEDOUT') || codes.includes('CONNECT_TIMEOUT')) return new MailSendError('timeout', `Timed out talking to the SMTP server ${host}`);
  if (codes.some((c) => TLS_CODE.test(c))) return new MailSendError('tls_error', `Secure connection to ${host} failed (no STARTTLS, or its certificate could not be verified)`);
  if (codes.includes('ENOTFOUND') || codes.includes('EDNS')) return new MailSendError('dns_error', `Could not resolve SMTP host ${host}`);
  if (rc && rc >= 400 && rc < 500 && command !== 'CONN' && !command.startsWith('AUTH')) {
    return new MailSendError('deferred', `SMTP server ${host} deferred the message${smtp}`);
  }
  if (codes.includes('EENVELOPE')) {
    if (command === 'MAIL FROM') return new MailSendError('sender_rejected', `SMTP server rejected the sender${smtp}`);
    if (command === 'RCPT TO') return new MailSendError('recipients_rejected', `SMTP server rejected every recipient${smtp}`, permanentReply);
    if (command === 'DATA') return new MailSendError('message_rejected', `SMTP server rejected the message${smtp}`);
    return new MailSendError('invalid_message', 'The message has no valid recipient or sender address', true);
  }
  if (codes.includes('EMESSAGE') || command === 'DATA' || command.startsWith('DATA')) return new MailSendError('message_rejected', `SMTP server rejected the message${smtp}`);
  if (command === 'CONN' && rc) {
    return rc >= 500
      ? new MailSendError('server_unavailable', `SMTP server ${host} refused the connection${smtp}`)
      : new MailSendError('server_unavailable', `SMTP server ${host} is not accepting mail right now${smtp}`);
  }
  if (codes.includes('EPROTOCOL')) return new MailSendError('protocol_error', `SMTP server ${host} sent an answer that is not SMTP`);
  if (codes.includes('ECONNECTION') || codes.includes('ESOCKET') || codes.includes('ECONNRESET') || codes.includes('EPIPE')) {
    return new MailSendError('connection_error', `The connection to ${host} was closed before the message was accepted${smtp}`);
  }
  if (rc) return new MailSendError('send_failed', `SMTP server ${host} refused${smtp}`);
  return new MailSendError('send_failed', `Sending through ${host} failed`);
}

// ---------------------------------------------------------------- one SMTP exchange

export interface OutgoingMessage {
  to: string[];
  subject: string;
  text: string;
  messageId: string;
  date: Date;
  /** The HTML alternative: with `text`, a multipart/alternative body. */
  html?: string | null;
  cc?: string[];
  replyTo?: string | null;
  attachments?: ResolvedAttachment[];
}

interface Delivered {
  accepted: string[];
  rejected: string[];
  rejectedCodes: number[];
}

/** A failure before any SMTP command: the next vetted address may be tried. */
function beforeSession(err: unknown): boolean {
  const e = (err && typeof err === 'object' ? err : {}) as SmtpLibraryError;
  return e.command === 'CONN' && !e.responseCode && !codesOf(err).some((c) => TLS_CODE.test(c));
}

/**
 * Runs `attempt` against the mailbox's SMTP host under the address policy of its location: the host
 * is vetted, and only vetted addresses the dial guard allows are tried, each until something was
 * said on a connection. Throws MailSendError.
 */
async function throughVettedHost<T>(
  mailbox: SendingMailbox, deadline: number, attempt: (address: string, devLoopback: boolean, budgetMs: number) => Promise<T>,
): Promise<T> {
  const { target } = mailbox;
  const policy = policyForLocation({ locationIsTest: mailbox.locationIsTest });
  const vetted = await vetSmtpHost(target.host, policy, { signal: AbortSignal.timeout(Math.max(1, Math.min(timeouts.connectMs, deadline - Date.now()))) });
  if (!vetted.ok) {
    if (vetted.code === 'blocked_address') throw new MailSendError('blocked_address', `Refused by the outbound address policy: ${vetted.reason}`);
    if (vetted.code === 'timeout') throw new MailSendError('timeout', `Timed out resolving SMTP host ${target.host}`);
    throw new MailSendError('dns_error', `Could not resolve SMTP host ${target.host}`);
  }
  const dialable = vetted.addresses.filter((a) => dialAllowed(a.address));
  if (!dialable.length) throw new MailSendError('connection_refused', `Connection refused by ${target.host}`);

  // Development loopback of a test location (a local catcher such as MailHog): STARTTLS when offered,
  // plain otherwise. Anywhere else the password never crosses the network in the clear.
  const devLoopback = policy.allowDevelopmentLoopback && (vetted.host === 'localhost' || vetted.host === '127.0.0.1');
  let last: unknown;
  for (const a of dialable) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      return await attempt(a.address, devLoopback, left);
    } catch (err) {
      last = err;
      if (!beforeSession(err)) break; // something was said on that connection: never try another
    }
  }
  throw classifySmtpError(last ?? Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }), target.host);
}

/** Sends one message through a mailbox under the policy of its location. Throws MailSendError. */
export async function sendThroughMailbox(mailbox: SendingMailbox, msg: OutgoingMessage, opts: { deadline?: number } = {}): Promise<Delivered> {
  const deadline = opts.deadline ?? Date.now() + timeouts.totalMs; // network time, not a rule of the domain
  return throughVettedHost(mailbox, deadline, (address, devLoopback, left) => exchange(address, mailbox, msg, devLoopback, left));
}

/**
 * The app's "test connection": connects to the mailbox's SMTP server exactly as a send would (the
 * same address policy, TLS rules and login), says hello and logs in, and sends nothing. Throws
 * MailSendError (a fixed sentence of a category, never library text or a credential).
 */
export async function checkMailboxConnection(mailbox: SendingMailbox): Promise<void> {
  const deadline = Date.now() + Math.min(timeouts.totalMs, timeouts.connectMs + timeouts.greetingMs + timeouts.socketMs); // network time
  await throughVettedHost(mailbox, deadline, async (address, devLoopback, left) => {
    const transport = transportFor(address, mailbox, devLoopback, left);
    let timer: NodeJS.Timeout | undefined;
    try {
      const verifying = transport.verify();
      verifying.catch(() => undefined);
      const overall = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), left);
      });
      await Promise.race([verifying, overall]);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  });
}

/** A transport to one vetted address: the host name kept for TLS (SNI, certificate), nothing resolved by nodemailer. */
function transportFor(address: string, mailbox: SendingMailbox, devLoopback: boolean, budgetMs: number) {
  const { target } = mailbox;
  const secure = target.protocol === 'smtps:';
  const servername = isIP(target.host) ? undefined : target.host;
  return nodemailer.createTransport({
    host: address, // the vetted address: nodemailer resolves nothing itself
    port: target.port,
    secure,
    servername, // the host name as configured, for SNI and the certificate check
    tls: { servername, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    requireTLS: !secure && !devLoopback,
    opportunisticTLS: !secure && devLoopback,
    auth: target.user ? { user: target.user, pass: target.password ?? '' } : undefined,
    connectionTimeout: Math.min(timeouts.connectMs, budgetMs),
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
}

async function exchange(address: string, mailbox: SendingMailbox, msg: OutgoingMessage, devLoopback: boolean, budgetMs: number): Promise<Delivered> {
  const { from } = mailbox;
  const transport = transportFor(address, mailbox, devLoopback, budgetMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    const sending = transport.sendMail({
      from: from.name ? { name: from.name, address: from.address } : from.address,
      to: msg.to,
      ...(msg.cc?.length ? { cc: msg.cc } : {}),
      ...(msg.replyTo ? { replyTo: msg.replyTo } : {}),
      subject: msg.subject,
      text: msg.text,
      ...(msg.html ? { html: msg.html } : {}),
      ...(msg.attachments?.length
        ? { attachments: msg.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, contentDisposition: 'attachment' as const })) }
        : {}),
      messageId: msg.messageId,
      date: msg.date,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    sending.catch(() => undefined); // settled below, or abandoned after the overall timeout
    const overall = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), budgetMs);
    });
    const info = await Promise.race([sending, overall]);
    const rejectedErrors = ((info as { rejectedErrors?: SmtpLibraryError[] }).rejectedErrors ?? []) as SmtpLibraryError[];
    return {
      accepted: (info.accepted ?? []).map(String),
      rejected: (info.rejected ?? []).map(String),
      rejectedCodes: rejectedErrors.map((r) => r.responseCode).filter((c): c is number => typeof c === 'number'),
    };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

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

  const deadline = Date.now() + timeouts.totalMs; // network time, not a rule of the domain
  let attachments: ResolvedAttachment[] = [];
  if (stored.length) {
    const resolved = await resolveAttachments(deps, stored, {
      locationId: email.location_id,
      emailId: email.id,
      timeoutMs: Math.min(timeouts.attachmentsMs, timeouts.totalMs),
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
