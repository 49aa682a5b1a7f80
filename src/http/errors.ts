import type { ErrorRequestHandler, Request } from 'express';
import type { components } from '../../generated/schema';

export type ErrorType = components['schemas']['Error']['type'];

/** A failure with a public meaning: rendered as the error envelope with this status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, param?: string, code = 'invalid_request') =>
  new ApiError(400, 'validation_error', message, code, param);

export const notFound = (what: string, id: string, param = 'id') =>
  new ApiError(404, 'not_found', `No ${what} with id ${id}`, 'resource_missing', param);

export const conflict = (message: string, code = 'invalid_state_transition', param?: string) =>
  new ApiError(409, 'conflict', message, code, param);

export const forbidden = (message: string, code: string, param?: string) =>
  new ApiError(403, 'permission_error', message, code, param);

export const unauthenticated = (message: string, code: string) =>
  new ApiError(401, 'authentication_error', message, code);

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

function humanise(item: ValidatorErrorItem): string {
  const param = paramFromPath(item.path);
  const msg = (item.message ?? 'is invalid').replace(/^must /, 'must ');
  return param ? `${param} ${msg}` : msg;
}

/** Turns express-openapi-validator's errors into ApiErrors (one message naming every problem). */
export function fromValidatorError(err: ValidatorError, req: Request): ApiError | undefined {
  const status = err.status;
  if (!status || !Array.isArray(err.errors)) return undefined;
  if (status === 404) return new ApiError(404, 'not_found', `Unrecognized request URL (${req.method} ${req.path})`, 'route_not_found');
  if (status === 405) {
    return new ApiError(405, 'validation_error', `${req.method} is not allowed on ${req.path}`, 'method_not_allowed', undefined, err.headers ?? {});
  }
  if (status === 415) return new ApiError(415, 'validation_error', 'Send the body as application/json', 'unsupported_media_type');
  if (status === 400) {
    const first = err.errors[0] ?? {};
    const message = err.errors.map(humanise).join('; ');
    return new ApiError(400, 'validation_error', message || 'The request is invalid', 'invalid_request', paramFromPath(first.path));
  }
  return undefined;
}

export interface ErrorLogger {
  error(obj: object, msg: string): void;
}

/** The one place every failure becomes `{ error: { type, message, code?, param?, request_id } }`. */
export function errorMiddleware(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = res.getHeader('X-Request-Id')?.toString() ?? '';
    let apiError: ApiError | undefined = err instanceof ApiError ? err : undefined;
    if (!apiError && err && typeof err === 'object') {
      const e = err as { type?: string; status?: number; statusCode?: number };
      if (e.type === 'entity.parse.failed') apiError = new ApiError(400, 'validation_error', 'The request body is not valid JSON', 'malformed_json');
      else if (e.type === 'entity.too.large') apiError = new ApiError(413, 'validation_error', 'The request body is larger than 1 MB', 'body_too_large');
      else if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
        apiError = new ApiError(415, 'validation_error', 'Send the body as UTF-8 application/json', 'unsupported_media_type');
      else apiError = fromValidatorError(err as ValidatorError, req);
    }
    if (!apiError) {
      // Unexpected: full detail to the log (with the request id), none to the caller.
      // Name, message, code and stack only: driver fields such as `detail` quote row values (PII).
      const e = err as { name?: string; message?: string; code?: string; stack?: string };
      req.log?.error({ err: { name: e?.name, message: e?.message, code: e?.code, stack: e?.stack } }, 'unhandled error');
      apiError = new ApiError(500, 'api_error', 'An unexpected error occurred; quote the request id when contacting support', 'internal_error');
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    const body: { error: Record<string, string> } = {
      error: { type: apiError.type, message: apiError.message },
    };
    if (apiError.code) body.error.code = apiError.code;
    if (apiError.param) body.error.param = apiError.param;
    body.error.request_id = requestId;
    res.status(apiError.status).json(body);
  };
}
