import { createHash } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Router } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../deps';
import { canUse } from '../http/access';
import { API_KEY_BEARER, authenticate, INTERNAL_CALL_HEADER, registerInternalCall } from '../http/auth';
import { ApiError } from '../http/errors';
import { RATE_LIMIT, RATE_WINDOW_SECONDS, localRateLimiter, rateLimit, type Verdict } from '../http/rate-limit';
import { loadSpec } from '../http/spec';
import type { Auth } from '../http/types';
import { tools, type ToolDef } from './tools';

// The MCP server at /mcp (Streamable HTTP, stateless: every POST is one JSON-RPC exchange, so any
// process can answer it and nothing is kept between requests). Only OAuth access tokens minted for
// /mcp are accepted: an API key is 401 `api_key_not_allowed`, a token minted for /v1 is 401
// `invalid_token_audience`; both name the resource metadata in WWW-Authenticate so a client can
// start the OAuth flow. The request is counted against the token's rate limit like any /v1 request.
//
// A tool call is the /v1 request it names, sent to the same Express app over a loopback socket of
// its own (a real HTTP request, so nothing in the pipeline can tell it apart): validation, scope and
// role, idempotency, the handler and the error envelope are the API's own. The inner request is not
// looked up or counted a second time (a one-time nonce carries the authentication this request
// already did). Injection libraries were tried: they rewrite Express's shared prototypes.
//
// JSON-RPC batches: the revisions 2025-06-18 and 2025-11-25 removed them, but 2025-03-26 (which the
// SDK still negotiates) says a server MUST accept them, so a batch is served, and costs what its
// tool calls cost: the POST's own count pays for its first tool call, every further tool call takes
// one more count from the same per-token window (past the limit it is a tool error `rate_limited`
// with retry_after, not run), and the tool calls of one POST run one after another on that POST's
// admission slot (a batch never works on more than one request's share of the process).

export const MCP_SERVER_INFO = { name: 'deal-funding-platform', version: '1.0.0' };

const INSTRUCTIONS = `Tools are the Deal-Funding Platform API's operations (one per operation, named by its operationId), acting as the user who connected you, in that user's location, with the scopes they approved.
- Ids are prefixed (biz_, per_, deal_, sub_, ofr_, ...). Money is in cents. Times are ISO 8601 UTC.
- List tools page with \`limit\` and \`cursor\` (pass the previous answer's \`next_cursor\`).
- Create tools take an optional \`idempotency_key\`; without one, the same arguments are applied once.
- A failed call answers the API's error envelope ({"error": {"type", "code", "message", "param"}}): fix the named param, or explain the permission error to the user.
- The resource guide://api is the full API guide (pipeline, submissions, offers, errors).`;

let guide: string | undefined;
/** The reference's guides (info.description), read once per process. */
function guideText(): string {
  guide ??= String(((loadSpec().info as Record<string, unknown>) ?? {}).description ?? '');
  return guide;
}

/** The tools/list answer per role and scope set: the same few combinations recur for every request. */
const listings = new Map<string, { tools: unknown[] }>();
function listingFor(auth: Auth): { tools: unknown[] } {
  const key = `${auth.role}|${[...auth.scopes].sort().join(' ')}`;
  let hit = listings.get(key);
  if (!hit) {
    hit = {
      tools: tools()
        .filter((t) => canUse(auth, t.op))
        .map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations })),
    };
    if (listings.size > 1000) listings.clear(); // bounded: scope sets are few in practice
    listings.set(key, hit);
  }
  return hit;
}

const PROMPTS = [
  {
    name: 'pipeline_review',
    description: 'Review the open pipeline: which deals are stuck, waiting on documents, or have offers to act on.',
    arguments: [{ name: 'focus', description: 'Optional: a stage name, a business, or "stips" / "offers".', required: false }],
    text: (focus?: string) =>
      `Review my open deals${focus ? ` with a focus on: ${focus}` : ''}. Use listPipelineStages and listDeals (status open), then for the deals that matter ` +
      'listDealSubmissions, listDealOffers, listDocumentRequests and listDealTasks. Report: deals waiting on documents (open document requests or stips), ' +
      'offers received and not yet accepted, submissions with no answer after 3 days, and overdue tasks. Quote deal ids and amounts; do not change anything.',
  },
  {
    name: 'submit_deal',
    description: 'Submit a deal to its best-matched lenders, after checking what is missing.',
    arguments: [{ name: 'deal_id', description: 'The deal (deal_...).', required: true }],
    text: (dealId?: string) =>
      `Prepare deal ${dealId ?? '(ask me which)'} for submission: getDeal, listDealDocuments and listDealLenderMatches. Tell me what is missing, ` +
      'propose the three best-matched lenders with the reasons the matcher gives, and wait for my confirmation before calling createSubmission for each.',
  },
];

/** The key for a create called without one: a hash of the tool and its arguments (the arguments never travel in a header). */
function derivedKey(tool: string, args: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return `mcp_${createHash('sha256').update(JSON.stringify([tool, canonical(args)])).digest('hex').slice(0, 48)}`;
}

/** One POST's tool calls: the POST's rate-limit count pays for the first, and they run one at a time. */
interface PostBudget {
  prepaid: boolean;
  chain: Promise<unknown>;
}

function toolError(body: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }] };
}

export interface Loopback {
  port: number;
  agent: Agent;
}
const loopbacks = new WeakMap<Express, Promise<Loopback>>();

/** The app on a loopback port of its own, started at the first tool call; it never keeps the process alive. */
function loopbackOf(app: Express): Promise<Loopback> {
  let started = loopbacks.get(app);
  if (!started) {
    started = new Promise<Loopback>((resolve, reject) => {
      const server = createServer(app);
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        resolve({ port: (server.address() as AddressInfo).port, agent: new Agent({ keepAlive: true, maxSockets: 32 }) });
      });
    });
    loopbacks.set(app, started);
  }
  return started;
}

/**
 * One request to the loopback app. A kept-alive socket the server has just closed (its keep-alive
 * timeout ends while the agent hands the socket out) fails with ECONNRESET/EPIPE before the server
 * has read anything: that request is sent once more on a fresh socket (Node's documented pattern,
 * `request.reusedSocket`). Any other failure is the caller's.
 */
export function send(lb: Loopback, method: string, path: string, headers: Record<string, string>, payload?: string, retried = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: lb.port, method, path, headers, agent: lb.agent }, (res) => {
      res.socket.unref();
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 500, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!retried && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        send(lb, method, path, headers, payload, true).then(resolve, reject);
      } else reject(err);
    });
    req.end(payload);
  });
}

/** Calls the operation a tool names through the /v1 pipeline, as the authenticated caller. */
async function callTool(deps: Deps, app: Express, req: Request, tool: ToolDef, rawArgs: unknown, auth: Auth, budget: PostBudget, postVerdict: Verdict): Promise<CallToolResult> {
  const turn = budget.chain.then(() => runTool(deps, app, req, tool, rawArgs, auth, budget, postVerdict));
  budget.chain = turn.catch(() => undefined);
  return turn;
}

async function runTool(deps: Deps, app: Express, req: Request, tool: ToolDef, rawArgs: unknown, auth: Auth, budget: PostBudget, postVerdict: Verdict): Promise<CallToolResult> {
  let verdict = postVerdict;
  if (budget.prepaid) budget.prepaid = false;
  else {
    // A further tool call of the same POST: counted against the token like any /v1 request (the same
    // in-memory counts, exchanged with the shared table).
    verdict = await localRateLimiter(deps.db, deps.clock).take(auth.credentialId, deps.clock.now().getTime(), RATE_LIMIT);
    if (!verdict.allowed) {
      return toolError({
        error: {
          type: 'rate_limit_error', code: 'rate_limited', status: 429, retry_after: verdict.retryAfter,
          message: `Rate limit of ${RATE_LIMIT} requests per ${RATE_WINDOW_SECONDS} seconds exceeded (every tool call counts); retry after ${verdict.retryAfter} seconds`,
          request_id: req.requestId,
        },
      });
    }
  }
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  if (typeof args !== 'object' || Array.isArray(args)) return toolError({ error: { type: 'validation_error', code: 'invalid_request', message: 'Arguments must be an object' } });
  const known = new Set(Object.keys((tool.inputSchema.properties as object) ?? {}));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length) {
    return toolError({ error: { type: 'validation_error', code: 'invalid_request', message: `Unknown argument ${unknown[0]}; this tool takes ${[...known].join(', ') || 'no arguments'}`, param: unknown[0] } });
  }
  let path = tool.op.path;
  const query = new URLSearchParams();
  for (const p of tool.params) {
    const v = args[p.name];
    if (p.in === 'path') {
      if (typeof v !== 'string' || !v) return toolError({ error: { type: 'validation_error', code: 'invalid_request', message: `${p.name} is required (a string)`, param: p.name } });
      path = path.replace(`{${p.name}}`, encodeURIComponent(v));
      continue;
    }
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (p.commaArray) query.append(p.name, v.map(String).join(','));
      else for (const x of v) query.append(p.name, String(x));
    } else if (typeof v === 'object') {
      return toolError({ error: { type: 'validation_error', code: 'invalid_request', message: `${p.name} must be a scalar or a list`, param: p.name } });
    } else {
      query.append(p.name, String(v));
    }
  }
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': req.requestId };
  if (tool.idempotencyKey) {
    const key = args.idempotency_key;
    if (key !== undefined && typeof key !== 'string') return toolError({ error: { type: 'validation_error', code: 'invalid_request', message: 'idempotency_key must be a string', param: 'idempotency_key' } });
    const { idempotency_key: _ignored, ...rest } = args;
    headers['idempotency-key'] = key ?? derivedKey(tool.name, rest);
  }
  let payload: string | undefined;
  if (tool.hasBody && args.body !== undefined) {
    payload = JSON.stringify(args.body);
    headers['content-type'] = 'application/json';
  }
  const call = registerInternalCall(auth, verdict);
  headers[INTERNAL_CALL_HEADER] = call.nonce;
  try {
    const qs = query.toString();
    let r: { status: number; body: string };
    try {
      r = await send(await loopbackOf(app), tool.op.method.toUpperCase(), qs ? `${path}?${qs}` : path, headers, payload);
    } catch (err) {
      // The call never got an answer: a tool error in the API's envelope (the client may retry; a
      // create carries its idempotency key), logged without the arguments.
      deps.logger.error({ err: { code: (err as NodeJS.ErrnoException).code, message: (err as Error).message }, tool: tool.name, request_id: req.requestId }, 'mcp tool call got no answer from the API');
      return toolError({ error: { type: 'api_error', code: 'internal_error', status: 500, message: 'The tool call got no answer from the API; retry it', request_id: req.requestId } });
    }
    let body: unknown = r.body;
    try {
      body = r.body ? JSON.parse(r.body) : null;
    } catch {
      // not JSON: passed on as text
    }
    if (r.status >= 400) return toolError(body);
    if (r.status === 204 || body === null) return { content: [{ type: 'text', text: `Done (HTTP ${r.status}).` }] };
    return {
      content: [{ type: 'text', text: JSON.stringify(body) }],
      ...(body && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {}),
    };
  } finally {
    call.release();
  }
}

/**
 * The SDK's server side (its Server, the Streamable HTTP transport and the protocol's zod schemas:
 * ~0.14 s of CPU to load) is imported by the first /mcp request, not at the API's start.
 */
type Sdk = typeof import('@modelcontextprotocol/sdk/types.js') & {
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
};
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, transport, types]) => ({ ...types, Server: server.Server, StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport })));

function buildServer(deps: Deps, app: Express, req: Request, auth: Auth, verdict: Verdict, m: Sdk): Server {
  const { Server, McpError, ErrorCode, CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } = m;
  const budget: PostBudget = { prepaid: true, chain: Promise.resolve() };
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => listingFor(auth) as never);
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools().find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(deps, app, req, tool, request.params.arguments, auth, budget, verdict);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: 'guide://api', name: 'API guide', title: 'Deal-Funding Platform API guide', mimeType: 'text/markdown', description: 'Authentication, roles, errors, pagination, idempotency, the pipeline from submission to offer, webhooks.' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== 'guide://api') throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: 'guide://api', mimeType: 'text/markdown', text: guideText() }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map(({ name, description, arguments: a }) => ({ name, description, arguments: a })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const a = request.params.arguments ?? {};
    const value = prompt.name === 'submit_deal' ? a.deal_id : a.focus;
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(value) } }] };
  });
  return server;
}

export function mcpResourceMetadataUrl(deps: Pick<Deps, 'publicBaseUrl'>): string {
  return `${deps.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;
}

/** POST /mcp, behind OAuth access tokens minted for it. `app` is the Express app the tool calls enter. */
export function mcpRoutes(deps: Deps, app: Express): Router {
  const router = express.Router();
  const resourceMetadataUrl = mcpResourceMetadataUrl(deps);
  const challenge = (err: ApiError) => {
    err.headers['WWW-Authenticate'] = `Bearer realm="svc", error="invalid_token", error_description="${err.message}", resource_metadata="${resourceMetadataUrl}"`;
    return err;
  };
  router.use((req, _res, next) => {
    if (API_KEY_BEARER.test(req.get('Authorization') ?? '')) {
      throw challenge(new ApiError('api_key_not_allowed', 'API keys are not accepted on /mcp; connect with OAuth (see the resource metadata)'));
    }
    next();
  });
  router.use(authenticate(deps, { resourceMetadataUrl }));
  router.use((req, _res, next) => {
    if (req.auth!.credentialType !== 'oauth_token' || req.auth!.audience !== 'mcp') {
      throw challenge(new ApiError('invalid_token_audience', 'This access token was minted for /v1, not for /mcp; authorize again with resource set to the /mcp address'));
    }
    next();
  });
  router.use(rateLimit());
  router.post('/', async (req, res) => {
    const m = await loadSdk();
    const server = buildServer(deps, app, req, req.auth!, req.rateLimit!, m);
    const transport = new m.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req as unknown as IncomingMessage, res, req.body);
  });
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  router.all('/', (req) => {
    throw new ApiError('method_not_allowed', `${req.method} is not served on /mcp; send JSON-RPC requests with POST`, undefined, { Allow: 'POST' });
  });
  return router;
}
