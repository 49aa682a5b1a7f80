// PLACEHOLDER (app-ops): replaced by app-core's file on merge.
import type { Router } from 'express';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';

export interface AppSection {
  key: string;
  label: string;
  path: string;
  roles: Role[];
  router: (deps: Deps) => Router;
}

export const SECTIONS: AppSection[] = [];
