/**
 * `npm run mock [-- --port 4010]`: the partner sandbox. Prism serves the contract's examples (the
 * design card's sandbox), behind a front that checks every request with the real server's own
 * pipeline pieces, so an invalid request gets the answer production gives: the same error envelope,
 * `type`, `code`, `param` and message (body parsing and malformed JSON, NUL and bad escapes, the
 * validator against openapi.yaml, path parameters, required bodies, `x-max-*` bounds). What passes
 * goes to Prism, `Prefer: code=...` / `Prefer: example=...` included, and Prism's example answers.
 *
 * Credentials: any bearer credential is accepted (the sandbox has no accounts); none is
 * `401 missing_credential`, as in production. Nothing is
 * stored: behaviour (state, events, roles) needs a test location on the real server (see the
 * reference's "Sandbox and test mode" guide).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import express, { type Express, type Request, type Response } from 'express';
import { contractValidator, jsonOnly, operationGuards } from '../src/app';
import { ApiError, errorMiddleware, unauthenticated } from '../src/http/errors';
import { markInvalidUtf8, safeInput } from '../src/http/input';
import { requestLifecycle } from '../src/http/lifecycle';
import { contentTypeForValidator } from '../src/http/route-table';
import { listOperations, loadSpec, SPEC_PATH } from '../src/http/spec';
import '../src/http/validator-routes';
import { createLogger } from '../src/logger';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PRISM = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** Forwards the request as it arrived (the parsed JSON body re-serialised) to Prism; its answer goes back. */
function forward(prismPort: number) {
  return (req: Request, res: Response) => {
    const raw = (req as Request & { rawBody?: Buffer }).rawBody;
    const body = raw ?? (req.body !== undefined && req.is('application/json') ? Buffer.from(JSON.stringify(req.body)) : undefined);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    if (body) headers['content-length'] = String(body.length);
    const upstream = httpRequest({ host: '127.0.0.1', port: prismPort, method: req.method, path: req.originalUrl, headers }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) {
        // Ours: the request id this front minted, and the framing of the body it sends.
        if (v === undefined || ['x-request-id', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) continue;
        out[k] = v;
      }
      res.status(answer.statusCode ?? 502).set(out);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.status(502).json({ error: { type: 'api_error', code: 'internal_error', message: 'The sandbox could not reach Prism', request_id: req.requestId } });
    });
    upstream.end(body);
  };
}

type Node = Record<string, any>;
/** The lines of an NDJSON answer's named examples, in the contract's order. */
function ndjsonExamples(spec: Node, path: string, method: string): string {
  const content = spec.paths[path][method].responses['200'].content['application/x-ndjson'];
  return Object.values<Node>(content.examples ?? {}).map((e) => `${JSON.stringify(e.value)}\n`).join('');
}

function serveNdjson(body: string) {
  return (_req: Request, res: Response) => {
    res.status(200).set({ 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Content-Disposition': 'attachment; filename="location-export-sandbox.ndjson"' }).send(body);
  };
}

/** The front: the real pipeline's checks, then Prism. */
export function createSandboxApp(prismPort: number): Express {
  const spec = loadSpec();
  const operations = listOperations(spec);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'extended');
  app.use(requestLifecycle(createLogger(process.env.LOG_LEVEL ?? 'warn')));
  app.use((req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  });
  // A raw body (an inbound email): straight to Prism, as the real server has its own route for it.
  for (const op of operations.filter((o) => o.rawBody)) {
    app[op.method](op.expressPath, express.raw({ type: () => true, limit: '25mb' }), (req, _res, next) => {
      (req as Request & { rawBody?: Buffer }).rawBody = Buffer.isBuffer(req.body) ? req.body : undefined;
      next();
    }, forward(prismPort));
  }
  app.use(jsonOnly);
  app.use(express.json({ limit: '1mb', strict: false, verify: markInvalidUtf8 }));
  app.use(safeInput(operations));
  app.use('/v1', (req, _res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '');
    if (!match) throw unauthenticated('Missing bearer credential', 'missing_credential');
    next();
  });
  app.use((req, _res, next) => {
    if (req.path.startsWith('/v1/') || req.path === '/v1') return next();
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  });
  // The Content-Type reduced as the real server reduces it (route-table.ts): the validator compiles
  // and keeps one validator per distinct Content-Type string it is shown, so a header left as sent
  // would let anyone make the sandbox compile without end and grow without bound.
  for (const op of operations.filter((o) => !o.rawBody)) {
    app[op.method](op.expressPath, (req, _res, next) => {
      contentTypeForValidator(req, op.jsonBody);
      next();
    });
  }
  app.use(contractValidator(spec, false));
  for (const op of operations.filter((o) => !o.rawBody)) {
    // Prism has no serializer for NDJSON: the location export is answered here, from the contract's
    // own examples (one line each), as the real server streams it.
    const ndjson = op.produces.includes('application/x-ndjson') ? ndjsonExamples(spec, op.path, op.method) : undefined;
    app[op.method](op.expressPath, ...operationGuards(op), ndjson ? serveNdjson(ndjson) : forward(prismPort));
  }
  app.use((req) => {
    throw new ApiError('route_not_found', `Unrecognized request URL (${req.method} ${req.path})`);
  });
  app.use(errorMiddleware());
  return app;
}

export interface Sandbox {
  url: string;
  close(): Promise<void>;
}

/** Prism on a free loopback port, the front on `port` (0: a free one). */
export async function startSandbox(port = 4010, host = '127.0.0.1'): Promise<Sandbox> {
  const prismPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const p = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });
  const prism: ChildProcess = spawn(process.execPath, [PRISM, 'mock', SPEC_PATH, '-p', String(prismPort), '-h', '127.0.0.1'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    // Not started in time: stopped, not left running without a parent (it was, after this error).
    const timer = setTimeout(() => {
      prism.kill('SIGKILL');
      reject(new Error(`Prism did not start within 60 s:\n${log}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism.stdout!.on('data', onData);
    prism.stderr!.on('data', onData);
    prism.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code} before listening:\n${log}`));
    });
  });
  // Keep draining Prism's log so it never blocks on a full pipe.
  prism.stdout!.removeAllListeners('data');
  prism.stderr!.removeAllListeners('data');
  prism.stdout!.resume();
  prism.stderr!.resume();
  const server: Server = createServer(createSandboxApp(prismPort));
  // Idle keep-alive sockets stay open longer than a client's pause between two calls: at Node's
  // default of 5 s, a client whose answer arrives late (a loaded machine: the fresh-clone CI of
  // 2026-11-30 failed a sandbox test with ECONNRESET) reuses the socket just as the server closes it.
  // 65 s outlasts the usual client and load-balancer idle timeouts (60 s); headersTimeout must exceed it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      prism.kill('SIGTERM');
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '4010' }, host: { type: 'string', default: '127.0.0.1' } } });
  startSandbox(Number(values.port), values.host).then(
    (sandbox) => {
      process.stdout.write(`Sandbox listening on ${sandbox.url} (Prism behind the real server's request checks). Ctrl+C stops it.\n`);
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
