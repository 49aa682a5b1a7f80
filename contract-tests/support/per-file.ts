import { inject } from 'vitest';
import { shareContractValidators } from '../../src/app';
import { runEntriesFromBundle } from '../../src/lib/isolated';
import { setTestDeliveryTimeout } from '../../src/features/webhooks/webhooks.service';
import { setMailTimeouts } from '../../src/mail/mail.sender';
import { installNetworkGuards } from './harness';

// Before every api test file. The api projects run with `isolate: false` (vitest.config.ts): a
// worker imports the app once and runs file after file in it, so the process-wide switches a file
// may turn (and the dials it had refused) are put back here, as a new process would have them.
installNetworkGuards();
// The apps of this worker's files share their contract validators (built and compiled once, not
// once per file: see shareContractValidators). overload.test.ts, which counts compiles, runs
// without this file in a process of its own.
shareContractValidators(true);
setMailTimeouts(null);
setTestDeliveryTimeout(null);
// Untrusted files' child processes (a submission package, src/lib/isolated.ts) start from this
// run's bundle with plain node, as under `npm start`, not through tsx: about half a CPU-second less
// per emailed submission (the bundle is built at the start of every run, from the same source).
runEntriesFromBundle(inject('bundleDir'));
