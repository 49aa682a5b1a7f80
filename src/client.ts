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
 * POST operations accept an `Idempotency-Key` header; send one on every POST you may retry:
 * `api.POST('/v1/deals/{dealId}/submissions', { params: { path: { dealId },
 *   header: { 'Idempotency-Key': crypto.randomUUID() } }, body: { lender_ids: [...] } })`.
 */
import createFetchClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from '../generated/schema';

export type { components, operations, paths, webhooks };

/** The client returned by {@link createClient}: openapi-fetch bound to this API's paths. */
export type ApiClient = Client<paths, 'application/json'>;
export type { Middleware };

export interface CreateClientOptions {
  /** The service base address without `/v1`, e.g. `https://api.svc.example` or the sandbox `http://127.0.0.1:4010`. */
  baseUrl: string;
  /**
   * The credential sent as `Authorization: Bearer <apiKey>` on every request: an API key
   * (`svc_live_` + 32 base62 characters) or an OAuth 2.0 access token.
   */
  apiKey: string;
  /** A custom fetch (tests, proxies, retries). Defaults to `globalThis.fetch`. */
  fetch?: ClientOptions['fetch'];
  /** Extra headers sent on every request (e.g. your own `X-Request-Id` scheme). `Authorization` is always `apiKey`. */
  headers?: Record<string, string>;
}

/** Creates a typed client with `Authorization: Bearer <apiKey>` set on every request. */
export function createClient({ baseUrl, apiKey, fetch, headers }: CreateClientOptions): ApiClient {
  if (!baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!apiKey) throw new TypeError('createClient: apiKey is required');
  return createFetchClient<paths, 'application/json'>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(fetch ? { fetch } : {}),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
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
