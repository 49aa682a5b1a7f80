// One SMTP exchange of the mail sender (./mail.sender.ts): a message through a mailbox under the
// policy of its location, to a vetted address the dial guard allows, within the network timeouts.
import { isIP } from 'node:net';
import { dialAllowed, policyForLocation } from '../outbound/policy';
import type { ResolvedAttachment } from './attachments';
import { classifySmtpError, codesOf, MailSendError, TLS_CODE, type SmtpLibraryError } from './mail.errors';
import { vetSmtpHost, type SendingMailbox } from './mailbox';

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

/** The network timeouts in force (the job bounds the whole attempt by `totalMs`). */
export function mailTimeouts(): MailTimeouts {
  return timeouts;
}

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

export interface Delivered {
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
    const transport = await transportFor(address, mailbox, devLoopback, left);
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
async function transportFor(address: string, mailbox: SendingMailbox, devLoopback: boolean, budgetMs: number) {
  // Imported by the first exchange, not at start: the API process only sends from a worker, or for
  // the app's "test connection" (~0.08 s of CPU to load).
  const { default: nodemailer } = await import('nodemailer');
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
  const transport = await transportFor(address, mailbox, devLoopback, budgetMs);
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
