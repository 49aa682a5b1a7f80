import { setTestDeliveryTimeout } from '../../src/features/webhooks/webhooks.service';
import { setMailTimeouts } from '../../src/mail/mail.sender';
import { installNetworkGuards } from './harness';

// Before every api test file. The api projects run with `isolate: false` (vitest.config.ts): a
// worker imports the app once and runs file after file in it, so the process-wide switches a file
// may turn (and the dials it had refused) are put back here, as a new process would have them.
installNetworkGuards();
setMailTimeouts(null);
setTestDeliveryTimeout(null);
