/**
 * Typed client for the Deal-Funding Platform API v1, generated from openapi.yaml.
 *
 * ```ts
 * import { createClient } from 'deal-funding-api/client';
 *
 * const api = createClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: process.env.SVC_API_KEY! });
 * const { data, error, response } = await api.GET('/v1/deals/{dealId}/submissions', {
 *   params: { path: { dealId: 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X' }, query: { status: 'approved' } },
 * });
 * if (error) throw new Error(`${error.error.type}: ${error.error.message} (${error.error.request_id})`);
 * for (const submission of data.data) console.log(submission.lender_name, submission.status);
 * ```
 *
 * Paths, parameters, bodies and responses are checked at compile time against
 * generated/schema.d.ts (`npm run generate`): a wrong path, a wrong enum value or a missing
 * required body field does not compile. (An unknown extra body field does compile, because
 * openapi-fetch infers the request init; the server answers it with 400.) On a 2xx `data` is the
 * `{ data, meta }` envelope; on any other status `error` is the
 * `{ error: { type, message, code?, param?, request_id } }` envelope. Network failures reject.
 *
 * Request fields that have a `default` in the contract (`send`, `document_ids` ...) are optional
 * (types are generated with `--default-non-nullable false`).
 *
 * Retries (on by default; `retry: false` turns them off): a `429`, a `503`, a `409
 * idempotency_key_in_use` and a network error are retried up to `maxRetries` times (default 4),
 * waiting `Retry-After` (when the answer has one) plus an exponential backoff with full jitter
 * (before retry n, a random time between 0 and min(30 s, 0.5 s × 2^n)), as the contract's
 * "Overload and retries" guide prescribes. A `POST` without an `Idempotency-Key` gets one
 * (`crypto.randomUUID()`), and every retry of it sends the same key, so a request that did run
 * before its answer was lost is answered from the first run, not run twice. A `PATCH` (not
 * idempotent, and the API takes no key on it) is never retried after a network error; it is
 * retried only on `429` and `503`, which the server gives before doing anything. Against the sandbox,
 * `Prefer: code=429` or `code=503` is retried like the real thing: pass `retry: false` to see it.
 *
 * Every list in one loop, page after page (`meta.next_cursor`):
 * `for await (const deal of api.paginate('/v1/deals', { params: { query: { limit: 100 } } })) ...`
 * (a non-2xx page throws an {@link ApiResponseError}).
 */
import openapiFetch, { type Client, type ClientOptions, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from '../generated/schema';

export type { components, operations, paths, webhooks };
export type { Middleware };

/** Paths whose `GET` answers a list (`{ data: [...], meta: { next_cursor, has_more } }`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: unknown[]; meta: { next_cursor?: unknown } } } } } } } ? P : never;
}[keyof paths];
/** One item of a list path: `ListItem<'/v1/deals'>` is a Deal. */
export type ListItem<P extends ListPath> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: (infer I)[] } } } } } } ? I : never;

/** The client returned by {@link createClient}: openapi-fetch bound to this API's paths, plus `paginate`. */
export type ApiClient = Client<paths, 'application/json'> & {
  /** Every item of a list, following `meta.next_cursor` page after page. A non-2xx page throws {@link ApiResponseError}. */
  paginate<P extends ListPath>(path: P, init?: MaybeOptionalInit<paths[P], 'get'>): AsyncGenerator<ListItem<P>, void, undefined>;
};

/** A page of `paginate` answered with an error envelope. */
export class ApiResponseError extends Error {
  readonly status: number;
  readonly error: components['schemas']['Error'] | undefined;
  constructor(status: number, envelope: unknown) {
    const error = (envelope as { error?: components['schemas']['Error'] } | undefined)?.error;
    super(error ? `${status} ${error.type}${error.code ? ` ${error.code}` : ''}: ${error.message} (${error.request_id})` : `HTTP ${status}`);
    this.name = 'ApiResponseError';
    this.status = status;
    this.error = error;
  }
}

export interface RetryOptions {
  /** Retries after the first attempt (default 4: five attempts in all). 0 never retries. */
  maxRetries?: number;
  /** The backoff's base: before retry n the cap is min(maxDelayMs, baseDelayMs × 2^n). Default 500. */
  baseDelayMs?: number;
  /** Default 30 000. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: its answer is returned. Default 60 000. */
  maxRetryAfterMs?: number;
  /** How to wait (tests pass a recorder). Default: a timer, cut short by the request's abort signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
  /** Called before each wait with why and how long. */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; error?: unknown; method: string; url: string }) => void;
}

export interface CreateClientOptions {
  /** The service base address without `/v1`, e.g. `https://api.svc.example` or the sandbox `http://127.0.0.1:4010`. */
  baseUrl: string;
  /**
   * The credential sent as `Authorization: Bearer <apiKey>` on every request: an API key
   * (`svc_live_` or, for a test location, `svc_test_` + 32 base62 characters) or an OAuth 2.0 access token.
   */
  apiKey: string;
  /** A custom fetch (tests, proxies). Defaults to `globalThis.fetch`. Retries wrap it. */
  fetch?: ClientOptions['fetch'];
  /** Extra headers sent on every request (e.g. your own `X-Request-Id` scheme). `Authorization` is always `apiKey`. */
  headers?: Record<string, string>;
  /** Retry policy (see above), or `false` for none. */
  retry?: RetryOptions | false;
  /** Makes the `Idempotency-Key` of a `POST` sent without one. Default `crypto.randomUUID()`. */
  idempotencyKey?: () => string;
}

// openapi-fetch's CommonJS build sets `exports.default`; required from this package's CommonJS build
// (Node's interop) the default import is that exports object, so take its `default` then.
const createFetchClient: typeof openapiFetch =
  typeof openapiFetch === 'function' ? openapiFetch : (openapiFetch as unknown as { default: typeof openapiFetch }).default;

const RETRIED_STATUSES = new Set([429, 503]);
/** Methods a repeat cannot do twice; POST becomes one by its Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

const timerSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(signal!.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('Retry-After');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

async function isKeyInUse(res: Response): Promise<boolean> {
  if (res.status !== 409) return false;
  try {
    return ((await res.clone().json()) as { error?: { code?: string } }).error?.code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

type FetchFn = (input: Request, init?: RequestInit) => Promise<Response>;

/** The fetch the client uses: `Idempotency-Key` on every POST, retries as documented above. */
export function retryingFetch(base: FetchFn, retry: RetryOptions | false, newKey: () => string): FetchFn {
  const maxRetries = retry === false ? 0 : Math.max(0, retry.maxRetries ?? 4);
  const opts = retry === false ? {} : retry;
  const baseDelay = opts.baseDelayMs ?? 500;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  const sleep = opts.sleep ?? timerSleep;
  const random = opts.random ?? Math.random;
  return async (input, init) => {
    const request = input;
    const method = request.method.toUpperCase();
    if (method === 'POST' && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', newKey());
    // Safe to send again whatever became of the first attempt.
    const repeatable = IDEMPOTENT.has(method) || request.headers.has('Idempotency-Key');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let res: Response;
      try {
        res = await base(last ? request : request.clone(), init);
      } catch (error) {
        if (last || !repeatable || request.signal?.aborted) throw error;
        const delayMs = Math.round(random() * Math.min(maxDelay, baseDelay * 2 ** (attempt + 1)));
        opts.onRetry?.({ attempt: attempt + 1, delayMs, error, method, url: request.url });
        await sleep(delayMs, request.signal ?? undefined);
        continue;
      }
      if (last) return res;
      // 429 and 503 are answered before anything is done, so even a PATCH may go again.
      const retriable = RETRIED_STATUSES.has(res.status) || (repeatable && (await isKeyInUse(res)));
      if (!retriable) return res;
      const after = retryAfterMs(res);
      if (after !== undefined && after > maxRetryAfter) return res;
      const delayMs = (after ?? 0) + Math.round(random() * Math.min(maxDelay, baseDelay * 2 ** (attempt + 1)));
      opts.onRetry?.({ attempt: attempt + 1, delayMs, status: res.status, method, url: request.url });
      await res.body?.cancel().catch(() => undefined); // free the connection
      await sleep(delayMs, request.signal ?? undefined);
    }
  };
}

/** Creates a typed client with `Authorization: Bearer <apiKey>` set on every request, retries and `paginate`. */
export function createClient({ baseUrl, apiKey, fetch, headers, retry = {}, idempotencyKey }: CreateClientOptions): ApiClient {
  if (!baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!apiKey) throw new TypeError('createClient: apiKey is required');
  const base: FetchFn = (fetch as FetchFn | undefined) ?? ((input, init) => globalThis.fetch(input, init));
  const client = createFetchClient<paths, 'application/json'>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(base, retry, idempotencyKey ?? (() => globalThis.crypto.randomUUID())) as ClientOptions['fetch'],
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
  async function* paginate(path: string, init: { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown> = {}) {
    let cursor = init.params?.query?.cursor as string | undefined;
    for (;;) {
      const query = { ...init.params?.query, ...(cursor ? { cursor } : {}) };
      const { data, error, response } = await (client.GET as (p: string, i: unknown) => Promise<{ data?: { data: unknown[]; meta: { next_cursor?: string | null; has_more?: boolean } }; error?: unknown; response: Response }>)(
        path, { ...init, params: { ...init.params, query } });
      if (!data) throw new ApiResponseError(response.status, error);
      for (const item of data.data) yield item;
      const next = data.meta?.next_cursor;
      if (!next || data.meta.has_more === false) return;
      cursor = next;
    }
  }
  return Object.assign(client, { paginate }) as ApiClient;
}

// ---------------------------------------------------------------------------------------------
// Convenient names for the wire shapes. All come from components['schemas'].

type Schemas = components['schemas'];
/** Any named schema of the contract: `Schema<'Submission'>`. */
export type Schema<Name extends keyof Schemas> = Schemas[Name];
/** Any operation by operationId: `Operation<'listDealSubmissions'>`. */
export type OperationId = keyof operations;
export type Operation<Id extends OperationId> = operations[Id];
/** The JSON request body of an operation: `RequestBody<'createDealSubmissions'>`. */
export type RequestBody<Id extends OperationId> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

// Envelopes
/** The error object inside every error response (`ErrorEnvelope['error']`). Named ApiError to leave the global Error alone. */
export type ApiError = Schemas['Error'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type ErrorType = ApiError['type'];
export type ListMeta = Schemas['ListMeta'];
export type Meta = Schemas['Meta'];

// Businesses, people, notes, tasks
export type Business = Schemas['Business'];
export type BusinessWithIncludes = Schemas['BusinessWithIncludes'];
export type ActivityEntry = Schemas['ActivityEntry'];
export type Person = Schemas['Person'];
export type Association = Schemas['Association'];
export type Note = Schemas['Note'];
export type Task = Schemas['Task'];

// Deals and pipeline
export type Deal = Schemas['Deal'];
export type DealStage = Schemas['DealStage'];
export type PipelineStage = Schemas['PipelineStage'];

// Submissions
export type Submission = Schemas['Submission'];
export type SubmissionStatus = Schemas['SubmissionStatus'];
export type ApiSubmission = Schemas['ApiSubmission'];
export type SubmissionBatchMeta = Schemas['SubmissionBatchMeta'];

// Lenders and matches
export type Lender = Schemas['Lender'];
export type LenderCriteria = Schemas['LenderCriteria'];
export type LenderApiConfig = Schemas['LenderApiConfig'];
export type FunderApiSpec = Schemas['FunderApiSpec'];
export type LenderMatch = Schemas['LenderMatch'];

// Offers and advances
export type Offer = Schemas['Offer'];
export type Advance = Schemas['Advance'];

// Documents and the merchant portal
export type Document = Schemas['Document'];
export type DocumentUpload = Schemas['DocumentUpload'];
export type DocumentRequest = Schemas['DocumentRequest'];
export type StatementAnalysis = Schemas['StatementAnalysis'];
export type PortalLink = Schemas['PortalLink'];

// Webhooks
export type WebhookSubscription = Schemas['WebhookSubscription'];
export type WebhookSubscriptionWithSecret = Schemas['WebhookSubscriptionWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type EventType = Schemas['EventType'];
/** Every webhook event as delivered to your endpoint; narrow on `type`. */
export type WebhookEvent =
  | Schemas['DealCreatedEvent']
  | Schemas['DealStageChangedEvent']
  | Schemas['DealFundedEvent']
  | Schemas['DealDeadEvent']
  | Schemas['SubmissionSentEvent']
  | Schemas['SubmissionRespondedEvent']
  | Schemas['OfferReceivedEvent']
  | Schemas['OfferPrimaryChangedEvent']
  | Schemas['DocumentUploadedEvent']
  | Schemas['DocumentProcessedEvent']
  | Schemas['StatementAnalyzedEvent']
  | Schemas['AdvanceRenewalReadyEvent']
  | Schemas['AdvanceStatusChangedEvent']
  | Schemas['BusinessCreatedEvent']
  | Schemas['PersonCreatedEvent']
  | Schemas['WebhookTestEvent'];
