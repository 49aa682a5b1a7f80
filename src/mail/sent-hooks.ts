import type { Knex } from 'knex';
import type { Deps } from '../deps';

// What must happen when an email of a given kind has been accepted by the SMTP server (a submission
// becomes `sent`): run in the same transaction that marks the email `sent`, so the two never
// disagree after a crash.

export interface SentEmail {
  id: string;
  location_id: string;
  kind: string;
  message_id: string;
  sent_at: Date;
}

export type EmailSentHook = (trx: Knex.Transaction, deps: Deps, email: SentEmail) => Promise<void>;

const hooks = new Map<string, EmailSentHook>();

/** One hook per email kind; registering again replaces it. */
export function registerEmailSentHook(kind: string, hook: EmailSentHook): void {
  hooks.set(kind, hook);
}

export function emailSentHook(kind: string): EmailSentHook | undefined {
  return hooks.get(kind);
}

/** A message given up for good (its last attempt failed, or a permanent failure): the record and the hook commit together. */
export type EmailDeadHook = (trx: Knex.Transaction, deps: Deps, email: { id: string; location_id: string; kind: string; last_error: string }) => Promise<void>;

const deadHooks = new Map<string, EmailDeadHook>();

/** One hook per email kind (a submission's package: its originator is told); registering again replaces it. */
export function registerEmailDeadHook(kind: string, hook: EmailDeadHook): void {
  deadHooks.set(kind, hook);
}

export function emailDeadHook(kind: string): EmailDeadHook | undefined {
  return deadHooks.get(kind);
}
