import type { Role } from '../../http/spec';
import { listOperations, loadSpec } from '../../http/spec';

// What a role may grant an assistant: the scopes of the operations the contract lets that role
// call (their `x-roles`), read from openapi.yaml, never a second list in code.
let cache: Map<Role, Set<string>> | undefined;

export function scopesForRole(role: Role): Set<string> {
  if (!cache) {
    cache = new Map();
    for (const op of listOperations()) {
      for (const r of op.roles) {
        const set = cache.get(r) ?? new Set<string>();
        for (const alt of op.scopeAlternatives) for (const s of alt) set.add(s);
        cache.set(r, set);
      }
    }
  }
  return cache.get(role) ?? new Set();
}

let descriptions: Map<string, string> | undefined;

/** A scope in plain words, for the consent page: the contract's oauth2 scope description (openapi.yaml), never a second list. */
export function scopeDescription(scope: string): string {
  if (!descriptions) {
    const spec = loadSpec() as { components?: { securitySchemes?: { oauth2?: { flows?: { authorizationCode?: { scopes?: Record<string, string> } } } } } };
    descriptions = new Map(Object.entries(spec.components?.securitySchemes?.oauth2?.flows?.authorizationCode?.scopes ?? {}));
  }
  return descriptions.get(scope) ?? scope;
}
