import type { AppSection } from './context';
import { apiKeysRouter } from './keys.page';
import { assistantsRouter } from './assistants.page';
import { sessionsRouter } from './sessions.page';
import { notificationsRouter } from './notifications.page';
import { teamRouter } from './team.page';
import { OPS_SECTIONS } from './ops';

// The app's sections (AppSection: context.ts), in navigation order.
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
