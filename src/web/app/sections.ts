import type { Router } from 'express';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';
import { apiKeysRouter } from './keys.page';
import { assistantsRouter } from './assistants.page';
import { sessionsRouter } from './sessions.page';
import { notificationsRouter } from './notifications.page';
import { teamRouter } from './team.page';
import { OPS_SECTIONS } from './ops';

/**
 * One section of the app: its router is mounted at `/app${path}` behind the session, the Origin
 * check and the CSRF check (src/web/app/app.routes.ts); a role not in `roles` gets a 403 page and
 * does not see the section in the navigation. What a role may do inside a section is the section's
 * own check (a manager sees the team read-only).
 */
export interface AppSection {
  key: string;
  label: string;
  path: string;
  roles: Role[];
  router: (deps: Deps) => Router;
}

// Roles as the specification states them (shared/public-api-v1.md, Authentication 5): admins manage
// keys and the team; managers see them (no settings changes); users have no settings.
export const SECTIONS: AppSection[] = [
  { key: 'api-keys', label: 'API keys', path: '/settings/api-keys', roles: ['admin', 'manager'], router: apiKeysRouter },
  { key: 'team', label: 'Team', path: '/settings/team', roles: ['admin', 'manager'], router: teamRouter },
  { key: 'assistants', label: 'Connected assistants', path: '/settings/assistants', roles: ['admin', 'manager', 'user'], router: assistantsRouter },
  { key: 'notifications', label: 'Your emails', path: '/settings/notifications', roles: ['admin', 'manager', 'user'], router: notificationsRouter },
  { key: 'sessions', label: 'Your sessions', path: '/settings/sessions', roles: ['admin', 'manager', 'user'], router: sessionsRouter },
  // Webhooks, Mailbox, Replies to review (keys 'webhooks', 'mailbox', 'review'): ./ops/index.ts, roles from the operations' x-roles.
  ...OPS_SECTIONS,
];
