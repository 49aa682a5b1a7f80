// PLACEHOLDER (app-ops): replaced by app-core's file on merge.
import type { Response } from 'express';
import type { Role } from '../../http/spec';
import type { Scope } from '../../http/types';

export interface AppContext {
  user: { id: string; name: string; email: string; role: Role };
  location: { id: string; name: string; isTest: boolean };
  scope: Scope;
  csrf: string;
  sessionId: string;
}

export function appContext(res: Response): AppContext {
  return res.locals.app as AppContext;
}
