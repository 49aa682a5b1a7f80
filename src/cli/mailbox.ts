import type { Knex } from 'knex';
import { resolveSecretKey } from '../bootstrap';
import { loadConfig } from '../config';
import { hmacHex, SecretBox } from '../lib/crypto';
import type { Clock } from '../lib/clock';
import { EMAIL_STATUSES, listOutgoingEmails, type EmailStatus } from '../mail/mail.outbox';
import { MailboxError, setMailbox, showMailbox } from '../mail/mailbox';

// Operator commands of the mail path, for src/cli/index.ts to merge:
//
//   COMMANDS = { ...COMMANDS, ...MAIL_COMMANDS }     OPTIONS = { ...OPTIONS, ...MAIL_OPTIONS }
//   USAGE gains MAIL_USAGE;  MailUsageError is a usage error (exit 2) like index.ts's UsageError.
//
// This file must not import src/cli/index.ts (that module runs the CLI when loaded).
// Nothing printed here ever holds the SMTP password: a mailbox prints as
// { location_id, smtp_url (without the password), from, has_password, created_at, updated_at }.

/** A usage mistake (missing or malformed option): index.ts should treat it as its UsageError (exit 2). */
export class MailUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
/** The shape of src/cli/index.ts's `Command`: arguments are checked first, then it runs. */
export type MailCommand = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;

function need(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new MailUsageError(`--${name} is required`);
  return v;
}

/** The secrets-at-rest box of this installation (SECRET_KEY, or the key kept in the database outside production). */
async function secretsOf(knex: Knex): Promise<SecretBox> {
  return new SecretBox(hmacHex(await resolveSecretKey(knex, loadConfig()), 'secrets-at-rest'));
}

export const MAIL_COMMANDS: Record<string, MailCommand> = {
  'mailbox set': (v) => {
    const input = { locationId: need(v, 'location'), smtpUrl: need(v, 'smtp-url'), from: need(v, 'from') };
    return async (knex, clock) => setMailbox(knex, await secretsOf(knex), clock, input);
  },
  'mailbox show': (v) => {
    const location = need(v, 'location');
    return async (knex) => {
      const mailbox = await showMailbox(knex, location);
      if (!mailbox) throw new MailboxError(`Location ${location} has no mailbox (set one with: mailbox set --location ${location} --smtp-url URL --from ADDRESS)`);
      return mailbox;
    };
  },
  'email list': (v) => {
    const location = need(v, 'location');
    const status = v.status;
    if (status !== undefined && (typeof status !== 'string' || !(EMAIL_STATUSES as readonly string[]).includes(status))) {
      throw new MailUsageError(`--status must be one of ${EMAIL_STATUSES.join(', ')}`);
    }
    return async (knex) => {
      if (!(await knex('locations').where({ id: location }).first('id'))) throw new MailboxError(`No location ${location}`);
      return { data: await listOutgoingEmails(knex, location, { status: status as EmailStatus | undefined }) };
    };
  },
};

/** Options of the mail commands (`--location` is already one of index.ts's). */
export const MAIL_OPTIONS = {
  'smtp-url': { type: 'string' },
  from: { type: 'string' },
  status: { type: 'string' },
} as const;

export const MAIL_USAGE = `  mailbox set --location ID --smtp-url URL --from ADDRESS
                                                  URL: smtps://USER:PASSWORD@HOST[:465] or smtp://USER:PASSWORD@HOST[:587]
                                                  (STARTTLS required); percent-encode @ : / in USER and PASSWORD;
                                                  the password is sealed and never printed. ADDRESS: "Name <addr@example.com>"
  mailbox show --location ID                      the mailbox, without its password
  email list --location ID [--status queued|sent|failed|dead|no_mailbox]
                                                  every outgoing message, newest first, without bodies`;
