import type { RequestHandler } from 'express';
import { forbidden } from './errors';
import type { OperationInfo } from './spec';
import type { Auth } from './types';

export function hasScope(auth: Pick<Auth, 'scopes'>, scope: string): boolean {
  return auth.scopes.length === 0 || auth.scopes.includes(scope);
}

/**
 * Scope and role, exactly as openapi.yaml states them for the operation (its `security`
 * requirement and `x-roles`). A key with no scopes has every scope.
 */
export function checkAccess(auth: Auth, op: Pick<OperationInfo, 'scopeAlternatives' | 'roles' | 'operationId'>): void {
  const ok = op.scopeAlternatives.length === 0 || op.scopeAlternatives.some((alt) => alt.every((s) => hasScope(auth, s)));
  if (!ok) {
    const needed = op.scopeAlternatives.map((alt) => alt.join(' and '));
    const missing = op.scopeAlternatives[0].find((s) => !hasScope(auth, s))!;
    throw forbidden(
      needed.length > 1 ? `This credential lacks the scope for this operation: one of ${needed.join(', ')}` : `This API key lacks the ${missing} scope`,
      'missing_scope',
      missing,
    );
  }
  if (!op.roles.includes(auth.role)) {
    throw forbidden(`Role ${auth.role} may not perform this operation (${op.operationId})`, 'role_not_allowed');
  }
}

/** Whether `checkAccess` would let the caller through (the MCP server lists only these tools). */
export function canUse(auth: Auth, op: Pick<OperationInfo, 'scopeAlternatives' | 'roles'>): boolean {
  const scoped = op.scopeAlternatives.length === 0 || op.scopeAlternatives.some((alt) => alt.every((s) => hasScope(auth, s)));
  return scoped && op.roles.includes(auth.role);
}

export function access(op: OperationInfo): RequestHandler {
  return (req, _res, next) => {
    checkAccess(req.auth!, op);
    next();
  };
}
