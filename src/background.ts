import { registerStatementJobs } from './features/documents/analysis';
import { registerDocumentMaintenance } from './features/documents/documents.service';
import { registerOAuthMaintenance } from './oauth/provider';
import { registerFunderJobs } from './features/funders/attempts';
import { registerPortalMail } from './features/portal/portal.service';
import { registerSubmissionMail } from './features/submissions/submissions.email';
import { registerMailJobs } from './mail/mail.sender';
import { registerInboundMaintenance } from './features/inbound/inbound.retention';
import { registerAppMaintenance } from './web/app/session';
import { registerNotificationJobs } from './features/notifications/notifications.service';
import { registerWebhookDelivery } from './features/webhooks/webhooks.source';

// What runs after the response, registered by the features that own it: the worker (src/jobs/)
// imports no feature, it runs what is registered here. Called by buildDeps (src/bootstrap.ts), so
// every process that has its dependencies has its registries filled: the API (a submission's
// channels), the worker, the CLI and the tests. Registering again replaces: calling twice is harmless.
export function registerAllJobs(): void {
  registerMailJobs();
  registerSubmissionMail();
  registerFunderJobs();
  registerDocumentMaintenance();
  registerStatementJobs();
  registerOAuthMaintenance();
  registerPortalMail();
  registerInboundMaintenance();
  registerAppMaintenance();
  registerNotificationJobs();
  registerWebhookDelivery();
}
