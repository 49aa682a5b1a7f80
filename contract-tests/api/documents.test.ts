import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAbandonedUploads } from '../../src/features/documents/documents.service';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Documents through the API on the local storage back end (the embedded default): presigned upload,
// the upload route's checks, finalize with the contract's 409s, download links that expire,
// tenancy and roles, and the sweep of abandoned uploads. S3 is in documents-s3.test.ts, statement
// analysis in statements.test.ts, the portal in portal.test.ts.

const MIN = 60_000;
let h: Harness;
let t: Tenant;
let other: Tenant;
let worker: Worker;

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  t = await h.tenant('Document Brokers');
  other = await h.tenant('Other Brokers');
  worker = new Worker(h.deps, { concurrency: 2 });
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
});

type Json = Record<string, any>;
type Res = { status: number; headers: Record<string, string>; body: Json; text: string };
async function post(path: string, body?: object, role: 'admin' | 'manager' | 'user' = 'admin', tenant: Tenant = t): Promise<Res> {
  const req = h.api.post(path).set(tenant.auth(role));
  return (body === undefined ? await req : await req.send(body)) as unknown as Res;
}
async function get(path: string, role: 'admin' | 'manager' | 'user' = 'admin', tenant: Tenant = t): Promise<Res> {
  return (await h.api.get(path).set(tenant.auth(role))) as unknown as Res;
}
async function newDeal(role: 'admin' | 'user' = 'admin', tenant: Tenant = t): Promise<string> {
  const biz = await post('/v1/businesses', { legal_name: `Docs ${Math.random().toString(36).slice(2, 8)} LLC` }, role, tenant);
  const deal = await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 50000 }, role, tenant);
  expect(deal.status, JSON.stringify(deal.body)).toBe(201);
  return deal.body.data.id;
}
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)]);
const pathOf = (url: string) => { const u = new URL(url); return u.pathname + u.search; };
async function slot(dealId: string, bytes: Buffer, o: { content_type?: string; category?: string; filename?: string; size?: number } = {}) {
  const res = await post(`/v1/deals/${dealId}/documents`, {
    filename: o.filename ?? 'statement.pdf', content_type: o.content_type ?? 'application/pdf', size_bytes: o.size ?? bytes.length, category: o.category ?? 'other',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Json;
}
async function put(s: Json, bytes: Buffer, headers: Record<string, string> = s.upload_headers) {
  return (await h.api.put(pathOf(s.upload_url)).set(headers).send(bytes)) as unknown as Res;
}

describe(`documents (${ENGINE})`, () => {
  it('upload slot, PUT, finalize: size and sha256 recorded, document.uploaded with the snapshot, a history line; get gives a download link to the same bytes', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF, { filename: 'oct-statement.pdf', category: 'voided_check' });
    expect(s.document).toMatchObject({ deal_id: dealId, status: 'pending_upload', size_bytes: null, sha256: null, download_url: null, uploaded_at: null, source: 'api', category: 'voided_check' });
    expect(s.upload_method).toBe('PUT');
    expect(s.upload_headers).toEqual({ 'Content-Type': 'application/pdf' });
    expect(s.expires_at).toBe(new Date(h.clock.now().getTime() + 15 * MIN).toISOString());
    expect(s.upload_url.startsWith('http://127.0.0.1:3000/files/upload/')).toBe(true);

    expect((await put(s, PDF)).status).toBe(200);
    h.clock.advance(1000);
    const fin = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    const sha = createHash('sha256').update(PDF).digest('hex');
    expect(fin.body.data).toMatchObject({ status: 'uploaded', size_bytes: PDF.length, sha256: sha, uploaded_at: h.clock.now().toISOString(), download_url: null });

    const ev = await h.knex('events').where({ location_id: t.locationId, type: 'document.uploaded' }).whereRaw(`data->>'document_id' = ?`, [s.document.id]);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toEqual({
      document_id: s.document.id, deal_id: dealId,
      document: { id: s.document.id, deal_id: dealId, filename: 'oct-statement.pdf', category: 'voided_check', content_type: 'application/pdf', size_bytes: PDF.length, source: 'api', created_at: s.document.created_at },
    });
    const act = await h.knex('activities').where({ location_id: t.locationId, entity_id: s.document.id, action: 'document.uploaded' });
    expect(act).toHaveLength(1);

    const one = await get(`/v1/documents/${s.document.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.download_url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/files\/download\//);
    const dl = await h.api.get(pathOf(one.body.data.download_url)).buffer(true).parse((res, cb) => { const c: Buffer[] = []; res.on('data', (d: Buffer) => c.push(d)); res.on('end', () => cb(null, Buffer.concat(c))); });
    expect(dl.status).toBe(200);
    expect(Buffer.compare(dl.body as Buffer, PDF)).toBe(0);
    expect(dl.headers['content-disposition']).toContain('oct-statement.pdf');
    // A non-statement stays `uploaded`: nothing is queued for analysis.
    expect(await h.knex('jobs').where({ queue: 'statement.analyze' }).whereRaw(`payload->>'document_id' = ?`, [s.document.id])).toHaveLength(0);
  });

  it('the download link works for 5 minutes only', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF);
    await put(s, PDF);
    await post(`/v1/documents/${s.document.id}/finalize`);
    const url = pathOf((await get(`/v1/documents/${s.document.id}`)).body.data.download_url);
    h.clock.advance(5 * MIN - 1000);
    expect((await h.api.get(url)).status).toBe(200);
    h.clock.advance(2000);
    const late = await h.api.get(url);
    expect(late.status).toBe(403);
    // The API's envelope, with the request's id.
    expect(late.body.error).toMatchObject({ type: 'permission_error', code: 'download_url_expired', request_id: late.headers['x-request-id'] });
  });

  it('finalize before the bytes arrive is 409 upload_missing; finalizing twice is 409 invalid_state_transition', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF);
    const early = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ type: 'conflict', code: 'upload_missing' });
    expect((await get(`/v1/documents/${s.document.id}`)).body.data.status).toBe('pending_upload');
    await put(s, PDF);
    expect((await post(`/v1/documents/${s.document.id}/finalize`)).status).toBe(200);
    const again = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state_transition');
    expect(await h.knex('events').where({ type: 'document.uploaded' }).whereRaw(`data->>'document_id' = ?`, [s.document.id])).toHaveLength(1);
  });

  it('the upload URL refuses another size, another content type, a zero-byte or truncated body and a tampered signature, storing nothing; finalize then says upload_missing', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF);
    const bigger = await put(s, Buffer.concat([PDF, Buffer.from('x')]));
    // Larger than declared: 413 in the envelope, exactly (not any 4xx).
    expect(bigger.status).toBe(413);
    expect(bigger.headers['content-type']).toMatch(/^application\/json/);
    expect(bigger.body.error).toMatchObject({ type: 'validation_error', code: 'upload_size_mismatch', request_id: bigger.headers['x-request-id'] });
    const smaller = await put(s, PDF.subarray(0, 100));
    expect(smaller.status).toBe(400);
    expect(smaller.body.error).toMatchObject({ type: 'validation_error', code: 'upload_size_mismatch' });
    expect((await put(s, Buffer.alloc(0))).status).toBe(400);
    const wrongType = await put(s, PDF, { 'Content-Type': 'image/png' });
    expect(wrongType.status).toBe(415);
    const tampered = s.upload_url.replace(/signature=([0-9a-f])/, (_m: string, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
    const bad = (await h.api.put(pathOf(tampered)).set(s.upload_headers).send(PDF)) as unknown as Res;
    expect(bad.status).toBe(403);
    const fin = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(fin.status).toBe(409);
    expect(fin.body.error.code).toBe('upload_missing');
    // No temporary or partial file is left behind.
    expect(await h.deps.storage.describe(`${t.locationId}/${dealId}/${s.document.id}`)).toBeNull();
  });

  it('bytes that are not the declared kind are 409 upload_content_mismatch', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PNG, { size: PNG.length });
    expect((await put(s, PNG)).status).toBe(200);
    const fin = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(fin.status).toBe(409);
    expect(fin.body.error).toMatchObject({ code: 'upload_content_mismatch' });
    expect(fin.body.error.message).toContain('application/pdf');
  });

  it('after 15 minutes the upload URL is refused (on the clock); a finalize after expires_at still works when the bytes came in time', async () => {
    const dealId = await newDeal();
    const late = await slot(dealId, PDF);
    h.clock.advance(15 * MIN + 1000);
    const r = await put(late, PDF);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('upload_url_expired');

    const ok = await slot(dealId, PDF);
    h.clock.advance(14 * MIN);
    expect((await put(ok, PDF)).status).toBe(200);
    h.clock.advance(10 * MIN);
    expect((await post(`/v1/documents/${ok.document.id}/finalize`)).status).toBe(200);
  });

  it('oversize and unlisted content types are 400 with param; unknown categories too', async () => {
    const dealId = await newDeal();
    const big = await post(`/v1/deals/${dealId}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 26214401, category: 'other' });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatchObject({ type: 'validation_error', param: 'size_bytes' });
    const html = await post(`/v1/deals/${dealId}/documents`, { filename: 'a.html', content_type: 'text/html', size_bytes: 10, category: 'other' });
    expect(html.status).toBe(400);
    expect(html.body.error.param).toBe('content_type');
    const zero = await post(`/v1/deals/${dealId}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 0, category: 'other' });
    expect(zero.status).toBe(400);
    expect(zero.body.error.param).toBe('size_bytes');
    expect(await h.knex('documents').where({ deal_id: dealId })).toHaveLength(0);
  });

  it("another location's document and deal are 404; role user sees only its own deals' documents", async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF);
    expect((await get(`/v1/documents/${s.document.id}`, 'admin', other)).status).toBe(404);
    expect((await post(`/v1/documents/${s.document.id}/finalize`, undefined, 'admin', other)).status).toBe(404);
    expect((await get(`/v1/deals/${dealId}/documents`, 'admin', other)).status).toBe(404);
    expect((await post(`/v1/deals/${dealId}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10, category: 'other' }, 'admin', other)).status).toBe(404);
    expect((await get(`/v1/documents/${s.document.id}`, 'user')).status).toBe(404);
    expect((await get(`/v1/deals/${dealId}/documents`, 'user')).status).toBe(404);
    const mine = await newDeal('user');
    const res = await post(`/v1/deals/${mine}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: PDF.length, category: 'other' }, 'user');
    expect(res.status).toBe(201);
    expect((await get(`/v1/documents/${res.body.data.document.id}`, 'user')).status).toBe(200);
  });

  it('after finalize the upload URL refuses bytes (409 upload_closed); what was hashed is what is read and downloaded', async () => {
    const dealId = await newDeal();
    const s = await slot(dealId, PDF);
    expect((await put(s, PDF)).status).toBe(200);
    const fin = await post(`/v1/documents/${s.document.id}/finalize`);
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    const sha = createHash('sha256').update(PDF).digest('hex');
    expect(fin.body.data.sha256).toBe(sha);

    const swapped = Buffer.from(PDF);
    swapped.write('%PDF-1.7\nswapped after the check', 0);
    const late = await put(s, swapped);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ type: 'conflict', code: 'upload_closed', request_id: late.headers['x-request-id'] });

    // What analysis and lender emails read (the document's storage key) and what the download link serves.
    const row = await h.knex('documents').where({ id: s.document.id }).first('storage_key', 'sha256');
    expect(row.sha256).toBe(sha);
    expect(createHash('sha256').update(await h.deps.storage.read(row.storage_key)).digest('hex')).toBe(sha);
    const one = await get(`/v1/documents/${s.document.id}`);
    const dl = await h.api.get(pathOf(one.body.data.download_url)).buffer(true).parse((res, cb) => { const c: Buffer[] = []; res.on('data', (d: Buffer) => c.push(d)); res.on('end', () => cb(null, Buffer.concat(c))); });
    expect(createHash('sha256').update(dl.body as Buffer).digest('hex')).toBe(sha);
  });

  it('lists newest first with category and status filters and cursor pages; download_url is null in lists', async () => {
    const dealId = await newDeal();
    const ids: string[] = [];
    for (const category of ['other', 'voided_check', 'other']) {
      h.clock.advance(1000);
      const s = await slot(dealId, PDF, { category });
      ids.push(s.document.id);
    }
    const all = await get(`/v1/deals/${dealId}/documents?limit=2`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: Json) => d.id)).toHaveLength(2);
    expect(all.body.meta.has_more).toBe(true);
    const rest = await get(`/v1/deals/${dealId}/documents?limit=2&cursor=${all.body.meta.next_cursor}`);
    expect([...all.body.data, ...rest.body.data].map((d: Json) => d.id)).toEqual([...ids].reverse());
    const checks = await get(`/v1/deals/${dealId}/documents?category=voided_check`);
    expect(checks.body.data.map((d: Json) => d.id)).toEqual([ids[1]]);
    const uploaded = await get(`/v1/deals/${dealId}/documents?status=uploaded`);
    expect(uploaded.body.data).toEqual([]);
    for (const d of all.body.data) expect(d.download_url).toBeNull();
  });

  it('documents still waiting for their bytes 24 hours after creation are swept by the worker; uploaded ones stay', async () => {
    const dealId = await newDeal();
    const waiting = await slot(dealId, PDF);
    const done = await slot(dealId, PDF);
    await put(done, PDF);
    await post(`/v1/documents/${done.document.id}/finalize`);
    h.clock.advance(24 * 3600_000 - MIN);
    await sweepAbandonedUploads(h.deps);
    expect(await h.knex('documents').where({ id: waiting.document.id })).toHaveLength(1);
    h.clock.advance(2 * MIN);
    // The worker's hourly maintenance runs the sweep.
    await worker.drain();
    expect(await h.knex('documents').where({ id: waiting.document.id })).toHaveLength(0);
    expect((await get(`/v1/documents/${waiting.document.id}`)).status).toBe(404);
    expect((await get(`/v1/documents/${done.document.id}`)).status).toBe(200);
  });
});

// The local storage routes' own bounds (STORAGE_MAX_CONCURRENT_UPLOADS / _DOWNLOADS), at 1 each, on a
// real port: an upload or download still streaming holds its slot; the next one is answered 503
// overloaded with Retry-After in the envelope, and is served once the slot is free.
describe(`storage route bounds (${ENGINE})`, () => {
  let hb: Harness;
  let tb: Tenant;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    hb = await startHarness({ storageLimits: { maxConcurrentUploads: 1, maxConcurrentDownloads: 1 } });
    tb = await hb.tenant('Bounded Brokers');
    server = createServer(hb.app);
    server.keepAliveTimeout = 120_000; // as in support/served.ts: no ECONNRESET after a pause on a loaded machine
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const closed = new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server?.closeAllConnections(); // idle keep-alive sockets would hold close() for their 120 s
    await closed;
    await hb?.close();
  });
  const at = (url: string) => `${base}${pathOf(url)}`;
  async function uploadSlot(): Promise<Json> {
    const biz = await hb.api.post('/v1/businesses').set(tb.auth()).send({ legal_name: `Bound ${Math.random().toString(36).slice(2, 8)} LLC` });
    const deal = await hb.api.post('/v1/deals').set(tb.auth()).send({ business_id: biz.body.data.id, requested_amount: 50000 });
    const res = await hb.api.post(`/v1/deals/${deal.body.data.id}/documents`).set(tb.auth()).send({ filename: 'a.pdf', content_type: 'application/pdf', size_bytes: PDF.length, category: 'other' });
    expect(res.status).toBe(201);
    return res.body.data;
  }
  const expectOverloaded = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ error: { type: 'api_error', code: 'overloaded', request_id: res.headers.get('x-request-id') } });
  };

  it('uploads: one streaming holds the only slot; the next is 503 overloaded with Retry-After, then served when it frees', async () => {
    const [a, b] = [await uploadSlot(), await uploadSlot()];
    const u = new URL(at(a.upload_url));
    const first = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'PUT', agent: false, headers: { ...a.upload_headers, 'Content-Length': String(PDF.length) } });
    const answer = new Promise<number>((resolve, reject) => first.on('response', (r: IncomingMessage) => { r.resume(); resolve(r.statusCode ?? 0); }).on('error', reject));
    const files = hb.app.locals.files as EventEmitter;
    const receiving = new Promise((r) => files.once('receiving', r));
    first.write(PDF.subarray(0, 100));
    await receiving;
    await expectOverloaded(await fetch(at(b.upload_url), { method: 'PUT', headers: b.upload_headers, body: PDF }));
    first.end(PDF.subarray(100));
    expect(await answer).toBe(200);
    expect((await fetch(at(b.upload_url), { method: 'PUT', headers: b.upload_headers, body: PDF })).status).toBe(200);
  });

  it('downloads: one stalled reader holds the only slot; the next is 503 overloaded, then served once that reader leaves', async () => {
    const big = Buffer.alloc(24 * 1024 * 1024, 0x41); // more than loopback socket buffers hold: the stream waits for its reader
    await hb.deps.storage.put('loc_bound/deal_bound/doc_big', big, 'application/pdf');
    const now = hb.clock.now();
    const url = at(await hb.deps.storage.presignDownload('loc_bound/deal_bound/doc_big', { filename: 'big.pdf', contentType: 'application/pdf', expiresAt: new Date(now.getTime() + 5 * MIN), now }));
    const u = new URL(url);
    const stalled = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, agent: false });
    stalled.on('error', () => undefined);
    const started = new Promise<IncomingMessage>((r) => stalled.on('response', r));
    stalled.end();
    const res = await started;
    res.pause(); // reads nothing more: the server's stream stalls with the slot held
    expect(res.statusCode).toBe(200);
    await expectOverloaded(await fetch(url));
    const freed = new Promise((r) => res.socket.once('close', r));
    stalled.destroy();
    await freed;
    // The server sees the reader gone a loop turn later: a bounded number of tries, then a loud failure.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const again = await fetch(url);
      status = again.status;
      await again.arrayBuffer();
    }
    expect(status).toBe(200);
  });
});
