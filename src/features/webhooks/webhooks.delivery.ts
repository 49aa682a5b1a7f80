import type { components } from '../../../generated/schema';
import { guardedRequest, type OutboundErrorCode } from '../../outbound/http';
import type { AddressPolicy } from '../../outbound/policy';

// One HTTP attempt of a webhook delivery, shared by the test endpoint and the delivery worker: a
// POST through the guarded outbound client (src/outbound/http.ts: the address policy is applied
// again at send time, only vetted addresses are dialled, redirects are never followed), 10 second
// timeout for the whole exchange, any 2xx is success, the first 2 KB of the answer are kept.
// The policy is the subscription's location's: `policyForLocation(scope)` in a request, and
// `policyForLocation({ locationIsTest: location.is_test })` in a worker. Never from NODE_ENV.

export type DeliveryErrorCode = NonNullable<components['schemas']['DeliveryErrorCode']>;
// The contract's categories and the outbound client's are the same list (tsc fails on drift).
const sameCodes: [DeliveryErrorCode, OutboundErrorCode] extends [OutboundErrorCode, DeliveryErrorCode] ? true : never = true;
void sameCodes;

export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'Svc-Webhooks/1.0';
/** Response bodies are reported up to this many characters ("first 2 KB"). */
export const RESPONSE_BODY_LIMIT = 2048;

export interface DeliveryOutcome {
  /** A 2xx arrived. */
  ok: boolean;
  /** Null when no response arrived (timeout, connection error, blocked). */
  responseStatus: number | null;
  /** First 2 KB of the response body; null when no response arrived. */
  responseBody: string | null;
  /** A fixed sentence per category; null on success. Never library text. */
  error: string | null;
  errorCode: DeliveryErrorCode | null;
  durationMs: number;
}

/** The headers of every delivery (Content-Length is added by the outbound client). */
export function deliveryHeaders(input: { eventType: string; deliveryId: string; signature: string }): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-SVC-Event': input.eventType,
    'X-SVC-Delivery': input.deliveryId,
    'X-SVC-Signature': input.signature,
  };
}

/**
 * First `RESPONSE_BODY_LIMIT` characters, never ending in half a surrogate pair. NUL becomes U+FFFD:
 * PostgreSQL text cannot hold it, and a receiver's answer must never make an attempt unrecordable.
 */
function firstChars(bytes: Buffer): string {
  let text = bytes.toString('utf8').replace(/\u0000/g, '\uFFFD');
  if (text.length > RESPONSE_BODY_LIMIT) {
    text = text.slice(0, RESPONSE_BODY_LIMIT);
    if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  }
  return text;
}

/** POSTs `rawBody` to `url` once under `policy` (the location's). Never throws for remote failures. */
export async function deliverWebhook(
  url: string,
  rawBody: string | Buffer,
  headers: Record<string, string>,
  opts: { policy: AddressPolicy; timeoutMs?: number },
): Promise<DeliveryOutcome> {
  const res = await guardedRequest({
    url,
    policy: opts.policy,
    method: 'POST',
    headers,
    body: rawBody,
    timeoutMs: opts.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    maxResponseBytes: RESPONSE_BODY_LIMIT * 4, // enough bytes for 2048 characters of any script
  });
  return {
    ok: res.ok,
    responseStatus: res.status,
    responseBody: res.body ? firstChars(res.body) : null,
    error: res.error?.message ?? null,
    errorCode: res.error?.code ?? null,
    durationMs: res.durationMs,
  };
}
