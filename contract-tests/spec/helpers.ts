/** Shared helpers of the `spec` project: the parsed contract, operation walking, child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The contract under test; OPENAPI_FILE points the spec rules at another copy (used to prove they fail). */
export const SPEC_PATH = process.env.OPENAPI_FILE ? resolve(process.env.OPENAPI_FILE) : join(ROOT, 'openapi.yaml');
export const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);

// A loose view of the document: these tests read it as data, field by field.
export type Json = any;

let cached: Json | undefined;
export function loadSpec(): Json {
  cached ??= parse(readFileSync(SPEC_PATH, 'utf8'));
  return cached;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationRef {
  /** `paths` for the REST API, `webhooks` for outbound events. */
  section: 'paths' | 'webhooks';
  /** The path template (`/v1/deals/{id}`) or the webhook name (`deal.created`). */
  key: string;
  method: (typeof HTTP_METHODS)[number];
  op: Json;
  /** Path-level parameters, to be merged with `op.parameters`. */
  pathParameters: Json[];
  /** `GET /v1/deals/{id}` or `webhook deal.created` */
  label: string;
}

export function operations(doc: Json = loadSpec()): OperationRef[] {
  const out: OperationRef[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [key, item] of Object.entries<Json>(doc[section] ?? {})) {
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op) continue;
        const label = section === 'paths' ? `${method.toUpperCase()} ${key}` : `webhook ${key}`;
        out.push({ section, key, method, op, pathParameters: item.parameters ?? [], label });
      }
    }
  }
  return out;
}

/** Follows local `$ref`s (`#/components/...`) until a non-reference object is reached. */
export function deref<T = Json>(value: Json, doc: Json = loadSpec()): T {
  let current = value;
  const seen = new Set<string>();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, got ${ref}`);
    if (seen.has(ref)) throw new Error(`Circular $ref ${ref}`);
    seen.add(ref);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Json>((node, k) => (node == null ? undefined : node[k]), doc);
    if (current === undefined) throw new Error(`Unresolvable $ref ${ref}`);
  }
  return current as T;
}

/** All parameters of an operation (path-level first), dereferenced. */
export function parametersOf(ref: OperationRef): Json[] {
  return [...ref.pathParameters, ...(ref.op.parameters ?? [])].map((p) => deref(p));
}

/** A free TCP port on 127.0.0.1 (closed again before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command from the repository root and collects its output (never throws on exit codes). */
export function run(command: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolveRun, reject) => {
    const child: ChildProcess = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
