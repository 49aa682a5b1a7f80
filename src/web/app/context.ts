import type { Response, Router } from 'express';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';
import type { Scope } from '../../http/types';

/**
 * Who is using the app on this request: set on `res.locals.app` by the session middleware
 * (src/web/app/session.ts) before any section's router runs, read again from the database on every
 * request (a deactivated user, a changed role or a revoked session take effect at once).
 */
export interface AppContext {
  user: { id: string; name: string; email: string; role: Role };
  location: { id: string; name: string; isTest: boolean };
  /** The same object the /v1 services take: this user's role and every scope that role has in the contract's `x-roles`. */
  scope: Scope;
  /** The CSRF token every form of this session carries as `_csrf`. */
  csrf: string;
  sessionId: string;
  /** The sections this user's role may open, in order (the layout's navigation; set by app.routes.ts from sections.ts). */
  nav: { key: string; label: string; path: string }[];
}

/**
 * One section of the app: its router is mounted at `/app${path}` behind the session, the Origin
 * check and the CSRF check (src/web/app/app.routes.ts); a role not in `roles` gets a 403 page and
 * does not see the section in the navigation. What a role may do inside a section is the section's
 * own check (a manager sees the team read-only). The list is sections.ts's SECTIONS.
 */
export interface AppSection {
  key: string;
  label: string;
  path: string;
  roles: Role[];
  router: (deps: Deps) => Router;
}

/** The signed-in context of this request (only under /app, after the session middleware). */
export function appContext(res: Response): AppContext {
  const ctx = res.locals.app as AppContext | undefined;
  if (!ctx) throw new Error('appContext used outside a signed-in /app request');
  return ctx;
}
