import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { dialAllowed, vetUrl, type AddressPolicy, type ResolvedAddress } from './policy';

// The guarded HTTP client for every outbound call (webhook deliveries, funder APIs).
//
//   const res = await guardedRequest({
//     url, policy: policyForLocation(scope),       // the one address policy (./policy.ts)
//     method: 'POST', headers, body,               // body: string | Buffer, Content-Length is set
//     timeoutMs: 10_000,                           // the whole exchange: DNS, connect, TLS, send, answer
//     maxResponseBytes: 64 * 1024,                 // the rest of a longer body is not read (truncated)
//   });
//   res.ok                 // a 2xx arrived (and its body, up to the limit)
//   res.status/.headers/.body/.truncated   // whatever answer arrived, else null
//   res.error              // { code, message } or null: a stable category plus a fixed sentence
//
// Per call: the URL is vetted and its host resolved once (./policy.ts), and the socket connects only
// to the addresses that passed (a lookup that answers from that list: no second DNS query, so no
// rebinding window between check and connect). One fresh connection (no agent, nothing pooled), no
// redirect is ever followed (a 3xx is an `http_error`), TLS certificates are verified against the
// host name given. It never throws for anything the remote side or DNS does.
//
// `error.message` is a fixed sentence per category that may name the caller's host, the HTTP status
// and the timeout; never library or OpenSSL text, never a resolved address. Log `error.code`.

export type OutboundErrorCode = 'timeout' | 'connection_refused' | 'connection_error' | 'tls_error' | 'dns_error' | 'blocked_address' | 'http_error';

export interface OutboundError {
  code: OutboundErrorCode;
  message: string;
}

export interface OutboundRequest {
  url: string | URL;
  policy: AddressPolicy;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bounds the whole exchange, from resolution to the last body byte we read. Default 10 s. */
  timeoutMs?: number;
  /** At most this many response body bytes are read. Default 1 MiB. */
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  /** A 2xx arrived. */
  ok: boolean;
  /** Null when no answer arrived (blocked, DNS, connection, TLS, timeout before the status line). */
  status: number | null;
  headers: IncomingHttpHeaders | null;
  /** The body bytes read (at most `maxResponseBytes`); null when no answer arrived. */
  body: Buffer | null;
  /** The body was longer than `maxResponseBytes` (or cut short by a failure after the status). */
  truncated: boolean;
  error: OutboundError | null;
  durationMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_MESSAGE = 500;

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} second${ms === 1000 ? '' : 's'}` : `${ms} ms`);

/** The fixed sentence of each category. Only the caller's host, a status and the timeout vary. */
export function outboundErrorMessage(code: OutboundErrorCode, ctx: { host: string; status?: number | null; timeoutMs?: number }): string {
  const host = ctx.host || 'the host';
  const text = (() => {
    switch (code) {
      case 'timeout':
        return `Timed out after ${seconds(ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS)}`;
      case 'connection_refused':
        return `Connection refused by ${host}`;
      case 'connection_error':
        return `The connection to ${host} was closed before a complete answer arrived`;
      case 'tls_error':
        return `Secure connection to ${host} failed: its identity could not be verified`;
      case 'dns_error':
        return `Could not resolve host ${host}`;
      case 'blocked_address':
        return `Blocked: ${host} is not a public HTTPS endpoint`;
      case 'http_error': {
        const s = ctx.status ?? 0;
        return s >= 300 && s < 400 ? `Receiver answered HTTP ${s} (redirects are not followed)` : `Receiver answered HTTP ${s}`;
      }
    }
  })();
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** Every `code` of an error, its `errors` (happy eyeballs: one per address tried) and its cause. */
function codesOf(err: unknown, seen = new Set<unknown>()): string[] {
  if (!err || typeof err !== 'object' || seen.has(err)) return [];
  seen.add(err);
  const e = err as { code?: unknown; errors?: unknown[]; cause?: unknown };
  return [
    ...(typeof e.code === 'string' ? [e.code] : []),
    ...(Array.isArray(e.errors) ? e.errors.flatMap((x) => codesOf(x, seen)) : []),
    ...codesOf(e.cause, seen),
  ];
}

/** Sends one request under the policy. Never throws for network or remote failures. */
export async function guardedRequest(req: OutboundRequest): Promise<OutboundResponse> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  timer.unref?.();

  const failed = (code: OutboundErrorCode, host: string, partial: Partial<Pick<OutboundResponse, 'status' | 'headers' | 'body' | 'truncated'>> = {}): OutboundResponse => ({
    ok: false,
    status: partial.status ?? null,
    headers: partial.headers ?? null,
    body: partial.body ?? null,
    truncated: partial.truncated ?? false,
    error: { code, message: outboundErrorMessage(code, { host, status: partial.status, timeoutMs }) },
    durationMs: elapsed(),
  });

  try {
    const vetted = await vetUrl(req.url, req.policy, { signal: controller.signal });
    if (!vetted.ok) return failed(vetted.code, vetted.host);
    return await exchange(vetted.url, vetted.host, vetted.addresses, req, maxBytes, controller.signal, failed, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

type Failed = (code: OutboundErrorCode, host: string, partial?: Partial<Pick<OutboundResponse, 'status' | 'headers' | 'body' | 'truncated'>>) => OutboundResponse;

function exchange(url: URL, host: string, addresses: ResolvedAddress[], req: OutboundRequest, maxBytes: number, signal: AbortSignal, failed: Failed, elapsed: () => number): Promise<OutboundResponse> {
  const isHttps = url.protocol === 'https:';
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = { ...req.headers };
  if (body) headers['Content-Length'] = String(body.length);

  // The socket's name lookup answers only from the vetted list; it never asks DNS again.
  const vettedLookup: LookupFunction = (_hostname, options, callback) => {
    const cb = callback as (err: NodeJS.ErrnoException | null, address?: string | ResolvedAddress[], family?: number) => void;
    const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
    if (!usable.length) return cb(Object.assign(new Error('no vetted address'), { code: 'ENOTFOUND' }));
    const dialable = usable.filter((a) => dialAllowed(a.address));
    if (!dialable.length) return cb(Object.assign(new Error('refused by the dial guard'), { code: 'ECONNREFUSED' }));
    if (options.all) return cb(null, dialable);
    return cb(null, dialable[0].address, dialable[0].family);
  };

  const options: https.RequestOptions & { autoSelectFamily: boolean } = {
    method: req.method ?? 'GET',
    headers,
    signal,
    agent: false, // one fresh connection per call: nothing pooled across hosts or checks
    lookup: vettedLookup,
    autoSelectFamily: true, // several vetted addresses: try the next when one fails (localhost: 127.0.0.1 then ::1)
  };

  return new Promise<OutboundResponse>((resolve) => {
    let settled = false;
    let tcpConnected = false;
    let tlsDone = false;
    const settle = (outcome: OutboundResponse) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const classify = (err: unknown): OutboundErrorCode => {
      if (signal.aborted) return 'timeout';
      const codes = codesOf(err);
      if (codes.includes('ECONNREFUSED')) return 'connection_refused';
      if (codes.includes('ENOTFOUND')) return 'dns_error';
      if (isHttps && tcpConnected && !tlsDone) return 'tls_error'; // connected, but the handshake did not complete
      if (codes.some((c) => TLS_CODE.test(c))) return 'tls_error';
      return 'connection_error';
    };

    // Set once a status line arrived: a later failure still reports what was received.
    let answer: ((truncated: boolean) => Pick<OutboundResponse, 'status' | 'headers' | 'body' | 'truncated'>) | null = null;

    const r = (isHttps ? https : http).request(url, options, (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const got = (truncated: boolean) => ({ status, headers: res.headers, body: Buffer.concat(chunks).subarray(0, maxBytes), truncated });
      answer = got;
      const finish = (truncated: boolean) => {
        if (settled) return;
        res.destroy();
        const read = got(truncated);
        if (status >= 200 && status < 300) settle({ ok: true, ...read, error: null, durationMs: elapsed() });
        else settle(failed('http_error', host, read));
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) finish(true);
      });
      res.on('end', () => finish(false));
      // The status arrived but the body did not finish (timeout, reset): report what we have.
      const cutShort = (err?: unknown) => settle(failed(classify(err), host, got(true)));
      res.on('error', cutShort);
      res.on('close', () => {
        if (!res.complete) cutShort();
      });
    });
    r.on('socket', (socket: Socket) => {
      socket.once('connect', () => (tcpConnected = true));
      socket.once('secureConnect', () => (tlsDone = true));
    });
    r.on('error', (err) => settle(failed(classify(err), host, answer ? answer(true) : {})));
    r.end(body);
  });
}
