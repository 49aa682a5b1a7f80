import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The project folder (the one holding openapi.yaml), from src/ or from a bundle in dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'openapi.yaml'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('openapi.yaml not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}
const ROOT = projectRoot();

export const SPEC_PATH = join(ROOT, 'openapi.yaml');

export type Role = 'admin' | 'manager' | 'user';
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

/** What the pipeline needs to know about one operation, read from openapi.yaml and nowhere else. */
export interface OperationInfo {
  operationId: string;
  method: Method;
  path: string; // OpenAPI template: /v1/deals/{id}
  expressPath: string; // Express: /v1/deals/:id
  /** Alternatives: the caller needs every scope of at least one entry. */
  scopeAlternatives: string[][];
  roles: Role[];
  /** Bounds openapi.yaml writes on free-form JSON fields of the request body (`x-max-*`). */
  jsonLimits: JsonLimit[];
  /** The operation requires a request body. */
  bodyRequired: boolean;
  /** Its body is not JSON (a raw message): it is served outside the JSON pipeline. */
  rawBody: boolean;
  /** It takes a JSON request body (required or not). */
  jsonBody: boolean;
  /**
   * The media types of its success answers, in the contract's order (application/json first; a
   * list also offers text/csv; the location export only application/x-ndjson): what `Accept` may ask for.
   */
  produces: string[];
}

export interface JsonLimit {
  field: string;
  maxDepth?: number;
  maxBytes?: number;
  maxItems?: number;
  maxProperties?: number;
}

interface OperationObject {
  operationId?: string;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> };
  security?: Record<string, string[]>[];
  'x-roles'?: Role[];
  responses?: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}

type SchemaObject = Record<string, unknown> & { $ref?: string; properties?: Record<string, SchemaObject> };

function deref(spec: Record<string, unknown>, schema: SchemaObject | undefined): SchemaObject | undefined {
  let s = schema;
  for (let hops = 0; s?.$ref && hops < 20; hops++) {
    const path = s.$ref.replace(/^#\//, '').split('/');
    s = path.reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], spec) as SchemaObject | undefined;
  }
  return s;
}

/** Top-level body fields whose schema carries `x-max-depth`, `x-max-bytes` or `x-max-items`. */
export function jsonLimitsOf(spec: Record<string, unknown>, op: OperationObject): JsonLimit[] {
  const body = deref(spec, op.requestBody?.content?.['application/json']?.schema);
  const out: JsonLimit[] = [];
  for (const [field, raw] of Object.entries(body?.properties ?? {})) {
    const s = deref(spec, raw);
    if (!s || !['x-max-depth', 'x-max-bytes', 'x-max-items'].some((k) => k in s)) continue;
    out.push({
      field,
      maxDepth: s['x-max-depth'] as number | undefined,
      maxBytes: s['x-max-bytes'] as number | undefined,
      maxItems: s['x-max-items'] as number | undefined,
      maxProperties: s.maxProperties as number | undefined,
    });
  }
  return out;
}

/** Where what is derived from the contract is kept between runs, keyed by content (never stale). */
export const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'deal-funding-api');
let parsed: { hash: string; spec: Record<string, unknown> } | undefined;
/** How often this process read the contract from disk into objects (YAML parse or the JSON cache): once. */
export const specLoads = { yaml: 0, json: 0 };

/**
 * openapi.yaml, parsed. YAML parsing of the 700 KB contract takes most of a second, so the parsed
 * form is cached as JSON keyed by the file's hash (a stale cache is impossible: another text is
 * another key) and kept in memory; callers that mutate it get their own copy.
 */
export function loadSpec(path = SPEC_PATH): Record<string, unknown> {
  const text = readFileSync(path, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
  if (parsed?.hash !== hash) {
    const file = join(CACHE_DIR, `openapi-${hash}.json`);
    let spec: Record<string, unknown>;
    try {
      spec = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      specLoads.json++;
    } catch {
      spec = parse(text) as Record<string, unknown>;
      specLoads.yaml++;
      try {
        mkdirSync(CACHE_DIR, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(spec));
        renameSync(tmp, file);
      } catch {
        // a read-only install: parse each time
      }
    }
    parsed = { hash, spec };
  }
  return structuredClone(parsed.spec);
}

/** Scope alternatives and roles of an operation object (deduplicated across security schemes). */
export function accessRules(op: OperationObject): { scopeAlternatives: string[][]; roles: Role[] } {
  const seen = new Set<string>();
  const scopeAlternatives: string[][] = [];
  for (const requirement of op.security ?? []) {
    for (const scopes of Object.values(requirement)) {
      const k = [...scopes].sort().join(' ');
      if (!seen.has(k)) {
        seen.add(k);
        scopeAlternatives.push(scopes);
      }
    }
  }
  return { scopeAlternatives, roles: op['x-roles'] ?? [] };
}

/** The media types of an operation's 2xx answers, deduplicated, in the contract's order. */
function producesOf(spec: Record<string, unknown>, op: OperationObject): string[] {
  const out = new Set<string>();
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    if (!/^2/.test(status)) continue;
    const r = deref(spec, raw as SchemaObject) as { content?: Record<string, unknown> } | undefined;
    for (const type of Object.keys(r?.content ?? {})) out.add(type);
  }
  return [...out];
}

export function listOperations(spec: Record<string, unknown> = loadSpec()): OperationInfo[] {
  const out: OperationInfo[] = [];
  const paths = (spec.paths ?? {}) as Record<string, Record<string, OperationObject>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      out.push({
        operationId: op.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        ...accessRules(op),
        jsonLimits: jsonLimitsOf(spec, op),
        bodyRequired: op.requestBody?.required === true,
        rawBody: !!op.requestBody?.content && !('application/json' in op.requestBody.content),
        jsonBody: !!op.requestBody?.content && 'application/json' in op.requestBody.content,
        produces: producesOf(spec, op),
      });
    }
  }
  // Literal segments before templated ones, so /v1/lenders/api-specs wins over /v1/lenders/{id}.
  return out.sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path.includes('{') ? 1 : 0) - (b.path.includes('{') ? 1 : 0));
}
