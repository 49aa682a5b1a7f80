import { registerStatementJobs } from '../features/documents/analysis';
import { registerOAuthMaintenance } from '../oauth/provider';
import { registerFunderJobs } from '../features/funders/attempts';
import { registerPortalMail } from '../features/portal/portal.service';
import { registerSubmissionMail } from '../features/submissions/submissions.email';
import { registerMailJobs } from '../mail/mail.sender';
import { registerInboundMaintenance } from '../features/inbound/inbound.retention';
import { registerAppMaintenance } from '../web/app/session';
import { registerNotificationJobs } from '../features/notifications/notifications.service';

// Every job queue's handler, registered once by each process that runs a worker (src/server.ts,
// src/worker.ts) before it starts. Later queues (submissions, polling, analysis) add a line here.
export function registerAllJobs(): void {
  registerMailJobs();
  registerSubmissionMail();
  registerFunderJobs();
  registerStatementJobs();
  registerOAuthMaintenance();
  registerPortalMail();
  registerInboundMaintenance();
  registerAppMaintenance();
  registerNotificationJobs();
}
