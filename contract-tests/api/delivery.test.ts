import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/outbox';
import { DISABLE_AFTER_MS, RETRY_SCHEDULE_MS, claimDueDeliveries } from '../../src/features/webhooks/webhooks.dispatch';
import { Worker } from '../../src/jobs/worker';
import { verifyWebhookSignature } from '../../src/webhooks-verify';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startReceiver, type LoopbackReceiver, type Received, type Respond } from '../support/receiver';

// Webhook delivery end to end: outbox events become deliveries, a worker POSTs them to a real
// receiver on 127.0.0.1, and every rule (fan-out, signature, retry schedule, dead, 3-day disable,
// rotation, retry and recover) is driven by the injected clock, never by sleeping.

let h: Harness;
let t: Tenant;
let other: Tenant;
let receiver: LoopbackReceiver;
let base: string;
let received: Received[] = [];
let respond: Respond = (_req, res) => res.end();
let worker: Worker;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Delivery Partners');
  other = await h.tenant('Elsewhere');
  receiver = await startReceiver((got, req, res) => {
    received.push(got);
    respond(req, res);
  });
  base = receiver.base;
  worker = new Worker(h.deps, { concurrency: 8 });
});
afterAll(async () => {
  await worker?.close();
  await receiver?.close();
  await h?.close();
});
beforeEach(async () => {
  // Each test starts with no subscription and nothing due.
  await h.knex('webhook_subscriptions').update({ deleted_at: h.clock.now(), status: 'disabled' });
  await h.knex('webhook_deliveries').whereIn('status', ['pending', 'failed']).update({ status: 'dead', next_attempt_at: null });
  await worker.drain();
  received = [];
  respond = (_req, res) => res.end();
});

async function subscribe(body: Record<string, unknown>, tenant: Tenant = t) {
  const res = await h.api.post('/v1/webhooks').set(tenant.auth()).send({ url: `${base}/hooks`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string; url: string };
}
async function createBusiness(name: string, tenant: Tenant = t) {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send({ legal_name: name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
}
const deliveriesOf = (subscriptionId: string) => h.knex('webhook_deliveries').where({ subscription_id: subscriptionId, kind: 'event' }).orderBy('created_at');
const hmac = (secret: string, t: string, body: Buffer) => createHmac('sha256', secret).update(`${t}.${body.toString('utf8')}`).digest('hex');
function parseSignature(header: string | string[] | undefined) {
  const parts = String(header).split(',');
  return { t: parts.find((p) => p.startsWith('t='))!.slice(2), v1: parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3)) };
}

describe(`fan-out and delivery (${ENGINE})`, () => {
  it('each event reaches every matching active subscription of its location once, signed, with the source headers', async () => {
    const all = await subscribe({ events: [] });
    const onlyDeals = await subscribe({ events: ['deal.created'] });
    const onlyBusinesses = await subscribe({ events: ['business.created', 'person.created'] });
    const disabled = await subscribe({ events: [] });
    await h.api.patch(`/v1/webhooks/${disabled.id}`).set(t.auth()).send({ status: 'disabled' }).expect(200);
    const foreign = await subscribe({ events: [] }, other);

    const biz = await createBusiness('Sunrise Bakery LLC');
    const foreignBiz = await createBusiness('Elsewhere Bakery LLC', other); // fanned out in the same batch
    await worker.drain();

    expect(received).toHaveLength(3); // all + onlyBusinesses, and the other location's own subscription
    const event = await h.knex('events').where({ location_id: t.locationId, type: 'business.created' }).orderBy('created_at', 'desc').first();
    for (const sub of [all, onlyBusinesses]) {
      const [d] = await deliveriesOf(sub.id);
      expect(await deliveriesOf(sub.id)).toHaveLength(1);
      expect(d).toMatchObject({ event_id: event.id, status: 'succeeded', attempts: 1, next_attempt_at: null, last_response_status: 200 });
      const got = received.find((r) => r.headers['x-svc-delivery'] === d.id)!;
      expect(got.method).toBe('POST');
      expect(got.path).toBe('/hooks');
      expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Svc-Webhooks/1.0', 'x-svc-event': 'business.created' });
      const body = JSON.parse(got.body.toString('utf8'));
      expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'location_id', 'data']);
      expect(body).toMatchObject({ id: event.id, type: 'business.created', location_id: t.locationId, data: { business_id: biz.id } });
      // Stripe's published algorithm, implemented independently: HMAC-SHA256(secret, `${t}.${raw body}`), hex.
      const sig = parseSignature(got.headers['x-svc-signature']);
      expect(Number(sig.t)).toBe(Math.floor(h.clock.now().getTime() / 1000));
      expect(sig.v1).toEqual([hmac(sub.secret, sig.t, got.body)]);
      // The partner helper accepts the real delivery, and refuses it with a changed byte, 301 s later,
      // or with another subscription's secret.
      const header = String(got.headers['x-svc-signature']);
      const at = h.clock.now();
      expect(verifyWebhookSignature(got.body, header, sub.secret, { now: at })).toBe(true);
      const changed = Buffer.from(got.body);
      changed[changed.length - 2] ^= 1;
      expect(verifyWebhookSignature(changed, header, sub.secret, { now: at })).toBe(false);
      expect(verifyWebhookSignature(got.body, header, sub.secret, { now: at.getTime() + 301_000 })).toBe(false);
      expect(verifyWebhookSignature(got.body, header, all === sub ? onlyBusinesses.secret : all.secret, { now: at })).toBe(false);
    }
    for (const sub of [onlyDeals, disabled]) expect(await deliveriesOf(sub.id)).toEqual([]);
    const foreignDeliveries = await deliveriesOf(foreign.id);
    expect(foreignDeliveries.map((d) => d.payload.data.business_id)).toEqual([foreignBiz.id]);
    // Dispatched once: draining again sends nothing more.
    await worker.drain();
    expect(received).toHaveLength(3);
    const health = (await h.api.get(`/v1/webhooks/${all.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ last_success_at: h.clock.now().toISOString(), failing_since: null, last_failure_at: null });
  });

  it('a transaction that rolls back produces no event and no delivery', async () => {
    await subscribe({ events: [] });
    await expect(
      h.knex.transaction(async (trx) => {
        await recordEvent(trx, h.clock, t.locationId, 'business.created', { business_id: 'biz_rolledback' } as never);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await worker.drain();
    expect(received).toEqual([]);
    expect(await h.knex('events').where('data', '@>', JSON.stringify({ business_id: 'biz_rolledback' }))).toEqual([]);
  });

  it('the attempt log lists every attempt under its delivery, newest first, with the first 2 KB of the answer', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(503).end('é'.repeat(3000));
    await createBusiness('Log Test LLC');
    await worker.drain();
    h.clock.advance(RETRY_SCHEDULE_MS[0]);
    respond = (_req, res) => res.writeHead(200).end('{"ok":true}');
    await worker.drain();
    const [d] = await deliveriesOf(sub.id);
    const one = await h.api.get(`/v1/webhooks/${sub.id}/deliveries/${d.id}`).set(t.auth());
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: d.id, status: 'succeeded', attempts: 2, last_response_status: 200, last_error: null });
    const log = await h.api.get(`/v1/webhooks/${sub.id}/deliveries/${d.id}/attempts`).set(t.auth());
    expect(log.status).toBe(200);
    expect(log.body.data.map((a: { attempt_number: number }) => a.attempt_number)).toEqual([2, 1]);
    expect(log.body.data[1]).toMatchObject({ response_status: 503, error_code: 'http_error', response_body: 'é'.repeat(2048) });
    expect(log.body.data[0]).toMatchObject({ response_status: 200, error: null, error_code: null, response_body: '{"ok":true}' });
    // Another location's subscription, or a delivery of another subscription: 404.
    expect((await h.api.get(`/v1/webhooks/${sub.id}/deliveries/${d.id}`).set(other.auth())).status).toBe(404);
    const second = await subscribe({ events: [] });
    const res = await h.api.get(`/v1/webhooks/${second.id}/deliveries/${d.id}/attempts`).set(t.auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'deliveryId' });
  });
});

describe(`retries on the injected clock (${ENGINE})`, () => {
  it('retries 1 min, 5 min, 30 min, 2 h and 6 h after the previous attempt, then dead; same delivery and event id each time', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(500).end('down');
    await createBusiness('Retry Bakery LLC');
    const start = h.clock.now().getTime();
    await worker.drain();
    expect(received).toHaveLength(1);
    let elapsed = 0;
    for (const [i, delay] of RETRY_SCHEDULE_MS.entries()) {
      const [d] = await deliveriesOf(sub.id);
      expect(d).toMatchObject({ status: 'failed', attempts: i + 1, last_response_status: 500, last_error_code: 'http_error' });
      expect(new Date(d.next_attempt_at).getTime()).toBe(start + elapsed + delay);
      h.clock.advance(delay - 1000);
      await worker.drain();
      expect(received, `no attempt before retry ${i + 1} is due`).toHaveLength(i + 1);
      h.clock.advance(1000);
      elapsed += delay;
      await worker.drain();
      expect(received).toHaveLength(i + 2);
    }
    const [d] = await deliveriesOf(sub.id);
    expect(d).toMatchObject({ status: 'dead', attempts: 6, next_attempt_at: null });
    expect(new Set(received.map((r) => r.headers['x-svc-delivery']))).toEqual(new Set([d.id]));
    expect(new Set(received.map((r) => JSON.parse(r.body.toString()).id))).toEqual(new Set([d.event_id]));
    h.clock.advance(24 * 3600_000);
    await worker.drain();
    expect(received).toHaveLength(6);
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ status: 'active', failing_since: new Date(start).toISOString(), last_failure_at: new Date(start + elapsed).toISOString() });
  });

  it('a redirect is a failure and is not followed; a success after failures clears failing_since', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(302, { Location: `${base}/elsewhere` }).end();
    await createBusiness('Redirect LLC');
    await worker.drain();
    expect(received.map((r) => r.path)).toEqual(['/hooks']);
    expect((await deliveriesOf(sub.id))[0]).toMatchObject({ status: 'failed', last_response_status: 302, last_error_code: 'http_error' });
    expect((await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data.failing_since).not.toBeNull();
    respond = (_req, res) => res.writeHead(204).end();
    h.clock.advance(RETRY_SCHEDULE_MS[0]);
    await worker.drain();
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ failing_since: null, last_success_at: h.clock.now().toISOString() });
  });
});

describe(`3 days of failures disable a subscription (${ENGINE})`, () => {
  it('disabled with a reason, open deliveries ended, admins emailed; nothing delivered while disabled; PATCH status active resumes with new events', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(500).end();
    const firstFailure = h.clock.now().getTime();
    await createBusiness('Failing One LLC');
    await worker.drain();
    // New events keep coming and failing (an event every 12 hours, retries in between); just short
    // of 3 days the subscription is still active.
    for (let i = 1; i <= 5; i++) {
      h.clock.set(new Date(firstFailure + i * 12 * 3600_000));
      await createBusiness(`Failing ${i} LLC`);
      await worker.drain();
    }
    h.clock.set(new Date(firstFailure + DISABLE_AFTER_MS - 60_000));
    await createBusiness('Failing Two LLC');
    await worker.drain();
    expect((await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data.status).toBe('active');
    expect(await h.knex('outgoing_emails').where({ location_id: t.locationId, kind: 'webhook_subscription_disabled' })).toEqual([]);
    h.clock.advance(60_000);
    await createBusiness('Failing Three LLC');
    await worker.drain();
    const disabled = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(disabled).toMatchObject({ status: 'disabled', failing_since: new Date(firstFailure).toISOString() });
    expect(disabled.disabled_reason).toMatch(/^Deliveries failed for 3 days; last error: Receiver answered HTTP 500/);
    const open = await deliveriesOf(sub.id).whereIn('status', ['pending', 'failed']);
    expect(open).toEqual([]);
    const [email] = await h.knex('outgoing_emails').where({ location_id: t.locationId, kind: 'webhook_subscription_disabled' });
    const admins = await h.knex('users').where({ location_id: t.locationId, role: 'admin' }).pluck('email');
    expect(admins).toHaveLength(1);
    expect(email.to_addresses).toEqual(admins);
    expect(email.text_body).toContain(sub.id);

    // Disabled: no delivery for new events, retries do not run.
    const before = received.length;
    await createBusiness('While Disabled LLC');
    h.clock.advance(7 * 3600_000);
    await worker.drain();
    expect(received).toHaveLength(before);

    // Re-enabled: health starts over, new events are delivered, the missed one is not.
    respond = (_req, res) => res.writeHead(200).end();
    const res = await h.api.patch(`/v1/webhooks/${sub.id}`).set(t.auth()).send({ status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', disabled_reason: null, failing_since: null });
    const biz = await createBusiness('After Enable LLC');
    await worker.drain();
    expect(received).toHaveLength(before + 1);
    expect(JSON.parse(received.at(-1)!.body.toString()).data.business_id).toBe(biz.id);
  });
});

describe(`failure runs (${ENGINE})`, () => {
  it('a failure after a quiet day starts a new run: failures days apart never add up to a disable', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(503).end();
    const t0 = h.clock.now().getTime();
    await createBusiness('Quiet One LLC');
    await worker.drain();
    for (const delay of RETRY_SCHEDULE_MS) {
      h.clock.advance(delay);
      await worker.drain();
    }
    expect((await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data.failing_since).toBe(new Date(t0).toISOString());
    // Nothing for four days, then one failure: a new run, not 4 days of failing.
    h.clock.set(new Date(t0 + 4 * 86_400_000));
    await createBusiness('Quiet Two LLC');
    await worker.drain();
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ status: 'active', failing_since: h.clock.now().toISOString(), last_failure_at: h.clock.now().toISOString() });
  });
});

describe(`who receives an event (${ENGINE})`, () => {
  it('a subscription created after an event does not receive it, even when the event is fanned out later', async () => {
    await createBusiness('Before Subscribing LLC'); // not yet fanned out (the worker has not run)
    h.clock.advance(1000);
    const late = await subscribe({ events: [] });
    await worker.drain();
    expect(await deliveriesOf(late.id)).toEqual([]);
    await createBusiness('After Subscribing LLC');
    await worker.drain();
    expect(await deliveriesOf(late.id)).toHaveLength(1);
  });
});

describe(`secret rotation (${ENGINE})`, () => {
  it('signs with both secrets during the grace period, then only the new one', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    const rot = await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth()).send({ grace_period_seconds: 3600 });
    expect(rot.status).toBe(200);
    const fresh = rot.body.data.secret as string;
    expect(rot.body.data).toMatchObject({ subscription_id: sub.id, previous_secret_expires_at: new Date(h.clock.now().getTime() + 3600_000).toISOString() });
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(sub.secret);
    expect(JSON.stringify(await h.knex('webhook_subscriptions').where({ id: sub.id }).first())).not.toContain(fresh);

    await createBusiness('Rotation One LLC');
    await worker.drain();
    let got = received.at(-1)!;
    let sig = parseSignature(got.headers['x-svc-signature']);
    expect(sig.v1).toEqual([hmac(fresh, sig.t, got.body), hmac(sub.secret, sig.t, got.body)]);

    h.clock.advance(3600_000 + 1000);
    await createBusiness('Rotation Two LLC');
    await worker.drain();
    got = received.at(-1)!;
    sig = parseSignature(got.headers['x-svc-signature']);
    expect(sig.v1).toEqual([hmac(fresh, sig.t, got.body)]);

    // The test send signs like deliveries; grace 0 retires the old secret at once; no body means 24 h.
    const zero = await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth()).send({ grace_period_seconds: 0 });
    expect(zero.body.data.previous_secret_expires_at).toBeNull();
    await h.api.post(`/v1/webhooks/${sub.id}/test`).set(t.auth()).expect(200);
    got = received.at(-1)!;
    sig = parseSignature(got.headers['x-svc-signature']);
    expect(sig.v1).toEqual([hmac(zero.body.data.secret, sig.t, got.body)]);
    const dflt = await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth());
    expect(dflt.status).toBe(200);
    expect(dflt.body.data.previous_secret_expires_at).toBe(new Date(h.clock.now().getTime() + 86_400_000).toISOString());
  });

  it('at most two earlier secrets sign next to the current one', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    const secrets = [sub.secret];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      secrets.push((await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth()).send({ grace_period_seconds: 3600 })).body.data.secret);
    }
    await createBusiness('Three Rotations LLC');
    await worker.drain();
    const got = received.at(-1)!;
    const sig = parseSignature(got.headers['x-svc-signature']);
    expect(sig.v1).toEqual([secrets[3], secrets[1], secrets[2]].map((s) => hmac(s, sig.t, got.body)));
  });

  it('400 for a grace period outside 0-7 days; 404 for another location', async () => {
    const sub = await subscribe({ events: [] });
    for (const grace of [-1, 604_801, 1.5, '3600']) {
      const res = await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth()).send({ grace_period_seconds: grace });
      expect(res.status, String(grace)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'grace_period_seconds' });
    }
    expect((await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(t.auth()).send({ grace_period_seconds: 604_800 })).status).toBe(200);
    expect((await h.api.post(`/v1/webhooks/${sub.id}/rotate-secret`).set(other.auth()).send({})).status).toBe(404);
  });
});

describe(`retry and recover (${ENGINE})`, () => {
  async function deadDelivery(sub: { id: string }) {
    respond = (_req, res) => res.writeHead(500).end();
    await createBusiness(`Dead ${Math.random()}`);
    await worker.drain();
    for (const delay of RETRY_SCHEDULE_MS) {
      h.clock.advance(delay);
      await worker.drain();
    }
    return h.knex('webhook_deliveries').where({ subscription_id: sub.id, status: 'dead' }).orderBy('created_at', 'desc').first();
  }

  it('retrying a dead delivery sends it again with the same delivery id and event id, on a new round', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    const dead = await deadDelivery(sub);
    expect(dead).toMatchObject({ status: 'dead', attempts: 6 });
    respond = (_req, res) => res.writeHead(200).end();
    h.clock.advance(1000);
    const res = await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${dead.id}/retry`).set(t.auth());
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id: dead.id, event_id: dead.event_id, status: 'pending', attempts: 0, next_attempt_at: h.clock.now().toISOString() });
    const before = received.length;
    await worker.drain();
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.headers['x-svc-delivery']).toBe(dead.id);
    expect(JSON.parse(received.at(-1)!.body.toString()).id).toBe(dead.event_id);
    expect((await deliveriesOf(sub.id).where('id', dead.id).first())).toMatchObject({ status: 'succeeded', attempts: 1, total_attempts: 7 });
    const log = await h.api.get(`/v1/webhooks/${sub.id}/deliveries/${dead.id}/attempts`).set(t.auth()).query({ limit: 1 });
    expect(log.body.data[0]).toMatchObject({ attempt_number: 7, response_status: 200 });

    // Succeeded: 409 delivery_not_retryable. A test delivery: the same. Unknown or foreign: 404.
    const again = await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${dead.id}/retry`).set(t.auth());
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: 'conflict', code: 'delivery_not_retryable' });
    const test = (await h.api.post(`/v1/webhooks/${sub.id}/test`).set(t.auth())).body.data;
    const retest = await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${test.delivery_id}/retry`).set(t.auth());
    expect(retest.status).toBe(409);
    expect(retest.body.error.code).toBe('delivery_not_retryable');
    expect((await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${dead.id}/retry`).set(other.auth())).status).toBe(404);
    expect((await h.api.post(`/v1/webhooks/${sub.id}/deliveries/dlv_01JD1F9J1K3M5N7P9R1T3V5X7Z/retry`).set(t.auth())).status).toBe(404);
  });

  it('recover re-queues every failed and dead delivery in the window, nothing else; 409 while disabled; 400 outside 30 days', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    const windowStart = h.clock.now().toISOString();
    const dead1 = await deadDelivery(sub);
    const dead2 = await deadDelivery(sub);
    respond = (_req, res) => res.writeHead(200).end();
    await createBusiness('Fine LLC');
    await worker.drain();
    const ok = (await deliveriesOf(sub.id).where('status', 'succeeded'))[0];
    respond = (_req, res) => res.writeHead(500).end();
    await createBusiness('Failed LLC');
    await worker.drain();
    const failed = (await deliveriesOf(sub.id).where('status', 'failed'))[0];
    expect({ dead1: !!dead1, dead2: !!dead2, ok: !!ok, failed: !!failed }).toEqual({ dead1: true, dead2: true, ok: true, failed: true });

    respond = (_req, res) => res.writeHead(200).end();
    const res = await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(t.auth()).send({ since: windowStart });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ subscription_id: sub.id, since: windowStart, until: null, recovered: 3 });
    const before = received.length;
    await worker.drain();
    expect(new Set(received.slice(before).map((r) => r.headers['x-svc-delivery']))).toEqual(new Set([dead1.id, dead2.id, failed.id]));
    expect(received.slice(before)).toHaveLength(3);

    // A window that excludes them recovers nothing.
    const none = await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(t.auth()).send({ since: h.clock.now().toISOString() });
    expect(none.body.data.recovered).toBe(0);
    for (const body of [
      { since: new Date(h.clock.now().getTime() - 31 * 86_400_000).toISOString() },
      { since: windowStart, until: windowStart },
      { since: 'yesterday' },
      {},
    ]) {
      const bad = await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(t.auth()).send(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.type).toBe('validation_error');
    }
    await h.api.patch(`/v1/webhooks/${sub.id}`).set(t.auth()).send({ status: 'disabled' }).expect(200);
    const blocked = await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(t.auth()).send({ since: windowStart });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe('webhook_disabled');
    const blockedRetry = await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${dead1.id}/retry`).set(t.auth());
    expect(blockedRetry.status).toBe(409);
    expect(blockedRetry.body.error.code).toBe('webhook_disabled');
    expect((await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(other.auth()).send({ since: windowStart })).status).toBe(404);
  });
});

describe(`several workers (${ENGINE})`, () => {
  it('two workers draining at once deliver each attempt exactly once', async () => {
    await subscribe({ events: ['business.created'] });
    for (let i = 0; i < 30; i++) await createBusiness(`Parallel ${i} LLC`);
    const second = new Worker(h.deps, { concurrency: 8 });
    try {
      await Promise.all([worker.drain(), second.drain()]);
    } finally {
      await second.close();
    }
    expect(received).toHaveLength(30);
    expect(new Set(received.map((r) => r.headers['x-svc-delivery'])).size).toBe(30);
  });

  it('a delivery claimed by a worker that is gone is attempted again: at once on PostgreSQL, after the lease on the embedded engine', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    await createBusiness('Orphan LLC');
    // A worker claims the delivery and dies before recording anything (no presence session).
    const { dispatchEvents } = await import('../../src/features/webhooks/webhooks.dispatch');
    await dispatchEvents(h.deps);
    const claimed = await claimDueDeliveries(h.knex, { now: h.clock.now(), limit: 10, workerId: 'wrk_gone', checkLiveness: false });
    expect(claimed.map((d) => d.subscription_id)).toEqual([sub.id]);
    await worker.drain();
    if (ENGINE === 'pg') {
      expect(received).toHaveLength(1);
    } else {
      expect(received).toHaveLength(0); // leased: not before it runs out
      h.clock.advance(60_000);
      await worker.drain();
      expect(received).toHaveLength(1);
    }
    expect(received[0].headers['x-svc-delivery']).toBe(claimed[0].id);
    // The dead worker's late outcome can no longer be recorded over the new one.
    expect((await deliveriesOf(sub.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe(`operator commands (${ENGINE})`, () => {
  it('webhook enable, delivery list --status, delivery retry', async () => {
    const { WEBHOOK_COMMANDS, WebhookUsageError } = await import('../../src/cli/webhooks');
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(500).end();
    await createBusiness('Operator LLC');
    await worker.drain();
    for (const delay of RETRY_SCHEDULE_MS) {
      h.clock.advance(delay);
      await worker.drain();
    }
    const listed = (await WEBHOOK_COMMANDS['delivery list']({ webhook: sub.id, status: 'dead' }, [])(h.knex, h.clock)) as { data: { id: string; status: string }[] };
    expect(listed.data.map((d) => d.status)).toEqual(['dead']);
    expect(((await WEBHOOK_COMMANDS['delivery list']({ webhook: sub.id, status: 'succeeded' }, [])(h.knex, h.clock)) as { data: unknown[] }).data).toEqual([]);
    expect(() => WEBHOOK_COMMANDS['delivery list']({ webhook: sub.id, status: 'lost' }, [])).toThrow(WebhookUsageError);

    await h.knex('webhook_subscriptions').where({ id: sub.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    // webhook list: the location's subscriptions with their status, never the signing secret.
    const hooks = (await WEBHOOK_COMMANDS['webhook list']({ location: t.locationId }, [])(h.knex, h.clock)) as { data: { id: string; status: string }[] };
    expect(hooks.data.find((w) => w.id === sub.id)).toMatchObject({ id: sub.id, status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    expect(JSON.stringify(hooks)).not.toMatch(/whsec_|"secret"/);
    expect(() => WEBHOOK_COMMANDS['webhook list']({}, [])).toThrow(WebhookUsageError);
    await expect(WEBHOOK_COMMANDS['delivery retry']({}, [listed.data[0].id])(h.knex, h.clock)).rejects.toMatchObject({ code: 'webhook_disabled' });
    const enabled = (await WEBHOOK_COMMANDS['webhook enable']({}, [sub.id])(h.knex, h.clock)) as { status: string; disabled_reason: null };
    expect(enabled).toMatchObject({ status: 'active', disabled_reason: null, failing_since: null });
    respond = (_req, res) => res.writeHead(200).end();
    h.clock.advance(1000);
    const retried = (await WEBHOOK_COMMANDS['delivery retry']({}, [listed.data[0].id])(h.knex, h.clock)) as { status: string };
    expect(retried.status).toBe('pending');
    const before = received.length;
    await worker.drain();
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.headers['x-svc-delivery']).toBe(listed.data[0].id);
    await expect(WEBHOOK_COMMANDS['delivery retry']({}, ['dlv_01JD1F9J1K3M5N7P9R1T3V5X7Z'])(h.knex, h.clock)).rejects.toThrow(/No webhook delivery/);
  });
});

describe(`cli trigger (${ENGINE})`, () => {
  it('records a sample event of the type from the contract example; the worker delivers it, signed, only to the location\'s subscriptions receiving that type', async () => {
    const { TRIGGER_COMMANDS, TriggerUsageError } = await import('../../src/cli/trigger');
    const all = await subscribe({ events: [] });
    const funded = await subscribe({ events: ['deal.funded', 'deal.created'] });
    const otherType = await subscribe({ events: ['business.created'] });
    const foreign = await subscribe({ events: [] }, other);

    const out = (await TRIGGER_COMMANDS.trigger({ location: t.locationId }, ['deal.funded'])(h.knex, h.clock)) as { event: { id: string; type: string; location_id: string; data: { deal_id: string } }; subscriptions: string[] };
    expect(out.event).toMatchObject({ type: 'deal.funded', location_id: t.locationId });
    expect(out.subscriptions.sort()).toEqual([all.id, funded.id].sort());
    await createBusiness('Elsewhere Trigger LLC', other); // the other location's subscriptions are in the same fan-out batch
    await worker.drain();

    received = received.filter((r) => r.headers['x-svc-event'] !== 'business.created');
    expect(received.map((r) => r.headers['x-svc-event']).sort()).toEqual(['deal.funded', 'deal.funded']);
    const secrets = new Map([[all.id, all.secret], [funded.id, funded.secret]]);
    const got = new Set<string>();
    for (const r of received) {
      const d = await h.knex('webhook_deliveries').where({ id: String(r.headers['x-svc-delivery']) }).first('subscription_id');
      got.add(d.subscription_id);
      const body = JSON.parse(r.body.toString('utf8'));
      expect(body).toMatchObject({ id: out.event.id, type: 'deal.funded', location_id: t.locationId, data: { deal_id: 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X' } });
      expect(verifyWebhookSignature(r.body, String(r.headers['x-svc-signature']), secrets.get(d.subscription_id)!, { now: h.clock.now() })).toBe(true);
    }
    expect([...got].sort()).toEqual([all.id, funded.id].sort());
    expect(await deliveriesOf(otherType.id)).toHaveLength(0);
    expect((await deliveriesOf(foreign.id)).map((d) => d.event_type)).toEqual(['business.created']);

    // An ordinary event: GET /v1/events lists it with the example's data.
    const listed = await h.api.get('/v1/events').query({ type: 'deal.funded' }).set(t.auth()).expect(200);
    expect(listed.body.data[0]).toMatchObject({ id: out.event.id, type: 'deal.funded' });

    // Unknown type (and webhook.test, which is POST /v1/webhooks/{id}/test's): a usage error listing the types.
    expect(() => TRIGGER_COMMANDS.trigger({ location: t.locationId }, ['deal.nope'])).toThrow(TriggerUsageError);
    expect(() => TRIGGER_COMMANDS.trigger({ location: t.locationId }, ['webhook.test'])).toThrow(/Event types: deal.created, .*person.created/);
    expect(() => TRIGGER_COMMANDS.trigger({}, ['deal.funded'])).toThrow(/--location is required/);
    await expect(TRIGGER_COMMANDS.trigger({ location: 'loc_nope' }, ['deal.funded'])(h.knex, h.clock)).rejects.toThrow(/No location loc_nope/);
  });

  it('every stored event type has a contract example to send', async () => {
    const { sampleEvents } = await import('../../src/cli/trigger');
    const spec = (await import('../../src/http/spec')).loadSpec() as { components: { schemas: { StoredEventType: { enum: string[] } } } };
    expect([...sampleEvents().keys()]).toEqual(spec.components.schemas.StoredEventType.enum);
  });
});

describe.skipIf(ENGINE !== 'pg')('worker presence (pg)', () => {
  it('a worker whose presence session is gone claims nothing until it has reopened it', async () => {
    await subscribe({ events: ['business.created'] });
    const lonely = new Worker(h.deps, { concurrency: 4 });
    try {
      await lonely.drain(); // opens the session
      const name = `svc-worker:${lonely.id}`;
      await h.knex.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?`, [name]);
      await createBusiness('Presence LLC');
      // The first round notices the missing session and reopens it instead of claiming.
      const { liveWorkers } = await import('../../src/jobs/queue');
      await lonely.drain(1);
      expect(received).toHaveLength(0);
      expect(await liveWorkers(h.knex, 'pg')).toContain(lonely.id);
      await lonely.drain();
      expect(received).toHaveLength(1);
    } finally {
      await lonely.close();
    }
  });
});

describe(`leases (${ENGINE})`, () => {
  it('a delivery in flight is not retried or recovered (409 delivery_in_flight); an attempt whose lease ran out and was taken over records nothing', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    const windowStart = h.clock.now().toISOString();
    await createBusiness('Lease LLC');
    const { dispatchEvents, attemptDelivery, recordSuccesses } = await import('../../src/features/webhooks/webhooks.dispatch');
    await dispatchEvents(h.deps);
    const [slow] = await claimDueDeliveries(h.knex, { now: h.clock.now(), limit: 1, workerId: 'wrk_slow', checkLiveness: false });
    expect(slow.subscription_id).toBe(sub.id);
    await h.knex('webhook_deliveries').where({ id: slow.id }).update({ status: 'failed' }); // as if a retry were in flight

    // While it is leased, neither a retry nor a recovery starts a second attempt.
    const busy = await h.api.post(`/v1/webhooks/${sub.id}/deliveries/${slow.id}/retry`).set(t.auth());
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ type: 'conflict', code: 'delivery_in_flight', param: 'deliveryId' });
    const rec = await h.api.post(`/v1/webhooks/${sub.id}/recover`).set(t.auth()).send({ since: windowStart });
    expect(rec.body.data.recovered).toBe(0);

    // The slow worker's lease runs out; another worker takes the delivery over and delivers it.
    h.clock.advance(60_000);
    const [fast] = await claimDueDeliveries(h.knex, { now: h.clock.now(), limit: 1, workerId: 'wrk_fast', checkLiveness: false });
    expect(fast.id).toBe(slow.id);
    expect(await attemptDelivery(h.deps, fast)).toBe('succeeded');
    // The slow worker finally gets its answer: nothing of it is recorded, per delivery or in a group.
    expect(await attemptDelivery(h.deps, slow)).toBeNull();
    const viaGroup = await attemptDelivery(h.deps, slow, { recordSuccess: async (x) => ((await recordSuccesses(h.deps, [x])).has(x.d.id) ? 'succeeded' : null) });
    expect(viaGroup).toBeNull();
    expect(received).toHaveLength(3); // sent three times (at least once)...
    expect((await deliveriesOf(sub.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1, total_attempts: 1 }); // ...recorded once
    expect(await h.knex('webhook_delivery_attempts').where({ delivery_id: slow.id })).toHaveLength(1);
  });

  it('a delivery that cannot be signed on our side counts as a failed attempt (never claimed forever) and leaves the health alone', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    // Sealed under another key (as after a SECRET_KEY change): it no longer opens.
    const { SecretBox, hmacHex } = await import('../../src/lib/crypto');
    const foreign = new SecretBox(hmacHex('another-installation-secret-key-0123456789', 'secrets-at-rest')).seal('whsec_other');
    await h.knex('webhook_subscriptions').where({ id: sub.id }).update({ secret_sealed: foreign });
    await createBusiness('Unsignable LLC');
    await worker.drain();
    expect(received).toEqual([]);
    const [d] = await deliveriesOf(sub.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_response_status: null, last_error_code: null, locked_by: null });
    expect(d.last_error).toMatch(/^Not sent: the delivery could not be signed on our side/);
    for (const delay of RETRY_SCHEDULE_MS) {
      h.clock.advance(delay);
      await worker.drain();
    }
    expect((await deliveriesOf(sub.id))[0]).toMatchObject({ status: 'dead', attempts: 6 });
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ status: 'active', failing_since: null, last_failure_at: null });
  });

  it('a receiver answering with a NUL byte is recorded like any answer (U+FFFD), never an unrecordable attempt', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    respond = (_req, res) => res.writeHead(200).end('ok\u0000done');
    await createBusiness('Nul Answer LLC');
    await worker.drain();
    const [d] = await deliveriesOf(sub.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1 });
    const log = await h.api.get(`/v1/webhooks/${sub.id}/deliveries/${d.id}/attempts`).set(t.auth());
    expect(log.body.data[0].response_body).toBe('ok\uFFFDdone');
    const test = await h.api.post(`/v1/webhooks/${sub.id}/test`).set(t.auth());
    expect(test.status).toBe(200);
    expect(test.body.data.response_body).toBe('ok\uFFFDdone');
  });
});

describe(`health under out-of-order recording (${ENGINE})`, () => {
  it('a success recorded after a later failure does not end the failure run', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    await createBusiness('Order One LLC');
    await createBusiness('Order Two LLC');
    const { dispatchEvents, attemptDelivery, recordSuccesses } = await import('../../src/features/webhooks/webhooks.dispatch');
    await dispatchEvents(h.deps);
    const claimed = await claimDueDeliveries(h.knex, { now: h.clock.now(), limit: 2, workerId: 'wrk_order', checkLiveness: false });
    expect(claimed).toHaveLength(2);
    // The first attempt succeeds at t1 but waits for its group commit...
    const t1 = h.clock.now().toISOString();
    let parked: Parameters<typeof recordSuccesses>[1][number] | undefined;
    await attemptDelivery(h.deps, claimed[0], { recordSuccess: async (s) => ((parked = s), 'succeeded') });
    // ...while the second fails at t2 and is recorded first.
    h.clock.advance(1000);
    respond = (_req, res) => res.writeHead(500).end();
    expect(await attemptDelivery(h.deps, claimed[1])).toBe('failed');
    const t2 = h.clock.now().toISOString();
    expect(await recordSuccesses(h.deps, [parked!])).toEqual(new Set([claimed[0].id]));
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ last_success_at: t1, last_failure_at: t2, failing_since: t2 });
    expect((await deliveriesOf(sub.id).where('id', claimed[0].id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('a failure recorded after a newer success does not start a failure run', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    await createBusiness('Slow Failure LLC');
    await createBusiness('Quick Success LLC');
    const { dispatchEvents, attemptDelivery } = await import('../../src/features/webhooks/webhooks.dispatch');
    await dispatchEvents(h.deps);
    const claimed = await claimDueDeliveries(h.knex, { now: h.clock.now(), limit: 2, workerId: 'wrk_order', checkLiveness: false });
    // The first attempt starts at t1 and hangs; its answer (a 500) comes after the second succeeded at t2.
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const reachedReceiver = new Promise<void>((resolve) => (arrived = resolve));
    respond = (_req, res) => {
      release = () => res.writeHead(500).end();
      arrived();
    };
    const t1 = h.clock.now().toISOString();
    const slow = attemptDelivery(h.deps, claimed[0]);
    await reachedReceiver; // the first attempt is at the receiver, waiting for its answer
    h.clock.advance(1000);
    respond = (_req, res) => res.writeHead(200).end();
    expect(await attemptDelivery(h.deps, claimed[1])).toBe('succeeded');
    const t2 = h.clock.now().toISOString();
    release();
    expect(await slow).toBe('failed');
    const health = (await h.api.get(`/v1/webhooks/${sub.id}`).set(t.auth())).body.data;
    expect(health).toMatchObject({ last_success_at: t2, last_failure_at: t1, failing_since: null });
  });
});

describe(`retention (${ENGINE})`, () => {
  it('after 30 days finished deliveries, their attempts, events and finished jobs are purged; open deliveries and younger rows stay', async () => {
    const sub = await subscribe({ events: ['business.created'] });
    await createBusiness('Old Success LLC');
    await worker.drain();
    const [old] = await deliveriesOf(sub.id);
    const oldEvent = old.event_id;
    respond = (_req, res) => res.writeHead(500).end();
    await createBusiness('Old Failure LLC');
    await worker.drain();
    const failing = (await deliveriesOf(sub.id).where('status', 'failed'))[0];
    // Keep the failing one open: push its next retry far out, as if it had been re-queued.
    await h.knex('webhook_deliveries').where({ id: failing.id }).update({ next_attempt_at: new Date(h.clock.now().getTime() + 40 * 86_400_000) });
    h.clock.advance(29 * 86_400_000);
    respond = (_req, res) => res.writeHead(200).end();
    await createBusiness('Young LLC');
    const fresh = new Worker(h.deps, { concurrency: 4 }); // a worker's first poll runs retention at once
    try {
      await fresh.drain();
      expect((await deliveriesOf(sub.id).where('id', old.id))).toHaveLength(1); // 29 days: kept
      h.clock.advance(2 * 86_400_000);
      const later = new Worker(h.deps, { concurrency: 4 });
      await later.drain();
      await later.close();
    } finally {
      await fresh.close();
    }
    expect(await deliveriesOf(sub.id).where('id', old.id)).toEqual([]);
    expect(await h.knex('webhook_delivery_attempts').where({ delivery_id: old.id })).toEqual([]);
    expect(await h.knex('events').where({ id: oldEvent })).toEqual([]);
    expect(await deliveriesOf(sub.id).where('id', failing.id)).toHaveLength(1); // open: kept however old
    expect((await deliveriesOf(sub.id).where('status', 'succeeded')).length).toBe(1); // the young one
    const evs = await h.api.get('/v1/events').set(t.auth()).query({ type: 'business.created', limit: 100 });
    expect(evs.body.data.some((e: { id: string }) => e.id === oldEvent)).toBe(false);
  });
});
