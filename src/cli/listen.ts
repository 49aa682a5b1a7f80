import { parseArgs } from 'node:util';
import { createClient, type ApiClient, type Schema } from '../client';
import { systemClock, type Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { TEST_LOCATION, bareHost } from '../outbound/policy';
import { newSigningSecret, signatureHeader } from '../features/webhooks/signing';
import { deliverWebhook, deliveryHeaders, type DeliveryOutcome } from '../features/webhooks/webhooks.delivery';

// `listen`: webhooks for local development, like `stripe listen`. Polls GET /v1/events with the
// caller's API key, starting from the newest event at start (nothing older is forwarded), and
// forwards each new event, oldest first, to a server on this machine: the exact JSON bytes the
// API served (the bytes webhooks deliver), signed with a local secret printed at start, with the
// headers real deliveries carry, through the same delivery code (10 s timeout, no redirects,
// localhost dialled at loopback without DNS). Opens no database; the key is never printed.

export const LISTEN_USAGE = `Usage: npm run --silent cli -- listen --forward-to URL [--events TYPE,...] [--api-base URL]
  --forward-to URL   your local endpoint: http(s)://localhost:PORT/... or http(s)://127.0.0.1:PORT/...
  --events LIST      only these event types (comma-separated), e.g. deal.created,offer.received
  --api-base URL     the API (default: $SVC_API_BASE, else http://127.0.0.1:3000)
The API key is read from SVC_API_KEY (role admin or manager; the events you see follow its scopes).
Prints the signing secret to verify with once on stderr, then one line per event on stdout:
time, event type, event id, your server's status (or the error). Ctrl-C stops.`;

export interface ListenIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Used for the API calls (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch;
  /** Signature timestamps and printed times (default the system clock). */
  clock?: Pick<Clock, 'now'>;
  /** Waits between polls; must return early when `signal` aborts (default setTimeout). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Stops the listener (Ctrl-C). */
  signal?: AbortSignal;
  /** Milliseconds between polls once caught up (default 2000). */
  pollIntervalMs?: number;
  /** Receives the local signing secret (tests); it is printed either way. */
  onReady?: (info: { secret: string; forwardTo: string }) => void;
}

/** The event envelope as the API lists it (what the listener needs of it). */
interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
}

/** Events are re-read this far behind the newest one seen, so one committed late is not missed. */
export const OVERLAP_MS = 60_000;
const PAGE = 100;

class UsageError extends Error {}
class FatalApiError extends Error {}

function parseForwardTo(value: string | undefined): URL {
  if (!value) throw new UsageError('--forward-to is required');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--forward-to must be an http:// or https:// URL');
  if (url.username || url.password) throw new UsageError('--forward-to must not carry credentials');
  const host = bareHost(url);
  if (host !== 'localhost' && host !== '127.0.0.1') {
    throw new UsageError(`--forward-to must point at this machine (localhost or 127.0.0.1), not ${host}: listen is a development tool`);
  }
  return url;
}

function parseApiBase(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--api-base is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--api-base must be an http:// or https:// URL');
  const host = bareHost(url);
  if (url.protocol === 'http:' && host !== 'localhost' && host !== '127.0.0.1' && host !== '::1') {
    // The API key travels in every request: only over TLS, unless the API runs on this machine.
    throw new UsageError(`--api-base must use https:// for ${host}: the API key would travel in clear text`);
  }
  return url.toString().replace(/\/+$/, '');
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** (created_at, id) ascending: the order events are forwarded in. */
const byCreation = (a: ListedEvent, b: ListedEvent) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An error's message with its cause's code (fetch says only "fetch failed"). */
function reason(e: unknown): string {
  const error = e as Error & { cause?: { code?: string; message?: string } };
  const cause = error.cause?.code ?? error.cause?.message;
  return cause ? `${error.message}: ${cause}` : String(error?.message ?? e);
}

function describeOutcome(o: DeliveryOutcome): string {
  if (o.responseStatus !== null) return `${o.responseStatus}`;
  return `error ${o.errorCode ?? 'unknown'}: ${o.error ?? 'no answer'}`;
}

/**
 * Runs the listener until `io.signal` aborts. Resolves with the exit code: 0 after a clean stop,
 * 1 when the API refuses the key or cannot be reached at start, 2 on a usage error.
 */
export async function runListen(args: string[], io: ListenIO): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const err = (line: string) => io.stderr.write(`${line}\n`);
  const clock = io.clock ?? systemClock;
  const sleep = io.sleep ?? defaultSleep;
  const signal = io.signal ?? new AbortController().signal;
  const interval = io.pollIntervalMs ?? 2000;

  let forwardTo: URL;
  let types: Schema<'StoredEventType'>[] | undefined;
  let client: ApiClient;
  // The address tried and where it came from, for "Cannot reach the API at ...".
  let apiTried = '';
  let apiFrom = '';
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: false,
        options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, 'api-base': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (parsed.values.help) {
      out(LISTEN_USAGE);
      return 0;
    }
    forwardTo = parseForwardTo(parsed.values['forward-to']);
    if (parsed.values.events !== undefined) {
      types = [...new Set(parsed.values.events.split(',').map((s) => s.trim()).filter(Boolean))] as Schema<'StoredEventType'>[];
      if (!types.length) throw new UsageError('--events needs at least one event type');
    }
    const given = parsed.values['api-base'] ?? io.env.SVC_API_BASE;
    apiFrom = parsed.values['api-base'] !== undefined ? '--api-base' : io.env.SVC_API_BASE !== undefined ? 'SVC_API_BASE' : 'the default; pass --api-base URL or set SVC_API_BASE';
    const apiBase = parseApiBase(given ?? 'http://127.0.0.1:3000');
    apiTried = apiBase;
    const apiKey = io.env.SVC_API_KEY;
    if (!apiKey) throw new UsageError('Set SVC_API_KEY to an API key of your location (role admin or manager)');
    client = createClient({ baseUrl: apiBase, apiKey, fetch: io.fetch, retry: false }); // its own loop retries, on its own clock
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`${e.message}\n\n${LISTEN_USAGE}`);
    return 2;
  }

  /** Every event created after `createdAfter` (all of the window when undefined), newest first. */
  async function fetchSince(createdAfter: string | undefined): Promise<ListedEvent[]> {
    const events: ListedEvent[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, error, response } = await client.GET('/v1/events', {
        params: { query: { limit: PAGE, cursor, type: types, created_after: createdAfter } },
        signal,
      });
      if (error) {
        const text = `${response.status} ${error.error?.code ?? error.error?.type ?? ''}: ${error.error?.message ?? 'unexpected answer'}`;
        if (response.status === 429) {
          const wait = Number(response.headers.get('Retry-After') ?? 1);
          err(`Rate limited by the API; waiting ${wait} s`);
          await sleep(Math.max(1, wait) * 1000, signal);
          if (signal.aborted) return events;
          continue;
        }
        if ([400, 401, 403].includes(response.status)) throw new FatalApiError(`The API refused the request: ${text}`);
        throw new Error(`The API answered ${text}`);
      }
      const page = data.data as unknown as ListedEvent[];
      events.push(...page);
      if (!data.meta.has_more || !data.meta.next_cursor) break;
      cursor = data.meta.next_cursor;
    }
    return events;
  }

  // What has been seen (at start, or forwarded), by id, with its created_at; pruned behind the overlap.
  const seen = new Map<string, number>();
  let newest: number | null = null;
  const remember = (e: ListedEvent) => {
    const t = Date.parse(e.created_at);
    seen.set(e.id, t);
    if (newest === null || t > newest) newest = t;
  };

  // Start: everything already there is "before the listener started".
  try {
    const first = await client.GET('/v1/events', { params: { query: { limit: 1, type: types } }, signal });
    if (first.error) {
      const e = first.error.error;
      err(`The API refused the request: ${first.response.status} ${e?.code ?? ''}: ${e?.message ?? ''}`);
      return first.response.status === 400 ? 2 : 1;
    }
    const top = (first.data.data as unknown as ListedEvent[])[0];
    if (top) for (const e of await fetchSince(new Date(Date.parse(top.created_at) - OVERLAP_MS - 1).toISOString())) remember(e);
  } catch (e) {
    if (signal.aborted) return 0;
    err(e instanceof FatalApiError ? e.message : `Cannot reach the API at ${apiTried} (${apiFrom}): ${reason(e)}`);
    return 1;
  }

  const secret = newSigningSecret();
  err(`Ready. Your webhook signing secret is ${secret} (verify X-SVC-Signature with it).`);
  err(`Forwarding ${types ? types.join(', ') : 'every event type your key reads'} to ${forwardTo.href} (Ctrl-C to stop)`);
  io.onReady?.({ secret, forwardTo: forwardTo.href });

  let forwarded = 0;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const since = newest === null ? undefined : new Date(newest - OVERLAP_MS - 1).toISOString();
      const fresh = (await fetchSince(since)).filter((e) => !seen.has(e.id)).sort(byCreation);
      for (const event of fresh) {
        if (signal.aborted) break;
        // The exact JSON the API served: key order and values as stored, the bytes webhooks deliver.
        const rawBody = JSON.stringify(event);
        const now = clock.now();
        const headers = deliveryHeaders({
          eventType: event.type,
          deliveryId: newId('dlv', now.getTime()),
          signature: signatureHeader(secret, rawBody, Math.floor(now.getTime() / 1000)),
        });
        const outcome = await deliverWebhook(forwardTo.href, rawBody, headers, { policy: TEST_LOCATION });
        remember(event);
        forwarded++;
        out(`${now.toISOString()}  ${event.type}  ${event.id}  -> ${describeOutcome(outcome)}`);
      }
      if (newest !== null) for (const [id, t] of seen) if (t < newest - OVERLAP_MS) seen.delete(id);
      failures = 0;
    } catch (e) {
      if (signal.aborted) break;
      if (e instanceof FatalApiError) {
        err(e.message);
        return 1;
      }
      failures++;
      err(`Polling failed (${reason(e)}); retrying`);
    }
    await sleep(failures ? Math.min(30_000, interval * 2 ** failures) : interval, signal);
  }
  err(`Stopped after forwarding ${forwarded} event${forwarded === 1 ? '' : 's'}.`);
  return 0;
}

/**
 * The process entry (src/cli/index.ts): Ctrl-C stops cleanly (a second Ctrl-C exits at once), then
 * the process exits with runListen's code once stdout and stderr are flushed (idle keep-alive
 * sockets to the API would otherwise hold it open for a few seconds).
 */
export async function listenMain(args: string[]): Promise<never> {
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let code = 1;
  try {
    code = await runListen(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: stop.signal });
  } catch (e) {
    process.stderr.write(`Failed: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  const flush = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  process.exit(code);
}
