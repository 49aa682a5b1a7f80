import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../lib/crypto';

// X-SVC-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>` where the HMAC is keyed with the
// subscription secret over `<t>.<raw body>` (the exact bytes sent). Shared by the test endpoint
// and the delivery worker; verifySignature is what a receiver does (and what our tests do).

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `whsec_` + 32 base62 characters from a CSPRNG. */
export function newSigningSecret(): string {
  return `whsec_${randomBase62(32)}`;
}

/** 64 lowercase hex characters: HMAC-SHA256(secret, `${t}.` + rawBody). */
export function signPayload(secret: string, rawBody: string | Buffer, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/** The header value; several secrets (rotation) give several `v1=` values. */
export function signatureHeader(secrets: string | string[], rawBody: string | Buffer, t: number): string {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  return [`t=${t}`, ...list.map((s) => `v1=${signPayload(s, rawBody, t)}`)].join(',');
}

/**
 * True when the header carries a timestamp within `toleranceSeconds` of `nowSeconds` and at least
 * one `v1=` value matching the HMAC under any of `secrets`. Constant-time comparison; the body is
 * hashed as received, before any parsing.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  let t: number | undefined;
  const given: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't' && /^\d+$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) given.push(Buffer.from(v, 'hex'));
  }
  if (t === undefined || !given.length || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  let ok = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signPayload(secret, rawBody, t), 'hex');
    // No early exit: every candidate is compared, in constant time.
    for (const g of given) ok = timingSafeEqual(g, expected) || ok;
  }
  return ok;
}
