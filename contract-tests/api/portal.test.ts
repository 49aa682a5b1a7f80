import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { setMailbox } from '../../src/mail/mailbox';
import { LINK_OPENS_PER_MINUTE, PORTAL_REQUESTS_PER_MINUTE } from '../../src/web/portal/portal.routes';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// Portal links and document requests through the API (emailed through the location's mailbox to a
// real SMTP server), and the merchant portal's pages behind them: the magic link as a bearer
// credential (hash only, expiry, revocation, rate limits, last_used_at), CSRF and CSP, uploads from
// the portal, choosing an offer and completing the application. The same flow in a real browser is
// in portal-browser.test.ts.

const HOUR = 3600_000;
let h: Harness;
let t: Tenant;
let other: Tenant;
let sink: SmtpSink;
let worker: Worker;

beforeAll(async () => {
  registerAllJobs();
  sink = await startSmtpSink();
  h = await startHarness();
  t = await h.tenant('Portal Brokers');
  other = await h.tenant('Elsewhere Brokers');
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: sink.url, from: 'Portal Brokers <deals@portal.example>' });
  worker = new Worker(h.deps, { concurrency: 2 });
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
  await sink?.close();
});

type Json = Record<string, any>;
type Res = { status: number; headers: Record<string, any>; body: Json; text: string };
async function post(path: string, body?: object, role: 'admin' | 'manager' | 'user' = 'admin', tenant: Tenant = t): Promise<Res> {
  const req = h.api.post(path).set(tenant.auth(role));
  return (body === undefined ? await req : await req.send(body)) as unknown as Res;
}
async function get(path: string, role: 'admin' | 'manager' | 'user' = 'admin', tenant: Tenant = t): Promise<Res> {
  return (await h.api.get(path).set(tenant.auth(role))) as unknown as Res;
}
/** A deal whose business has Maria (primary contact, with email) and Sam (no email). */
async function dealWithPeople(role: 'admin' | 'user' = 'admin', tenant: Tenant = t) {
  const biz = await post('/v1/businesses', { legal_name: `Sunrise ${Math.random().toString(36).slice(2, 7)} LLC` }, role, tenant);
  const maria = await post('/v1/people', { first_name: 'Maria', last_name: 'Lopez', email: `maria.${Math.random().toString(36).slice(2, 7)}@sunrise.example`, business_id: biz.body.data.id }, role, tenant);
  const sam = await post('/v1/people', { first_name: 'Sam', last_name: 'Nomail', business_id: biz.body.data.id }, role, tenant);
  const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 60000 }, role, tenant);
  expect(deal.status, JSON.stringify(deal.body)).toBe(201);
  return { dealId: deal.body.data.id as string, businessId: biz.body.data.id as string, maria: maria.body.data as Json, samId: sam.body.data.id as string };
}
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
/** Opens a magic link; returns the session cookie. */
async function open(url: string): Promise<string> {
  const res = await h.api.get(new URL(url).pathname);
  expect(res.status, res.text).toBe(303);
  expect(res.headers.location).toBe('/portal');
  const cookie = String(res.headers['set-cookie'][0]);
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Lax/);
  return cookie.split(';')[0];
}
const csrfOf = (page: string) => /<meta name="csrf-token" content="([0-9a-f]+)">/.exec(page)![1];
async function portal(cookie: string) {
  return (await h.api.get('/portal').set('Cookie', cookie)) as unknown as Res;
}

describe(`portal links (${ENGINE})`, () => {
  it('creates a link for the primary contact and emails it; url only in the creation response; only the hash is stored', async () => {
    const { dealId, maria } = await dealWithPeople();
    const res = await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const link = res.body.data;
    expect(link).toMatchObject({ deal_id: dealId, person_id: maria.id, purpose: 'offers', sent_to: maria.email, revoked_at: null, last_used_at: null });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/p\/[0-9A-Za-z]{32}$/);
    expect(link.expires_at).toBe(new Date(h.clock.now().getTime() + 72 * HOUR).toISOString());
    const row = await h.knex('portal_links').where({ id: link.id }).first();
    expect(JSON.stringify(row)).not.toContain(tokenOf(link.url));
    const list = await get(`/v1/deals/${dealId}/portal-links`);
    expect(list.body.data.map((l: Json) => l.id)).toEqual([link.id]);
    expect(list.body.data[0].url).toBeNull();
    await worker.drain();
    const mail = sink.inbox.find((m) => m.rcpt.includes(maria.email));
    expect(mail?.mail.text).toContain(link.url);
    expect(mail?.mail.text).toMatch(/^Hi Maria,\n/); // no message of the broker: our greeting
    expect(mail?.mail.subject).toContain('offers');
  });

  it('send false sends nothing; person_id must be linked to the business and have an email when sending; hours 1-720', async () => {
    const { dealId, samId } = await dealWithPeople();
    const before = sink.inbox.length;
    const quiet = await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', person_id: samId, send: false, expires_in_hours: 1 });
    expect(quiet.status).toBe(201);
    expect(quiet.body.data).toMatchObject({ person_id: samId, sent_to: null });
    const noEmail = await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', person_id: samId });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toMatchObject({ type: 'validation_error', param: 'person_id' });
    const stranger = (await post('/v1/people', { first_name: 'Stranger', last_name: 'Danger', email: 's@x.example' })).body.data.id;
    const unlinked = await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', person_id: stranger });
    expect(unlinked.status).toBe(400);
    expect(unlinked.body.error.param).toBe('person_id');
    for (const hours of [0, 721]) {
      const r = await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', expires_in_hours: hours });
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe('expires_in_hours');
    }
    await worker.drain();
    expect(sink.inbox.length).toBe(before);
  });

  it('revoke sets revoked_at once (idempotent); another location or another user gets 404', async () => {
    const { dealId } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false })).body.data;
    expect((await post(`/v1/portal-links/${link.id}/revoke`, undefined, 'admin', other)).status).toBe(404);
    expect((await post(`/v1/portal-links/${link.id}/revoke`, undefined, 'user')).status).toBe(404);
    expect((await get(`/v1/deals/${dealId}/portal-links`, 'admin', other)).status).toBe(404);
    const r1 = await post(`/v1/portal-links/${link.id}/revoke`);
    expect(r1.status).toBe(200);
    expect(r1.body.data.revoked_at).toBe(h.clock.now().toISOString());
    h.clock.advance(5000);
    const r2 = await post(`/v1/portal-links/${link.id}/revoke`);
    expect(r2.body.data.revoked_at).toBe(r1.body.data.revoked_at);
    expect(r2.body.data.url).toBeNull();
  });
});

describe(`document requests (${ENGINE})`, () => {
  it('creates a request with a 72-hour documents link, emails it with the message and items, sets sent_at when the mail went out; portal_url only once', async () => {
    const { dealId, maria } = await dealWithPeople();
    const res = await post(`/v1/deals/${dealId}/document-requests`, { items: ['bank_statement', 'Photo ID of each owner'], message: 'Hi Maria, three months please.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data;
    expect(r).toMatchObject({ deal_id: dealId, person_id: maria.id, items: ['bank_statement', 'Photo ID of each owner'], status: 'open', sent_at: null, fulfilled_at: null });
    expect(r.portal_url).toMatch(/\/p\/[0-9A-Za-z]{32}$/);
    // The link is a bearer credential: the queued email holds it only sealed, never in the clear.
    const token = tokenOf(r.portal_url);
    const queued = await h.knex('outgoing_emails').where({ location_id: t.locationId, kind: 'document_request' }).orderBy('created_at', 'desc').first();
    expect(JSON.stringify(queued)).not.toContain(token);
    expect(queued.text_body).toContain('{{sealed:portal_url}}');
    expect(queued.sealed_values).toMatch(/^v1\./);
    const links = (await get(`/v1/deals/${dealId}/portal-links`)).body.data;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ purpose: 'documents', sent_to: maria.email, expires_at: new Date(h.clock.now().getTime() + 72 * HOUR).toISOString() });
    h.clock.advance(2000);
    await worker.drain();
    const mail = sink.inbox.find((m) => m.rcpt.includes(maria.email));
    expect(mail?.mail.text).toContain(r.portal_url);
    expect(mail?.mail.text).toContain('three months please');
    expect(mail?.mail.text).toContain('bank statement');
    // The broker's message greets Maria: the email greets her once, not twice.
    expect(String(mail?.mail.text).match(/Hi Maria/g)).toHaveLength(1);
    expect(String(mail?.mail.text).trimStart()).toMatch(/^Hi Maria, three months please\./);
    const listed = await get(`/v1/deals/${dealId}/document-requests`);
    expect(listed.body.data[0]).toMatchObject({ id: r.id, portal_url: null, sent_at: h.clock.now().toISOString() });
    // Sent: the sealed copy is gone too.
    expect((await h.knex('outgoing_emails').where({ id: queued.id }).first()).sealed_values).toBeNull();
    expect(h.logs.join('\n')).not.toContain(token);
    expect((await get(`/v1/deals/${dealId}/document-requests?status=fulfilled`)).body.data).toEqual([]);
  });

  it('send_email false sends nothing and sent_at stays null; items must not be empty', async () => {
    const { dealId } = await dealWithPeople();
    const before = sink.inbox.length;
    const res = await post(`/v1/deals/${dealId}/document-requests`, { items: ['voided_check'], send_email: false });
    expect(res.status).toBe(201);
    await worker.drain();
    expect(sink.inbox.length).toBe(before);
    expect((await get(`/v1/deals/${dealId}/document-requests`)).body.data[0].sent_at).toBeNull();
    for (const items of [[], ['   ']]) {
      const bad = await post(`/v1/deals/${dealId}/document-requests`, { items });
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toMatch(/^items/);
    }
  });
});

describe(`the merchant portal (${ENGINE})`, () => {
  it('the magic link starts a session and redirects; pages carry a strict CSP, no-referrer and no-store; last_used_at follows', async () => {
    const { dealId } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/document-requests`, { items: ['bank_statement'], send_email: false })).body.data;
    h.clock.advance(1000);
    const cookie = await open(link.portal_url);
    const page = await portal(cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('Upload a file');
    expect(page.text).not.toMatch(/<script>|style=|onclick=/);
    const listed = (await get(`/v1/deals/${dealId}/portal-links`)).body.data[0];
    expect(listed.last_used_at).toBe(h.clock.now().toISOString());
  });

  it('names and messages from the API are escaped on the page: markup in them is shown as text', async () => {
    const biz = await post('/v1/businesses', { legal_name: '<script>alert(1)</script> "Quoted" & Co' });
    await post('/v1/people', { first_name: '<img src=x onerror=alert(2)>', last_name: 'Lopez', email: 'x@esc.example', business_id: biz.body.data.id });
    const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 10000 });
    const req = (await post(`/v1/deals/${deal.body.data.id}/document-requests`, { items: ['<b>bold</b>'], message: '</p><script>steal()</script>', send_email: false })).body.data;
    const page = await portal(await open(req.portal_url));
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script>alert|<img src=x|<script>steal|<b>bold/);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Quoted&quot; &amp; Co');
    expect(page.text).toContain('&lt;/p&gt;&lt;script&gt;steal()&lt;/script&gt;');
  });

  it('an expired, revoked or altered link gets a clear page (410 / 404), never a stack trace; an open session ends at revocation', async () => {
    const { dealId } = await dealWithPeople();
    const a = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false, expires_in_hours: 1 })).body.data;
    const cookie = await open(a.url);
    const altered = a.url.slice(0, -1) + (a.url.endsWith('A') ? 'B' : 'A');
    const bad = await h.api.get(new URL(altered).pathname);
    expect(bad.status).toBe(404);
    expect(bad.text).toContain('This link is not valid');
    expect(bad.headers['content-security-policy']).toContain("default-src 'none'");
    const junk = await h.api.get('/p/..%2F..%2Fetc%2Fpasswd');
    expect(junk.status).toBe(404);
    await post(`/v1/portal-links/${a.id}/revoke`);
    const revoked = await h.api.get(new URL(a.url).pathname);
    expect(revoked.status).toBe(410);
    expect(revoked.text).toContain('no longer active');
    expect(revoked.text).toContain('Portal Brokers');
    expect((await portal(cookie)).status).toBe(410);
    const b = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false, expires_in_hours: 1 })).body.data;
    h.clock.advance(HOUR + 1000);
    const expired = await h.api.get(new URL(b.url).pathname);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    for (const res of [bad, revoked, expired]) expect(res.text).not.toMatch(/at .*\.ts:\d+|Error:/);
    // A forged session cookie is refused.
    const forged = await h.api.get('/portal').set('Cookie', `svc_portal=${b.id}.${'0'.repeat(64)}`);
    expect(forged.status).toBe(401);
  });

  it("an open session ends at its link's expiry, on pages and on state-changing requests", async () => {
    const { dealId } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', send: false, expires_in_hours: 1 })).body.data;
    const cookie = await open(link.url);
    const csrf = csrfOf((await portal(cookie)).text);
    // Still inside the link's lifetime: the session works.
    h.clock.advance(new Date(link.expires_at).getTime() - h.clock.now().getTime() - 1000);
    expect((await portal(cookie)).status).toBe(200);
    // At the link's expiry the session ends, though the cookie itself is still well signed.
    h.clock.advance(1000);
    const page = await portal(cookie);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    const upload = await h.api.post('/portal/uploads').set('Cookie', cookie).set('X-CSRF-Token', csrf)
      .send({ filename: 'late.pdf', content_type: 'application/pdf', size_bytes: 10, category: 'other' });
    expect(upload.status).toBe(410);
    expect(await h.knex('documents').where({ deal_id: dealId })).toHaveLength(0);
  });

  it('a state-changing request with a good Origin but a wrong CSRF token is refused (another session\'s token, a flipped one, a short one)', async () => {
    const { dealId } = await dealWithPeople();
    const req = (await post(`/v1/deals/${dealId}/document-requests`, { items: ['voided_check'], send_email: false })).body.data;
    const cookie = await open(req.portal_url);
    const csrf = csrfOf((await portal(cookie)).text);
    const otherReq = (await post(`/v1/deals/${dealId}/document-requests`, { items: ['bank_statement'], send_email: false })).body.data;
    const otherCsrf = csrfOf((await portal(await open(otherReq.portal_url))).text);
    expect(otherCsrf).not.toBe(csrf);
    const flipped = csrf.slice(0, -1) + (csrf.endsWith('0') ? '1' : '0');
    const origin = new URL(req.portal_url).origin;
    const body = { filename: 'check.pdf', content_type: 'application/pdf', size_bytes: 10, category: 'voided_check' };
    for (const token of [otherCsrf, flipped, csrf.slice(0, 8), 'x']) {
      const up = await h.api.post('/portal/uploads').set('Cookie', cookie).set('Origin', origin).set('X-CSRF-Token', token).send(body);
      expect(up.status, token).toBe(403);
      const form = await h.api.post('/portal/submit').set('Cookie', cookie).set('Origin', origin).type('form').send({ _csrf: token });
      expect(form.status, token).toBe(403);
    }
    expect(await h.knex('documents').where({ deal_id: dealId })).toHaveLength(0);
    // The right token with the same Origin is accepted: the refusals above are about the token.
    const ok = await h.api.post('/portal/uploads').set('Cookie', cookie).set('Origin', origin).set('X-CSRF-Token', csrf).send(body);
    expect(ok.status, ok.text).toBe(201);
  });

  it('opening links is rate limited per client address, portal use per link, with Retry-After', async () => {
    const { dealId } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false })).body.data;
    h.clock.advance(61_000);
    let last: Res | undefined;
    for (let i = 0; i < LINK_OPENS_PER_MINUTE + 1; i++) last = (await h.api.get('/p/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')) as unknown as Res;
    expect(last!.status).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await h.api.get(new URL(link.url).pathname)).status).toBe(429);
    h.clock.advance(61_000);
    const cookie = await open(link.url);
    let page: Res | undefined;
    for (let i = 0; i < PORTAL_REQUESTS_PER_MINUTE; i++) page = await portal(cookie);
    expect(page!.status).toBe(429);
    h.clock.advance(61_000);
    expect((await portal(cookie)).status).toBe(200);
  });

  it('uploads from the portal go straight to storage and arrive on the deal (source merchant_portal, document.uploaded); submitting fulfils the request', async () => {
    const { dealId } = await dealWithPeople();
    const req = (await post(`/v1/deals/${dealId}/document-requests`, { items: ['voided_check'], send_email: false })).body.data;
    const cookie = await open(req.portal_url);
    const csrf = csrfOf((await portal(cookie)).text);
    // Nothing uploaded yet: the request cannot be submitted.
    expect((await h.api.post('/portal/submit').set('Cookie', cookie).type('form').send({ _csrf: csrf })).status).toBe(409);
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 7)]);
    const noCsrf = await h.api.post('/portal/uploads').set('Cookie', cookie).send({ filename: 'check.jpg', content_type: 'image/jpeg', size_bytes: bytes.length, category: 'voided_check' });
    expect(noCsrf.status).toBe(403);
    const crossSite = await h.api.post('/portal/uploads').set('Cookie', cookie).set('X-CSRF-Token', csrf).set('Origin', 'https://evil.example')
      .send({ filename: 'check.jpg', content_type: 'image/jpeg', size_bytes: bytes.length, category: 'voided_check' });
    expect(crossSite.status).toBe(403);
    const slot = await h.api.post('/portal/uploads').set('Cookie', cookie).set('X-CSRF-Token', csrf)
      .send({ filename: 'check.jpg', content_type: 'image/jpeg', size_bytes: bytes.length, category: 'voided_check' });
    expect(slot.status, slot.text).toBe(201);
    const u = new URL(slot.body.upload_url);
    expect((await h.api.put(u.pathname + u.search).set(slot.body.upload_headers).send(bytes)).status).toBe(200);
    const fin = await h.api.post(`/portal/uploads/${slot.body.document_id}/finalize`).set('Cookie', cookie).set('X-CSRF-Token', csrf).send({});
    expect(fin.status, fin.text).toBe(200);
    const doc = (await get(`/v1/documents/${slot.body.document_id}`)).body.data;
    expect(doc).toMatchObject({ deal_id: dealId, source: 'merchant_portal', status: 'uploaded', category: 'voided_check', size_bytes: bytes.length });
    const ev = await h.knex('events').where({ type: 'document.uploaded' }).whereRaw(`data->>'document_id' = ?`, [doc.id]);
    expect(ev[0].data.document.source).toBe('merchant_portal');
    expect((await portal(cookie)).text).toContain('check.jpg');
    // Bad input is a 400 in the envelope, not a crash.
    const big = await h.api.post('/portal/uploads').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ filename: 'x.pdf', content_type: 'application/pdf', size_bytes: 26214401, category: 'other' });
    expect(big.status).toBe(400);
    expect(big.body.error.param).toBe('size_bytes');
    const exe = await h.api.post('/portal/uploads').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ filename: 'x.exe', content_type: 'application/x-msdownload', size_bytes: 10, category: 'other' });
    expect(exe.status).toBe(400);
    // Submit: the request is fulfilled.
    const submit = await h.api.post('/portal/submit').set('Cookie', cookie).type('form').send({ _csrf: csrf });
    expect(submit.status).toBe(303);
    const listed = (await get(`/v1/deals/${dealId}/document-requests`)).body.data[0];
    expect(listed).toMatchObject({ id: req.id, status: 'fulfilled', fulfilled_at: h.clock.now().toISOString() });
  });

  it("a merchant cannot finalize another link's upload, nor upload with an offers link", async () => {
    const { dealId } = await dealWithPeople();
    const api = (await post(`/v1/deals/${dealId}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10, category: 'other' })).body.data;
    const docs = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', send: false })).body.data;
    const cookie = await open(docs.url);
    const csrf = csrfOf((await portal(cookie)).text);
    const steal = await h.api.post(`/portal/uploads/${api.document.id}/finalize`).set('Cookie', cookie).set('X-CSRF-Token', csrf).send({});
    expect(steal.status).toBe(404);
    const offers = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false })).body.data;
    const oc = await open(offers.url);
    const ocsrf = csrfOf((await portal(oc)).text);
    const up = await h.api.post('/portal/uploads').set('Cookie', oc).set('X-CSRF-Token', ocsrf).send({ filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10, category: 'other' });
    expect(up.status).toBe(403);
  });

  it('an offers link shows the deal offers; choosing one makes it primary and accepted with offer.primary_changed, as the API does', async () => {
    const { dealId } = await dealWithPeople();
    const lender = (await post('/v1/lenders', { name: `Cobalt ${Math.random().toString(36).slice(2, 6)}` })).body.data;
    const o1 = (await post(`/v1/deals/${dealId}/offers`, { lender_id: lender.id, amount: 50000, factor_rate: 1.35, term: 180, payment_frequency: 'daily' })).body.data;
    const r2 = await post(`/v1/deals/${dealId}/offers`, { lender_id: lender.id, amount: 40000, factor_rate: 1.3, term: 150, payment_frequency: 'daily' });
    const o2 = r2.body.data;
    expect(r2.status, JSON.stringify(r2.body)).toBe(201);
    expect(o2?.id, JSON.stringify(o2)).toBeTruthy();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'offers', send: false })).body.data;
    const cookie = await open(link.url);
    const page = await portal(cookie);
    expect(page.text).toContain('$50,000.00');
    expect(page.text).toContain('$40,000.00');
    const csrf = csrfOf(page.text);
    const noToken = await h.api.post(`/portal/offers/${o2.id}/choose`).set('Cookie', cookie).type('form').send({});
    expect(noToken.status).toBe(403);
    const chose = await h.api.post(`/portal/offers/${o2.id}/choose`).set('Cookie', cookie).type('form').send({ _csrf: csrf });
    expect(chose.status).toBe(303);
    const deal = (await get(`/v1/deals/${dealId}`)).body.data;
    expect(deal.primary_offer.id).toBe(o2.id);
    expect((await get(`/v1/offers/${o2.id}`)).body.data).toMatchObject({ is_primary: true, status: 'accepted' });
    const ev = await h.knex('events').where({ type: 'offer.primary_changed' }).whereRaw(`data->>'offer_id' = ?`, [o2.id]);
    expect(ev).toHaveLength(1);
    expect(await h.knex('activities').where({ entity_id: o2.id, action: 'portal.offer_chosen' })).toHaveLength(1);
    expect((await portal(cookie)).text).toContain('You chose this offer');
    // An offer of another deal is not reachable through this link.
    const { dealId: otherDeal } = await dealWithPeople();
    const foreign = (await post(`/v1/deals/${otherDeal}/offers`, { lender_id: lender.id, amount: 10000, factor_rate: 1.2, term: 90, payment_frequency: 'daily' })).body.data;
    expect((await h.api.post(`/portal/offers/${foreign.id}/choose`).set('Cookie', cookie).type('form').send({ _csrf: csrf })).status).toBe(404);
    expect(o1.id).not.toBe(o2.id);
  });

  it('an application link saves business and owner fields through the same rules; a bad field re-renders the form with the message (400); the SSN is never shown back', async () => {
    const { dealId, businessId, maria } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'application', send: false })).body.data;
    const cookie = await open(link.url);
    const csrf = csrfOf((await portal(cookie)).text);
    const bad = await h.api.post('/portal/application').set('Cookie', cookie).type('form').send({ _csrf: csrf, 'business.ein': '12-34', 'business.city': 'Denver' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('EIN is not valid');
    expect((await get(`/v1/businesses/${businessId}`)).body.data.city).toBeNull();
    const ok = await h.api.post('/portal/application').set('Cookie', cookie).type('form')
      .send({ _csrf: csrf, 'business.ein': '12-3456789', 'business.city': 'Denver', 'business.state': 'CO', 'owner.phone': '303-555-0142', 'owner.ssn': '123-45-6789', 'owner.first_name': 'Maria' });
    expect(ok.status, ok.text).toBe(303);
    expect((await get(`/v1/businesses/${businessId}`)).body.data).toMatchObject({ ein: '12-3456789', city: 'Denver', state: 'CO' });
    const person = (await get(`/v1/people/${maria.id}`)).body.data;
    expect(person.phone).toBeTruthy();
    expect(person.ssn_last4 ?? '6789').toBe('6789');
    const page = await portal(cookie);
    expect(page.text).not.toContain('123-45-6789');
    expect(await h.knex('activities').where({ business_id: businessId, action: 'portal.application_updated' })).toHaveLength(1);
    const noCsrf = await h.api.post('/portal/application').set('Cookie', cookie).type('form').send({ 'business.city': 'Boulder' });
    expect(noCsrf.status).toBe(403);
  });
});

describe(`bearer values in paths and queries never reach the access log (${ENGINE})`, () => {
  it('a magic link (/p/<token>, any case) and signed /files/ upload and download URLs: one log line each, carrying no token and no signature', async () => {
    const { dealId } = await dealWithPeople();
    const link = (await post(`/v1/deals/${dealId}/document-requests`, { items: ['bank_statement'], send_email: false })).body.data;
    const token = tokenOf(link.portal_url);
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20), Buffer.from('\n%%EOF\n')]);
    const from = h.logs.length;
    await open(link.portal_url);
    expect((await h.api.get(`/P/${token}`)).status).toBe(303); // Express routes paths case-insensitively
    const slot = await post(`/v1/deals/${dealId}/documents`, { filename: 'statement.pdf', content_type: 'application/pdf', size_bytes: bytes.length, category: 'other' });
    const upload = new URL(slot.body.data.upload_url as string);
    expect((await h.api.put(upload.pathname + upload.search).set(slot.body.data.upload_headers).send(bytes)).status).toBe(200);
    expect((await post(`/v1/documents/${slot.body.data.document.id}/finalize`)).status).toBe(200);
    const download = new URL((await get(`/v1/documents/${slot.body.data.document.id}`)).body.data.download_url as string);
    expect((await h.api.get(download.pathname + download.search)).status).toBe(200);
    // A streamed download's line is written when its socket closes, which may come just after the client has the bytes.
    const requestPaths = () => h.logs.slice(from).join('').trim().split('\n').map((l) => JSON.parse(l) as { msg: string; path?: string }).filter((l) => l.msg === 'request').map((l) => l.path);
    await vi.waitFor(() => expect(requestPaths().filter((p) => p?.startsWith('/files/'))).toHaveLength(2));
    const lines = h.logs.slice(from).join('');
    const secrets = [token, upload.searchParams.get('signature')!, download.searchParams.get('signature')!];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(16);
      expect(lines).not.toContain(secret);
      expect(lines).not.toContain(encodeURIComponent(secret));
    }
    expect(requestPaths().filter((p) => p === '/p/:token')).toHaveLength(2);
  });
});

