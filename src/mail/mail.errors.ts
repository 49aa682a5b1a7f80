// Failures of sending mail (./mail.sender.ts): a stable code and a fixed sentence safe to store and
// show, never library text, an address or a credential.

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
export function codesOf(err: unknown, seen = new Set<unknown>()): string[] {
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

export const TLS_CODE = /^(ETLS|ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

export interface SmtpLibraryError {
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
