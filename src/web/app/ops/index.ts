import type { AppSection } from '../context';
import { mailboxRouter, MAILBOX_PATH } from './mailbox.routes';
import { reviewRouter, REVIEW_PATH } from './review.routes';
import { webhooksRouter, WEBHOOKS_PATH } from './webhooks.routes';

// The webhook, mailbox and review-queue sections of the app. Roles are those of the underlying
// /v1 operations' `x-roles` in openapi.yaml: webhooks (listWebhooks, updateWebhook,
// retryWebhookDelivery, rotateWebhookSecret, testWebhook) admin and manager; the review queue
// (listInboundEmails, assignInboundEmail, dismissInboundEmail) admin and manager; the mailbox and
// the inbound password (rotateInboundEmailSecret: admin; the mailbox is a settings change, which the
// specification's roles give to admins only) admin.
export const OPS_SECTIONS: AppSection[] = [
  { key: 'webhooks', label: 'Webhooks', path: WEBHOOKS_PATH, roles: ['admin', 'manager'], router: webhooksRouter },
  { key: 'mailbox', label: 'Mailbox', path: MAILBOX_PATH, roles: ['admin'], router: mailboxRouter },
  { key: 'review', label: 'Replies to review', path: REVIEW_PATH, roles: ['admin', 'manager'], router: reviewRouter },
];
