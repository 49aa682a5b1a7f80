import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signatureHeader, signPayload, verifySignature } from '../../src/features/webhooks/signing';
import { deliverWebhook, deliveryHeaders } from '../../src/features/webhooks/webhooks.delivery';
import { setTestDeliveryTimeout } from '../../src/features/webhooks/webhooks.service';
import { loadSpec } from '../../src/http/spec';
import { newEventId, newId } from '../../src/lib/ids';
import { PUBLIC_ONLY, setHostResolver, type ResolvedAddress } from '../../src/outbound/policy';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startReceiver, type LoopbackReceiver, type Received, type Respond } from '../support/receiver';

// A real receiver (node:http on 127.0.0.1, port 0) gets every test delivery; DNS is an injected
// table, so no test needs public DNS or the network. The tenants here are test locations (loopback
// receivers are allowed for them); the address policy for other locations, every blocked spelling
// and every error category are in outbound.test.ts.


let h: Harness;
let t: Tenant;
let other: Tenant;
let receiver: LoopbackReceiver;
let base: string;
let received: Received[] = [];
let respond: Respond = (_req, res) => res.end();
let restoreResolver: () => void;

const DNS: Record<string, string[]> = {
  'hooks.partner.example': ['93.184.216.34'],
  'dual.partner.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'evil.example': ['192.168.1.5'],
  'mixed.example': ['93.184.216.34', '10.0.0.7'],
  'ula.example': ['fd12:3456:789a::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
};
const fakeResolver = async (host: string): Promise<ResolvedAddress[]> => {
  const list = DNS[host];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

beforeAll(async () => {
  restoreResolver = setHostResolver(fakeResolver);
  h = await startHarness();
  t = await h.tenant('Northwind Capital Partners');
  other = await h.tenant('Elsewhere');
  receiver = await startReceiver((got, req, res) => {
    received.push(got);
    respond(req, res);
  });
  base = receiver.base;
});
afterAll(async () => {
  restoreResolver?.();
  await receiver?.close();
  await h?.close();
});
beforeEach(() => {
  received = [];
  respond = (_req, res) => res.end();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const countEvents = async () => Number((await h.knex('events').count<{ c: number }[]>('* as c'))[0].c);
const nowSeconds = () => Math.floor(h.clock.now().getTime() / 1000);

async function createWebhook(body: Record<string, unknown>, tenant: Tenant = t) {
  const res = await h.api.post('/v1/webhooks').set(tenant.auth()).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}
async function sendTest(id: string, tenant: Tenant = t) {
  const res = await h.api.post(`/v1/webhooks/${id}/test`).set(tenant.auth());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>;
}
function expectUrlRefused(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_webhook_url', param: 'url' });
}
/** What a receiver does: HMAC-SHA256 of `<t>.<raw body>` with the secret, compared in constant time. */
function receiverVerifies(raw: Buffer, header: string, secret: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.`).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(m[2], 'hex'));
}

describe(`createWebhook (${ENGINE})`, () => {
  it('201 with a whsec_ secret shown once; sealed at rest; no outbox event; secret never logged', async () => {
    h.clock.advance(1000);
    const before = await countEvents();
    const w = await createWebhook({ url: 'https://hooks.partner.example/svc', events: ['deal.stage_changed', 'submission.responded', 'offer.received'], description: 'Partner CRM sync' });
    expect(w).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: 'https://hooks.partner.example/svc',
      events: ['deal.stage_changed', 'submission.responded', 'offer.received'],
      description: 'Partner CRM sync',
      status: 'active', disabled_reason: null, failing_since: null, last_success_at: null, last_failure_at: null,
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    });
    const row = await h.knex('webhook_subscriptions').where({ id: w.id }).first();
    expect(row.location_id).toBe(t.locationId);
    expect(JSON.stringify(row)).not.toContain(w.secret);
    expect(JSON.stringify(row)).not.toContain(w.secret.slice(6));
    expect(h.deps.secrets.open(row.secret_sealed)).toBe(w.secret);
    expect(await countEvents()).toBe(before);
    expect(h.logs.join('')).not.toContain(w.secret.slice(6));
  });

  it('defaults: events [] (all, including later types), description null; http://localhost and http://127.0.0.1 accepted (test location)', async () => {
    const a = await createWebhook({ url: 'http://localhost:3000/svc-webhooks' });
    expect(a).toMatchObject({ events: [], description: null, status: 'active' });
    const b = await createWebhook({ url: 'http://127.0.0.1:8080/hook', events: [] });
    expect(b.url).toBe('http://127.0.0.1:8080/hook');
    // Each subscription has its own secret; several may share a URL.
    const c = await createWebhook({ url: 'http://localhost:3000/svc-webhooks' });
    expect(new Set([a.secret, b.secret, c.secret]).size).toBe(3);
    expect(c.id).not.toBe(a.id);
  });

  it('https to a host resolving only to public addresses (IPv4 and IPv6) is accepted; every event type may be listed', async () => {
    const spec = loadSpec() as any;
    const all = spec.components.schemas.EventType.enum as string[];
    expect(all).toHaveLength(18); // the source's 16, offer.accepted and document_request.fulfilled (issue 29)
    const w = await createWebhook({ url: 'https://dual.partner.example/hooks?x=1', events: all });
    expect(w.events).toEqual(all);
    await createWebhook({ url: 'https://93.184.216.34:8443/' });
  });

  it('400 invalid_webhook_url (param url): plain http elsewhere, non-http schemes, private, loopback, link-local, unique-local, CGNAT, unspecified, unresolvable', async () => {
    const before = Number((await h.knex('webhook_subscriptions').count<{ c: number }[]>('* as c'))[0].c);
    for (const url of [
      'http://example.com/hook',
      'http://hooks.partner.example/svc',
      'ftp://hooks.partner.example/svc',
      'https://10.1.2.3/',
      'https://[::1]/',
      'https://127.0.0.2/',
      'https://localhost.partner.example.invalid/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://[::]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://172.20.1.1/',
      'https://evil.example/',
      'https://mixed.example/',
      'https://ula.example/',
      'https://mapped.example/',
      'https://metadata.example/',
      'https://unknown-host.example/',
    ]) {
      const res = await h.api.post('/v1/webhooks').set(t.auth()).send({ url });
      expectUrlRefused(res);
      expect(typeof res.body.error.message).toBe('string');
    }
    expect(Number((await h.knex('webhook_subscriptions').count<{ c: number }[]>('* as c'))[0].c)).toBe(before);
  });

  it('400 invalid_request for a malformed URL, unknown or repeated event types, a long description, unknown fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'not a url' }, 'url'],
      [{}, 'url'],
      [{ url: 'https://hooks.partner.example/', events: ['deal.exploded'] }, 'events.0'],
      [{ url: 'https://hooks.partner.example/', events: ['deal.created', 'deal.created'] }, 'events'],
      [{ url: 'https://hooks.partner.example/', description: 'x'.repeat(501) }, 'description'],
      [{ url: 'https://hooks.partner.example/', secret: 'whsec_mine' }, ''],
      [{ url: 'https://hooks.partner.example/', status: 'disabled' }, ''],
    ];
    for (const [body, param] of cases) {
      const res = await h.api.post('/v1/webhooks').set(t.auth()).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_request' });
      if (param) expect(res.body.error.param).toBe(param);
    }
  });
});

describe(`listWebhooks, getWebhook (${ENGINE})`, () => {
  it('lists newest first with health fields and never a secret; paginates; only this location', async () => {
    const mine = await createWebhook({ url: 'https://hooks.partner.example/list-a' });
    h.clock.advance(1000);
    const newer = await createWebhook({ url: 'https://hooks.partner.example/list-b' });
    const theirs = await createWebhook({ url: 'https://hooks.partner.example/theirs' }, other);
    const res = await h.api.get('/v1/webhooks').set(t.auth());
    expect(res.status).toBe(200);
    const ids = res.body.data.map((w: any) => w.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(mine.id));
    expect(ids).not.toContain(theirs.id);
    expect(JSON.stringify(res.body)).not.toMatch(/whsec_|secret/);
    expect(res.body.data.find((w: any) => w.id === newer.id)).toEqual(Object.fromEntries(Object.entries(newer).filter(([k]) => k !== 'secret')));
    const page1 = await h.api.get('/v1/webhooks?limit=1').set(t.auth());
    expect(page1.body.data.map((w: any) => w.id)).toEqual([ids[0]]);
    expect(page1.body.meta.has_more).toBe(true);
    const page2 = await h.api.get(`/v1/webhooks?limit=1&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`).set(t.auth());
    expect(page2.body.data.map((w: any) => w.id)).toEqual([ids[1]]);
  });

  it('get returns the subscription without its secret; 404 for another location and for an unknown id', async () => {
    const w = await createWebhook({ url: 'https://hooks.partner.example/get', description: 'Get me' });
    const res = await h.api.get(`/v1/webhooks/${w.id}`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('secret');
    expect(JSON.stringify(res.body)).not.toContain(w.secret);
    expect(res.body.data).toMatchObject({ id: w.id, url: w.url, description: 'Get me', status: 'active' });
    const cross = await h.api.get(`/v1/webhooks/${w.id}`).set(other.auth());
    expect(cross.status).toBe(404);
    expect(cross.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing' });
    expect((await h.api.get(`/v1/webhooks/${newId('whk')}`).set(t.auth())).status).toBe(404);
  });
});

describe(`updateWebhook (${ENGINE})`, () => {
  it('changes only the sent fields: events replaced, description null clears, url re-checked; secret and status kept', async () => {
    const w = await createWebhook({ url: 'https://hooks.partner.example/svc', events: ['deal.created'], description: 'Old' });
    const sealedBefore = (await h.knex('webhook_subscriptions').where({ id: w.id }).first()).secret_sealed;
    await h.knex('webhook_subscriptions').where({ id: w.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    h.clock.advance(5000);
    const before = await countEvents();
    const res = await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ events: ['deal.funded', 'offer.received'], description: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: 'https://hooks.partner.example/svc', events: ['deal.funded', 'offer.received'], description: null,
      status: 'disabled', disabled_reason: 'Deliveries failed for 3 days', created_at: w.created_at, updated_at: h.clock.now().toISOString(),
    });
    expect(res.body.data).not.toHaveProperty('secret');
    const moved = await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ url: 'http://localhost:4000/v2', events: [] });
    expect(moved.body.data).toMatchObject({ url: 'http://localhost:4000/v2', events: [] });
    const row = await h.knex('webhook_subscriptions').where({ id: w.id }).first();
    expect(row.secret_sealed).toBe(sealedBefore);
    expect(h.deps.secrets.open(row.secret_sealed)).toBe(w.secret);
    expect(await countEvents()).toBe(before);
  });

  it('400 invalid_webhook_url on a bad url (nothing changes); 400 on an empty body or an unknown status; 404 across locations', async () => {
    const w = await createWebhook({ url: 'https://hooks.partner.example/u' });
    for (const url of ['https://evil.example/x', 'http://example.com/', 'https://[::1]:8443/']) {
      expectUrlRefused(await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ url, description: 'changed' }));
    }
    const row = await h.knex('webhook_subscriptions').where({ id: w.id }).first();
    expect(row).toMatchObject({ url: 'https://hooks.partner.example/u', description: null });
    expect((await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({})).status).toBe(400);
    expect((await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ status: 'paused' })).status).toBe(400);
    const cross = await h.api.patch(`/v1/webhooks/${w.id}`).set(other.auth()).send({ description: 'mine now' });
    expect(cross.status).toBe(404);
    expect((await h.knex('webhook_subscriptions').where({ id: w.id }).first()).description).toBeNull();
  });
});

describe(`deleteWebhook (${ENGINE})`, () => {
  it('returns { deleted, id }; then 404 everywhere; pending retries cancelled, finished deliveries kept; secret wiped', async () => {
    const w = await createWebhook({ url: 'https://hooks.partner.example/del' });
    const now = h.clock.now();
    const delivery = (status: string, nextAttempt: Date | null) => ({
      id: newId('dlv'), location_id: t.locationId, subscription_id: w.id, event_id: newEventId(), event_type: 'deal.created', kind: 'event',
      status, attempts: status === 'pending' ? 0 : 2, next_attempt_at: nextAttempt, last_response_status: null, last_error: null,
      payload: JSON.stringify({}), created_at: now, updated_at: now,
    });
    const pending = delivery('pending', now);
    const failed = delivery('failed', new Date(now.getTime() + 60_000));
    const done = delivery('succeeded', null);
    await h.knex('webhook_deliveries').insert([pending, failed, done]);

    const cross = await h.api.delete(`/v1/webhooks/${w.id}`).set(other.auth());
    expect(cross.status).toBe(404);
    h.clock.advance(1000);
    const before = await countEvents();
    const res = await h.api.delete(`/v1/webhooks/${w.id}`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: true, id: w.id }, meta: {} });
    expect(await countEvents()).toBe(before);

    expect((await h.api.get(`/v1/webhooks/${w.id}`).set(t.auth())).status).toBe(404);
    expect((await h.api.delete(`/v1/webhooks/${w.id}`).set(t.auth())).status).toBe(404);
    expect((await h.api.patch(`/v1/webhooks/${w.id}`).set(t.auth()).send({ description: 'x' })).status).toBe(404);
    expect((await h.api.post(`/v1/webhooks/${w.id}/test`).set(t.auth())).status).toBe(404);
    expect((await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth())).status).toBe(404);
    const list = await h.api.get('/v1/webhooks?limit=100').set(t.auth());
    expect(list.body.data.map((x: any) => x.id)).not.toContain(w.id);

    const rows = await h.knex('webhook_deliveries').where({ subscription_id: w.id });
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    for (const id of [pending.id, failed.id]) {
      expect(byId[id]).toMatchObject({ status: 'dead', next_attempt_at: null, last_error: 'Cancelled: the subscription was deleted' });
      expect(new Date(byId[id].updated_at).toISOString()).toBe(h.clock.now().toISOString());
    }
    expect(byId[done.id]).toMatchObject({ status: 'succeeded' });
    expect((await h.knex('webhook_subscriptions').where({ id: w.id }).first()).secret_sealed).toBeNull();
  });
});

describe(`access (${ENGINE})`, () => {
  it('role user is refused (403 role_not_allowed); manager and admin are admitted', async () => {
    for (const [method, path] of [['get', '/v1/webhooks'], ['post', '/v1/webhooks']] as const) {
      const res = await h.api[method](path).set(t.auth('user')).send(method === 'post' ? { url: 'https://hooks.partner.example/' } : undefined);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'role_not_allowed' });
    }
    const w = await createWebhook({ url: 'https://hooks.partner.example/roles' });
    expect((await h.api.post(`/v1/webhooks/${w.id}/test`).set(t.auth('user'))).status).toBe(403);
    expect((await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth('user'))).status).toBe(403);
    expect((await h.api.get(`/v1/webhooks/${w.id}`).set(t.auth('manager'))).status).toBe(200);
  });

  it('403 missing_scope (param webhooks:manage) without the scope; the scope alone suffices', async () => {
    const narrow = await t.key({ role: 'admin', scopes: ['businesses:read', 'deals:write'] });
    for (const req of [
      h.api.get('/v1/webhooks').set(bearer(narrow.key)),
      h.api.post('/v1/webhooks').set(bearer(narrow.key)).send({ url: 'https://hooks.partner.example/' }),
    ]) {
      const res = await req;
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'missing_scope', param: 'webhooks:manage' });
    }
    const scoped = await t.key({ role: 'manager', scopes: ['webhooks:manage'] });
    expect((await h.api.post('/v1/webhooks').set(bearer(scoped.key)).send({ url: 'https://hooks.partner.example/scoped' })).status).toBe(201);
  });
});

describe(`testWebhook (${ENGINE})`, () => {
  it('2xx: one signed POST with the exact headers and envelope; succeeded; recorded as a test delivery; health untouched', async () => {
    const w = await createWebhook({ url: `${base}/svc-webhooks?src=test`, events: ['deal.created'] });
    respond = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"received":true}');
    };
    h.clock.advance(60_000);
    const before = await countEvents();
    const result = await sendTest(w.id);
    expect(result).toEqual({
      delivery_id: expect.stringMatching(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/), event_type: 'webhook.test', status: 'succeeded',
      response_status: 200, response_body: '{"received":true}', error: null, error_code: null, duration_ms: expect.any(Number),
    });

    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/svc-webhooks?src=test');
    expect(Object.keys(got.headers).sort()).toEqual(['connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-svc-delivery', 'x-svc-event', 'x-svc-signature']);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'Svc-Webhooks/1.0', 'x-svc-event': 'webhook.test', 'x-svc-delivery': result.delivery_id,
      'content-length': String(got.body.length),
    });
    const sig = got.headers['x-svc-signature'] as string;
    expect(sig).toMatch(new RegExp(`^t=${nowSeconds()},v1=[0-9a-f]{64}$`));
    expect(receiverVerifies(got.body, sig, w.secret)).toBe(true);
    expect(verifySignature(got.body, sig, [w.secret], nowSeconds())).toBe(true);
    expect(verifySignature(got.body, sig, ['whsec_someoneelse'], nowSeconds())).toBe(false);
    expect(verifySignature(Buffer.concat([got.body, Buffer.from(' ')]), sig, [w.secret], nowSeconds())).toBe(false);

    const event = JSON.parse(got.body.toString('utf8'));
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      type: 'webhook.test', created_at: h.clock.now().toISOString(), location_id: t.locationId,
      data: { subscription_id: w.id, message: 'Test event from Northwind Capital Partners', sent_at: h.clock.now().toISOString() },
    });

    const deliveries = await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth());
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([{
      id: result.delivery_id, subscription_id: w.id, event_id: event.id, event_type: 'webhook.test', status: 'succeeded', attempts: 1,
      next_attempt_at: null, last_response_status: 200, last_error: null, last_error_code: null, created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    }]);
    const row = await h.knex('webhook_deliveries').where({ id: result.delivery_id }).first();
    expect(row).toMatchObject({ kind: 'test', payload: event });

    const after = await h.api.get(`/v1/webhooks/${w.id}`).set(t.auth());
    expect(after.body.data).toMatchObject({ status: 'active', last_success_at: null, last_failure_at: null, failing_since: null, updated_at: w.updated_at });
    expect(await countEvents()).toBe(before);
    expect(h.logs.join('')).not.toContain(w.secret.slice(6));
    expect(h.logs.join('')).toContain('webhook test delivery');
  });

  it('204 is a success with an empty body', async () => {
    const w = await createWebhook({ url: `${base}/empty` });
    respond = (_req, res) => res.writeHead(204).end();
    expect(await sendTest(w.id)).toMatchObject({ status: 'succeeded', response_status: 204, response_body: '', error: null });
  });

  it('500: dead with the status and the first 2 KB of the body; never retried', async () => {
    const w = await createWebhook({ url: `${base}/broken` });
    const big = 'E'.repeat(10) + 'x'.repeat(5 * 1024);
    respond = (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(big);
    };
    const result = await sendTest(w.id);
    expect(result).toMatchObject({ status: 'dead', response_status: 500, error: 'Receiver answered HTTP 500', error_code: 'http_error' });
    expect(result.response_body).toHaveLength(2048);
    expect(result.response_body).toBe(big.slice(0, 2048));
    expect(received).toHaveLength(1);
    const [d] = (await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth())).body.data;
    expect(d).toMatchObject({ id: result.delivery_id, status: 'dead', attempts: 1, next_attempt_at: null, last_response_status: 500, last_error: 'Receiver answered HTTP 500', last_error_code: 'http_error' });
  });

  it('4xx: dead', async () => {
    const w = await createWebhook({ url: `${base}/reject` });
    respond = (_req, res) => res.writeHead(401).end('bad signature');
    expect(await sendTest(w.id)).toMatchObject({ status: 'dead', response_status: 401, response_body: 'bad signature', error: 'Receiver answered HTTP 401', error_code: 'http_error' });
  });

  it('302: dead, and the redirect is not followed', async () => {
    const w = await createWebhook({ url: `${base}/moved` });
    respond = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, { Location: `${base}/elsewhere` }).end();
      else res.writeHead(200).end('followed');
    };
    const result = await sendTest(w.id);
    expect(result).toMatchObject({ status: 'dead', response_status: 302, response_body: '', error_code: 'http_error' });
    expect(result.error).toBe('Receiver answered HTTP 302 (redirects are not followed)');
    expect(received.map((r) => r.path)).toEqual(['/moved']);
  });

  it('connection refused: dead with a fixed sentence and connection_refused, no response fields', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const w = await createWebhook({ url: `http://127.0.0.1:${port}/gone` });
    const result = await sendTest(w.id);
    expect(result).toMatchObject({ status: 'dead', response_status: null, response_body: null, error: 'Connection refused by 127.0.0.1', error_code: 'connection_refused' });
    const [d] = (await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth())).body.data;
    expect(d).toMatchObject({ status: 'dead', last_response_status: null, last_error: result.error, last_error_code: 'connection_refused' });
  });

  it('timeout: dead after the timeout (200 ms here, 10 s in service) with no response', async () => {
    const w = await createWebhook({ url: `${base}/silent` });
    respond = () => {}; // never answers
    const restore = setTestDeliveryTimeout(200);
    try {
      const result = await sendTest(w.id);
      expect(result).toMatchObject({ status: 'dead', response_status: null, response_body: null, error: 'Timed out after 200 ms', error_code: 'timeout' });
      expect(result.duration_ms).toBeGreaterThanOrEqual(150);
      expect(result.duration_ms).toBeLessThan(5000);
    } finally {
      restore();
    }
    expect(received).toHaveLength(1);
  });

  it('is sent to a disabled subscription too, and leaves it disabled', async () => {
    const w = await createWebhook({ url: `${base}/disabled` });
    await h.knex('webhook_subscriptions').where({ id: w.id }).update({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
    respond = (_req, res) => res.writeHead(200).end('ok');
    expect(await sendTest(w.id)).toMatchObject({ status: 'succeeded' });
    expect((await h.api.get(`/v1/webhooks/${w.id}`).set(t.auth())).body.data).toMatchObject({ status: 'disabled', disabled_reason: 'Deliveries failed for 3 days' });
  });

  it('a host re-pointed at a private address after creation is blocked at send time (nothing is sent)', async () => {
    DNS['rebind.example'] = ['93.184.216.34'];
    const w = await createWebhook({ url: 'https://rebind.example/hook' });
    DNS['rebind.example'] = ['93.184.216.34', '127.0.0.1'];
    const result = await sendTest(w.id);
    expect(result).toMatchObject({ status: 'dead', response_status: null, response_body: null, error: 'Blocked: rebind.example is not a public HTTPS endpoint', error_code: 'blocked_address' });
    expect(result.error).not.toContain('127.0.0.1');
    delete DNS['rebind.example'];
  });

  it('404 for another location\'s subscription; nothing is sent', async () => {
    const w = await createWebhook({ url: `${base}/theirs` }, other);
    const res = await h.api.post(`/v1/webhooks/${w.id}/test`).set(t.auth());
    expect(res.status).toBe(404);
    expect(received).toHaveLength(0);
  });
});

describe(`listWebhookDeliveries (${ENGINE})`, () => {
  it('newest first, filtered by status, paginated; 404 across locations; 400 on an unknown status', async () => {
    const w = await createWebhook({ url: `${base}/many` });
    respond = (_req, res) => res.writeHead(200).end();
    const ok1 = await sendTest(w.id);
    h.clock.advance(1000);
    respond = (_req, res) => res.writeHead(503).end();
    const bad = await sendTest(w.id);
    h.clock.advance(1000);
    respond = (_req, res) => res.writeHead(200).end();
    const ok2 = await sendTest(w.id);

    const all = await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(t.auth());
    expect(all.body.data.map((d: any) => d.id)).toEqual([ok2.delivery_id, bad.delivery_id, ok1.delivery_id]);
    const dead = await h.api.get(`/v1/webhooks/${w.id}/deliveries?status=dead`).set(t.auth());
    expect(dead.body.data.map((d: any) => d.id)).toEqual([bad.delivery_id]);
    const pending = await h.api.get(`/v1/webhooks/${w.id}/deliveries?status=pending`).set(t.auth());
    expect(pending.body).toEqual({ data: [], meta: { has_more: false, next_cursor: null } });
    const p1 = await h.api.get(`/v1/webhooks/${w.id}/deliveries?limit=2`).set(t.auth());
    expect(p1.body.meta.has_more).toBe(true);
    const p2 = await h.api.get(`/v1/webhooks/${w.id}/deliveries?limit=2&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`).set(t.auth());
    expect(p2.body.data.map((d: any) => d.id)).toEqual([ok1.delivery_id]);
    // A cursor belongs to one subscription's list.
    const w2 = await createWebhook({ url: `${base}/other-list` });
    const wrong = await h.api.get(`/v1/webhooks/${w2.id}/deliveries?cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`).set(t.auth());
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });

    expect((await h.api.get(`/v1/webhooks/${w.id}/deliveries`).set(other.auth())).status).toBe(404);
    const badStatus = await h.api.get(`/v1/webhooks/${w.id}/deliveries?status=lost`).set(t.auth());
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.param).toBe('status');
  });
});

describe(`signing (${ENGINE})`, () => {
  it("reproduces the contract's example signature (submission.responded, secret whsec_4eC39HqLyjWDarjtT1zdp7dc)", () => {
    const spec = loadSpec() as any;
    const example = spec.components.parameters.WebhookSignature.example as string;
    const t0 = Number(/^t=(\d+)/.exec(example)![1]);
    const examples = spec.webhooks['submission.responded'].post.requestBody.content['application/json'].examples;
    const raw = JSON.stringify((Object.values(examples)[0] as { value: unknown }).value);
    expect(signatureHeader('whsec_4eC39HqLyjWDarjtT1zdp7dc', raw, t0)).toBe(example);
    expect(verifySignature(raw, example, ['whsec_4eC39HqLyjWDarjtT1zdp7dc'], t0)).toBe(true);
  });

  it('tolerance of 5 minutes either way; several v1 values (rotation); malformed headers refused', () => {
    const raw = Buffer.from('{"id":"evt_1"}');
    const [oldS, newS] = ['whsec_old', 'whsec_new'];
    const t0 = 1_800_000_000;
    const header = signatureHeader([newS, oldS], raw, t0);
    expect(header.split(',')).toHaveLength(3);
    for (const s of [oldS, newS]) expect(verifySignature(raw, header, [s], t0)).toBe(true);
    expect(verifySignature(raw, header, ['whsec_other', newS], t0)).toBe(true);
    expect(verifySignature(raw, header, ['whsec_other'], t0)).toBe(false);
    expect(verifySignature(raw, header, [newS], t0 + 300)).toBe(true);
    expect(verifySignature(raw, header, [newS], t0 - 300)).toBe(true);
    expect(verifySignature(raw, header, [newS], t0 + 301)).toBe(false);
    expect(verifySignature(raw, header, [newS], t0 - 301)).toBe(false);
    expect(verifySignature(raw, header, [newS], t0 + 3600, 7200)).toBe(true);
    const v1 = signPayload(newS, raw, t0);
    expect(v1).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(raw, `v1=${v1}`, [newS], t0)).toBe(false); // no timestamp
    expect(verifySignature(raw, `t=${t0}`, [newS], t0)).toBe(false); // no signature
    expect(verifySignature(raw, `t=${t0 + 1},v1=${v1}`, [newS], t0)).toBe(false); // timestamp is signed
    expect(verifySignature(raw, `t=${t0},v1=${v1.toUpperCase()}`, [newS], t0)).toBe(false);
    expect(verifySignature(raw, 'garbage', [newS], t0)).toBe(false);
  });

  it('deliverWebhook refuses a non-public literal address and plain http without connecting', async () => {
    const headers = deliveryHeaders({ eventType: 'webhook.test', deliveryId: newId('dlv'), signature: 't=1,v1=' + '0'.repeat(64) });
    const out = await deliverWebhook('https://10.0.0.1/hook', '{}', headers, { policy: PUBLIC_ONLY, timeoutMs: 200 });
    expect(out).toMatchObject({ ok: false, responseStatus: null, responseBody: null, error: 'Blocked: 10.0.0.1 is not a public HTTPS endpoint', errorCode: 'blocked_address' });
    expect(await deliverWebhook('http://example.com/', '{}', headers, { policy: PUBLIC_ONLY, timeoutMs: 200 })).toMatchObject({
      error: 'Blocked: example.com is not a public HTTPS endpoint', errorCode: 'blocked_address',
    });
  });
});
