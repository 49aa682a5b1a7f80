/**
 * Verifying Deal-Funding Platform webhooks (shipped to partners as `deal-funding-api/webhooks`).
 * Self-contained: it needs nothing but `node:crypto`, so it may also be copied as one file.
 *
 * ```ts
 * import express from 'express';
 * import { verifyWebhookSignature } from 'deal-funding-api/webhooks';
 *
 * app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
 *   if (!verifyWebhookSignature(req.body, req.get('X-SVC-Signature'), process.env.SVC_WEBHOOK_SECRET!)) {
 *     return res.status(400).end();
 *   }
 *   const event = JSON.parse(req.body.toString('utf8'));
 *   res.status(204).end(); // acknowledge fast; dedupe on event.id; work asynchronously
 * });
 * ```
 *
 * The rules (openapi.yaml, "Verifying signatures"): `X-SVC-Signature` is `t=<unix seconds>,v1=<hex>`
 * where each `v1` is HMAC-SHA256, keyed with a subscription secret, over `<t>.<raw body>` (the
 * timestamp, a dot, the exact body bytes). During a secret rotation the header carries one `v1=` per
 * live secret: any match is enough. The timestamp must be within the tolerance (5 minutes) of your
 * clock, in either direction, so a captured delivery cannot be replayed later. Hash the bytes as
 * received: a body parsed and serialised again is not the body that was signed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'X-SVC-Signature';
/** How far (seconds) the signed timestamp may be from your clock, in either direction. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Seconds the signed timestamp may differ from `now`, either way (default 300). */
  toleranceSeconds?: number;
  /** The receiver's current time: a Date or epoch milliseconds (default `Date.now()`). */
  now?: Date | number;
}

/** Why a signature was refused (`WebhookSignatureError.reason`). */
export type SignatureFailure =
  | 'no_secret' // no usable secret was configured
  | 'no_body' // the body is not a string, Buffer or Uint8Array (was it parsed already?)
  | 'no_header' // the X-SVC-Signature header is missing or empty
  | 'malformed_header' // no single numeric t=, or no well-formed v1= value
  | 'timestamp_out_of_tolerance' // t is too old, or too far in the future
  | 'no_matching_signature'; // no v1= value matches any of the secrets

/** The envelope every event shares (`type` decides the shape of `data`). */
export interface WebhookEventEnvelope {
  id: string;
  type: string;
  created_at: string;
  location_id: string;
  data: Record<string, unknown>;
}

/** Thrown by {@link constructEvent}; `reason` says which rule failed. */
export class WebhookSignatureError extends Error {
  readonly reason: SignatureFailure | 'invalid_json';
  constructor(reason: SignatureFailure | 'invalid_json', message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
    this.reason = reason;
  }
}

const MESSAGES: Record<SignatureFailure | 'invalid_json', string> = {
  no_secret: 'No webhook signing secret was given (expected a whsec_... value)',
  no_body: 'The raw request body is required (a string, Buffer or Uint8Array); parse the JSON only after verifying',
  no_header: `The ${SIGNATURE_HEADER} header is missing`,
  malformed_header: `The ${SIGNATURE_HEADER} header is not of the form t=<unix seconds>,v1=<64 hex characters>`,
  timestamp_out_of_tolerance: `The ${SIGNATURE_HEADER} timestamp is outside the tolerance (a replay, or your clock is off)`,
  no_matching_signature: 'No signature matches the body and secret: was the body changed (parsed, re-serialised, re-encoded) or is this the wrong secret?',
  invalid_json: 'The signed body is not valid JSON',
};

/** Headers longer than this are not a signature (one rotation gives two `v1=` values). */
const MAX_HEADER_LENGTH = 4096;
const MAX_SIGNATURES = 16;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

function bodyBytes(rawBody: unknown): Buffer | undefined {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  return undefined;
}

function nowSeconds(now: unknown): number {
  const ms = now === undefined ? Date.now() : now instanceof Date ? now.getTime() : typeof now === 'number' ? now : NaN;
  return ms / 1000;
}

/** The reason a delivery fails verification, or null when it passes. Never throws. */
export function checkWebhookSignature(
  rawBody: string | Buffer | Uint8Array,
  header: string | null | undefined,
  secrets: string | string[],
  opts: VerifyOptions = {},
): SignatureFailure | null {
  try {
    const keys = (Array.isArray(secrets) ? secrets : [secrets]).filter((s): s is string => typeof s === 'string' && s.length > 0);
    if (!keys.length) return 'no_secret';
    const body = bodyBytes(rawBody);
    if (!body) return 'no_body';
    if (typeof header !== 'string' || !header.trim()) return 'no_header';
    if (header.length > MAX_HEADER_LENGTH) return 'malformed_header';

    let t: number | undefined;
    let timestamps = 0;
    const given: Buffer[] = [];
    for (const part of header.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const key = part.slice(0, eq).trim();
      const value = part.slice(eq + 1).trim();
      if (key === 't') {
        timestamps++;
        if (UNIX_SECONDS.test(value)) t = Number(value);
      } else if (key === 'v1' && HEX64.test(value) && given.length < MAX_SIGNATURES) {
        given.push(Buffer.from(value, 'hex'));
      } // other schemes (a future v2) are ignored
    }
    if (timestamps !== 1 || t === undefined || !given.length) return 'malformed_header';

    const tolerance = opts?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const now = nowSeconds(opts?.now);
    if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0 || !Number.isFinite(now)) return 'timestamp_out_of_tolerance';
    if (Math.abs(now - t) > tolerance) return 'timestamp_out_of_tolerance';

    let ok = false;
    for (const key of keys) {
      const expected = createHmac('sha256', key).update(`${t}.`).update(body).digest();
      // Every candidate is compared, in constant time, with no early exit.
      for (const g of given) ok = timingSafeEqual(g, expected) || ok;
    }
    return ok ? null : 'no_matching_signature';
  } catch {
    return 'malformed_header';
  }
}

/**
 * True when `header` (the `X-SVC-Signature` value) signs `rawBody` with one of `secrets` and its
 * timestamp is within `toleranceSeconds` (300) of `now`. Pass the raw body bytes, before any JSON
 * parsing. Pass several secrets while you rotate yours. Returns false, never throws, on any input.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer | Uint8Array,
  header: string | null | undefined,
  secrets: string | string[],
  opts: VerifyOptions = {},
): boolean {
  return checkWebhookSignature(rawBody, header, secrets, opts) === null;
}

/**
 * Verifies, then parses: the event, or a {@link WebhookSignatureError} saying which rule failed
 * (answer 400 to it). Like Stripe's `webhooks.constructEvent`.
 */
export function constructEvent<T = WebhookEventEnvelope>(
  rawBody: string | Buffer | Uint8Array,
  header: string | null | undefined,
  secrets: string | string[],
  opts: VerifyOptions = {},
): T {
  const failure = checkWebhookSignature(rawBody, header, secrets, opts);
  if (failure) throw new WebhookSignatureError(failure, MESSAGES[failure]);
  try {
    return JSON.parse(bodyBytes(rawBody)!.toString('utf8')) as T;
  } catch {
    throw new WebhookSignatureError('invalid_json', MESSAGES.invalid_json);
  }
}
