import type { Knex } from 'knex';
import { resolveSecretKey } from '../bootstrap';
import { loadConfig } from '../config';
import { hmacHex, SecretBox } from '../lib/crypto';
import type { Clock } from '../lib/clock';
import { EMAIL_STATUSES, listOutgoingEmails, type EmailStatus } from '../mail/mail.outbox';
import { checkMailboxConnection, MailSendError, mintMessageId, sendThroughMailbox } from '../mail/mail.sender';
import { isEmailAddress, loadMailboxForSending, MailboxError, parseFromAddress, parseSmtpUrl, setMailbox, showMailbox, type SendingMailbox } from '../mail/mailbox';
import { mailTestFailure } from '../web/app/ops/words';

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

/** A failed connection or send as a plain sentence (the settings page's words), never the library's text or the password. */
function plainFailure(err: unknown, mailbox: SendingMailbox): string {
  const failure = err instanceof MailSendError ? err : new MailSendError('send_failed', `Connecting to ${mailbox.target.host} failed`);
  let text = mailTestFailure(failure, mailbox.target.host, mailbox.target.port);
  // smtps:// to a server that speaks plain SMTP first (port 587/25): the TLS handshake meets a greeting.
  if (failure.code === 'tls_error' && mailbox.target.protocol === 'smtps:') {
    text += ' If the server expects plain SMTP upgraded with STARTTLS (usually port 587), use smtp:// instead of smtps://.';
  }
  return text;
}

export const MAIL_COMMANDS: Record<string, MailCommand> = {
  'mailbox set': (v) => {
    const input = { locationId: need(v, 'location'), smtpUrl: need(v, 'smtp-url'), from: need(v, 'from') };
    const untested = !!v['save-untested'];
    return async (knex, clock) => {
      if (!untested) {
        // Try it first (the same address policy and TLS rules as sending): a mailbox that cannot connect is not saved.
        const target = parseSmtpUrl(input.smtpUrl);
        const location = (await knex('locations').where({ id: input.locationId }).first('id', 'is_test')) as { id: string; is_test: boolean } | undefined;
        if (!location) throw new MailboxError(`No location ${input.locationId}`);
        const trial: SendingMailbox = { target, from: parseFromAddress(input.from), locationIsTest: location.is_test, updatedAt: clock.now() };
        try {
          await checkMailboxConnection(trial);
        } catch (err) {
          throw new MailboxError(`Not saved: ${plainFailure(err, trial)} (To save it anyway, add --save-untested.)`);
        }
      }
      return setMailbox(knex, await secretsOf(knex), clock, input);
    };
  },
  'mailbox test': (v) => {
    const location = need(v, 'location');
    const to = need(v, 'to');
    if (!isEmailAddress(to)) throw new MailUsageError('--to must be an email address');
    return async (knex, clock) => {
      if (!(await knex('locations').where({ id: location }).first('id'))) throw new MailboxError(`No location ${location}`);
      const mailbox = await loadMailboxForSending(knex, await secretsOf(knex), location).catch(() => {
        throw new MailboxError('The saved password can no longer be read (SECRET_KEY changed?). Set the mailbox again.');
      });
      if (!mailbox) throw new MailboxError(`Location ${location} has no mailbox (set one with: mailbox set --location ${location} --smtp-url URL --from ADDRESS)`);
      const now = clock.now();
      try {
        // Connects, authenticates and sends one message, through the same address policy and TLS rules as the worker.
        const sent = await sendThroughMailbox(mailbox, {
          to: [to], subject: 'Test message from Deal-Funding', date: now, messageId: mintMessageId(mailbox.from.address),
          text: `This is a test message sent with \`cli mailbox test\` at ${now.toISOString()}.\nThe mailbox of this location can send email.\n`,
        });
        return { sent: true, to, from: mailbox.from.address, smtp_host: mailbox.target.host, smtp_port: mailbox.target.port, accepted: sent.accepted };
      } catch (err) {
        throw new MailboxError(`The test message was not sent: ${plainFailure(err, mailbox)}`);
      }
    };
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
  'save-untested': { type: 'boolean' },
  to: { type: 'string' },
} as const;

export const MAIL_USAGE = `  mailbox set --location ID --smtp-url URL --from ADDRESS
                                                  URL: smtps://USER:PASSWORD@HOST[:465] or smtp://USER:PASSWORD@HOST[:587]
                                                  (STARTTLS required); percent-encode @ : / in USER and PASSWORD;
                                                  the password is sealed and never printed. ADDRESS: "Name <addr@example.com>"
                                                  Connects and authenticates first; on failure nothing is saved
                                                  (--save-untested saves it anyway). A test location may use a local
                                                  mail catcher over plain smtp://127.0.0.1:PORT (see OPERATIONS.md)
  mailbox test --location ID --to ADDRESS         connect, authenticate and send one test message to ADDRESS
  mailbox show --location ID                      the mailbox, without its password
  email list --location ID [--status queued|sent|failed|dead|no_mailbox]
                                                  every outgoing message, newest first, without bodies`;
