import express, { type Express, type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Deps } from './deps';
import { access } from './http/access';
import { authenticate } from './http/auth';
import { ApiError, errorMiddleware } from './http/errors';
import { idempotency } from './http/idempotency';
import { rateLimit } from './http/rate-limit';
import { requestId } from './http/request-id';
import { listOperations, SPEC_PATH, type OperationInfo } from './http/spec';
import type { Handler, Handlers, OperationId } from './http/types';

export const BODY_LIMIT = '1mb';

/** JSON bodies only: a body of another media type is refused before anything reads it. */
const jsonOnly: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('Content-Length') ?? 0) > 0 || req.get('Transfer-Encoding') !== undefined;
  if (hasBody && !req.is('application/json')) {
    throw new ApiError(415, 'validation_error', 'Send the body as application/json', 'unsupported_media_type');
  }
  next();
};

function route(deps: Deps, op: OperationInfo, handler: Handler<OperationId>): RequestHandler {
  return async (req: Request, res) => {
    const auth = req.auth!;
    const reply = (await handler({
      params: req.params as never,
      query: req.query as never,
      body: req.body as never,
      auth,
      scope: { locationId: auth.locationId, role: auth.role, userId: auth.userId, scopes: auth.scopes, locationIsTest: auth.locationIsTest },
      deps,
      req,
    })) as { status: number; body: unknown };
    res.status(reply.status).json(reply.body);
  };
}

/**
 * The request pipeline, in one fixed order: request id, body parsing, authentication, rate limit,
 * validation against openapi.yaml, access (scope and role from openapi.yaml), idempotency,
 * handler, error envelope.
 */
export function createApp(deps: Deps, handlers: Handlers): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');

  app.use(requestId(deps.logger));

  // Unauthenticated process endpoints (not part of the public contract).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await deps.db.knex.raw('select 1');
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });

  app.use(jsonOnly);
  app.use(express.json({ limit: BODY_LIMIT, strict: false }));

  app.use('/v1', authenticate(deps));
  app.use('/v1', rateLimit(deps));
  app.use((req, _res, next) => {
    if (req.path.startsWith('/v1/') || req.path === '/v1') return next();
    // The app's internal routes are not served here, and API keys are refused outside /v1 anyway.
    if (/^Bearer\s+svc_live_/i.test(req.get('Authorization') ?? '')) {
      throw new ApiError(401, 'authentication_error', 'API keys are accepted only on /v1', 'api_key_not_allowed');
    }
    throw new ApiError(404, 'not_found', `Unrecognized request URL (${req.method} ${req.path})`, 'route_not_found');
  });

  app.use(
    OpenApiValidator.middleware({
      apiSpec: SPEC_PATH,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false, coerceTypes: true },
      validateResponses: deps.validateResponses
        ? {
            allErrors: true,
            onError: (err, body, req) => {
              // The errors name the paths; the body itself is not logged (it may carry PII or a secret).
              void body;
              req.log.error({ err: err.message, errors: (err as unknown as { errors?: unknown }).errors }, 'response does not match openapi.yaml');
              throw err;
            },
          }
        : false,
      validateSecurity: false,
      validateFormats: true,
    }),
  );

  for (const op of listOperations()) {
    const handler = handlers[op.operationId as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`No handler for operation ${op.operationId}`);
    app[op.method](op.expressPath, access(op), idempotency(deps), route(deps, op, handler));
  }

  app.use((req) => {
    throw new ApiError(404, 'not_found', `Unrecognized request URL (${req.method} ${req.path})`, 'route_not_found');
  });
  app.use(errorMiddleware());
  return app;
}
