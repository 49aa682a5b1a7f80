import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReceiver, type SvcEvent } from '../../docs-site/examples/webhook-receiver';
import { createApp } from '../../src/app';
import { runListen, type ListenIO } from '../../src/cli/listen';
import { toEnvelope } from '../../src/events/outbox';
import { getEvent, listEvents } from '../../src/features/events/events.handlers';
import { handlers as realHandlers } from '../../src/features/handlers';
import { newSigningSecret, signatureHeader } from '../../src/features/webhooks/signing';
import type { Handlers } from '../../src/http/types';
import {
  DEFAULT_TOLERANCE_SECONDS, WebhookSignatureError, checkWebhookSignature, constructEvent, verifyWebhookSignature,
} from '../../src/webhooks-verify';
import { ENGINE, refusedDials, startHarness, type Harness, type Tenant } from '../support/harness';
import type { Received, Respond } from '../support/receiver';

// The partner-side helper (src/webhooks-verify.ts), the documented example receiver
// (docs-site/examples/webhook-receiver.ts) and the local forwarder (`cli listen`, src/cli/listen.ts).
// Everything listens on 127.0.0.1; signature time comes from the harness clock.

let h: Harness;
let t: Tenant;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Listen');
});
afterAll(async () => {
  await h?.close();
  expect(refusedDials).toEqual([]);
});

const nowSeconds = () => Math.floor(h.clock.now().getTime() / 1000);
/** Stripe's published scheme, written independently of src/: hex HMAC-SHA256 over `${t}.${body}`. */
const independentV1 = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

async function listenOn(handler: http.RequestListener): Promise<{ server: http.Server; base: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe(`verifyWebhookSignature (${ENGINE})`, () => {
  const secret = newSigningSecret();
  const body = JSON.stringify({ id: 'evt_3f1c2d4e-8a9b-4c0d-9e1f-2a3b4c5d6e7f', type: 'deal.created', created_at: '2026-11-23T12:00:00.000Z', location_id: 'loc_1', data: { note: 'café ☕' } });

  it('accepts what the delivery code signs, and agrees with an independent HMAC', () => {
    const t0 = nowSeconds();
    const header = signatureHeader(secret, body, t0);
    expect(header).toBe(`t=${t0},v1=${independentV1(secret, t0, body)}`);
    const at = { now: h.clock.now() };
    expect(verifyWebhookSignature(body, header, secret, at)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret, at)).toBe(true);
    expect(verifyWebhookSignature(new Uint8Array(Buffer.from(body)), header, [secret], at)).toBe(true);
    expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now().getTime() })).toBe(true);
    // A header made by the independent implementation verifies too (and with spaces after commas).
    expect(verifyWebhookSignature(body, `t=${t0}, v1=${independentV1(secret, t0, body)}`, secret, at)).toBe(true);
  });

  it('refuses a changed byte, a wrong secret, and a timestamp beyond the tolerance either way', () => {
    const t0 = nowSeconds();
    const header = signatureHeader(secret, body, t0);
    const bytes = Buffer.from(body);
    for (const i of [0, 10, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[i] ^= 0x01;
      expect(verifyWebhookSignature(changed, header, secret, { now: h.clock.now() }), `byte ${i}`).toBe(false);
    }
    expect(verifyWebhookSignature(body.replace('café', 'cafe'), header, secret, { now: h.clock.now() })).toBe(false);
    expect(verifyWebhookSignature(`${body} `, header, secret, { now: h.clock.now() })).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 1), header, secret, { now: h.clock.now() })).toBe(false);
    expect(verifyWebhookSignature(body, header, newSigningSecret(), { now: h.clock.now() })).toBe(false);
    expect(checkWebhookSignature(body, header, newSigningSecret(), { now: h.clock.now() })).toBe('no_matching_signature');

    // The receiver's clock moves on the harness clock: 300 s either way is in, 301 s is out.
    const start = h.clock.now();
    try {
      expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
      h.clock.advance(300_000);
      expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now() })).toBe(true);
      h.clock.advance(1000);
      expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now() })).toBe(false); // a replay
      expect(checkWebhookSignature(body, header, secret, { now: h.clock.now() })).toBe('timestamp_out_of_tolerance');
      expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now(), toleranceSeconds: 600 })).toBe(true);
      h.clock.set(new Date(start.getTime() - 300_000));
      expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now() })).toBe(true);
      h.clock.set(new Date(start.getTime() - 301_000));
      expect(verifyWebhookSignature(body, header, secret, { now: h.clock.now() })).toBe(false); // from the future
    } finally {
      h.clock.set(start);
    }
  });

  it('accepts when any of several v1= values matches (secret rotation), with one or several secrets', () => {
    const t0 = nowSeconds();
    const previous = newSigningSecret();
    const next = newSigningSecret();
    const rotating = signatureHeader([next, previous], body, t0);
    expect(rotating.split(',')).toHaveLength(3);
    const at = { now: h.clock.now() };
    expect(verifyWebhookSignature(body, rotating, previous, at)).toBe(true);
    expect(verifyWebhookSignature(body, rotating, next, at)).toBe(true);
    expect(verifyWebhookSignature(body, rotating, newSigningSecret(), at)).toBe(false);
    // The receiver rotating: it holds both secrets while the sender signs with either.
    expect(verifyWebhookSignature(body, signatureHeader(next, body, t0), [previous, next], at)).toBe(true);
    expect(verifyWebhookSignature(body, signatureHeader(previous, body, t0), [previous, next], at)).toBe(true);
    // A bogus first v1 does not hide a good second one; an unknown scheme is ignored.
    expect(verifyWebhookSignature(body, `t=${t0},v1=${'0'.repeat(64)},v0=abc,v1=${independentV1(next, t0, body)}`, next, at)).toBe(true);
  });

  it('refuses missing or garbled headers and any other garbage, without throwing', () => {
    const t0 = nowSeconds();
    const v1 = independentV1(secret, t0, body);
    const at = { now: h.clock.now() };
    const headers: unknown[] = [
      undefined, null, '', '   ', 42, ['t=1'], {}, `v1=${v1}`, `t=${t0}`, `t=${t0},v1=`, `t=${t0},v1=${v1.slice(1)}`, `t=${t0},v1=${v1}00`,
      `t=${t0},v1=${'z'.repeat(64)}`, `t=abc,v1=${v1}`, `t=${t0}.5,v1=${v1}`, `t=-${t0},v1=${v1}`, `t=${t0},t=${t0 + 1},v1=${v1}`, `t=${t0 + 1},t=${t0},v1=${v1}`, `t=,v1=${v1}`,
      `t=${t0},v2=${v1}`, `T=${t0},V1=${v1}`, `t=${t0};v1=${v1}`, `${'x'.repeat(100_000)},t=${t0},v1=${v1}`, `t=${'9'.repeat(400)},v1=${v1}`, '===,,,=',
    ];
    for (const header of headers) {
      expect(() => verifyWebhookSignature(body, header as string, secret, at)).not.toThrow();
      expect(verifyWebhookSignature(body, header as string, secret, at), String(header).slice(0, 60)).toBe(false);
    }
    const good = `t=${t0},v1=${v1}`;
    const bad: [unknown, unknown, unknown][] = [
      [JSON.parse(body), good, secret], [undefined, good, secret], [null, good, secret], [123, good, secret],
      [body, good, ''], [body, good, []], [body, good, [undefined, null, 7]], [body, good, undefined],
    ];
    for (const [b, hd, s] of bad) expect(verifyWebhookSignature(b as string, hd as string, s as string, at)).toBe(false);
    for (const opts of [{ now: Number.NaN }, { now: new Date('garbage') }, { now: 'yesterday' }, { toleranceSeconds: Number.NaN }, { toleranceSeconds: -1 }, null]) {
      expect(verifyWebhookSignature(body, good, secret, opts as never)).toBe(false);
    }
    expect(verifyWebhookSignature(body, good, secret, at)).toBe(true);
  });

  it('constructEvent parses a verified body and throws a clear WebhookSignatureError otherwise', () => {
    const t0 = nowSeconds();
    const header = signatureHeader(secret, body, t0);
    expect(constructEvent(Buffer.from(body), header, secret, { now: h.clock.now() })).toEqual(JSON.parse(body));
    const fail = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as WebhookSignatureError;
      }
      throw new Error('did not throw');
    };
    const missing = fail(() => constructEvent(body, undefined, secret, { now: h.clock.now() }));
    expect(missing).toBeInstanceOf(WebhookSignatureError);
    expect(missing.reason).toBe('no_header');
    expect(missing.message).toMatch(/X-SVC-Signature header is missing/);
    expect(fail(() => constructEvent(body, header, 'whsec_wrong', { now: h.clock.now() })).message).toMatch(/No signature matches/);
    expect(fail(() => constructEvent(body, header, secret, { now: h.clock.now().getTime() + 301_000 })).reason).toBe('timestamp_out_of_tolerance');
    expect(fail(() => constructEvent(body, 'garbage', secret)).reason).toBe('malformed_header');
    expect(fail(() => constructEvent(JSON.parse(body), header, secret)).reason).toBe('no_body');
    const notJson = 'not json';
    expect(fail(() => constructEvent(notJson, signatureHeader(secret, notJson, t0), secret, { now: h.clock.now() })).reason).toBe('invalid_json');
  });
});

describe(`docs example: webhook-receiver.ts (${ENGINE})`, () => {
  const secret = newSigningSecret();
  const handled: SvcEvent[] = [];
  let receiver: Awaited<ReturnType<typeof listenOn>>;
  beforeAll(async () => {
    receiver = await listenOn(createReceiver(secret, async (event) => void handled.push(event)));
  });
  afterAll(() => receiver?.close());

  // The example checks against its own (system) clock, as a partner's server does.
  const post = (body: string, headers: Record<string, string>) => fetch(`${receiver.base}/hooks`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } });
  const event = (id: string) => JSON.stringify({ id, type: 'person.created', created_at: '2026-11-23T12:00:00.000Z', location_id: 'loc_1', data: { person_id: 'per_1' } });
  const signed = (body: string, key = secret, t = Math.floor(Date.now() / 1000)) => ({ 'X-SVC-Signature': signatureHeader(key, body, t) });

  it('acknowledges a signed event (2xx), then processes it', async () => {
    const body = event('evt_00000000-0000-4000-8000-000000000001');
    const res = await post(body, signed(body));
    expect(res.status).toBe(204);
    await vi.waitFor(() => expect(handled.map((e) => e.id)).toEqual(['evt_00000000-0000-4000-8000-000000000001']));
    expect(handled[0]).toEqual(JSON.parse(body));
  });

  it('refuses a bad signature with 400 and processes nothing', async () => {
    const before = handled.length;
    const body = event('evt_00000000-0000-4000-8000-000000000002');
    const cases: [string, Record<string, string>][] = [
      [body, signed(body, newSigningSecret())], // wrong secret
      [body.replace('per_1', 'per_2'), signed(body)], // changed body
      [body, signed(body, secret, Math.floor(Date.now() / 1000) - 3600)], // replayed an hour later
      [body, {}], // no header
      [body, { 'X-SVC-Signature': 'nonsense' }],
    ];
    for (const [b, headers] of cases) expect((await post(b, headers)).status).toBe(400);
    // A body that is not JSON at all never reaches the parser either.
    const text = await fetch(`${receiver.base}/hooks`, { method: 'POST', body: body, headers: { 'Content-Type': 'text/plain', ...signed(body) } });
    expect(text.status).toBe(400);
    await new Promise((resolve) => setImmediate(resolve));
    expect(handled.length).toBe(before);
  });

  it('processes a duplicate event id once, acknowledging both deliveries', async () => {
    const before = handled.length;
    const body = event('evt_00000000-0000-4000-8000-000000000003');
    const first = await post(body, signed(body));
    const retry = await post(body, signed(body));
    expect([first.status, retry.status]).toEqual([204, 204]);
    await vi.waitFor(() => expect(handled.length).toBe(before + 1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(handled.filter((e) => e.id === 'evt_00000000-0000-4000-8000-000000000003')).toHaveLength(1);
  });
});

/** Drives the listener's polls: each `poll()` lets it run one cycle and waits until it sleeps again. */
function pacer() {
  let resume: (() => void) | null = null;
  let parked: (() => void)[] = [];
  const untilAsleep = () => (resume ? Promise.resolve() : new Promise<void>((r) => parked.push(r)));
  return {
    sleep: (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        resume = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
        const waiting = parked;
        parked = [];
        for (const p of waiting) p();
      }),
    untilAsleep,
    async poll() {
      await untilAsleep();
      const wake = resume!;
      resume = null;
      wake();
      await untilAsleep();
    },
  };
}

describe(`cli listen (${ENGINE})`, () => {
  let api: Awaited<ReturnType<typeof listenOn>>;
  let hooks: Awaited<ReturnType<typeof listenOn>>;
  let received: Received[] = [];
  let respond: Respond = (_req, res) => res.writeHead(204).end();

  beforeAll(async () => {
    // The harness app served on loopback, so the listener talks real HTTP to it.
    api = await listenOn(createApp(h.deps, { ...realHandlers, listEvents, getEvent } as Handlers));
    hooks = await listenOn((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        respond(req, res);
      });
    });
  });
  afterAll(async () => {
    await hooks?.close();
    await api?.close();
  });
  beforeEach(() => {
    received = [];
    respond = (_req, res) => res.writeHead(204).end();
  });

  interface Running {
    stdout: string[];
    stderr: string[];
    secret: string;
    pace: ReturnType<typeof pacer>;
    done: Promise<number>;
    stop(): Promise<number>;
  }
  const running: Running[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
  });

  async function startListen(extra: string[] = [], env: Record<string, string> = { SVC_API_KEY: t.keys.manager }): Promise<Running> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const pace = pacer();
    const controller = new AbortController();
    let secret = '';
    const io: ListenIO = {
      stdout: { write: (s: string) => stdout.push(s) },
      stderr: { write: (s: string) => stderr.push(s) },
      env,
      clock: h.clock,
      sleep: pace.sleep,
      signal: controller.signal,
      onReady: (info) => (secret = info.secret),
    };
    const done = runListen(['--forward-to', `${hooks.base}/hooks`, '--api-base', api.base, ...extra], io);
    await Promise.race([pace.untilAsleep(), done]);
    const r: Running = { stdout, stderr, get secret() { return secret; }, pace, done, stop: async () => (controller.abort(), done) };
    running.push(r);
    return r;
  }

  async function createBusiness(name: string): Promise<string> {
    h.clock.advance(1000);
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: name });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  async function createPerson(businessId: string): Promise<string> {
    h.clock.advance(1000);
    const res = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Ana', last_name: 'Diaz', business_id: businessId });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  async function createDeal(businessId: string): Promise<string> {
    h.clock.advance(1000);
    const res = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: businessId });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  /** The outbox rows of this tenant created after `after`, in creation order. */
  const eventsAfter = (after: Date) => h.knex('events').where({ location_id: t.locationId }).where('created_at', '>', after).orderBy([{ column: 'created_at' }, { column: 'id' }]);

  it('forwards each event created after it started, once, oldest first, signed with the printed secret and real-delivery headers', async () => {
    await createBusiness('Before the listener'); // exists before: never forwarded
    const startedAt = h.clock.now();
    const l = await startListen();
    expect(l.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(l.stderr.join('').split(l.secret)).toHaveLength(2); // printed once
    await l.pace.poll();
    expect(received).toEqual([]);

    const biz = await createBusiness('After the listener');
    await createPerson(biz);
    await createDeal(biz);
    await l.pace.poll();

    const rows = await eventsAfter(startedAt);
    expect(rows.map((r) => r.type)).toEqual(['business.created', 'person.created', 'deal.created']);
    expect(received.map((r) => JSON.parse(r.body.toString()).id)).toEqual(rows.map((r) => r.id));
    received.forEach((r, i) => {
      // The exact bytes a webhook delivery carries.
      expect(r.body.toString('utf8')).toBe(JSON.stringify(toEnvelope(rows[i])));
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hooks');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Svc-Webhooks/1.0');
      expect(r.headers['x-svc-event']).toBe(rows[i].type);
      expect(r.headers['x-svc-delivery']).toMatch(/^dlv_[0-9A-Z]{26}$/);
      expect(verifyWebhookSignature(r.body, r.headers['x-svc-signature'] as string, l.secret, { now: h.clock.now() })).toBe(true);
      expect(verifyWebhookSignature(r.body, r.headers['x-svc-signature'] as string, newSigningSecret(), { now: h.clock.now() })).toBe(false);
    });
    expect(new Set(received.map((r) => r.headers['x-svc-delivery'])).size).toBe(3);

    // One line per event: time, type, id, the receiver's status.
    const lines = l.stdout.join('').trim().split('\n');
    expect(lines).toHaveLength(3);
    lines.forEach((line, i) => expect(line).toBe(`${h.clock.now().toISOString()}  ${rows[i].type}  ${rows[i].id}  -> 204`));

    // Later polls re-read the overlap but forward nothing twice.
    await l.pace.poll();
    await l.pace.poll();
    expect(received).toHaveLength(3);

    // An event committed late (created_at behind the newest one forwarded) is still forwarded.
    const late = { ...rows[0], id: 'evt_0a0a0a0a-0000-4000-8000-00000000000a', created_at: new Date(h.clock.now().getTime() - 30_000), dispatched_at: null };
    await h.knex('events').insert({ ...late, data: JSON.stringify(rows[0].data) });
    await createBusiness('After the late one');
    await l.pace.poll();
    expect(received.slice(3).map((r) => JSON.parse(r.body.toString()).id)).toEqual([late.id, (await eventsAfter(startedAt)).at(-1).id]);

    expect(await l.stop()).toBe(0);
    expect(l.stderr.join('')).toMatch(/Stopped after forwarding 5 events/);
    const everything = l.stdout.join('') + l.stderr.join('');
    for (const key of Object.values(t.keys)) expect(everything).not.toContain(key);
  });

  it("prints the receiver's status or the error, and carries on", async () => {
    const l = await startListen();
    respond = (_req, res) => res.writeHead(500).end('boom');
    const first = await createBusiness('Failing receiver');
    await l.pace.poll();
    respond = (req, res) => req.socket.destroy();
    await createPerson(first);
    await l.pace.poll();
    respond = (_req, res) => res.writeHead(302, { Location: 'http://127.0.0.1:1/' }).end();
    await createDeal(first);
    await l.pace.poll();
    const lines = l.stdout.join('').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/  business\.created  evt_\S+  -> 500$/);
    expect(lines[1]).toMatch(/  person\.created  evt_\S+  -> error connection_error: /);
    expect(lines[2]).toMatch(/  deal\.created  evt_\S+  -> 302$/); // redirects are not followed
    expect(received).toHaveLength(3);
  });

  it('--events forwards only the listed types', async () => {
    const l = await startListen(['--events', 'person.created,deal.created']);
    const biz = await createBusiness('Filtered');
    const person = await createPerson(biz);
    await createBusiness('Filtered again');
    await l.pace.poll();
    expect(received.map((r) => r.headers['x-svc-event'])).toEqual(['person.created']);
    expect(JSON.parse(received[0].body.toString()).data.person_id).toBe(person);
    expect(l.stderr.join('')).toMatch(/Forwarding person\.created, deal\.created to/);
    expect(l.stdout.join('').trim().split('\n')).toHaveLength(1);
  });

  it('refuses a --forward-to off this machine, bad arguments, a missing or refused key, an unknown type', async () => {
    const run = async (args: string[], env: Record<string, string> = { SVC_API_KEY: t.keys.manager }) => {
      const stderr: string[] = [];
      const code = await runListen(args, { stdout: { write: () => true }, stderr: { write: (s: string) => stderr.push(s) }, env, clock: h.clock, sleep: async () => {} });
      return { code, stderr: stderr.join('') };
    };
    const fwd = (url: string) => ['--forward-to', url, '--api-base', api.base];
    for (const url of ['https://example.com/hooks', 'http://10.0.0.5/hooks', 'http://[::1]:8080/hooks', 'http://localhost.example.com/hooks', 'ftp://localhost/hooks', 'not a url', 'http://user:pw@localhost/hooks']) {
      const r = await run(fwd(url));
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toMatch(/--forward-to/);
    }
    expect((await run(['--api-base', api.base])).stderr).toMatch(/--forward-to is required/);
    // The key only travels over TLS unless the API is on this machine.
    const clear = await run(['--forward-to', `${hooks.base}/hooks`, '--api-base', 'http://api.partner.example']);
    expect(clear.code).toBe(2);
    expect(clear.stderr).toMatch(/--api-base must use https:\/\/ for api\.partner\.example/);
    expect((await run([...fwd(`${hooks.base}/hooks`), '--bogus'])).code).toBe(2);
    expect((await run([...fwd(`${hooks.base}/hooks`), '--events', ' , '])).code).toBe(2);
    expect((await run(fwd(`${hooks.base}/hooks`), {})).stderr).toMatch(/Set SVC_API_KEY/);
    const refused = await run(fwd(`${hooks.base}/hooks`), { SVC_API_KEY: 'svc_live_00000000000000000000000000000000' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/401/);
    expect(refused.stderr).not.toContain('svc_live_0000');
    const userRole = await run(fwd(`${hooks.base}/hooks`), { SVC_API_KEY: t.keys.user });
    expect(userRole.code).toBe(1);
    expect(userRole.stderr).toMatch(/role_not_allowed/);
    const unknown = await run([...fwd(`${hooks.base}/hooks`), '--events', 'deal.created,deal.exploded']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/400 invalid_request/);
    const closed = await listenOn(() => {});
    await closed.close();
    const down = await run(['--forward-to', `${hooks.base}/hooks`, '--api-base', closed.base]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`Cannot reach the API at ${closed.base} (--api-base): `);
    expect(down.stderr).toMatch(/ECONNREFUSED/);
    // Without --api-base: the message names the address tried and where it came from.
    const viaEnv = await run(['--forward-to', `${hooks.base}/hooks`], { SVC_API_KEY: t.keys.manager, SVC_API_BASE: closed.base });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toContain(`Cannot reach the API at ${closed.base} (SVC_API_BASE): `);
    expect(received).toEqual([]);
  });

  it('stops cleanly when aborted, between polls', async () => {
    const l = await startListen();
    expect(await l.stop()).toBe(0);
    expect(l.stderr.join('')).toMatch(/Stopped after forwarding 0 events/);
    expect(l.stdout).toEqual([]);
  });
});
