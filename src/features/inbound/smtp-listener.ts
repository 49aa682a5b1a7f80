import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { InboundSmtpLimits } from '../../config';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { parseFromAddress } from '../../mail/mailbox';
import { normalizeTraceCode } from '../submissions/trace-code';
import { INBOUND_MAX_BYTES, receiveInboundEmail } from './inbound.service';
import { fromTrustedHeader, verifyOnListener, type DnsResolver, type SenderAuth } from './sender-auth';

// The optional self-hosted MX for lender replies. A location's submission emails go out From its
// mailbox address (`deals@northwind.example`) with `Reply-To: deals+<trace code>@northwind.example`;
// point that domain's MX (or a relay's transport for it) here and the replies arrive without any
// third-party inbound provider. Each message goes through the same `receiveInboundEmail` as
// POST /v1/inbound-emails: stored whole, matched, classified, applied.
//
// - No AUTH (it is an MX) and no STARTTLS (run it behind a TLS-terminating relay, or on loopback).
// - RCPT: accepted only for an address of some location's mailbox (the local part without its
//   `+tag`, and the domain, case-insensitively); anything else is 550 5.1.1 at RCPT, so a message
//   for nobody is never read. One query per RCPT, nothing cached across messages.
// - DATA: at most `maxBytes` (SIZE extension, and counted while reading: 552, nothing stored). The
//   message is handed to each distinct location among the accepted recipients once; not an email:
//   550; anything else (the database is down...): 451, the sender tries again later (a retry of a
//   message already stored for one location is recognised there and changes nothing).
// - Sender authentication (sender-auth.ts): the listener checks DKIM on the bytes and SPF for the
//   envelope sender and the connecting address itself; a message from a trusted relay
//   (INBOUND_SMTP_TRUSTED_RELAYS) is judged by that relay's Authentication-Results header instead.
//   An unauthenticated message is stored but never applied unseen.
// - Volume (M6), on the injected clock: per client address and per location, messages and bytes per
//   window; per location, bytes per UTC day (what is stored, from the database, so every listener
//   process sees it). Beyond a client limit: 421 (the connection closes); beyond a location limit:
//   452 at RCPT or after DATA (nothing stored). Both are temporary: a real mail server retries
//   later. Trusted relays are exempt from the per-client limits (all mail comes from them).
// - Nothing of a message (text, subject, addresses) is logged: ids, sizes and error classes only.

export interface InboundSmtpOptions {
  host: string;
  /** 0 picks a free port (tests); the chosen one is returned. */
  port: number;
  /** Largest message accepted, in bytes (default INBOUND_MAX_BYTES; tests lower it). */
  maxBytes?: number;
  /** Limits (default: the configuration's, then DEFAULT_LIMITS). */
  limits?: Partial<InboundSmtpLimits>;
  /** DNS for SPF and DKIM (tests serve a table; default: the system resolver). */
  resolver?: DnsResolver;
  /** Relay addresses whose Authentication-Results header is believed (default: the configuration's). */
  trustedRelays?: string[];
}

export const DEFAULT_LIMITS: InboundSmtpLimits = {
  windowMs: 10 * 60_000,
  clientMessages: 20,
  clientBytes: 50 * 1024 * 1024,
  locationMessages: 100,
  locationBytes: 100 * 1024 * 1024,
  locationDailyBytes: 300 * 1024 * 1024,
};

/** Fixed-window counters of messages and bytes per key, on the injected clock (one listener process). */
class Windows {
  private readonly counts = new Map<string, { start: number; messages: number; bytes: number }>();
  constructor(private readonly windowMs: number) {}
  get(key: string, now: number) {
    const c = this.counts.get(key);
    if (c && now - c.start < this.windowMs) return c;
    if (this.counts.size > 10_000) for (const [k, v] of this.counts) if (now - v.start >= this.windowMs) this.counts.delete(k);
    const fresh = { start: now, messages: 0, bytes: 0 };
    this.counts.set(key, fresh);
    return fresh;
  }
}

const normalizeIp = (ip: string) => ip.replace(/^::ffff:/i, '');

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply: the code and a sentence starting with its enhanced status code (RFC 3463). */
const reply = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });
const NO_SUCH_MAILBOX = () => reply(550, '5.1.1 No such mailbox here');
const TOO_BIG = (max: number) => reply(552, `5.3.4 Message too big: the limit is ${max} bytes`);
const NOT_AN_EMAIL = () => reply(550, '5.6.0 The message is not a valid email');
const TRY_LATER = () => reply(451, '4.3.0 Temporary failure, please try again later');
const CLIENT_LIMIT = () => reply(421, '4.7.0 Too much mail from your address, try again later');
const LOCATION_LIMIT = () => reply(452, '4.2.2 This mailbox receives too much mail right now, try again later');
const DAILY_LIMIT = () => reply(452, '4.2.2 This mailbox has received its daily volume, try again later');

/** A domain as mailbox From addresses have them (ASCII labels, see `isEmailAddress`): safe inside LIKE. */
const ASCII_DOMAIN = /^[a-z0-9.-]+$/;

interface Recipient {
  /** `local@domain`, lower case, the local part without its `+tag`. */
  base: string;
  domain: string;
  /** The `+tag`, when it is a trace code: the submission the reply is for. */
  traceCode: string | null;
}

function splitRecipient(address: string): Recipient | null {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 1 || at === lower.length - 1) return null;
  const local = lower.slice(0, at);
  const domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  const baseLocal = plus < 0 ? local : local.slice(0, plus);
  if (!baseLocal) return null;
  return { base: `${baseLocal}@${domain}`, domain, traceCode: plus < 0 ? null : normalizeTraceCode(local.slice(plus + 1)) };
}

/** A mailbox From address compared the same way: lower case, without a `+tag` of its own. */
function mailboxBase(fromAddress: string): string | null {
  try {
    const r = splitRecipient(parseFromAddress(fromAddress).address);
    return r ? r.base : null;
  } catch {
    return null;
  }
}

/**
 * The location whose mailbox this recipient is, or null. One query. Should two locations use the
 * same mailbox address, the reply goes only to the one that owns the submission named by the
 * `+tag`; without such a tag it is nobody's (it must never reach the wrong location).
 */
async function locationOfRecipient(deps: Deps, address: string): Promise<{ locationId: string } | { ambiguous: number } | null> {
  const r = splitRecipient(address);
  if (!r || !ASCII_DOMAIN.test(r.domain)) return null;
  const q = deps.db.knex('mailboxes as m').whereRaw('lower(m.from_address) like ?', [`%@${r.domain}%`]);
  if (r.traceCode) {
    q.leftJoin('submissions as s', (j) => {
      j.on('s.location_id', '=', 'm.location_id').andOnVal('s.trace_code', '=', r.traceCode!);
    });
    q.select('m.location_id', 'm.from_address', 's.id as submission_id');
  } else {
    q.select('m.location_id', 'm.from_address');
  }
  const rows = (await q) as { location_id: string; from_address: string; submission_id?: string | null }[];
  const owners = rows.filter((row) => mailboxBase(row.from_address) === r.base);
  if (owners.length === 1) return { locationId: owners[0].location_id };
  if (owners.length === 0) return null;
  const bySubmission = owners.filter((row) => row.submission_id);
  if (bySubmission.length === 1) return { locationId: bySubmission[0].location_id };
  return { ambiguous: owners.length };
}

// Where an MTA delivers a message it records the envelope recipient as `Delivered-To:` (Postfix
// does): the matcher reads it, so a reply whose own To/Cc does not show the tagged address (a Bcc,
// a forward) still finds its submission. Only on something that starts like a message (a header
// line), so that a body that is not an email stays one.
const HEADER_LINE = /^[\x21-\x39\x3B-\x7E]+:/;
const PRINTABLE_ADDRESS = /^[\x21-\x7E]{3,320}$/;

function withDeliveredTo(raw: Buffer, recipients: string[]): Buffer {
  const first = raw.subarray(0, 1000).toString('latin1');
  if (!HEADER_LINE.test(first)) return raw; // also leaves an mbox `From ` line first, where the parser expects it
  const lines = [...new Set(recipients)].filter((a) => PRINTABLE_ADDRESS.test(a)).sort().map((a) => `Delivered-To: ${a}\r\n`);
  const head = Buffer.from(lines.join(''), 'latin1');
  // A message that fits stays one that fits: no header pushes it over the service's own limit.
  return head.length && raw.length + head.length <= INBOUND_MAX_BYTES ? Buffer.concat([head, raw]) : raw;
}

/** An error as it may be logged: its class and codes, the message without quoted values or addresses. */
function safeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const e = err as Error & { code?: unknown };
  // Knex prefixes a database error with the statement (`insert into ... - <the database's words>`).
  const text = /^(select|insert|update|delete|with)\s/i.test(e.message) && e.message.includes(' - ') ? e.message.slice(e.message.lastIndexOf(' - ') + 3) : e.message;
  const message = text
    .replace(/"[^"]*"|'[^']*'|\([^()]*\)=\([^()]*\)/g, '[value]')
    .replace(/\S+@\S+/g, '[address]')
    .slice(0, 300);
  const stack = (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 10).join('\n');
  return { type: e.name, ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}), message, stack };
}

export async function startInboundSmtp(deps: Deps, opts: InboundSmtpOptions): Promise<InboundSmtp> {
  const maxBytes = opts.maxBytes ?? INBOUND_MAX_BYTES;
  const log = deps.logger.child({ component: 'inbound-smtp' });
  const limits: InboundSmtpLimits = { ...DEFAULT_LIMITS, ...deps.config.inboundSmtpLimits, ...opts.limits };
  const relays = new Set((opts.trustedRelays ?? deps.config.inboundSmtpTrustedRelays ?? []).map(normalizeIp));
  const clients = new Windows(limits.windowMs);
  const locations = new Windows(limits.windowMs);
  const now = () => deps.clock.now().getTime();
  const isRelay = (session: SMTPServerSession) => relays.has(normalizeIp(session.remoteAddress));
  /** Whether a client is over its window (a relay never is). */
  const clientOver = (session: SMTPServerSession, adding = 0) => {
    if (isRelay(session)) return false;
    const c = clients.get(normalizeIp(session.remoteAddress), now());
    return c.messages >= limits.clientMessages || c.bytes + adding > limits.clientBytes;
  };
  /** What a location stored today (UTC, on the injected clock). */
  const storedToday = async (locationId: string): Promise<number> => {
    const t = deps.clock.now();
    const dayStart = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
    const row = (await deps.db.knex('inbound_emails').where({ location_id: locationId }).where('created_at', '>=', dayStart).first(deps.db.knex.raw('coalesce(sum(octet_length(raw)), 0) as bytes'))) as { bytes: number | string } | undefined;
    return Number(row?.bytes ?? 0);
  };
  /** The refusal for a location about to take `adding` more bytes, or null. */
  const locationRefusal = async (locationId: string, adding: number): Promise<Error | null> => {
    const c = locations.get(locationId, now());
    if (c.messages >= limits.locationMessages || c.bytes + adding > limits.locationBytes) return LOCATION_LIMIT();
    if ((await storedToday(locationId)) + adding > limits.locationDailyBytes) return DAILY_LIMIT();
    return null;
  };
  // The location of each accepted recipient, kept on the envelope's own address objects (so it
  // lives exactly as long as the transaction).
  const locationOf = new WeakMap<SMTPServerAddress, string>();

  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // The replies below carry their own enhanced status codes.
    hideENHANCEDSTATUSCODES: true,
    size: maxBytes,
    maxRecipients: 100,
    banner: 'lender replies',
    // The client's name is not used for anything: no reverse DNS query per connection.
    disableReverseLookup: true,

    onConnect(session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (clientOver(session)) {
        log.info({ limit: 'client' }, 'inbound smtp: client over its limits; answered 421');
        return callback(CLIENT_LIMIT());
      }
      callback();
    },

    onMailFrom(_address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (clientOver(session)) {
        log.info({ limit: 'client' }, 'inbound smtp: client over its limits; answered 421');
        return callback(CLIENT_LIMIT());
      }
      callback();
    },

    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      locationOfRecipient(deps, address.address).then(
        (found) => {
          if (!found) return callback(NO_SUCH_MAILBOX());
          if ('ambiguous' in found) {
            log.warn({ locations: found.ambiguous }, 'inbound smtp: a recipient is the mailbox address of several locations and names none of their submissions; refused');
            return callback(NO_SUCH_MAILBOX());
          }
          return locationRefusal(found.locationId, 0).then((refused) => {
            if (refused) {
              log.info({ location_id: found.locationId, limit: 'location' }, 'inbound smtp: location over its limits; answered 452 at RCPT');
              return callback(refused);
            }
            locationOf.set(address, found.locationId);
            callback();
          }, (err: unknown) => {
            log.error({ err: safeError(err) }, 'inbound smtp: volume lookup failed; answered 451');
            callback(TRY_LATER());
          });
        },
        (err: unknown) => {
          log.error({ err: safeError(err) }, 'inbound smtp: recipient lookup failed; answered 451');
          callback(TRY_LATER());
        },
      );
    },

    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let tooBig = false;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (tooBig) return; // read to the end (the protocol needs it), keep nothing
        if (bytes > maxBytes) {
          tooBig = true;
          chunks.length = 0;
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', () => undefined); // the connection reports it; 'end' never comes and nothing is stored
      stream.on('end', () => {
        if (tooBig || stream.sizeExceeded) {
          log.info({ bytes, limit: maxBytes }, 'inbound smtp: message over the size limit; answered 552');
          return callback(TOO_BIG(maxBytes));
        }
        const raw = Buffer.concat(chunks, bytes);
        // Counted whatever becomes of it: reading it cost as much.
        const overBefore = clientOver(session, bytes);
        if (!isRelay(session)) {
          const c = clients.get(normalizeIp(session.remoteAddress), now());
          c.messages += 1;
          c.bytes += bytes;
        }
        if (overBefore) {
          log.info({ bytes, limit: 'client' }, 'inbound smtp: client over its limits; answered 421 after DATA, nothing stored');
          return callback(CLIENT_LIMIT());
        }
        // Each distinct location once, with the recipients that were its own.
        const perLocation = new Map<string, string[]>();
        for (const rcpt of session.envelope.rcptTo) {
          const locationId = locationOf.get(rcpt);
          if (!locationId) continue;
          perLocation.set(locationId, [...(perLocation.get(locationId) ?? []), rcpt.address]);
        }
        void (async () => {
          if (perLocation.size === 0) return callback(TRY_LATER()); // cannot happen: DATA needs an accepted RCPT
          let auth: SenderAuth;
          try {
            for (const locationId of perLocation.keys()) {
              const refused = await locationRefusal(locationId, raw.length);
              if (refused) {
                log.info({ location_id: locationId, bytes, limit: 'location' }, 'inbound smtp: location over its limits; answered 452 after DATA, nothing stored');
                return callback(refused);
              }
            }
            auth = isRelay(session)
              ? fromTrustedHeader(raw, deps.config.inboundTrustedAuthservIds ?? [])
              : await verifyOnListener(raw, { ip: normalizeIp(session.remoteAddress), helo: session.hostNameAppearsAs, mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, resolver: opts.resolver, now: deps.clock.now() });
          } catch (err) {
            log.error({ bytes, err: safeError(err) }, 'inbound smtp: could not check a message; answered 451');
            return callback(TRY_LATER());
          }
          for (const [locationId, recipients] of perLocation) {
            try {
              const { email, created } = await receiveInboundEmail(deps, locationId, withDeliveredTo(raw, recipients), { auth });
              if (created) {
                const c = locations.get(locationId, now());
                c.messages += 1;
                c.bytes += raw.length;
              }
              log.info({ location_id: locationId, inbound_email_id: email.id, status: email.status, created, bytes, auth: auth.via, authenticated_domains: auth.domains.length }, 'inbound smtp: message received');
            } catch (err) {
              if (err instanceof ApiError && err.code === 'invalid_email') {
                log.info({ location_id: locationId, bytes }, 'inbound smtp: not an email; answered 550');
                return callback(NOT_AN_EMAIL());
              }
              if (err instanceof ApiError && err.code === 'body_too_large') return callback(TOO_BIG(maxBytes));
              log.error({ location_id: locationId, bytes, err: safeError(err) }, 'inbound smtp: could not store a message; answered 451');
              return callback(TRY_LATER());
            }
          }
          callback(null, '2.6.0 Message accepted');
        })();
      });
    },
  });
  // Connection-level errors (a client reset, a socket timeout): the session is over, nothing to do.
  server.on('error', (err) => log.debug({ err: safeError(err) }, 'inbound smtp: connection error'));

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.server.once('error', onError);
    server.listen(opts.port, opts.host, () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
