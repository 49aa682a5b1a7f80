import type { AddressObject, ParsedMail } from 'mailparser';
import { ApiError } from '../../http/errors';
import { sha256Hex } from '../../lib/crypto';
import { htmlToText, MAX_HTML_CHARS } from './reply-text';

// Parsing a raw lender reply (inbound.service.ts): what is stored is clean text, bounded.

/** Largest raw message accepted (bytes). */
export const INBOUND_MAX_BYTES = 25 * 1024 * 1024;
/** Longest `text` kept and shown. */
export const INBOUND_TEXT_MAX = 100_000;

/** PostgreSQL text cannot hold NUL, and lone surrogates are not Unicode: what we store is clean. */
export function clean(s: string): string {
  return s.replace(/\u0000/g, '\uFFFD').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
export function cleanJson<T>(value: T): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? clean(v) : v));
}

const HEADER_LINE = /^[\x21-\x39\x3B-\x7E]+:/;
const badEmail = (why: string) => new ApiError('invalid_email', `The body is not an email: ${why}`);

export interface ParsedInbound {
  parsed: ParsedMail;
  messageId: string | null;
  dedupeKey: string;
  from: { address: string; name: string | null };
  recipients: string[];
  subject: string;
  text: string;
}

function addresses(obj: AddressObject | AddressObject[] | undefined): { address: string; name: string }[] {
  const out: { address: string; name: string }[] = [];
  const walk = (list: { address?: string; name: string; group?: unknown[] }[]) => {
    for (const a of list) {
      if (a.address) out.push({ address: a.address, name: a.name });
      if (Array.isArray(a.group)) walk(a.group as { address?: string; name: string }[]);
    }
  };
  for (const o of obj ? (Array.isArray(obj) ? obj : [obj]) : []) walk(o.value);
  return out;
}

/** Parses a raw message; a body that is not an email is `invalid_email` (nothing is stored). */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  if (raw.length === 0) throw badEmail('it is empty');
  // An mbox "From " separator line, as some relays prepend it, is not part of the message.
  let start = 0;
  if (raw.subarray(0, 5).toString('latin1') === 'From ') start = raw.indexOf(0x0a) + 1 || raw.length;
  const firstLine = raw.subarray(start, Math.min(raw.length, start + 1000)).toString('latin1').split(/\r?\n/)[0];
  if (!HEADER_LINE.test(firstLine)) throw badEmail('it does not start with a header field');
  const blank = [raw.indexOf('\n\n', start), raw.indexOf('\r\n\r\n', start)].filter((i) => i >= 0);
  const head = raw.subarray(start, blank.length ? Math.min(...blank) : raw.length);
  if (head.includes(0)) throw badEmail('its header contains a NUL byte');
  let parsed: ParsedMail;
  try {
    const { simpleParser } = await import('mailparser'); // loaded by the first email, not at start (~0.15 s)
    parsed = await simpleParser(start ? raw.subarray(start) : raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  } catch {
    throw badEmail('it could not be parsed as MIME');
  }
  const from = addresses(parsed.from)[0];
  if (!from) throw badEmail('it has no From address');
  let text = parsed.text?.trim() ? parsed.text : '';
  if (!text && typeof parsed.html === 'string') {
    try {
      text = htmlToText(parsed.html.slice(0, MAX_HTML_CHARS)); // bounded work, as the classifier's own reading
    } catch {
      text = ''; // markup too deeply nested to read: the message is still kept
    }
  }
  const messageId = parsed.messageId ? clean(parsed.messageId).slice(0, 998) : null;
  const recipients = [...addresses(parsed.to), ...addresses(parsed.cc)].map((a) => a.address);
  for (const name of ['delivered-to', 'x-original-to', 'envelope-to']) {
    const v = parsed.headers.get(name);
    for (const one of Array.isArray(v) ? v : v ? [v] : []) {
      const s = typeof one === 'string' ? one : ((one as { text?: string }).text ?? '');
      for (const m of s.matchAll(/[^\s<>,;"]+@[^\s<>,;"]+/g)) recipients.push(m[0]);
    }
  }
  return {
    parsed,
    messageId,
    // Hashed: a Message-ID can be long enough (and non-ASCII) to overflow a btree index row.
    dedupeKey: messageId ? `mid:${sha256Hex(messageId)}` : `sha256:${sha256Hex(raw)}`,
    from: { address: clean(from.address).slice(0, 998), name: from.name ? clean(from.name).slice(0, 998) : null },
    recipients: [...new Set(recipients.map((r) => clean(r).slice(0, 998)))].slice(0, 100),
    subject: clean(parsed.subject ?? '').slice(0, 998),
    text: clean(text).slice(0, INBOUND_TEXT_MAX),
  };
}
