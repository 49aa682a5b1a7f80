import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { enqueueJob, type Db } from '../jobs/queue';
import { attachmentProblem, MAX_ATTACHMENTS, toStoredAttachment, type AttachmentSpec } from './attachments';
import { isEmailAddress } from './mailbox';

// Every email the platform sends starts here: a row in `outgoing_emails` (the record of the message
// and its fate) and an `email.send` job, both in the caller's transaction, so a message exists only
// if the change that caused it commits, and none vanishes once it does.

export const EMAIL_SEND_QUEUE = 'email.send';

export interface OutgoingEmail {
  locationId: string;
  /** What the message is for, e.g. `webhook_subscription_disabled`, `submission_package`, `sign_in_code`. */
  kind: string;
  to: string[];
  subject: string;
  /** The plain text body; always sent (the text part of multipart/alternative when `html` is given). */
  text: string;
  /** An HTML alternative of `text` (already escaped by whoever rendered it). */
  html?: string | null;
  /** Carbon copies: plain addresses (`addr@example.com`), at most 50. */
  cc?: string[];
  /** Where replies should go: a plain address, e.g. one that identifies a submission. */
  replyTo?: string | null;
  /** At most 10; produced at send time by their registered source (./attachments.ts). */
  attachments?: AttachmentSpec[];
  /**
   * Secret values the message carries, sealed by the caller (`deps.secrets.seal(JSON.stringify({ name: value }))`):
   * `{{sealed:name}}` in `text` and `html` becomes the value at send time, so the stored message never
   * holds it in the clear. Cleared once the email is sent or given up.
   */
  sealedValues?: string | null;
}

export const MAX_CC_ADDRESSES = 50;

/** A message `queueEmail` refuses (nothing is inserted). `field` names the offending input. */
export class OutgoingEmailError extends Error {
  override readonly name = 'OutgoingEmailError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The new parts of a message checked before anything is written. The message names the field, never its value. */
function checkParts(msg: OutgoingEmail): void {
  const bad = (field: string, sentence: string): never => {
    throw new OutgoingEmailError(field, `Cannot queue the email: ${field} ${sentence}`);
  };
  if (msg.html !== undefined && msg.html !== null && typeof msg.html !== 'string') bad('html', 'must be a string');
  if (msg.cc !== undefined) {
    if (!Array.isArray(msg.cc)) bad('cc', 'must be a list of email addresses');
    if (msg.cc.length > MAX_CC_ADDRESSES) bad('cc', `must hold at most ${MAX_CC_ADDRESSES} addresses`);
    msg.cc.forEach((a, i) => {
      if (typeof a !== 'string' || !isEmailAddress(a)) bad(`cc[${i}]`, 'must be an email address (addr@example.com)');
    });
  }
  if (msg.replyTo !== undefined && msg.replyTo !== null && (typeof msg.replyTo !== 'string' || !isEmailAddress(msg.replyTo))) {
    bad('replyTo', 'must be an email address (addr@example.com)');
  }
  if (msg.attachments !== undefined) {
    if (!Array.isArray(msg.attachments)) bad('attachments', 'must be a list');
    if (msg.attachments.length > MAX_ATTACHMENTS) bad('attachments', `must hold at most ${MAX_ATTACHMENTS} attachments`);
    msg.attachments.forEach((a, i) => {
      const problem = attachmentProblem(a, `attachments[${i}]`);
      if (problem) throw new OutgoingEmailError(`attachments[${i}]`, `Cannot queue the email: ${problem}`);
    });
  }
}

/**
 * Records a message and its `email.send` job in the caller's transaction. Returns the email id.
 * Throws OutgoingEmailError, before writing anything, for a malformed cc, replyTo or attachment.
 */
export async function queueEmail(trx: Db, clock: Clock, msg: OutgoingEmail): Promise<string> {
  checkParts(msg);
  const now = clock.now();
  const id = newId('eml', now.getTime());
  await trx('outgoing_emails').insert({
    id,
    location_id: msg.locationId,
    kind: msg.kind,
    to_addresses: JSON.stringify(msg.to),
    subject: msg.subject,
    text_body: msg.text,
    html_body: msg.html ?? null,
    cc_addresses: JSON.stringify(msg.cc ?? []),
    reply_to: msg.replyTo ?? null,
    attachments: JSON.stringify((msg.attachments ?? []).map(toStoredAttachment)),
    sealed_values: msg.sealedValues ?? null,
    status: 'queued',
    attempts: 0,
    created_at: now,
    updated_at: now,
  });
  await enqueueJob(trx, clock, { queue: EMAIL_SEND_QUEUE, payload: { email_id: id }, maxAttempts: 5 });
  return id;
}

export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'dead', 'no_mailbox'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** The record of an outgoing message, without its body. */
export interface OutgoingEmailView {
  id: string;
  location_id: string;
  kind: string;
  to: string[];
  subject: string;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** Every outgoing message of a location (optionally of one status), newest first, without bodies. */
export async function listOutgoingEmails(db: Db, locationId: string, opts: { status?: EmailStatus } = {}): Promise<OutgoingEmailView[]> {
  const q = db('outgoing_emails')
    .where({ location_id: locationId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select('id', 'location_id', 'kind', 'to_addresses', 'subject', 'status', 'attempts', 'last_error', 'message_id', 'sent_at', 'created_at', 'updated_at');
  if (opts.status) q.where({ status: opts.status });
  const rows = await q;
  return rows.map((r) => ({
    id: r.id,
    location_id: r.location_id,
    kind: r.kind,
    to: typeof r.to_addresses === 'string' ? JSON.parse(r.to_addresses) : r.to_addresses,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    last_error: r.last_error,
    message_id: r.message_id,
    sent_at: iso(r.sent_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  }));
}
