import { loadSpec, listOperations, type OperationInfo } from '../http/spec';

// The MCP server's tools, generated from openapi.yaml at start: one per public operation (the raw
// inbound-email route, which takes a location's inbound secret and a MIME message, is not one).
// Name = operationId; description = summary and description; input schema = the path and query
// parameters as properties, the JSON body under `body`, and `idempotency_key` on operations that
// take an Idempotency-Key. Schemas keep the contract's own definitions: each tool carries the
// component schemas it reaches under `$defs` (never the whole contract), so `$ref`s resolve inside
// the tool. Annotations: `readOnlyHint` for reads, `destructiveHint` for deletes and revocations.

export interface ToolParam {
  name: string;
  in: 'path' | 'query';
  /** A comma-separated array (`style: form, explode: false`), e.g. `include=people,deals`. */
  commaArray: boolean;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  op: OperationInfo;
  params: ToolParam[];
  hasBody: boolean;
  idempotencyKey: boolean;
}

type Node = Record<string, unknown>;

const DROP = new Set(['example', 'examples', 'externalDocs', 'xml', 'discriminator']);
const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** A JSON Schema for tools: `x-*`, examples and OpenAPI-only keys dropped; schema refs point into `$defs`. */
function clean(node: unknown, used: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => clean(n, used));
  if (!node || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node as Node)) {
    if (k.startsWith('x-') || DROP.has(k)) continue;
    if (k === '$ref' && typeof v === 'string') {
      const m = SCHEMA_REF.exec(v);
      if (!m) throw new Error(`Unsupported $ref in a tool schema: ${v}`);
      used.add(m[1]);
      out.$ref = `#/$defs/${m[1]}`;
      continue;
    }
    // `properties` maps names to schemas: a property may be named like a dropped key.
    if (k === 'properties' && v && typeof v === 'object') {
      out.properties = Object.fromEntries(Object.entries(v as Node).map(([name, s]) => [name, clean(s, used)]));
      continue;
    }
    out[k] = clean(v, used);
  }
  return out;
}

function resolve(spec: Node, node: unknown): Node {
  let n = node as Node;
  for (let hops = 0; typeof n?.$ref === 'string' && hops < 10; hops++) {
    n = (n.$ref as string).replace(/^#\//, '').split('/').reduce<unknown>((x, k) => (x as Node)?.[k], spec) as Node;
  }
  return n;
}

const DESTRUCTIVE = /^(delete|revoke|remove|withdraw)/i;

export function buildTools(spec: Node = loadSpec()): ToolDef[] {
  const schemas = ((spec.components as Node)?.schemas ?? {}) as Record<string, unknown>;
  const paths = spec.paths as Record<string, Node>;
  const tools: ToolDef[] = [];
  for (const op of listOperations(spec)) {
    if (op.rawBody) continue;
    // A tool answers JSON: an operation that streams another media type (the location export) is not one.
    if (!op.produces.includes('application/json')) continue;
    const item = paths[op.path];
    const raw = item[op.method] as Node;
    const used = new Set<string>();
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const params: ToolParam[] = [];
    let idempotencyKey: Node | null = null;
    for (const p of [...((item.parameters as unknown[]) ?? []), ...((raw.parameters as unknown[]) ?? [])].map((x) => resolve(spec, x))) {
      if (p.in === 'header') {
        if (String(p.name).toLowerCase() === 'idempotency-key') idempotencyKey = clean(p.schema ?? { type: 'string' }, used) as Node;
        continue;
      }
      if (p.in !== 'path' && p.in !== 'query') continue;
      const name = String(p.name);
      const schema = clean(p.schema ?? {}, used) as Node;
      if (p.description && !schema.description) schema.description = p.description;
      properties[name] = schema;
      if (p.required || p.in === 'path') required.push(name);
      params.push({ name, in: p.in, commaArray: p.style === 'form' && p.explode === false });
    }
    const bodySchema = (raw.requestBody as Node | undefined)?.content as Record<string, Node> | undefined;
    const hasBody = !!bodySchema?.['application/json'];
    if (hasBody) {
      properties.body = clean(bodySchema!['application/json'].schema ?? {}, used);
      if ((raw.requestBody as Node).required) required.push('body');
    }
    if (idempotencyKey) {
      properties.idempotency_key = {
        ...idempotencyKey,
        description:
          'Makes retries safe: a second call with the same key and arguments answers the first result instead of acting again. ' +
          'When omitted, one is derived from the arguments, so an identical retry is not applied twice; pass a new key to do the same thing twice on purpose.',
      };
    }
    // The component schemas the tool reaches, transitively.
    const defs: Record<string, unknown> = {};
    const queue = [...used];
    while (queue.length) {
      const name = queue.pop()!;
      if (name in defs) continue;
      const more = new Set<string>();
      defs[name] = clean(schemas[name], more);
      for (const m of more) if (!(m in defs)) queue.push(m);
    }
    const inputSchema: ToolDef['inputSchema'] = { type: 'object', properties, additionalProperties: false };
    if (required.length) inputSchema.required = required;
    if (Object.keys(defs).length) inputSchema.$defs = defs;
    const summary = String(raw.summary ?? op.operationId);
    const read = op.method === 'get';
    tools.push({
      name: op.operationId,
      title: summary,
      description: `${summary}. ${String(raw.description ?? '').trim()}\n\nHTTP: ${op.method.toUpperCase()} ${op.path}`.trim(),
      inputSchema,
      annotations: {
        title: summary,
        readOnlyHint: read,
        destructiveHint: op.method === 'delete' || DESTRUCTIVE.test(op.operationId),
        idempotentHint: read || op.method === 'put' || op.method === 'delete',
        openWorldHint: false,
      },
      op,
      params,
      hasBody,
      idempotencyKey: idempotencyKey !== null,
    });
  }
  return tools;
}

let cached: ToolDef[] | undefined;
/** The tools, generated once per process. */
export function tools(): ToolDef[] {
  return (cached ??= buildTools());
}
