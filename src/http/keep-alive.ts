import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open (HTTP_KEEP_ALIVE_MS, default 65 s). Node's own
 * default is 5 s, shorter than the idle timeout of the usual load balancers and clients (60 s): the
 * server would close a connection the balancer still thinks open, and the balancer's next request on
 * it fails with a reset (a 502 for the partner). Outlasting them leaves the closing to the client side.
 * headersTimeout must exceed it, or Node cuts a slow request's headers on a reused connection first.
 * Responses say it: `Keep-Alive: timeout=65`.
 */
export const DEFAULT_KEEP_ALIVE_MS = 65_000;

export function applyKeepAlive(server: Server, keepAliveMs: number = DEFAULT_KEEP_ALIVE_MS): void {
  server.keepAliveTimeout = keepAliveMs;
  server.headersTimeout = Math.max(server.headersTimeout, keepAliveMs + 1_000);
}
