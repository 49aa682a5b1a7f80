import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

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
}

interface OperationObject {
  operationId?: string;
  security?: Record<string, string[]>[];
  'x-roles'?: Role[];
}

export function loadSpec(path = SPEC_PATH): Record<string, unknown> {
  return parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
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
      });
    }
  }
  // Literal segments before templated ones, so /v1/lenders/api-specs wins over /v1/lenders/{id}.
  return out.sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path.includes('{') ? 1 : 0) - (b.path.includes('{') ? 1 : 0));
}
