import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { bareHost, DEVELOPMENT_HOSTS, nonPublicReason, resolveHost, type ResolvedAddress } from './url-policy';

// One HTTP attempt of a webhook delivery, shared by the test endpoint and the delivery worker:
// POST, 10 second timeout (whole exchange), redirects never followed, any 2xx is success. The
// host is resolved through the URL policy's resolver and the connection is made only to the
// addresses that passed the check (no DNS-rebinding window between check and connect).

export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'Svc-Webhooks/1.0';
/** Response bodies are reported up to this many characters ("first 2 KB"). */
export const RESPONSE_BODY_LIMIT = 2048;
const MAX_ERROR = 500;

export interface DeliveryOutcome {
  /** A 2xx arrived. */
  ok: boolean;
  /** Null when no response arrived (timeout, connection error, blocked). */
  responseStatus: number | null;
  /** First 2 KB of the response body; null when no response arrived. */
  responseBody: string | null;
  /** Why the attempt failed; null on success. At most 500 characters. */
  error: string | null;
  durationMs: number;
}

/** The headers of every delivery (Content-Length is added by `deliver`). */
export function deliveryHeaders(input: { eventType: string; deliveryId: string; signature: string }): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-SVC-Event': input.eventType,
    'X-SVC-Delivery': input.deliveryId,
    'X-SVC-Signature': input.signature,
  };
}

class BlockedHostError extends Error {
  readonly code = 'EBLOCKEDHOST';
}

/** dns lookup for the socket: resolve, refuse any non-public address, connect only to those checked. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const cb = callback as (err: NodeJS.ErrnoException | null, address?: string | ResolvedAddress[], family?: number) => void;
  resolveHost(hostname).then(
    (all) => {
      const bad = all.map((a) => nonPublicReason(a.address)).find(Boolean);
      if (bad) return cb(new BlockedHostError(`Blocked: ${hostname} resolves to a non-public address (${bad})`));
      const usable = options.family ? all.filter((a) => a.family === options.family) : all;
      if (!usable.length) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      if (options.all) return cb(null, usable);
      return cb(null, usable[0].address, usable[0].family);
    },
    (err: NodeJS.ErrnoException) => cb(err),
  );
};

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} second${ms === 1000 ? '' : 's'}` : `${ms} ms`);
const clip = (s: string) => (s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR - 1)}…` : s);

/** First `RESPONSE_BODY_LIMIT` characters, never ending in half a surrogate pair. */
function firstChars(bytes: Buffer): string {
  let text = bytes.toString('utf8');
  if (text.length > RESPONSE_BODY_LIMIT) {
    text = text.slice(0, RESPONSE_BODY_LIMIT);
    if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  }
  return text;
}

/**
 * POSTs `rawBody` to `url` once. Never throws: every failure is an outcome with `error`.
 * `timeoutMs` bounds the whole exchange (connect, send, response headers and the body we read).
 */
export async function deliver(url: string, rawBody: string | Buffer, headers: Record<string, string>, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<DeliveryOutcome> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const failed = (error: string, responseStatus: number | null = null, responseBody: string | null = null): DeliveryOutcome => ({
    ok: false, responseStatus, responseBody, error: clip(error), durationMs: elapsed(),
  });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failed('The subscription URL is not a valid absolute URL');
  }
  const host = bareHost(target);
  const development = DEVELOPMENT_HOSTS.has(host);
  if (target.protocol !== 'https:' && !(development && target.protocol === 'http:')) return failed('The subscription URL must use HTTPS');
  if (!development && isIP(host)) {
    const why = nonPublicReason(host);
    if (why) return failed(`Blocked: ${host} is not a public address (${why})`);
  }

  const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
  const signal = AbortSignal.timeout(timeoutMs);
  const transport = target.protocol === 'https:' ? https : http;

  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const describe = (err: NodeJS.ErrnoException): string => {
      if (signal.aborted) return `Timed out after ${seconds(timeoutMs)}`;
      if (err instanceof BlockedHostError) return err.message;
      if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `Could not resolve host ${target.hostname} (${err.code})`;
      return `Connection failed: ${err.message}`;
    };

    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(body.length) },
        signal,
        agent: false, // one fresh connection per attempt: nothing pooled across hosts or checks
        lookup: development ? undefined : guardedLookup,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        // Enough bytes for 2048 characters of any script; the rest is not read.
        const wanted = RESPONSE_BODY_LIMIT * 4;
        const finish = () => {
          const text = firstChars(Buffer.concat(chunks).subarray(0, wanted));
          res.destroy();
          if (status >= 200 && status < 300) settle({ ok: true, responseStatus: status, responseBody: text, error: null, durationMs: elapsed() });
          else if (status >= 300 && status < 400) settle(failed(`Redirect not followed (HTTP ${status}${res.headers.location ? ` to ${res.headers.location}` : ''})`, status, text));
          else settle(failed(`Receiver answered HTTP ${status}`, status, text));
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= wanted) finish();
        });
        res.on('end', finish);
        // The status arrived but the body did not finish (timeout, reset): report what we have.
        res.on('error', (err: NodeJS.ErrnoException) => {
          if (settled) return;
          const text = firstChars(Buffer.concat(chunks));
          settle(failed(describe(err), status, text));
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => settle(failed(describe(err))));
    req.end(body);
  });
}
