import type { ErrorRequestHandler, Request } from 'express';
import type { components } from '../../generated/schema';

export type ErrorType = components['schemas']['Error']['type'];

/**
 * Every error code the server can answer, declared once: its status and type. `ApiError` takes only
 * these, so a new code fails `tsc` until it is declared here, and a test checks that the errors guide
 * in openapi.yaml lists exactly these codes under their status. `pending` marks codes that only the
 * not-yet-built operations (src/features/pending.ts) will return.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, type: 'validation_error' },
  malformed_json: { status: 400, type: 'validation_error' },
  invalid_cursor: { status: 400, type: 'validation_error' },
  invalid_api_config: { status: 400, type: 'validation_error' },
  idempotency_key_reused: { status: 400, type: 'validation_error' },
  ownership_exceeded: { status: 400, type: 'validation_error' },
  invalid_email: { status: 400, type: 'validation_error' },
  invalid_webhook_url: { status: 400, type: 'validation_error' },
  no_api_application: { status: 400, type: 'validation_error' },
  missing_credential: { status: 401, type: 'authentication_error' },
  invalid_api_key: { status: 401, type: 'authentication_error' },
  api_key_revoked: { status: 401, type: 'authentication_error' },
  api_key_expired: { status: 401, type: 'authentication_error' },
  api_key_owner_deactivated: { status: 401, type: 'authentication_error' },
  api_key_not_allowed: { status: 401, type: 'authentication_error' },
  api_key_mode_mismatch: { status: 401, type: 'authentication_error' },
  invalid_token_audience: { status: 401, type: 'authentication_error' },
  invalid_inbound_secret: { status: 401, type: 'authentication_error' },
  missing_scope: { status: 403, type: 'permission_error' },
  role_not_allowed: { status: 403, type: 'permission_error' },
  user_required: { status: 403, type: 'permission_error' },
  resource_missing: { status: 404, type: 'not_found' },
  route_not_found: { status: 404, type: 'not_found' },
  no_api_submission: { status: 404, type: 'not_found' },
  method_not_allowed: { status: 405, type: 'validation_error' },
  not_acceptable: { status: 406, type: 'validation_error' },
  duplicate_business: { status: 409, type: 'conflict' },
  idempotency_key_in_use: { status: 409, type: 'conflict' },
  invalid_state_transition: { status: 409, type: 'conflict' },
  delivery_not_retryable: { status: 409, type: 'conflict' },
  delivery_in_flight: { status: 409, type: 'conflict' },
  webhook_disabled: { status: 409, type: 'conflict' },
  retry_too_soon: { status: 409, type: 'conflict' },
  not_retryable: { status: 409, type: 'conflict' },
  status_check_in_progress: { status: 409, type: 'conflict' },
  upload_missing: { status: 409, type: 'conflict' },
  upload_content_mismatch: { status: 409, type: 'conflict' },
  deal_funded: { status: 409, type: 'conflict' },
  deal_dead: { status: 409, type: 'conflict' },
  lender_hard_rules_failed: { status: 409, type: 'conflict' },
  body_too_large: { status: 413, type: 'validation_error' },
  unsupported_media_type: { status: 415, type: 'validation_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  too_many_failed_authentications: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
  not_implemented: { status: 501, type: 'api_error' },
  overloaded: { status: 503, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: ErrorType; pending?: true }>;

export type ErrorCode = keyof typeof ERROR_CODES;
/** The codes declared with status S. */
export type CodeOf<S extends number> = { [K in ErrorCode]: (typeof ERROR_CODES)[K]['status'] extends S ? K : never }[ErrorCode];

/** A failure with a public meaning: rendered as the error envelope; status and type come from its code. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
  }
}

export const invalid = (message: string, param?: string, code: CodeOf<400> = 'invalid_request') => new ApiError(code, message, param);

export const notFound = (what: string, id: string, param = 'id') => new ApiError('resource_missing', `No ${what} with id ${id}`, param);

export const conflict = (message: string, code: CodeOf<409> = 'invalid_state_transition', param?: string) => new ApiError(code, message, param);

export const forbidden = (message: string, code: CodeOf<403>, param?: string) => new ApiError(code, message, param);

/** RFC 6750: a 401 names the scheme; an error code only when a credential was presented. */
export const unauthenticated = (message: string, code: CodeOf<401>) =>
  new ApiError(code, message, undefined, {
    'WWW-Authenticate':
      code === 'missing_credential'
        ? 'Bearer realm="svc"'
        : `Bearer realm="svc", error="invalid_token", error_description="${message}"`,
  });

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}
interface ValidatorError {
  status?: number;
  message?: string;
  errors?: ValidatorErrorItem[];
  headers?: Record<string, string>;
}

/** `/body/owner/email` -> `owner.email`; `/query/limit` -> `limit`; `/headers/idempotency-key` -> `Idempotency-Key`. */
export function paramFromPath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const parts = path.replace(/^\./, '/').split(/[/.]/).filter(Boolean);
  const [where, ...rest] = parts;
  if (where === 'headers' && rest[0]) {
    return rest[0].split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('-');
  }
  if (['body', 'query', 'path', 'params'].includes(where)) return rest.length ? rest.join('.') : undefined;
  return parts.join('.');
}

/** Ajv's wording, read as a sentence about the field ("legal_name is required", not "legal_name must have required property 'legal_name'"). */
const PLAIN_MESSAGES: [RegExp, string][] = [
  [/^must NOT have additional properties$/, 'is not a known field'],
  [/^must be equal to one of the allowed values:?\s*/, 'must be one of: '],
  [/^must be equal to one of the allowed values$/, 'must be one of the allowed values'],
  [/^must NOT have fewer than 1 characters$/, 'must not be empty'],
  [/^must NOT have fewer than (\d+) characters$/, 'must be at least $1 characters long'],
  [/^must NOT have more than (\d+) characters$/, 'must be at most $1 characters long'],
  [/^must NOT have fewer than (\d+) items$/, 'must have at least $1 items'],
  [/^must NOT have more than (\d+) items$/, 'must have at most $1 items'],
  [/^must be (string|number|integer|boolean|object|array)$/, 'must be a JSON $1'],
  [/^must be >= (.+)$/, 'must be at least $1'],
  [/^must be <= (.+)$/, 'must be at most $1'],
  [/^must be > (.+)$/, 'must be greater than $1'],
  [/^must be < (.+)$/, 'must be less than $1'],
  [/^must match format "(.+)"$/, 'must be a valid $1'],
];

export function humanise(item: ValidatorErrorItem): string {
  const param = paramFromPath(item.path);
  const raw = item.message ?? 'is invalid';
  const required = /^must have required property '(.+)'$/.exec(raw);
  if (required) {
    // The validator's path already ends with the missing property; older paths name only its parent.
    const prop = required[1];
    const name = !param ? prop : param === prop || param.endsWith(`.${prop}`) ? param : `${param}.${prop}`;
    return `${name} is required`;
  }
  let msg = raw;
  for (const [re, plain] of PLAIN_MESSAGES) {
    if (re.test(msg)) {
      msg = msg.replace(re, plain);
      break;
    }
  }
  return param ? `${param} ${msg}` : msg;
}

/** Turns express-openapi-validator's errors into ApiErrors (one message naming every problem). */
export function fromValidatorError(err: ValidatorError, req: Request): ApiError | undefined {
  const status = err.status;
  if (!status || !Array.isArray(err.errors)) return undefined;
  if (status === 404) return new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  if (status === 405) return new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}`, undefined, err.headers ?? {});
  if (status === 415) return new ApiError('unsupported_media_type', 'Send the body as application/json');
  if (status === 400) {
    const first = err.errors[0] ?? {};
    const message = err.errors.map(humanise).join('; ');
    return new ApiError('invalid_request', message || 'The request is invalid', paramFromPath(first.path));
  }
  return undefined;
}

// PostgreSQL SQLSTATEs that can only come from a value the client sent (class 22 "data exception":
// out of range, invalid text, NUL, bad date; not-null and check violations). A bug of ours that
// produced such a value would show up in tests; in production the client is told which column.
const CLIENT_DATA_STATES = /^(22...|23502|23514|54000)$/;

interface DbError {
  code?: string;
  column?: string;
  routine?: string;
  table?: string;
  constraint?: string;
  severity?: string;
}
const isDbError = (e: unknown): e is DbError & Error => !!e && typeof e === 'object' && typeof (e as DbError).code === 'string' && /^[0-9A-Z]{5}$/.test((e as DbError).code!);

/**
 * What may be logged of an unexpected error. A driver's message, `detail` and `where` quote the
 * submitted values (a date of birth, an SSN), so for database errors only the SQLSTATE and the
 * names of the table, column, constraint and routine are kept, and the stack without its first line.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  const e = (err ?? {}) as { name?: string; message?: string; code?: string; stack?: string };
  const stackFrames = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)).join('\n') : undefined;
  if (isDbError(err)) {
    const { code, routine, table, column, constraint, severity } = err;
    return { name: 'DatabaseError', code, routine, table, column, constraint, severity, stack: stackFrames };
  }
  return { name: e.name, message: e.message, code: e.code, stack: e.stack };
}

/** An error that is the client's fault but came from below our own checks (parser, router, driver). */
function clientFault(err: unknown): ApiError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { type?: string; status?: number; statusCode?: number; code?: string };
  if (e.type === 'entity.parse.failed') return new ApiError('malformed_json', 'The request body is not valid JSON');
  if (e.type === 'entity.too.large') return new ApiError('body_too_large', 'The request body is larger than 1 MB');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError('unsupported_media_type', 'Send the body as UTF-8 application/json');
  if (isDbError(err) && CLIENT_DATA_STATES.test(err.code!)) {
    return new ApiError('invalid_request', err.column ? `${err.column} has a value that cannot be stored` : 'A value in the request is out of range or invalid', err.column);
  }
  // body-parser (a corrupt gzip or deflate body, a body shorter than its Content-Length) and the
  // router (a malformed %-escape in the path) raise http-errors with a 4xx status and no envelope.
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && !isDbError(err)) {
    return new ApiError('invalid_request', e.type === 'request.aborted' || e.type === 'request.size.invalid' ? 'The request body was incomplete' : 'The request could not be read (check its encoding, Content-Encoding and URL escapes)');
  }
  return undefined;
}

/**
 * No database connection freed up within DB_ACQUIRE_TIMEOUT_MS: a capacity problem, answered like
 * shedding (`503 overloaded`, retry later), not as a 500. It does not claim nothing ran: a retry
 * with the same Idempotency-Key is the safe way to repeat a write.
 */
function capacityFault(err: unknown): ApiError | undefined {
  if ((err as { name?: string } | null)?.name !== 'KnexTimeoutError') return undefined;
  return new ApiError('overloaded', 'The server is at capacity; retry after 1 second, backing off exponentially with jitter', undefined, { 'Retry-After': '1' });
}

/** The envelope's `type` for an HTTP status, for routes outside /v1 that answer in the same envelope. */
export function typeOfStatus(status: number): ErrorType {
  const byStatus: Record<number, ErrorType> = { 400: 'validation_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found', 409: 'conflict', 413: 'validation_error', 415: 'validation_error', 429: 'rate_limit_error' };
  return byStatus[status] ?? 'api_error';
}

/** The one place every failure becomes `{ error: { type, message, code?, param?, request_id } }`. */
export function errorMiddleware(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = res.getHeader('X-Request-Id')?.toString() ?? '';
    let apiError: ApiError | undefined = err instanceof ApiError ? err : undefined;
    apiError ??= fromValidatorError(err as ValidatorError, req) ?? clientFault(err) ?? capacityFault(err);
    if (!apiError) {
      // Unexpected: detail to the log (with the request id), none to the caller.
      req.log?.error({ err: loggableError(err) }, 'unhandled error');
      apiError = new ApiError('internal_error', 'An unexpected error occurred; quote the request id when contacting support');
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    const body: { error: Record<string, string> } = {
      error: { type: apiError.type, message: apiError.message },
    };
    body.error.code = apiError.code;
    if (apiError.param) body.error.param = apiError.param;
    body.error.request_id = requestId;
    res.status(apiError.status).json(body);
  };
}
