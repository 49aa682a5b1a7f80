import { workerStatus } from './jobs/heartbeat';
import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Knex } from 'knex';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Deps } from './deps';
import { access } from './http/access';
import { API_KEY_BEARER, authenticate, resolveCredential } from './http/auth';
import { inboundEmailRoute } from './features/inbound/inbound.route';
import { ApiError, errorMiddleware } from './http/errors';
import { strictFormats } from './http/formats';
import { idempotency, remembered, type IdempotentRun } from './http/idempotency';
import { bodyRequired, jsonLimits, markInvalidUtf8, safeInput, safeParams } from './http/input';
import './http/validator-routes';
import { RATE_LIMIT, rateLimit } from './http/rate-limit';
import { lifeOf, requestLifecycle } from './http/lifecycle';
import { Admission } from './http/overload';
import { pendingMigrations } from './db/migrate';
import { listOperations, loadSpec, type OperationInfo } from './http/spec';
import { contentNegotiation } from './http/negotiate';
import { streamCsv, streamReply, type StreamedReply } from './http/stream';
import { localStorageRoutes } from './storage/routes';
import { uploadOpen } from './features/documents/documents.repository';
import { portalRoutes } from './web/portal/portal.routes';
import { appRoutes } from './web/app/app.routes';
import { mcpRoutes } from './mcp/server';
import { referenceRoutes } from './web/reference/reference.routes';
import { apiResourceMetadataUrl, issuerProblem, oauthRoutes } from './oauth/routes';
import type { Handler, Handlers, OperationId } from './http/types';

export const BODY_LIMIT = '1mb';

/** JSON bodies only: a body of another media type is refused before anything reads it. */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('Content-Length') ?? 0) > 0 || req.get('Transfer-Encoding') !== undefined;
  if (hasBody && !req.is('application/json')) {
    throw new ApiError('unsupported_media_type', 'Send the body as application/json');
  }
  next();
};

function route(deps: Deps, spec: Record<string, unknown>, op: OperationInfo, handler: Handler<OperationId>): RequestHandler {
  return async (req: Request, res) => {
    const auth = req.auth!;
    const call = (d: Deps, query: unknown = req.query) =>
      handler({
        params: req.params as never,
        query: query as never,
        body: req.body as never,
        auth,
        scope: { locationId: auth.locationId, role: auth.role, userId: auth.userId, scopes: auth.scopes, locationIsTest: auth.locationIsTest },
        deps: d,
        req,
      }) as Promise<{ status: number; body: unknown }>;
    const idempotent = res.locals.idempotent as IdempotentRun | undefined;
    const life = lifeOf(res);
    // `Accept: text/csv` on a list: its pages, through the same handler and filters, written as they come.
    if (res.locals.mediaType === 'text/csv') {
      await streamCsv(req, res, life, { spec, op, now: deps.clock.now(), page: (query) => call(deps, query) as Promise<{ status: number; body: never }> });
      return;
    }
    // A client that left before this point is not worked for: the operation never starts (and an
    // Idempotency-Key it claimed is released, so a retry runs it). One that leaves while it runs
    // does not stop it: it finishes (whole, with its idempotency record) and the log says so.
    const reply = await life.run(async () => {
      if (!idempotent) return call(deps);
      // An Idempotency-Key this request owns: the operation and the remembered answer commit together
      // (the services' own transactions become savepoints of this one).
      return deps.db.knex.transaction(async (trx) => {
        const r = await call({ ...deps, db: { ...deps.db, knex: trx as unknown as Knex } });
        if (remembered(r.status)) await idempotent.remember(trx, r.status, r.body);
        return r;
      });
    });
    if (!reply) {
      await idempotent?.abandon();
      return;
    }
    // A streamed operation (the location export): its lines are written as they come.
    if ('stream' in reply) {
      await streamReply(req, res, life, reply as unknown as StreamedReply);
      return;
    }
    res.status(reply.status).json(reply.body);
  };
}

/**
 * Request validation against openapi.yaml (shared with the sandbox in mocks/sandbox.ts, so both answer
 * an invalid request alike), and response validation when asked (tests).
 */
export function contractValidator(spec: Record<string, unknown>, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The parsed contract (parsed once, cached), not the path: the validator would parse the YAML again.
    apiSpec: spec as never,
    // Query and path values are coerced by their schema (they arrive as text); bodies never are:
    // `"75000"` for a number or `123` for a string is a 400, exactly as in the sandbox.
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: validateResponses
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
    formats: strictFormats,
  }) as unknown as RequestHandler[];
}

/**
 * Tests only: every app this process builds shares one contract validator per mode (responses
 * validated or not) instead of building its own. Building one loads and preprocesses the contract,
 * and each operation an app serves compiles its request and response schemas (every compile walks
 * the whole contract): seconds of CPU per app, and the api tests build an app per test file in
 * one process (contract-tests/support/per-file.ts turns this on). A server builds one app: off.
 */
let sharedValidators: Map<boolean, RequestHandler[]> | null = null;
export function shareContractValidators(on: boolean): void {
  sharedValidators = on ? (sharedValidators ?? new Map()) : null;
}

/**
 * express-openapi-validator binds its path parameters (`app.param`: the value it parsed replaces
 * Express's) on the first app a validator serves, and only there: with a shared validator, every
 * app binds them itself, as that first app has them.
 */
function bindPathParams(app: Express, operations: OperationInfo[]): void {
  const names = new Set(operations.flatMap((op) => [...op.expressPath.matchAll(/:(\w+)/g)].map((m) => m[1])));
  for (const name of names) {
    app.param(name, (req, _res, next, _value, param: string) => {
      const parsed = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams;
      if (parsed) req.params[param] = parsed[param] || req.params[param];
      next();
    });
  }
}

/** The checks of one operation that follow validation: path parameters, a required body, `x-max-*` bounds. */
export function operationGuards(op: OperationInfo): RequestHandler[] {
  return [contentNegotiation(op), safeParams, ...(op.bodyRequired ? [bodyRequired(op)] : []), ...(op.jsonLimits.length ? [jsonLimits(op.jsonLimits)] : [])];
}

/**
 * The request pipeline, in one fixed order: request id and the request's life (its one log line),
 * health and readiness probes, admission (a bound on the requests in flight: beyond it `503
 * overloaded` at once), body parsing (JSON only, size cap, no NUL or unpaired surrogates
 * anywhere), authentication, rate limit, validation against openapi.yaml
 * (then path parameters and the `x-max-*` bounds of free-form JSON), access (scope and role from
 * openapi.yaml), idempotency, handler (not started if its client has left), error envelope. Beside /v1, without an API key: health, the
 * contract and the reference, the storage routes, the portal, the OAuth authorization server and
 * its pages, and /mcp (OAuth tokens only; each tool call re-enters this pipeline as a /v1 request).
 */
export function createApp(deps: Deps, handlers: Handlers): Express {
  const spec = loadSpec();
  const operations = listOperations(spec);
  const admission = new Admission(deps.config.overload, deps.clock);
  const app = express();
  app.locals.admission = admission;
  app.disable('x-powered-by');
  app.disable('etag'); // no conditional GETs in the contract: hashing every body buys nothing
  app.set('query parser', 'extended');
  if (deps.config.trustProxy !== undefined) app.set('trust proxy', deps.config.trustProxy);

  app.use(requestLifecycle(deps.logger));

  // Unauthenticated process endpoints (not part of the public contract).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // The contract (/openapi.yaml, /openapi.json) and the built reference (/docs): answered from memory, never shed.
  app.use(referenceRoutes({ publicBaseUrl: deps.config.publicBaseUrl }));
  // Ready: the database answers and its schema is this release's (no migration pending).
  // Not ready while saturated (every slot busy or a queue waiting): a load balancer steers new work
  // to another process; this answer costs no database round trip.
  app.get('/readyz', async (_req, res) => {
    if (admission.saturated()) {
      res.status(503).json({ status: 'overloaded', ...admission.stats() });
      return;
    }
    try {
      const pending = await pendingMigrations(deps.db.knex);
      if (pending.length) res.status(503).json({ status: 'migrations_pending', pending });
      // Ready either way; `worker: not_seen` tells the operator no worker wrote a heartbeat in 2 minutes
      // (email and webhooks stay queued until one runs: `npm run worker`, or START_WORKER unset).
      else res.json({ status: 'ready', worker: await workerStatus(deps.db.knex, deps.clock.now()) });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });

  // Everything below is bounded: at most OVERLOAD_MAX_CONCURRENT at once, a short queue, then
  // `503 overloaded` before the body is read, before authentication and before any write.
  app.use(admission.middleware());

  // HEAD is served by every GET operation: Node already sends no body for it (the response was
  // created for a HEAD request), so from here on the request is routed, validated and checked as GET.
  app.use((req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  });

  // Operations with a raw body have their own route (today only receiveInboundEmail: an email
  // provider posts message/rfc822 with the location's inbound secret, not an API key).
  for (const op of operations.filter((o) => o.rawBody)) {
    if (op.operationId !== 'receiveInboundEmail') throw new Error(`No raw-body route for operation ${op.operationId}`);
    app[op.method](op.expressPath, ...inboundEmailRoute(deps, handlers.receiveInboundEmail));
  }

  // Outside the JSON API: the local storage back end's signed upload and download URLs (raw bytes,
  // up to 25 MB, no API key; not counted by admission, bounded by STORAGE_MAX_CONCURRENT_* instead;
  // an upload only while its document is pending_upload), and the merchant portal's pages behind magic links.
  if (deps.storage.kind === 'local') {
    const files = localStorageRoutes(deps.storage, {
      clock: () => deps.clock.now(), logger: deps.logger, ...deps.config.storageLimits, uploadOpen: (key) => uploadOpen(deps.db.knex, key),
    });
    app.locals.files = files.events;
    app.use(files);
  }
  app.use(portalRoutes(deps));
  // The settings pages for people (API keys, team, connected assistants...): sign-in by emailed code, then a session.
  app.use(appRoutes(deps));
  // OAuth 2.1 for assistants: the authorization server (metadata, registration, authorize, token,
  // revocation), the resource metadata of /mcp and /v1, and the sign-in and consent pages.
  const noIssuer = issuerProblem(deps.publicBaseUrl);
  if (noIssuer) deps.logger.warn(noIssuer);
  else app.use(oauthRoutes(deps));

  app.use(jsonOnly);
  app.use(express.json({ limit: BODY_LIMIT, strict: false, verify: markInvalidUtf8 }));
  app.use(safeInput(operations));

  // The MCP server: tools that enter this same app as /v1 requests.
  if (!noIssuer) app.use('/mcp', mcpRoutes(deps, app));

  app.use('/v1', authenticate(deps, { resourceMetadataUrl: noIssuer ? undefined : apiResourceMetadataUrl(deps) }));
  app.use('/v1', rateLimit());
  app.use((req, _res, next) => {
    if (req.path.startsWith('/v1/') || req.path === '/v1') return next();
    // The app's internal routes are not served here, and API keys are refused outside /v1 anyway.
    if (API_KEY_BEARER.test(req.get('Authorization') ?? '')) {
      throw new ApiError('api_key_not_allowed', 'API keys are accepted only on /v1');
    }
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  });

  const validateResponses = deps.validateResponses === true;
  let validator = sharedValidators?.get(validateResponses);
  if (sharedValidators) bindPathParams(app, operations);
  if (!validator) {
    validator = contractValidator(spec, validateResponses);
    sharedValidators?.set(validateResponses, validator);
  }
  app.use(validator);
  // Compiles every operation's request validator now rather than on its first request (see server.ts).
  // Then the credential lookup and its rate-limit count, once, for a key that cannot exist (no row
  // is found, nothing is written): the statement's first run on a connection is the slow one.
  app.locals.warmUp = async () => {
    const warmed = await warmValidator(app, validator, operations);
    await resolveCredential(deps, `Bearer svc_live_${'0'.repeat(32)}`, RATE_LIMIT).catch(() => undefined);
    return warmed;
  };

  for (const op of operations.filter((o) => !o.rawBody)) {
    const handler = handlers[op.operationId as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`No handler for operation ${op.operationId}`);
    app[op.method](op.expressPath, ...operationGuards(op), access(op), idempotency(deps), route(deps, spec, op, handler));
  }

  app.use((req) => {
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  });
  app.use(errorMiddleware());
  return app;
}

/**
 * Compiles the request validator of every operation now. express-openapi-validator loads the
 * contract and compiles an operation's validator on its first request (tens of ms each, 85
 * operations): done before the port opens, the first request after "listening" is as fast as the
 * hundredth. One synthetic request per operation runs through the validator's own middlewares and no
 * further: no handler, no database. The event loop turns between operations (the worker polls
 * meanwhile). Returns the number of operations whose validator ran.
 */
async function warmValidator(app: Express, validator: RequestHandler[], operations: OperationInfo[]): Promise<number> {
  let warmed = 0;
  for (const op of operations.filter((o) => !o.rawBody)) {
    const url = op.path.replace(/\{[^}]+\}/g, '_');
    const hasBody = op.method !== 'get' && op.method !== 'delete';
    const req = Object.assign(Object.create(app.request) as Request, {
      app, method: op.method.toUpperCase(), url, originalUrl: url, baseUrl: '', params: {},
      headers: hasBody ? { 'content-type': 'application/json', 'content-length': '2' } : {},
      body: hasBody ? {} : undefined,
    });
    const res = Object.assign(Object.create(app.response) as object, { req, app, locals: {} });
    for (const mw of validator) {
      const failed = await new Promise<unknown>((resolve) => {
        try {
          void mw(req, res as never, resolve);
        } catch (err) {
          resolve(err);
        }
      });
      if (failed) break; // the synthetic request is invalid (its path has no real id): compiled all the same
    }
    warmed++;
    // Each compile runs tens of ms without a pause; yield between them so that what else started
    // (the worker's first poll, a pool connection being opened) is not held past its timeout.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return warmed;
}
