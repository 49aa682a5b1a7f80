import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setTestDeliveryTimeout } from '../../src/features/webhooks/webhooks.service';
import { guardedRequest } from '../../src/outbound/http';
import { bareHost, nonPublicReason, PUBLIC_ONLY, setHostResolver, TEST_LOCATION, type ResolvedAddress } from '../../src/outbound/policy';
import { ENGINE, refusedDials, startHarness, type Harness, type Tenant } from '../support/harness';
import type { Received, Respond } from '../support/receiver';
import { TLS_CERT, TLS_KEY } from '../support/tls';

// The one outbound address policy (src/outbound/policy.ts) and the guarded client (src/outbound/http.ts),
// through the webhook endpoints and directly. Real receivers on loopback (plain HTTP, and HTTPS with a
// self-signed certificate) count every TCP connection they accept, so "nothing was dialled" is
// observed, not assumed. DNS is an injected table (setHostResolver) that can be re-pointed between
// check and send. NODE_ENV is `test` throughout: the policy never depends on it.


/** What must never reach a caller: library, socket or OpenSSL wording. */
const LIBRARY_TEXT = /ECONN|EHOST|ENETUNREACH|ENOTFOUND|EAI_|getaddrinfo|SSL|certificate|self.signed|EPROTO|socket hang up|wrong version|aborted|AggregateError|Error:/i;


let h: Harness;
let live: Tenant; // a real (non-test) location
let lab: Tenant; // a test location
let plain: http.Server;
let secure: https.Server;
let plainPort: number;
let securePort: number;
let closedPort: number;
let plainConnections = 0;
let secureConnections = 0;
let hits: Received[] = [];
let respond: Respond;
let restoreResolver: () => void;

type Answer = string[] | (() => string[] | Promise<string[]>);
const DNS: Record<string, Answer> = {
  'hooks.partner.example': ['93.184.216.34'],
  'dual.partner.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'private.example': ['10.0.0.7'],
  'rfc1918.example': ['172.16.5.4', '192.168.1.5'],
  'loop.example': ['127.0.0.1'],
  'loop6.example': ['::1'],
  'mixed.example': ['93.184.216.34', '10.0.0.7'],
  'mixed6.example': ['2606:2800:220:1:248:1893:25c8:1946', 'fd00::7'],
  'metadata.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.example': ['2002:7f00:1::1'],
  'ula.example': ['fd12:3456:789a::1'],
  'cgnat.example': ['100.64.0.1'],
  'zero.example': ['0.0.0.0'],
  'multicast.example': ['224.0.0.251'],
  'docs.example': ['192.0.2.10'],
  'garbage.example': ['not-an-address'],
  // Names a resolver might be poisoned with: the policy never asks DNS about localhost.
  localhost: ['10.9.9.9'],
};
const dnsCalls: string[] = [];
const fakeResolver = async (host: string): Promise<ResolvedAddress[]> => {
  dnsCalls.push(host);
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  const list = typeof answer === 'function' ? await answer() : answer;
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : address.includes('.') ? 4 : 0 }));
};

const listen = (server: http.Server | https.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  restoreResolver = setHostResolver(fakeResolver);
  h = await startHarness();
  live = await h.tenant('Live Lending Co', { isTest: false });
  lab = await h.tenant('Sandbox Lending Co', { isTest: true });
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      respond(req, res);
    });
  };
  plain = http.createServer(handler);
  plain.on('connection', () => plainConnections++);
  secure = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, handler);
  secure.on('connection', () => secureConnections++);
  plainPort = await listen(plain);
  securePort = await listen(secure);
  const closed = http.createServer();
  closedPort = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  // The only sockets ever attempted off this machine were the two deliberate unrouted ones, and
  // the tests' dial guard refused them.
  expect(refusedDials.filter((a) => !['3ffe:ffff::1', '3ffe:ffff::2'].includes(a))).toEqual([]);
  restoreResolver?.();
  for (const s of [plain, secure]) {
    s?.closeAllConnections();
    await new Promise((resolve) => (s ? s.close(resolve) : resolve(undefined)));
  }
  await h?.close();
});
beforeEach(() => {
  hits = [];
  respond = (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
});

const connections = () => plainConnections + secureConnections;

async function create(tenant: Tenant, url: string) {
  return h.api.post('/v1/webhooks').set(tenant.auth()).send({ url });
}
async function created(tenant: Tenant, url: string): Promise<string> {
  const res = await create(tenant, url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.id;
}
async function sendTest(tenant: Tenant, id: string) {
  const res = await h.api.post(`/v1/webhooks/${id}/test`).set(tenant.auth());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>;
}
/** The recorded delivery (the clock stands still here, so find it by id rather than by order). */
async function recorded(tenant: Tenant, id: string, deliveryId: string) {
  const res = await h.api.get(`/v1/webhooks/${id}/deliveries?limit=100`).set(tenant.auth());
  expect(res.status).toBe(200);
  return (res.body.data as Record<string, any>[]).find((d) => d.id === deliveryId);
}
function expectRefused(res: { status: number; body: any }, url: string) {
  expect(res.status, `${url} should be refused: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.error, url).toMatchObject({ type: 'validation_error', code: 'invalid_webhook_url', param: 'url' });
  expect(res.body.error.message, url).toMatch(/^url /);
}
/** A failed attempt: dead, the category, a fixed sentence free of library text, recorded with its code. */
async function expectFailure(tenant: Tenant, id: string, result: Record<string, any>, code: string, error: string | RegExp) {
  expect(result).toMatchObject({ status: 'dead', error_code: code });
  if (typeof error === 'string') expect(result.error).toBe(error);
  else expect(result.error).toMatch(error);
  expect(result.error).not.toMatch(LIBRARY_TEXT);
  expect(await recorded(tenant, id, result.delivery_id)).toMatchObject({ status: 'dead', last_error: result.error, last_error_code: code });
}

/** Every range and spelling that no location may call (ports of live receivers included). */
function blockedUrls(): string[] {
  return [
    // loopback, any port, any spelling
    `http://127.0.0.1:${plainPort}/hook`, `https://127.0.0.1:${securePort}/hook`, 'https://127.0.0.1/', 'https://127.0.0.2/', 'https://127.255.255.254:8443/',
    `http://localhost:${plainPort}/`, `https://localhost:${securePort}/`, 'https://LOCALHOST/', 'https://localhost./', 'https://localhost../',
    'https://anything.localhost/', 'https://Deep.Sub.LocalHost./',
    `https://2130706433:${securePort}/`, 'http://2130706433/', 'https://0x7f.1/', 'https://0x7f000001/', 'https://0177.0.0.1/', 'https://017700000001/',
    'https://127.1/', 'https://127.0.0.1./', 'https://0x7f.0.0.1/', 'https://127.000.000.001/',
    'https://[::1]/', `http://[::1]:${plainPort}/`, 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]/', 'https://[0:0:0:0:0:0:0:1]/', 'https://[0000::1]:8443/',
    // IPv6 forms embedding a private IPv4 (mapped, NAT64, 6to4), and IPv4-compatible
    'https://[::ffff:10.0.0.1]/', 'https://[::ffff:a9fe:a9fe]/', 'https://[64:ff9b::127.0.0.1]/', 'https://[64:ff9b::a00:1]/', 'https://[64:ff9b::c0a8:101]/',
    'https://[64:ff9b:1::a00:1]/', 'https://[2002:7f00:1::1]/', 'https://[2002:a00:1::]/', 'https://[2002:c0a8:101::1]/', 'https://[::127.0.0.1]/',
    // private
    'https://10.0.0.1/', 'https://10.255.255.255:8443/', 'https://172.16.0.1/', 'https://172.31.255.255/', 'https://192.168.0.1/', 'https://192.168.255.255/',
    // link-local
    'https://169.254.169.254/latest/meta-data/', 'http://169.254.169.254/', 'https://[fe80::1]/', 'https://[febf::1]/',
    // carrier-grade NAT
    'https://100.64.0.1/', 'https://100.127.255.254/',
    // unspecified
    'https://0.0.0.0/', 'https://0/', 'https://0.1.2.3/', 'https://[::]/',
    // unique-local and site-local
    'https://[fc00::1]/', 'https://[fd12:3456:789a::1]/', 'https://[fec0::1]/',
    // multicast
    'https://224.0.0.1/', 'https://239.255.255.250/', 'https://[ff02::1]/', 'https://[ff05::fb]/',
    // reserved, documentation, benchmarking, broadcast, discard
    'https://240.0.0.1/', 'https://192.0.0.1/', 'https://192.0.2.1/', 'https://198.51.100.7/', 'https://203.0.113.9/', 'https://198.18.0.1/', 'https://198.19.255.255/',
    'https://255.255.255.255/', 'https://[2001:db8::1]/', 'https://[2001:2::1]/', 'https://[100::1]/', 'https://[3fff::1]/',
    // host names resolving to any non-public address (mixed public + private included)
    'https://private.example/', 'https://rfc1918.example/', 'https://loop.example/', 'https://loop6.example/', 'https://mixed.example/', 'https://mixed6.example/',
    'https://metadata.example/', 'https://mapped.example/', 'https://nat64.example/', 'https://sixtofour.example/', 'https://ula.example/', 'https://cgnat.example/',
    'https://zero.example/', 'https://multicast.example/', 'https://docs.example/', 'https://garbage.example/',
    // unresolvable
    'https://nowhere.example/',
  ];
}
/** Refused for a non-test location even though the host is public. */
const NOT_HTTPS = ['http://hooks.partner.example/hook', 'ftp://hooks.partner.example/hook', 'ws://hooks.partner.example/hook'];
/** Where the development exception applies: exactly the hosts localhost and 127.0.0.1. */
const isDevHost = (url: string) => ['localhost', '127.0.0.1'].includes(bareHost(new URL(url)));

describe(`address classification (${ENGINE})`, () => {
  it('public addresses pass; every non-public range has a reason', () => {
    for (const ip of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e',
      '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '3ffe:ffff::1']) {
      expect(nonPublicReason(ip), ip).toBeNull();
    }
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'], ['127.255.255.255', 'loopback'], ['::1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['64:ff9b::7f00:1', 'loopback'], ['2002:7f00:1::', 'loopback'],
      ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['::ffff:192.168.1.1', 'private'], ['64:ff9b::a00:1', 'private'],
      ['2002:c0a8:101::1', 'private'], ['169.254.1.1', 'link-local'], ['fe80::1', 'link-local'], ['100.64.0.1', 'carrier-grade NAT'], ['100.127.255.254', 'carrier-grade NAT'],
      ['0.0.0.0', 'unspecified'], ['0.255.255.255', 'unspecified'], ['::', 'unspecified'], ['fc00::1', 'unique-local'], ['fdff::1', 'unique-local'], ['fec0::1', 'site-local'],
      ['224.0.0.1', 'multicast'], ['239.255.255.255', 'multicast'], ['ff02::1', 'multicast'], ['255.255.255.255', 'broadcast'], ['240.0.0.1', 'reserved'], ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'documentation'], ['198.51.100.1', 'documentation'], ['203.0.113.1', 'documentation'], ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'],
      ['198.18.0.1', 'benchmarking'], ['2001:2::1', 'benchmarking'], ['100::1', 'discard-only'], ['2001::1', 'Teredo'], ['64:ff9b:1::1', 'local-use NAT64'],
      ['::7f00:1', 'IPv4-compatible (deprecated)'], ['4000::1', 'reserved'], ['localhost', 'not an IP address'], ['', 'not an IP address'],
    ];
    for (const [ip, why] of cases) expect(nonPublicReason(ip), ip).toBe(why);
  });
});

describe(`a non-test location (${ENGINE})`, () => {
  it('accepts https to hosts resolving only to public addresses', async () => {
    await created(live, 'https://hooks.partner.example/svc');
    await created(live, 'https://dual.partner.example/svc');
    await created(live, 'https://93.184.216.34:8443/');
    await created(live, 'https://[2606:4700:4700::1111]/');
  });

  it('refuses every blocked range and spelling, on any port, at create and at update (400 invalid_webhook_url); nothing is dialled', async () => {
    const id = await created(live, 'https://hooks.partner.example/keep');
    const before = connections();
    const rows = async () => Number((await h.knex('webhook_subscriptions').where({ location_id: live.locationId }).count<{ c: number }[]>('* as c'))[0].c);
    const count = await rows();
    for (const url of [...blockedUrls(), ...NOT_HTTPS]) {
      expectRefused(await create(live, url), url);
      expectRefused(await h.api.patch(`/v1/webhooks/${id}`).set(live.auth()).send({ url }), url);
    }
    expect(await rows()).toBe(count);
    expect((await h.api.get(`/v1/webhooks/${id}`).set(live.auth())).body.data.url).toBe('https://hooks.partner.example/keep');
    expect(connections()).toBe(before);
  });

  it('says why in a sentence that never names a resolved address', async () => {
    const cases: [string, string][] = [
      [`http://localhost:${plainPort}/`, 'url host localhost is not a public address (loopback)'],
      ['https://2130706433/', 'url host 127.0.0.1 is not a public address (loopback)'],
      ['https://[::ffff:7f00:1]/', 'url host ::ffff:7f00:1 is not a public address (loopback)'],
      ['https://[64:ff9b::a00:1]/', 'url host 64:ff9b::a00:1 is not a public address (private)'],
      ['https://100.64.0.1/', 'url host 100.64.0.1 is not a public address (carrier-grade NAT)'],
      ['https://private.example/', 'url host private.example resolves to a non-public address'],
      ['https://mixed.example/', 'url host mixed.example resolves to a non-public address'],
      ['https://nowhere.example/', 'url host nowhere.example could not be resolved'],
      ['http://hooks.partner.example/', 'url must use HTTPS'],
    ];
    for (const [url, message] of cases) {
      const res = await create(live, url);
      expectRefused(res, url);
      expect(res.body.error.message).toBe(message);
      expect(res.body.error.message).not.toMatch(/10\.0\.0\.7|ENOTFOUND|getaddrinfo/);
    }
  });

  it('blocks at send time a host re-pointed at any non-public address after it was accepted (blocked_address; nothing dialled)', async () => {
    DNS['rebind.example'] = ['93.184.216.34'];
    const id = await created(live, `https://rebind.example:${securePort}/hook`);
    const restore = setTestDeliveryTimeout(1000); // a policy that let one through would fail fast, not in 10 s
    try {
      for (const answer of [
        ['127.0.0.1'], ['::1'], ['10.0.0.7'], ['172.16.5.4'], ['192.168.1.5'], ['169.254.169.254'], ['100.64.0.1'], ['0.0.0.0'], ['fd00::1'], ['fe80::1'],
        ['::ffff:127.0.0.1'], ['64:ff9b::7f00:1'], ['2002:7f00:1::1'], ['224.0.0.1'], ['192.0.2.1'], ['198.18.0.1'], ['255.255.255.255'],
        ['93.184.216.34', '127.0.0.1'], ['2606:2800:220:1:248:1893:25c8:1946', '::1'],
      ]) {
        DNS['rebind.example'] = answer;
        const before = connections();
        const result = await sendTest(live, id);
        expect(result, answer.join(',')).toMatchObject({ status: 'dead', response_status: null, response_body: null, error_code: 'blocked_address' });
        expect(result.error).toBe('Blocked: rebind.example is not a public HTTPS endpoint');
        await expectFailure(live, id, result, 'blocked_address', 'Blocked: rebind.example is not a public HTTPS endpoint');
        expect(connections(), answer.join(',')).toBe(before);
      }
    } finally {
      restore();
      delete DNS['rebind.example'];
    }
  });

  it('resolves once per attempt and dials only the vetted answer (no rebinding window between check and connect)', async () => {
    let calls = 0;
    DNS['flip.example'] = () => (calls++ === 0 ? ['3ffe:ffff::1'] : ['127.0.0.1']); // public (unrouted), then loopback
    const id = await created(live, `https://flip.example:${securePort}/hook`);
    calls = 0;
    const before = connections();
    const restore = setTestDeliveryTimeout(300);
    try {
      const result = await sendTest(live, id);
      expect(result.status).toBe('dead');
      // It went for the public answer only (refused by the tests' dial guard: nothing leaves this machine).
      expect(result.error_code).toBe('connection_refused');
      expect(refusedDials.at(-1)).toBe('3ffe:ffff::1');
      expect(result.error).not.toMatch(LIBRARY_TEXT);
    } finally {
      restore();
    }
    expect(calls).toBe(1);
    expect(connections()).toBe(before);
    delete DNS['flip.example'];
  });

  it('subscriptions stored before this rule (loopback URLs) are blocked at send time; NODE_ENV grants nothing', async () => {
    const id = await created(live, 'https://hooks.partner.example/legacy');
    for (const url of [`http://127.0.0.1:${plainPort}/old`, `http://localhost:${plainPort}/old`, `https://localhost:${securePort}/old`, `http://2130706433:${plainPort}/old`,
      `http://[::1]:${plainPort}/old`, `http://LOCALHOST.:${plainPort}/old`, `https://127.0.0.1:${securePort}/old`]) {
      await h.knex('webhook_subscriptions').where({ id }).update({ url });
      const before = connections();
      const result = await sendTest(live, id);
      expect(result, url).toMatchObject({ status: 'dead', response_status: null, response_body: null, error_code: 'blocked_address' });
      expect(result.error).toMatch(/^Blocked: (localhost|127\.0\.0\.1|::1) is not a public HTTPS endpoint$/);
      expect(connections(), url).toBe(before);
    }
    expect(hits).toHaveLength(0);
    expect(h.deps.config.env).not.toBe('production');
  });
});

describe(`a test location (${ENGINE})`, () => {
  it('may use http(s)://localhost and http(s)://127.0.0.1 on any port: really delivered to a loopback receiver, localhost never asked of DNS', async () => {
    dnsCalls.length = 0;
    const urls = [
      `http://localhost:${plainPort}/a`, `http://127.0.0.1:${plainPort}/b`, `http://LOCALHOST:${plainPort}/c`, `http://localhost.:${plainPort}/d`,
      `http://2130706433:${plainPort}/e`, `http://127.1:${plainPort}/f`,
    ];
    for (const url of urls) {
      const id = await created(lab, url);
      const result = await sendTest(lab, id);
      expect(result, url).toMatchObject({ status: 'succeeded', response_status: 200, response_body: 'ok', error: null, error_code: null });
    }
    expect(hits.map((x) => x.path)).toEqual(['/a', '/b', '/c', '/d', '/e', '/f']);
    expect(hits.every((x) => x.method === 'POST' && x.headers['x-svc-event'] === 'webhook.test')).toBe(true);
    expect(dnsCalls).toEqual([]); // DNS says localhost is 10.9.9.9 here: never consulted
    await created(lab, `https://localhost:${securePort}/g`);
    await created(lab, `https://127.0.0.1:${securePort}/h`);
  });

  it('refuses every other non-public address and spelling (no [::1], no 127.0.0.2, no *.localhost, no name resolving to loopback) and plain http elsewhere', async () => {
    const id = await created(lab, `http://localhost:${plainPort}/keep`);
    const before = connections();
    const urls = [...blockedUrls().filter((u) => !isDevHost(u)), ...NOT_HTTPS];
    expect(urls).toContain('https://[::1]/');
    expect(urls).toContain('https://anything.localhost/');
    expect(urls).toContain('https://loop.example/');
    for (const url of urls) {
      expectRefused(await create(lab, url), url);
      expectRefused(await h.api.patch(`/v1/webhooks/${id}`).set(lab.auth()).send({ url }), url);
    }
    expect(connections()).toBe(before);
  });

  it('blocks at send time a public host re-pointed at loopback (the exception is for the names, not for DNS)', async () => {
    DNS['lab-rebind.example'] = ['93.184.216.34'];
    const id = await created(lab, `https://lab-rebind.example:${securePort}/hook`);
    for (const answer of [['127.0.0.1'], ['10.0.0.1'], ['::1']]) {
      DNS['lab-rebind.example'] = answer;
      const before = connections();
      const result = await sendTest(lab, id);
      await expectFailure(lab, id, result, 'blocked_address', 'Blocked: lab-rebind.example is not a public HTTPS endpoint');
      expect(connections()).toBe(before);
    }
    delete DNS['lab-rebind.example'];
  });
});

describe(`error categories, each from a real cause (${ENGINE})`, () => {
  it('connection_refused: a closed port', async () => {
    const id = await created(lab, `http://127.0.0.1:${closedPort}/gone`);
    const result = await sendTest(lab, id);
    expect(result).toMatchObject({ response_status: null, response_body: null });
    await expectFailure(lab, id, result, 'connection_refused', 'Connection refused by 127.0.0.1');
    // localhost: both loopback addresses refuse
    const id2 = await created(lab, `http://localhost:${closedPort}/gone`);
    await expectFailure(lab, id2, await sendTest(lab, id2), 'connection_refused', 'Connection refused by localhost');
  });

  it('timeout: a receiver that never answers (short timeout option, no sleeping)', async () => {
    const id = await created(lab, `http://127.0.0.1:${plainPort}/silent`);
    respond = () => {};
    const restore = setTestDeliveryTimeout(200);
    try {
      const result = await sendTest(lab, id);
      expect(result).toMatchObject({ response_status: null, response_body: null });
      await expectFailure(lab, id, result, 'timeout', 'Timed out after 200 ms');
      expect(result.duration_ms).toBeGreaterThanOrEqual(150);
      expect(result.duration_ms).toBeLessThan(5000);
    } finally {
      restore();
    }
    expect(hits.map((x) => x.path)).toEqual(['/silent']);
  });

  it('tls_error: a self-signed certificate, and TLS spoken to a plain HTTP port', async () => {
    // The receiver itself is healthy: a client that trusts its certificate gets an answer.
    const trusted = await new Promise<number>((resolve, reject) => {
      https.get({ host: 'localhost', port: securePort, path: '/trusted', ca: TLS_CERT, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      }).on('error', reject);
    });
    expect(trusted).toBe(200);
    hits = [];
    const id = await created(lab, `https://localhost:${securePort}/tls`);
    const result = await sendTest(lab, id);
    expect(result).toMatchObject({ response_status: null, response_body: null });
    await expectFailure(lab, id, result, 'tls_error', 'Secure connection to localhost failed: its identity could not be verified');
    const id2 = await created(lab, `https://127.0.0.1:${plainPort}/not-tls`);
    await expectFailure(lab, id2, await sendTest(lab, id2), 'tls_error', 'Secure connection to 127.0.0.1 failed: its identity could not be verified');
    expect(hits).toHaveLength(0);
  });

  it('dns_error: a host that no longer resolves', async () => {
    DNS['vanishing.example'] = ['93.184.216.34'];
    const id = await created(lab, 'https://vanishing.example/hook');
    delete DNS['vanishing.example'];
    const result = await sendTest(lab, id);
    expect(result).toMatchObject({ response_status: null, response_body: null });
    await expectFailure(lab, id, result, 'dns_error', 'Could not resolve host vanishing.example');
  });

  it('http_error: a 500, and a 302 that is not followed', async () => {
    const id = await created(lab, `http://127.0.0.1:${plainPort}/broken`);
    respond = (_req, res) => res.writeHead(500).end('Internal Server Error: stack trace at /srv/app.js:12');
    const r500 = await sendTest(lab, id);
    expect(r500).toMatchObject({ response_status: 500, response_body: 'Internal Server Error: stack trace at /srv/app.js:12' });
    await expectFailure(lab, id, r500, 'http_error', 'Receiver answered HTTP 500');

    const id2 = await created(lab, `http://127.0.0.1:${plainPort}/moved`);
    respond = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.writeHead(200).end('followed');
    };
    hits = [];
    const r302 = await sendTest(lab, id2);
    expect(r302).toMatchObject({ response_status: 302, response_body: '' });
    await expectFailure(lab, id2, r302, 'http_error', 'Receiver answered HTTP 302 (redirects are not followed)');
    expect(r302.error).not.toContain('169.254');
    expect(hits.map((x) => x.path)).toEqual(['/moved']);
  });

  it('connection_error: the socket destroyed before an answer, and in the middle of one', async () => {
    const id = await created(lab, `http://127.0.0.1:${plainPort}/hangup`);
    respond = (req) => req.socket.destroy();
    const early = await sendTest(lab, id);
    expect(early).toMatchObject({ response_status: null, response_body: null });
    await expectFailure(lab, id, early, 'connection_error', 'The connection to 127.0.0.1 was closed before a complete answer arrived');

    const id2 = await created(lab, `http://127.0.0.1:${plainPort}/midway`);
    respond = (req, res) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write('partial', () => (req.socket as Socket).destroy());
    };
    const mid = await sendTest(lab, id2);
    expect(mid).toMatchObject({ response_status: 200 });
    expect(['', 'partial']).toContain(mid.response_body);
    await expectFailure(lab, id2, mid, 'connection_error', 'The connection to 127.0.0.1 was closed before a complete answer arrived');
  });
});

describe(`guardedRequest, the generic client (${ENGINE})`, () => {
  const base = () => `http://127.0.0.1:${plainPort}`;

  it('sends the method, headers and body given; returns status, headers and body; one fresh connection per call', async () => {
    respond = (req, res) => res.writeHead(201, { 'X-Reply': 'yes', 'Content-Type': 'application/json' }).end(`{"echo":${JSON.stringify(req.method)}}`);
    const before = plainConnections;
    const res = await guardedRequest({ url: `${base()}/api/applications?x=1`, policy: TEST_LOCATION, method: 'PUT', headers: { Authorization: 'Bearer abc', 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(res).toMatchObject({ ok: true, status: 201, truncated: false, error: null });
    expect(res.headers!['x-reply']).toBe('yes');
    expect(res.body!.toString()).toBe('{"echo":"PUT"}');
    const get = await guardedRequest({ url: `${base()}/api/status`, policy: TEST_LOCATION });
    expect(get).toMatchObject({ ok: true, status: 201 });
    expect(hits.map((x) => [x.method, x.path, x.body.toString()])).toEqual([['PUT', '/api/applications?x=1', '{"a":1}'], ['GET', '/api/status', '']]);
    expect(hits[0].headers).toMatchObject({ authorization: 'Bearer abc', 'content-length': '7', connection: 'close' });
    expect(plainConnections - before).toBe(2);
  });

  it('reads at most maxResponseBytes of the body', async () => {
    respond = (_req, res) => res.writeHead(200).end('x'.repeat(200_000));
    const res = await guardedRequest({ url: `${base()}/big`, policy: TEST_LOCATION, maxResponseBytes: 1000 });
    expect(res).toMatchObject({ ok: true, status: 200, truncated: true, error: null });
    expect(res.body).toHaveLength(1000);
  });

  it('the timeout bounds the whole exchange: a body that never finishes, and a resolver that never answers', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('slow');
    };
    const slow = await guardedRequest({ url: `${base()}/dribble`, policy: TEST_LOCATION, timeoutMs: 200 });
    expect(slow).toMatchObject({ ok: false, status: 200, truncated: true, error: { code: 'timeout', message: 'Timed out after 200 ms' } });
    expect(slow.durationMs).toBeLessThan(5000);

    DNS['hang.example'] = () => new Promise<string[]>(() => {});
    const hang = await guardedRequest({ url: 'https://hang.example/', policy: PUBLIC_ONLY, timeoutMs: 100 });
    expect(hang).toMatchObject({ ok: false, status: null, error: { code: 'timeout', message: 'Timed out after 100 ms' } });
    delete DNS['hang.example'];
  });

  it('dns_error for a name with no answer; blocked_address for every non-public answer, before any connection', async () => {
    DNS['empty.example'] = [];
    expect((await guardedRequest({ url: 'https://empty.example/', policy: PUBLIC_ONLY })).error).toEqual({ code: 'dns_error', message: 'Could not resolve host empty.example' });
    delete DNS['empty.example'];
    const before = connections();
    for (const url of blockedUrls().filter((u) => !u.includes('nowhere'))) {
      const res = await guardedRequest({ url, policy: PUBLIC_ONLY, timeoutMs: 1000 });
      expect(res.error?.code, url).toBe('blocked_address');
      expect(res.error?.message).not.toMatch(LIBRARY_TEXT);
    }
    expect(connections()).toBe(before);
  });

  it('dials only the addresses it vetted, resolving once', async () => {
    let calls = 0;
    DNS['flip2.example'] = () => (calls++ === 0 ? ['3ffe:ffff::2'] : ['127.0.0.1']);
    const before = connections();
    const res = await guardedRequest({ url: `https://flip2.example:${securePort}/`, policy: PUBLIC_ONLY, timeoutMs: 300 });
    expect(res.ok).toBe(false);
    expect(refusedDials.at(-1)).toBe('3ffe:ffff::2');
    expect(calls).toBe(1);
    expect(connections()).toBe(before);
    delete DNS['flip2.example'];
  });
});
