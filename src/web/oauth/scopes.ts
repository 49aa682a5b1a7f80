import type { Role } from '../../http/spec';
import { listOperations } from '../../http/spec';

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
