import type { AddressInfo } from 'node:net';
import MailComposer from 'nodemailer/lib/mail-composer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signPayload } from '../../src/features/webhooks/signing';
import type { Role } from '../../src/http/spec';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { formFields, textOf } from '../support/app-forms';
import { signInApp, type AppResponse, type AppSession } from '../support/app-session';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startReceiver, type LoopbackReceiver, type Received, type Respond } from '../support/receiver';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// The app's webhook, mailbox and review-queue pages (issue 28), driven as a browser drives them:
// each form read from its page (CSRF token and idempotency key included) and posted back. Every
// action must land through the /v1 services, which /v1 then shows: a webhook turned back on, a
// delivery sent again to a real loopback receiver, a new signing secret that signs the test event,
// the mailbox tested against a real SMTP server, a reply assigned (its submission answered) or
// dismissed. Roles, another location and a form without its CSRF token are refused.

let h: Harness;
let t: Tenant;
let other: Tenant;
let receiver: LoopbackReceiver;
let received: Received[] = [];
let respond: Respond = (_req, res) => res.end('ok');
let sink: SmtpSink;
let worker: Worker;
let inboundSecret: string;

type Page = { status: number; text: string; headers: Record<string, string> };
interface AppUser {
  get(path: string): Promise<Page>;
  /** Posts the form of `page` whose action is `action`, its hidden fields plus `fields`. */
  submit(page: Page, action: string, fields?: Record<string, string>): Promise<Page>;
  /** A raw POST (the session's own CSRF token unless `csrf: null`). */
  post(path: string, fields: Record<string, string>, opts?: { csrf?: string | null }): Promise<Page>;
}

// ---- signing in: app-core's helper (the emailed code, read from the page of a test location)
const sessions = new Map<string, AppSession>();
async function appAs(tenant: Tenant, role: Role): Promise<AppUser> {
  const key = `${tenant.locationId}:${role}`;
  let s = sessions.get(key);
  if (!s) {
    const u = (await h.knex('users').where({ id: tenant.users[role].id }).first('email')) as { email: string };
    s = await signInApp(h, { email: u.email });
    sessions.set(key, s);
  }
  const session = s;
  const wrap = (r: AppResponse): Page => ({ status: r.status, text: r.text, headers: r.headers as Record<string, string> });
  // This session's own CSRF token, always (a form read from another session's page keeps only its other fields).
  const own = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== '_csrf'));
  return {
    get: async (path) => wrap(await session.get(path)),
    post: async (path, fields, opts) => wrap(await session.post(path, own(fields), opts)),
    submit: async (page, action, fields = {}) => wrap(await session.post(action, own({ ...formFields(page.text, action), ...fields }))),
  };
}
// ----

const v1 = (tenant: Tenant = t) => ({
  get: async (path: string) => (await h.api.get(path).set(tenant.auth())).body as { data: any; meta: any },
  post: async (path: string, body?: object) => {
    const res = await h.api.post(path).set(tenant.auth()).send(body ?? {});
    return res as unknown as { status: number; body: { data: any; meta: any; error?: any } };
  },
});

const basic = (s: string) => `Basic ${Buffer.from(`inbound:${s}`).toString('base64')}`;
async function receiveReply(o: { subject: string; text: string; from?: string }) {
  const raw = await new MailComposer({ from: o.from ?? 'Dana Reyes <dana@atlas.example>', to: 'deals@ops.example', subject: o.subject, text: o.text, messageId: `<${Math.random().toString(36).slice(2)}@atlas.example>` }).compile().build();
  const verdict = Buffer.from('Authentication-Results: mx.relay.test; dkim=pass header.d=atlas.example; spf=none\r\n', 'latin1');
  const res = await h.api.post('/v1/inbound-emails').set('Content-Type', 'message/rfc822').set('Authorization', basic(inboundSecret)).send(Buffer.concat([verdict, raw]));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; status: string; review_reason: string };
}

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  h.deps.config.inboundTrustedAuthservIds = ['mx.relay.test'];
  t = await h.tenant('Ops Brokers');
  other = await h.tenant('Elsewhere Brokers');
  receiver = await startReceiver((got, req, res) => {
    received.push(got);
    respond(req, res);
  });
  sink = await startSmtpSink();
  worker = new Worker(h.deps, { concurrency: 4 });
  inboundSecret = (await v1().post('/v1/inbound-emails/rotate-secret')).body.data.secret;

});
afterAll(async () => {
  await worker?.close();
  await receiver?.close();
  await sink?.close();
  await h?.close();
});
beforeEach(() => {
  received = [];
  respond = (_req, res) => res.end('ok');
});

async function webhook(tenant: Tenant = t, path = '/hooks') {
  const res = await v1(tenant).post('/v1/webhooks', { url: `${receiver.base}${path}`, events: [], description: `CRM ${path}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

describe(`webhooks in the app (${ENGINE})`, () => {
  it('shows a disabled webhook with why, and turns it back on through updateWebhook; the same form sent twice acts once', async () => {
    const w = await webhook();
    await h.knex('webhook_subscriptions').where({ id: w.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days', failing_since: h.clock.now() });
    const admin = await appAs(t, 'admin');
    const list = await admin.get('/app/settings/webhooks');
    expect(list.status).toBe(200);
    expect(list.headers['content-security-policy']).toContain("script-src 'self'");
    expect(textOf(list.text)).toMatch(/Off\s*: nothing is delivered\. Why: Deliveries failed for 3 days\./);

    const action = `/app/settings/webhooks/${w.id}/enable`;
    const fields = formFields(list.text, action);
    const done = await admin.post(action, fields);
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/app/settings/webhooks?done=enabled');
    expect((await v1().get(`/v1/webhooks/${w.id}`)).data).toMatchObject({ status: 'active', disabled_reason: null, failing_since: null });
    const after = await admin.get(done.headers.location);
    expect(textOf(after.text)).toContain('The webhook is turned back on');
    expect(after.text).not.toContain(`action="${action}"`);

    // Turned off again through /v1; the same form (same key) sent again replays, it does not act again.
    await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ status: 'disabled' }).expect(200);
    expect((await admin.post(action, fields)).status).toBe(303);
    expect((await v1().get(`/v1/webhooks/${w.id}`)).data.status).toBe('disabled');
    // A new form (new key) acts.
    await admin.submit(await admin.get('/app/settings/webhooks'), action);
    expect((await v1().get(`/v1/webhooks/${w.id}`)).data.status).toBe('active');
  });

  it('lists deliveries with their tries and sends a failed one again to the real receiver (retryWebhookDelivery)', async () => {
    const w = await webhook(t, '/retry');
    respond = (_req, res) => {
      res.statusCode = 500;
      res.end('down');
    };
    await v1().post('/v1/businesses', { legal_name: 'Retry Bakery LLC' });
    await worker.drain();
    const failed = (await v1().get(`/v1/webhooks/${w.id}/deliveries`)).data.find((d: any) => d.event_type === 'business.created');
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_response_status: 500 });

    const admin = await appAs(t, 'admin');
    const detail = await admin.get(`/app/settings/webhooks/${w.id}`);
    expect(textOf(detail.text)).toContain('business.created · Failed, will try again');
    const tries = await admin.get(`/app/settings/webhooks/${w.id}/deliveries/${failed.id}`);
    expect(textOf(tries.text)).toContain('Try 1');
    expect(textOf(tries.text)).toContain('the other system answered 500 (not accepted)');

    respond = (_req, res) => res.end('ok');
    received = [];
    const retryAction = `/app/settings/webhooks/${w.id}/deliveries/${failed.id}/retry`;
    const retryForm = formFields(detail.text, retryAction);
    const sent = await admin.post(retryAction, retryForm);
    expect(sent.status).toBe(303);
    await worker.drain();
    expect(received.filter((r) => r.path === '/retry')).toHaveLength(1);
    expect(JSON.parse(received[0].body.toString()).type).toBe('business.created');
    expect((await v1().get(`/v1/webhooks/${w.id}/deliveries/${failed.id}`)).data.status).toBe('succeeded');
    // Succeeded: no "send again" any more; the same form sent again (a reload) is answered as the first time and sends nothing.
    expect((await admin.get(`/app/settings/webhooks/${w.id}`)).text).not.toContain(`/deliveries/${failed.id}/retry`);
    const replay = await admin.post(retryAction, retryForm);
    expect(replay.status).toBe(303);
    await worker.drain();
    expect(received.filter((r) => r.path === '/retry')).toHaveLength(1);
    // A new form for a delivery that succeeded: refused in plain words (the service's 409), nothing sent.
    const again = await admin.post(retryAction, { once: 'x'.repeat(24) });
    expect(again.status).toBe(409);
    expect(textOf(again.text)).toContain('This delivery already arrived; it is not sent again.');
  });

  it('a new signing secret is shown once and signs the test event; a failing test says so in plain words', async () => {
    const w = await webhook(t, '/rotate');
    const admin = await appAs(t, 'admin');
    const rotated = await admin.submit(await admin.get('/app/settings/webhooks'), `/app/settings/webhooks/${w.id}/rotate`);
    expect(rotated.status).toBe(200);
    const secret = /id="new-secret">(whsec_[0-9A-Za-z]{32})</.exec(rotated.text)?.[1];
    expect(secret).toBeDefined();
    expect(secret).not.toBe(w.secret);
    expect((await admin.get('/app/settings/webhooks')).text).not.toContain(secret!);

    const testAction = `/app/settings/webhooks/${w.id}/test`;
    const testForm = formFields((await admin.get('/app/settings/webhooks')).text, testAction);
    const tested = await admin.post(testAction, testForm);
    expect(textOf(tested.text)).toMatch(/The test event arrived: the other system answered 200/);
    // The same form again (a reload): the first answer, no second event.
    expect(textOf((await admin.post(testAction, testForm)).text)).toMatch(/The test event arrived: the other system answered 200/);
    expect(received.filter((r) => r.path === '/rotate')).toHaveLength(1);
    const got = received.find((r) => r.path === '/rotate')!;
    const sig = String(got.headers['x-svc-signature']);
    const ts = Number(/t=(\d+)/.exec(sig)![1]);
    expect(sig).toContain(`v1=${signPayload(secret!, got.body, ts)}`);

    respond = (_req, res) => {
      res.statusCode = 503;
      res.end();
    };
    const failing = await admin.submit(await admin.get('/app/settings/webhooks'), `/app/settings/webhooks/${w.id}/test`);
    expect(textOf(failing.text)).toContain('The test event did not arrive: the other system answered 503.');
  });
});

describe(`the mailbox in the app (${ENGINE})`, () => {
  it('saves the SMTP settings through setMailbox, never shows the password back, and tests the connection against the real server', async () => {
    const admin = await appAs(t, 'admin');
    const page = await admin.get('/app/settings/mailbox');
    expect(textOf(page.text)).toContain('No mail server is set up yet');
    const saved = await admin.submit(page, '/app/settings/mailbox/save', {
      host: '127.0.0.1', port: String(sink.port), security: 'starttls', user: '', password: '', from_name: 'Ops Brokers', from_address: 'deals@ops.example',
    });
    expect(saved.status, saved.text).toBe(303);
    const shown = await admin.get(saved.headers.location);
    expect(textOf(shown.text)).toContain(`mail goes out through 127.0.0.1 (port ${sink.port}) as Ops Brokers <deals@ops.example>`);

    const ok = await admin.submit(shown, '/app/settings/mailbox/test');
    expect(textOf(ok.text)).toContain('The connection works: 127.0.0.1 answered and is ready to send. No email was sent.');
    expect(sink.inbox).toHaveLength(0);

    // With a login: the password is sealed and never drawn again, not even in the form.
    const withLogin = await admin.submit(shown, '/app/settings/mailbox/save', {
      host: '127.0.0.1', port: String(sink.port), security: 'starttls', user: 'deals@ops.example', password: 'Hunter2-very-secret', from_name: 'Ops Brokers', from_address: 'deals@ops.example',
    });
    expect(withLogin.status).toBe(303);
    const again = await admin.get('/app/settings/mailbox');
    expect(again.text).not.toContain('Hunter2-very-secret');
    expect(textOf(again.text)).toContain('A password is saved (it is never shown).');
    // Blank password, same server and user: the saved one is kept.
    const kept = await admin.submit(again, '/app/settings/mailbox/save', {
      host: '127.0.0.1', port: String(sink.port), security: 'starttls', user: 'deals@ops.example', password: '', from_name: 'Ops', from_address: 'deals@ops.example',
    });
    expect(kept.status).toBe(303);
    expect((await h.knex('mailboxes').where({ location_id: t.locationId }).first()).password_sealed).not.toBeNull();
    // Blank password for another server: refused in plain words, nothing changed.
    const moved = await admin.submit(again, '/app/settings/mailbox/save', {
      host: 'localhost', port: String(sink.port), security: 'starttls', user: 'deals@ops.example', password: '', from_name: 'Ops', from_address: 'deals@ops.example',
    });
    expect(moved.status).toBe(400);
    expect(textOf(moved.text)).toContain('Enter the password for this user name');
    expect(moved.text).not.toContain('Hunter2-very-secret');
    expect(h.logs.join('')).not.toContain('Hunter2-very-secret');
  });

  it('a connection that fails is reported in plain words; a private address is refused by the outbound policy', async () => {
    const admin = await appAs(t, 'admin');
    // Port 1 on loopback: a privileged port (tcpmux) no test, harness or service here listens on, never
    // handed out as an ephemeral port, so the connection is refused at once. A port freed by closing a
    // listener of our own could be taken by another process meanwhile, and a listener there that says
    // nothing made this read 'did not answer in time' instead.
    const port = 1;
    const page = await admin.get('/app/settings/mailbox');
    await admin.submit(page, '/app/settings/mailbox/save', { host: '127.0.0.1', port: String(port), security: 'starttls', user: '', password: '', from_name: '', from_address: 'deals@ops.example' });
    const failed = await admin.submit(await admin.get('/app/settings/mailbox'), '/app/settings/mailbox/test');
    expect(textOf(failed.text)).toContain(`The mail server 127.0.0.1 (port ${port}) did not accept a connection. Check the server name and port.`);
    expect(failed.text).not.toMatch(/ECONNREFUSED|Error:|stack/);

    // A server that turns the login down (a real SMTP server on loopback asking for AUTH).
    const strict = new SMTPServer({ authMethods: ['PLAIN', 'LOGIN'], allowInsecureAuth: true, disabledCommands: ['STARTTLS'], logger: false, onAuth: (_a, _s, cb) => cb(new Error('Invalid username or password')) });
    strict.on('error', () => undefined);
    const strictPort = await new Promise<number>((r) => strict.listen(0, '127.0.0.1', () => r((strict.server.address() as AddressInfo).port)));
    try {
      await admin.submit(await admin.get('/app/settings/mailbox'), '/app/settings/mailbox/save', { host: '127.0.0.1', port: String(strictPort), security: 'starttls', user: 'deals@ops.example', password: 'wrong-password', from_name: '', from_address: 'deals@ops.example' });
      const denied = await admin.submit(await admin.get('/app/settings/mailbox'), '/app/settings/mailbox/test');
      expect(textOf(denied.text)).toContain('The mail server turned down the user name and password. Check them and save the settings again.');
      expect(denied.text).not.toContain('wrong-password');
    } finally {
      await new Promise<void>((r) => strict.close(() => r()));
    }

    const refused = await admin.submit(await admin.get('/app/settings/mailbox'), '/app/settings/mailbox/save', { host: '10.1.2.3', port: '587', security: 'starttls', user: '', password: '', from_name: '', from_address: 'deals@ops.example' });
    expect(refused.status).toBe(400);
    expect(textOf(refused.text)).toContain('10.1.2.3 is not a public address (private)');
    const mb = await h.knex('mailboxes').where({ location_id: t.locationId }).first();
    expect(mb.smtp_url).not.toContain('10.1.2.3'); // nothing stored
    // The test connects under the outbound address policy, checked again at test time: once the
    // location is no longer a test location, its loopback server is refused before any connection.
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Ops Brokers <deals@ops.example>' });
    const accepted = sink.inbox.length;
    await h.knex('locations').where({ id: t.locationId }).update({ is_test: false });
    try {
      const blocked = await admin.submit(await admin.get('/app/settings/mailbox'), '/app/settings/mailbox/test');
      expect(textOf(blocked.text)).toContain('This mail server address is not allowed: mail may only go to a server on the public internet.');
    } finally {
      await h.knex('locations').where({ id: t.locationId }).update({ is_test: true });
    }
    expect(sink.inbox.length).toBe(accepted);
  });

  it('shows where replies arrive and creates a new inbound password, shown once, which the inbound endpoint then takes', async () => {
    const admin = await appAs(t, 'admin');
    const page = await admin.get('/app/settings/mailbox');
    expect(textOf(page.text)).toContain('Replies come back to deals+code@ops.example');
    const rotated = await admin.submit(page, '/app/settings/mailbox/inbound/rotate');
    const secret = /id="new-secret">(svc_inbound_[0-9A-Za-z]{32})</.exec(rotated.text)?.[1];
    expect(secret).toBeDefined();
    expect((await admin.get('/app/settings/mailbox')).text).not.toContain(secret!);
    expect(h.logs.join('')).not.toContain(secret!);
    inboundSecret = secret!;
    await receiveReply({ subject: 'hello', text: 'Just checking in.' });
  });
});

describe(`the review queue (${ENGINE})`, () => {
  async function submitted() {
    await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Ops Brokers <deals@ops.example>' });
    const biz = (await v1().post('/v1/businesses', { legal_name: 'Sunrise Bakery LLC' })).body.data;
    const deal = (await v1().post('/v1/deals', { business_id: biz.id, requested_amount: 75000 })).body.data;
    const lender = (await v1().post('/v1/lenders', { name: `Atlas ${Math.random().toString(36).slice(2, 6)}`, submission_email: 'submissions@atlas.example' })).body.data;
    const subs = await v1().post(`/v1/deals/${deal.id}/submissions`, { lender_ids: [lender.id] });
    expect(subs.status, JSON.stringify(subs.body)).toBe(201);
    await worker.drain();
    return { deal, sub: subs.body.data[0] as { id: string } };
  }

  it('shows a waiting reply with why it waits and what was read; assigning it answers the submission (GET /v1 shows it)', async () => {
    const { sub, deal } = await submitted();
    const reply = await receiveReply({ subject: 'Sunrise Bakery', text: 'Approved! $75,000 at a 1.32 factor, 150 days, daily payments.\n\nDana' });
    expect(reply).toMatchObject({ status: 'unmatched', review_reason: 'no_match' });

    const manager = await appAs(t, 'manager');
    const queue = await manager.get('/app/review');
    expect(queue.status).toBe(200);
    const text = textOf(queue.text);
    expect(text).toContain('Why it waits: We could not tell which submission this reply is about.');
    expect(text).toContain('What we read Approved');
    expect(text).toContain('$75,000, factor 1.32, 150 days');
    expect(text).toContain('Why we read it this way');

    // The answer's offer is checked against the contract's schema before the service sees it.
    const bad = await manager.submit(queue, `/app/review/${reply.id}/assign`, { submission_id: sub.id, answer: 'approved', amount: '75000', factor_rate: '9', term: '150', payment_frequency: 'daily' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.text)).toContain('The factor rate must be at most 5.');
    expect((await v1().get(`/v1/submissions/${sub.id}`)).data.status).toBe('sent');

    const done = await manager.submit(queue, `/app/review/${reply.id}/assign`, { submission_id: sub.id, answer: 'read' });
    expect(done.status, done.text).toBe(303);
    const answered = (await v1().get(`/v1/submissions/${sub.id}`)).data;
    expect(answered).toMatchObject({ status: 'approved', response_type: 'approved' });
    expect((await v1().get(`/v1/inbound-emails/${reply.id}`)).data).toMatchObject({ status: 'processed', matched_by: 'assigned', submission_id: sub.id });
    const offers = (await v1().get(`/v1/deals/${answered.deal_id}/offers`)).data;
    expect(offers.map((o: any) => [o.amount, o.factor_rate])).toContainEqual([75000, 1.32]);
    expect(textOf((await manager.get(done.headers.location)).text)).toContain('The reply was assigned and its answer recorded on the submission.');
    // The activity log as /v1 writes it: the answer, by the person who assigned it.
    const activity = (await v1().get(`/v1/businesses/${deal.business_id}/activity`)).data as any[];
    const line = activity.find((a) => a.action === 'submission.responded' && a.entity_id === sub.id);
    expect(line, JSON.stringify(activity.map((a) => a.action))).toBeDefined();
    expect(JSON.stringify(line.actor)).toContain(t.users.manager.id);
  });

  it('a reviewer can record another answer than the one read, and dismiss a reply', async () => {
    const { sub } = await submitted();
    const reply = await receiveReply({ subject: 'Re: file', text: 'We need more info on this one.' });
    const admin = await appAs(t, 'admin');
    const queue = await admin.get('/app/review');
    expect((await admin.submit(queue, `/app/review/${reply.id}/assign`, { submission_id: sub.id, answer: 'declined', notes: 'Called Dana: too many NSFs' })).status).toBe(303);
    expect((await v1().get(`/v1/submissions/${sub.id}`)).data).toMatchObject({ status: 'declined', response_type: 'declined', response_notes: 'Called Dana: too many NSFs' });

    // Nothing could be read: assigned "as we read it", it is tied to the submission and still waits, and the page says so.
    const { sub: other2 } = await submitted();
    const vague = await receiveReply({ subject: 'Sunrise', text: 'Thanks, we will take a look and get back to you.' });
    const unread = await admin.submit(await admin.get('/app/review'), `/app/review/${vague.id}/assign`, { submission_id: other2.id, answer: 'read' });
    expect(unread.status).toBe(303);
    const v = (await v1().get(`/v1/inbound-emails/${vague.id}`)).data;
    expect(v).toMatchObject({ status: 'unclassified', submission_id: other2.id });
    expect((await v1().get(`/v1/submissions/${other2.id}`)).data.status).toBe('sent');
    const still = await admin.get(unread.headers.location);
    expect(textOf(still.text)).toContain('The reply is now tied to the submission, but no answer was recorded');
    expect(still.text).toContain(`data-inbound-id="${vague.id}"`);
    expect(still.text).toMatch(new RegExp(`<option value="${other2.id}" selected>`));

    const junk = await receiveReply({ subject: 'Out of office', text: 'I am out of the office until Monday.' });
    const q2 = await admin.get('/app/review');
    expect(textOf(q2.text)).toContain('Out of office');
    expect((await admin.submit(q2, `/app/review/${junk.id}/dismiss`, { reason: 'Auto-reply' })).status).toBe(303);
    expect((await v1().get(`/v1/inbound-emails/${junk.id}`)).data).toMatchObject({ status: 'dismissed', dismiss_reason: 'Auto-reply' });
    expect((await admin.get('/app/review')).text).not.toContain(`data-inbound-id="${junk.id}"`);
  });
});

describe(`who may do what (${ENGINE})`, () => {
  it('roles follow the x-roles of the operations: a user sees none of these pages, a manager no mailbox', async () => {
    const user = await appAs(t, 'user');
    for (const path of ['/app/settings/webhooks', '/app/settings/mailbox', '/app/review']) expect((await user.get(path)).status, path).toBe(403);
    const manager = await appAs(t, 'manager');
    expect((await manager.get('/app/settings/webhooks')).status).toBe(200);
    expect((await manager.get('/app/review')).status).toBe(200);
    expect((await manager.get('/app/settings/mailbox')).status).toBe(403);
    expect((await manager.post('/app/settings/mailbox/inbound/rotate', {})).status).toBe(403);
  });

  it('a form without its CSRF token is refused (403) and changes nothing', async () => {
    const w = await webhook(t, '/csrf');
    await h.knex('webhook_subscriptions').where({ id: w.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    const admin = await appAs(t, 'admin');
    const action = `/app/settings/webhooks/${w.id}/enable`;
    const fields = formFields((await admin.get('/app/settings/webhooks')).text, action);
    const refused = await admin.post(action, fields, { csrf: null });
    expect(refused.status).toBe(403);
    expect((await v1().get(`/v1/webhooks/${w.id}`)).data.status).toBe('disabled');
    const before = (await h.knex('inbound_secrets').where({ location_id: t.locationId }).first()).secret_hash;
    expect((await admin.post('/app/settings/mailbox/inbound/rotate', {}, { csrf: 'f'.repeat(64) })).status).toBe(403);
    expect((await h.knex('inbound_secrets').where({ location_id: t.locationId }).first()).secret_hash).toBe(before);
    expect((await admin.post(action, fields)).status).toBe(303);
  });

  it("a second location's admin sees nothing of the first and can change nothing of it", async () => {
    const w = await webhook(t, '/mine');
    await h.knex('webhook_subscriptions').where({ id: w.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    const reply = await receiveReply({ subject: 'Secret deal', text: 'Approved at $10,000.' });
    const admin = await appAs(other, 'admin');
    const hooks = await admin.get('/app/settings/webhooks');
    expect(hooks.text).not.toContain(w.id);
    expect(hooks.text).not.toContain(receiver.base);
    expect((await admin.get(`/app/settings/webhooks/${w.id}`)).status).toBe(404);
    const page = await admin.get('/app/review');
    expect(page.text).not.toContain(reply.id);
    expect(textOf(page.text)).toContain('No replies wait for review.');
    const mine = await (await appAs(t, 'admin')).get('/app/settings/webhooks');
    const fields = formFields(mine.text, `/app/settings/webhooks/${w.id}/enable`);
    expect((await admin.post(`/app/settings/webhooks/${w.id}/enable`, fields)).status).toBe(404);
    expect((await v1().get(`/v1/webhooks/${w.id}`)).data.status).toBe('disabled');
    expect((await admin.post(`/app/review/${reply.id}/dismiss`, { ...fields, reason: 'x' })).status).toBe(404);
    expect((await v1().get(`/v1/inbound-emails/${reply.id}`)).data.status).toBe('unmatched');
    expect(textOf((await admin.get('/app/settings/mailbox')).text)).not.toContain('ops.example');
  });
});
