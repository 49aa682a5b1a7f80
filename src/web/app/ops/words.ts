import { ApiError } from '../../../http/errors';
import type { MailSendError } from '../../../mail/mail.sender';

// Plain words for brokers' staff: what the API says in codes, these pages say in sentences.

/** Why a reply waits for a person (InboundEmail.review_reason). */
export const REVIEW_REASONS: Record<string, string> = {
  no_match: 'We could not tell which submission this reply is about.',
  ambiguous_match: 'The reply mentions more than one submission, so we did not pick one.',
  not_classified: 'We could not tell what the lender is saying (approval, decline, counter-offer or a request for more documents).',
  auto_reply: 'This looks like an automatic reply (for example an out-of-office message), not a real answer.',
  unknown_sender: 'It comes from an address we did not send the submission to, so nothing was recorded without a person checking it.',
  sender_unauthenticated: "It claims to come from the lender, but the lender's email system did not confirm it, so nothing was recorded without a person checking it.",
  submission_funded: 'Its submission is already funded, so its answer can no longer change.',
  deal_funded: "Another lender's offer on this deal was already funded.",
  not_applied: "The answer could not be recorded because of the submission's current status.",
  incomplete_offer: 'The lender offers money but leaves out the factor rate or the term, so the offer is not complete.',
  conflicting_cues: 'The reply says two different things (for example a decline and an offer).',
  low_confidence: 'We are not sure we read the answer right.',
  tentative_terms: 'The terms look provisional (for example "approved up to" or an amount without pricing).',
  approval_withdrawn: 'The lender seems to take back an earlier approval.',
  multiple_deals: 'The reply seems to answer several files at once.',
  readers_disagree: 'Our two readers of the reply (the rules and a model trained on past replies) disagree about what the lender says.',
};

export const REPLY_TYPES: Record<string, string> = {
  approved: 'Approved',
  declined: 'Declined',
  needs_info: 'Needs more information',
  counter: 'Counter-offer',
  unclassified: 'Not clear',
};

/** The answers a reviewer can record (RecordSubmissionResponseRequest.response_type). */
export const ANSWERS: [value: string, label: string][] = [
  ['approved', 'Approved'],
  ['counter', 'Counter-offer'],
  ['declined', 'Declined'],
  ['more_info', 'Needs more information'],
  ['withdrawn', 'Withdrawn by the lender'],
];

export const SUBMISSION_STATUS: Record<string, string> = {
  pending: 'not sent yet', queued: 'waiting to be sent', recorded: 'recorded, not sent', sent: 'sent, waiting for an answer',
  approved: 'approved', declined: 'declined', needs_info: 'needs more information', expired: 'expired', funded: 'funded', withdrawn: 'withdrawn',
};

export const DELIVERY_STATUS: Record<string, string> = {
  pending: 'Waiting to be sent',
  succeeded: 'Delivered',
  failed: 'Failed, will try again',
  dead: 'Gave up',
  cancelled: 'Cancelled',
};

/** A mail server test that failed, as a sentence (MailSendError codes). */
export function mailTestFailure(err: MailSendError, host: string, port: number): string {
  const where = `${host} (port ${port})`;
  switch (err.code) {
    case 'blocked_address':
      return `This mail server address is not allowed: mail may only go to a server on the public internet. ${err.message.replace(/^Refused by the outbound address policy: /, '')}.`;
    case 'dns_error':
      return `We could not find a mail server called ${host}. Check the server name.`;
    case 'connection_refused':
      return `The mail server ${where} did not accept a connection. Check the server name and port.`;
    case 'timeout':
      return `The mail server ${where} did not answer in time. Check the server name and port, or try again later.`;
    case 'tls_error':
      return `We could not set up a secure connection with ${where}. Check the security setting and the port your email provider gives.`;
    case 'auth_failed':
      return 'The mail server turned down the user name and password. Check them and save the settings again.';
    case 'auth_required':
      return 'The mail server asks for a user name and password, and none are saved. Add them and save the settings again.';
    case 'mailbox_unreadable':
      return 'The saved password can no longer be read. Enter the settings again and save them.';
    case 'server_unavailable':
      return `The mail server ${where} is not accepting connections right now. Try again later.`;
    default:
      return `The test did not succeed: ${err.message}.`;
  }
}

/** What a refused action says to a person (a service's ApiError, by code; otherwise its sentence). */
export function plainError(err: unknown): { status: number; message: string } | null {
  if (!(err instanceof ApiError)) return null;
  const byCode: Partial<Record<string, string>> = {
    resource_missing: 'That item no longer exists, or it belongs to another location.',
    webhook_disabled: 'This webhook is turned off. Turn it back on first, then try again.',
    delivery_in_flight: 'This delivery is being sent right now. Reload the page in a moment.',
    idempotency_key_in_use: err.message,
    idempotency_key_reused: err.message,
  };
  let message = byCode[err.code] ?? err.message;
  if (err.code === 'delivery_not_retryable') message = /test/i.test(err.message) ? 'Test events are not sent again. Send a new test instead.' : 'This delivery already arrived; it is not sent again.';
  if (err.code === 'invalid_state_transition' && /processed/.test(err.message)) message = 'This reply was already handled.';
  if (err.code === 'invalid_state_transition' && /funded/.test(err.message)) message = 'That submission is funded; its answer can no longer change.';
  return { status: err.status, message };
}
