import { workerStatus } from './jobs/heartbeat';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Deps } from './deps';
import { access } from './http/access';
import { API_KEY_BEARER, authenticate, resolveCredential } from './http/auth';
import { inboundEmailRoute } from './features/inbound/inbound.route';
import { ApiError, errorMiddleware } from './http/errors';
import { strictFormats } from './http/formats';
import { idempotency, type IdempotentRun } from './http/idempotency';
import { bodyRequired, jsonLimits, markInvalidUtf8, safeInput, safeParams } from './http/input';
import './http/validator-routes';
import './http/ajv-refs';
import './http/validator-start';
import './http/validator-fast';
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
import { chain, contentTypeForValidator, methodNotAllowed, RouteTable } from './http/route-table';

export const BODY_LIMIT = '1mb';

/**
 * The request pipeline's stages, in the order createApp mounts them: every handler it mounts is
 * marked with its stage (`at`). docs-site/ARCHITECTURE.md's "Request pipeline" lists the same stages
 * in the same order; contract-tests/spec/architecture.test.ts holds the document to this list and
 * this list to the app's real router stack, so neither can change alone.
 */
export const PIPELINE = [
  'request-life', 'probes', 'admission', 'outside-api', 'body', 'mcp', 'authentication', 'rate-limit', 'validation', 'access', 'idempotency', 'handler', 'errors',
] as const;
export type PipelineStage = (typeof PIPELINE)[number];

const stages = new WeakMap<object, PipelineStage>();

/** The handlers given, each marked as part of the stage `name` (read back by stageOf). */
function at<T extends object>(name: PipelineStage, ...handlers: T[]): T[] {
  for (const h of handlers) stages.set(h, name);
  return handlers;
}

/** The pipeline stage a mounted handler belongs to (undefined: not mounted by createApp). */
export function stageOf(handler: object): PipelineStage | undefined {
  return stages.get(handler);
}

/** JSON bodies only: a body of another media type is refused before anything reads it. */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('Content-Length') ?? 0) > 0 || req.get('Transfer-Encoding') !== undefined;
  if (hasBody && !req.is('application/json')) {
    throw new ApiError('unsupported_media_type', 'Send the body as application/json');
  }
  next();
};

const isApiPath = (path: string) => path.startsWith('/v1/') || path === '/v1';

/**
 * A router that serves nothing under /v1 (the contract, the storage URLs, the portal, the app, OAuth),
 * passed over by /v1 requests: Express would otherwise walk each one's routes for every API call.
 */
function besideApi(router: RequestHandler): RequestHandler {
  return (req, res, next) => (isApiPath(req.path) ? next() : router(req, res, next));
}

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
    // A client that left before this point is not worked for: the operation never starts (nor is an
    // Idempotency-Key claimed). One that leaves while it runs does not stop it: it finishes (whole,
    // with its idempotency record) and the log says so.
    const reply = await life.run(async () => {
      if (!idempotent) return call(deps);
      // An Idempotency-Key: the key is claimed in the operation's transaction, and the operation and
      // the remembered answer commit together (the services' own transactions become savepoints of it).
      const r = await idempotent.run((trx) => call({ ...deps, db: { ...deps.db, knex: trx } }));
      if (r.replayed) res.setHeader('Idempotent-Replayed', 'true');
      return r;
    });
    if (!reply) return;
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

  app.use(...at('request-life', requestLifecycle(deps.logger)));

  // Unauthenticated process endpoints (not part of the public contract).
  app.get('/healthz', ...at('probes', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  }));
  // The contract (/openapi.yaml, /openapi.json) and the built reference (/docs): answered from memory, never shed.
  app.use(...at('probes', besideApi(referenceRoutes({ publicBaseUrl: deps.config.publicBaseUrl }))));
  // Ready: the database answers and its schema is this release's (no migration pending).
  // Not ready while saturated (every slot busy or a queue waiting): a load balancer steers new work
  // to another process; this answer costs no database round trip.
  app.get('/readyz', ...at('probes', async (_req: Request, res: Response) => {
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
  }));

  // Everything below is bounded: at most OVERLOAD_MAX_CONCURRENT at once, a short queue, then
  // `503 overloaded` before the body is read, before authentication and before any write.
  app.use(...at('admission', admission.middleware()));

  // HEAD is served by every GET operation: Node already sends no body for it (the response was
  // created for a HEAD request), so from here on the request is routed, validated and checked as GET.
  app.use(...at('outside-api', (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  }));

  // Operations with a raw body have their own route (today only receiveInboundEmail: an email
  // provider posts message/rfc822 with the location's inbound secret, not an API key).
  for (const op of operations.filter((o) => o.rawBody)) {
    if (op.operationId !== 'receiveInboundEmail') throw new Error(`No raw-body route for operation ${op.operationId}`);
    app[op.method](op.expressPath, ...at('outside-api', ...inboundEmailRoute(deps, handlers.receiveInboundEmail)));
  }

  // Outside the JSON API: the local storage back end's signed upload and download URLs (raw bytes,
  // up to 25 MB, no API key; not counted by admission, bounded by STORAGE_MAX_CONCURRENT_* instead;
  // an upload only while its document is pending_upload), and the merchant portal's pages behind magic links.
  if (deps.storage.kind === 'local') {
    const files = localStorageRoutes(deps.storage, {
      clock: () => deps.clock.now(), logger: deps.logger, ...deps.config.storageLimits, uploadOpen: (key) => uploadOpen(deps.db.knex, key),
    });
    app.locals.files = files.events;
    app.use(...at('outside-api', besideApi(files)));
  }
  app.use(...at('outside-api', besideApi(portalRoutes(deps))));
  // The settings pages for people (API keys, team, connected assistants...): sign-in by emailed code, then a session.
  app.use(...at('outside-api', besideApi(appRoutes(deps))));
  // OAuth 2.1 for assistants: the authorization server (metadata, registration, authorize, token,
  // revocation), the resource metadata of /mcp and /v1, and the sign-in and consent pages.
  const noIssuer = issuerProblem(deps.publicBaseUrl);
  if (noIssuer) deps.logger.warn(noIssuer);
  else app.use(...at('outside-api', besideApi(oauthRoutes(deps))));

  app.use(...at('body', jsonOnly, express.json({ limit: BODY_LIMIT, strict: false, verify: markInvalidUtf8 }), safeInput(operations)));

  // The MCP server: tools that enter this same app as /v1 requests.
  if (!noIssuer) app.use('/mcp', ...at('mcp', mcpRoutes(deps, app)));

  app.use('/v1', ...at('authentication', authenticate(deps, { resourceMetadataUrl: noIssuer ? undefined : apiResourceMetadataUrl(deps) })));
  app.use('/v1', ...at('rate-limit', rateLimit()));
  // Only /v1 goes on: a path nothing above answered is refused before validation.
  app.use(...at('validation', (req: Request, _res: Response, next: NextFunction) => {
    if (isApiPath(req.path)) return next();
    // The app's internal routes are not served here, and API keys are refused outside /v1 anyway.
    if (API_KEY_BEARER.test(req.get('Authorization') ?? '')) {
      throw new ApiError('api_key_not_allowed', 'API keys are accepted only on /v1');
    }
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  }));

  // One validator per mode shared by the apps of a test worker (shareContractValidators); the route
  // table below sets each request's path parameters itself, so a shared validator needs nothing per app.
  const validateResponses = deps.validateResponses === true;
  let validator = sharedValidators?.get(validateResponses);
  if (!validator) {
    validator = contractValidator(spec, validateResponses);
    sharedValidators?.set(validateResponses, validator);
  }
  // Compiles every operation's request validator now rather than on its first request (see server.ts).
  // Then the credential lookup and its rate-limit count, once, for a key that cannot exist (no row
  // is found, nothing is written): the statement's first run on a connection is the slow one.
  app.locals.warmUp = async () => {
    const warmed = await warmValidator(app, validator, operations);
    await resolveCredential(deps, `Bearer svc_live_${'0'.repeat(32)}`, RATE_LIMIT).catch(() => undefined);
    return warmed;
  };
  app.use(...at('validation', operationRouter(operations, at('validation', ...validator), (op) => {
    const handler = handlers[op.operationId as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`No handler for operation ${op.operationId}`);
    return [...at('validation', ...operationGuards(op)), ...at('access', access(op)), ...at('idempotency', idempotency(deps)), ...at('handler', route(deps, spec, op, handler))];
  })));

  app.use(...at('errors', (req: Request) => {
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  }));
  app.use(...at('errors', errorMiddleware()));
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

/** What express-openapi-validator's own route lookup attaches to a request (`req.openapi`), less the parameters. */
interface ValidatorMeta {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  serial: number;
  _responseSchema?: unknown;
}

/**
 * The /v1 operations behind one route table (method and path template, see route-table.ts): the
 * request's operation is found once, and express-openapi-validator is handed it (`req.openapi`, as
 * its own lookup would set it) instead of scanning the contract's paths again; its request (and, in
 * tests, response) validation then runs as before, followed by the operation's own handlers. The
 * validator's lookup runs once per operation, on its first request, and what it found is kept (and
 * checked: the same path template as the table's).
 */
function operationRouter(operations: OperationInfo[], validator: RequestHandler[], handlersOf: (op: OperationInfo) => RequestHandler[]): RequestHandler {
  const named = (name: string) => validator.filter((mw) => mw.name === name);
  const locate = [...named('pathParamsMiddleware'), ...named('metadataMiddleware')];
  const validate = validator.filter((mw) => !locate.includes(mw));
  if (locate.length !== 2 || !validate.some((mw) => mw.name === 'requestMiddleware')) {
    throw new Error('express-openapi-validator changed shape: its route lookup and request validation middlewares were not found');
  }
  const findMeta = chain(locate);
  const table = new RouteTable<{ op: OperationInfo; meta?: ValidatorMeta; run: ReturnType<typeof chain> }>();
  let first: RequestHandler[] | undefined;
  for (const op of operations.filter((o) => !o.rawBody)) {
    const handlers = [...validate, ...handlersOf(op)];
    first ??= handlers;
    table.add(op.method, op.path, { op, run: chain(handlers) });
  }

  const router: RequestHandler & { inner?: RequestHandler[] } = (req, res, next) => {
    const hit = table.find(req.method, req.path);
    if (!hit) return next();
    if ('allow' in hit) throw methodNotAllowed(req, hit.allow);
    const entry = hit.value;
    contentTypeForValidator(req, entry.op.jsonBody);
    const r = req as Request & { openapi?: ValidatorMeta & { pathParams: Record<string, string> } };
    if (entry.meta) {
      r.params = hit.params;
      r.openapi = { ...entry.meta, pathParams: hit.params };
      entry.run(req, res, next);
      return;
    }
    findMeta(req, res, (err) => {
      if (err) return next(err);
      const found = r.openapi;
      if (found?.openApiRoute !== entry.op.path) {
        return next(new Error(`The validator placed ${req.method} ${req.path} at ${found?.openApiRoute}, the route table at ${entry.op.path}`));
      }
      const { pathParams: _, ...meta } = found;
      entry.meta = meta;
      r.params = hit.params;
      entry.run(req, res, next);
    });
  };
  // What one operation runs behind the table, in order (architecture.test.ts reads their stages).
  router.inner = first ?? [];
  return router;
}
