import type { Knex } from 'knex';
import { AccountError } from '../lib/account-error';
import type { Clock } from '../lib/clock';
import type { SecretBox } from '../lib/crypto';
import { bareHost, policyForLocation, vetUrl, type AddressPolicy, type RefusedUrl, type VettedUrl } from '../outbound/policy';

// A location's mailbox: the SMTP server its mail leaves through, and the From it uses.
//
//   smtp://USER:PASSWORD@HOST[:PORT]    port 587 by default; STARTTLS is required, except for
//                                       localhost / 127.0.0.1 of a test location
//   smtps://USER:PASSWORD@HOST[:PORT]   port 465 by default; TLS from the first byte
//   (user and password are optional together: a relay that needs no login)
//
// The password is sealed (SecretBox, AES-256-GCM) into `password_sealed`; `smtp_url` is stored
// without it, normalised (explicit port, user percent-encoded). Nothing here ever returns, prints or
// logs the password: the only way to it is `loadMailboxForSending`, for the mail sender.
//
// The SMTP host answers to the one outbound address policy (src/outbound/policy.ts), by the rules of
// the mailbox's location: public addresses only, or also localhost / 127.0.0.1 for a test location.
// It is checked when the mailbox is set (a clear refusal, nothing stored) and again before every send
// (DNS and the location may have changed since), and the sender dials only the addresses vetted then.

/** A mailbox that can not be set (bad URL, bad From, unknown location, host refused by the policy). */
export class MailboxError extends AccountError {}

export const SMTP_DEFAULT_PORT = { 'smtp:': 587, 'smtps:': 465 } as const;

export interface SmtpTarget {
  protocol: 'smtp:' | 'smtps:';
  /** Normalised host name or IP address (no brackets, lower case, punycode). */
  host: string;
  port: number;
  user: string | null;
  password: string | null;
}

/** How a mailbox is shown: never the password, only whether there is one. */
export interface MailboxView {
  location_id: string;
  /** The SMTP URL without the password. */
  smtp_url: string;
  from: string;
  has_password: boolean;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------- the SMTP URL

const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The URL as stored and shown: no password, explicit port. */
export function smtpUrlWithoutPassword(t: Pick<SmtpTarget, 'protocol' | 'host' | 'port' | 'user'>): string {
  const user = t.user ? `${encodeURIComponent(t.user)}@` : '';
  return `${t.protocol}//${user}${hostForUrl(t.host)}:${t.port}`;
}

/** C0 controls and DEL: never part of a credential. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Parses `smtp[s]://[USER:PASSWORD@]HOST[:PORT]`. Error messages never repeat the input (it may hold
 * the password). `stored`: the password-free form kept in `mailboxes.smtp_url` (a user, no password).
 */
export function parseSmtpUrl(input: string, opts: { stored?: boolean } = {}): SmtpTarget {
  const text = String(input ?? '').trim();
  // The URL parser would silently drop a tab, CR or LF: the stored credential would not be the one given.
  if (CONTROL.test(text)) throw new MailboxError('--smtp-url must not contain control characters (CR, LF, tab, ...)');
  const scheme = /^(smtps?):\/\//i.exec(text);
  if (!scheme) throw new MailboxError('--smtp-url must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465');
  let raw: URL;
  let special: URL;
  try {
    raw = new URL(text); // a non-special scheme: port and user information exactly as given
    // The host as the web's URL parser normalises it (IDNA, IPv4 spellings such as 0x7f.1), the
    // same parser the address policy judges.
    special = new URL(`https://${text.slice(scheme[0].length)}`);
  } catch {
    throw new MailboxError('--smtp-url is not a valid URL (percent-encode @ : / ? # in the user name and password)');
  }
  const protocol = scheme[1].toLowerCase() === 'smtps' ? 'smtps:' : 'smtp:';
  const host = bareHost(special);
  if (!host) throw new MailboxError('--smtp-url must name a host');
  if ((raw.pathname && raw.pathname !== '/') || raw.search || raw.hash) {
    throw new MailboxError('--smtp-url must be only smtp[s]://user:password@host[:port] (no path or query)');
  }
  let port: number = SMTP_DEFAULT_PORT[protocol];
  if (raw.port) {
    port = Number(raw.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new MailboxError('--smtp-url port must be between 1 and 65535');
  }
  let user: string | null = null;
  let password: string | null = null;
  try {
    user = raw.username ? decodeURIComponent(raw.username) : null;
    password = raw.password ? decodeURIComponent(raw.password) : null;
  } catch {
    throw new MailboxError('--smtp-url user name or password is not correctly percent-encoded');
  }
  // Percent-encoded CR/LF would reach the SMTP AUTH exchange as a line break (command injection).
  if ((user && CONTROL.test(user)) || (password && CONTROL.test(password))) {
    throw new MailboxError('--smtp-url user name or password must not contain control characters (CR, LF, tab, ... also percent-encoded)');
  }
  if (password && !user) throw new MailboxError('--smtp-url has a password but no user name');
  if (user && !password && !opts.stored) throw new MailboxError('--smtp-url has a user name but no password (smtp[s]://user:password@host)');
  return { protocol, host, port, user, password };
}

// ---------------------------------------------------------------- the From address

// An addr-spec as mail servers accept it: dot-atom local part, a domain of at least two labels.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const ATOM_NAME = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/;

export interface FromAddress {
  name: string | null;
  address: string;
}

export function isEmailAddress(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(text.slice(at + 1));
}

/** `addr@example.com` or `Display Name <addr@example.com>` (the name optionally in double quotes). */
export function parseFromAddress(input: string): FromAddress {
  const text = String(input ?? '').trim();
  const bad = () => new MailboxError('--from must be an email address, optionally with a name: "Northwind Capital <deals@northwind.example>"');
  const angle = /^(.*?)\s*<([^<>]*)>$/s.exec(text);
  let name: string | null = null;
  let address = text;
  if (angle) {
    name = angle[1].trim();
    address = angle[2].trim();
    if (/^".*"$/s.test(name)) name = name.slice(1, -1).trim();
    if (!name) name = null;
  }
  if (!isEmailAddress(address)) throw bad();
  if (name !== null) {
    // No line breaks or control characters (header injection), no quotes or brackets of its own.
    if (name.length > 100 || /[\u0000-\u001f\u007f"<>\\]/.test(name)) throw bad();
  }
  return { name, address };
}

/** The From as stored: `addr` or `Name <addr>`, the name quoted when it holds specials. */
export function formatFromAddress(f: FromAddress): string {
  if (!f.name) return f.address;
  return ATOM_NAME.test(f.name) ? `${f.name} <${f.address}>` : `"${f.name}" <${f.address}>`;
}

// ---------------------------------------------------------------- the address policy for SMTP

/** The SMTP host under the outbound address policy. `reason` is a sentence for people. */
export async function vetSmtpHost(host: string, policy: AddressPolicy, opts: { signal?: AbortSignal } = {}): Promise<VettedUrl | RefusedUrl> {
  // The policy speaks URLs; an SMTP host is judged as the host of an https URL would be: public
  // addresses only, plus localhost / 127.0.0.1 for a test location.
  const vetted = await vetUrl(`https://${hostForUrl(host)}/`, policy, opts);
  if (vetted.ok) return vetted;
  return { ...vetted, reason: vetted.reason.replace(/^url host /, 'SMTP host ').replace(/^url /, 'SMTP URL ') };
}

// ---------------------------------------------------------------- repository and service

interface MailboxRow {
  location_id: string;
  smtp_url: string;
  password_sealed: string | null;
  from_address: string;
  created_at: Date;
  updated_at: Date;
}

const toView = (row: MailboxRow): MailboxView => ({
  location_id: row.location_id,
  smtp_url: row.smtp_url,
  from: row.from_address,
  has_password: !!row.password_sealed,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

async function locationOf(knex: Knex | Knex.Transaction, locationId: string): Promise<{ id: string; is_test: boolean }> {
  const loc = await knex('locations').where({ id: String(locationId ?? '') }).first('id', 'is_test');
  if (!loc) throw new MailboxError(`No location ${locationId}`);
  return loc;
}

/**
 * Sets (or replaces) the mailbox of a location. Everything is replaced: a URL without a password
 * leaves the mailbox without one (a password is never carried over to a changed host).
 */
export async function setMailbox(
  knex: Knex,
  secrets: SecretBox,
  clock: Clock,
  input: { locationId: string; smtpUrl: string; from: string },
): Promise<MailboxView> {
  const target = parseSmtpUrl(input.smtpUrl);
  const from = parseFromAddress(input.from);
  const loc = await locationOf(knex, input.locationId);
  const vetted = await vetSmtpHost(target.host, policyForLocation({ locationIsTest: loc.is_test }), { signal: AbortSignal.timeout(5_000) });
  if (!vetted.ok) throw new MailboxError(`--smtp-url refused: ${vetted.reason}`);
  const now = clock.now();
  const row = {
    location_id: loc.id,
    smtp_url: smtpUrlWithoutPassword(target),
    password_sealed: target.password ? secrets.seal(target.password) : null,
    from_address: formatFromAddress(from),
    created_at: now,
    updated_at: now,
  };
  await knex('mailboxes').insert(row).onConflict('location_id').merge(['smtp_url', 'password_sealed', 'from_address', 'updated_at']);
  return (await getMailbox(knex, loc.id))!;
}

/** The mailbox of a location without its password, or null when it has none. */
export async function getMailbox(knex: Knex | Knex.Transaction, locationId: string): Promise<MailboxView | null> {
  const row = (await knex('mailboxes').where({ location_id: locationId }).first()) as MailboxRow | undefined;
  return row ? toView(row) : null;
}

/** `getMailbox`, but an unknown location is an error rather than "no mailbox". */
export async function showMailbox(knex: Knex, locationId: string): Promise<MailboxView | null> {
  await locationOf(knex, locationId);
  return getMailbox(knex, locationId);
}

/** What the sender needs: the target with its password opened, the From and the location's policy. */
export interface SendingMailbox {
  target: SmtpTarget;
  from: FromAddress;
  locationIsTest: boolean;
  updatedAt: Date;
}

/** For the mail sender only. Throws when the sealed password can not be opened. */
export async function loadMailboxForSending(knex: Knex | Knex.Transaction, secrets: SecretBox, locationId: string): Promise<SendingMailbox | null> {
  const row = (await knex('mailboxes as m')
    .join('locations as l', 'l.id', 'm.location_id')
    .where('m.location_id', locationId)
    .first('m.*', 'l.is_test')) as (MailboxRow & { is_test: boolean }) | undefined;
  if (!row) return null;
  const target = parseSmtpUrl(row.smtp_url, { stored: true });
  target.password = row.password_sealed ? secrets.open(row.password_sealed) : null;
  return { target, from: parseFromAddress(row.from_address), locationIsTest: row.is_test, updatedAt: new Date(row.updated_at) };
}
