import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '../support/s3-server';
import { SPECS, statementFixture } from '../support/statement-fixtures';

// Documents on S3-compatible storage (STORAGE_URL=s3://...), against s3rver on loopback: the API
// presigns S3 URLs, the client PUTs straight to the bucket, finalize reads what arrived there, the
// download link is S3's, statement analysis reads the bytes from the bucket, and the portal's
// Content-Security-Policy lets the browser upload to the bucket's origin and nowhere else.

let h: Harness;
let t: Tenant;
let s3: S3Server;
let worker: Worker;

beforeAll(async () => {
  registerAllJobs();
  s3 = await startS3Server();
  h = await startHarness({ storageUrl: s3.storageUrl, s3Credentials: S3_CREDENTIALS, start: new Date().toISOString() });
  t = await h.tenant('S3 Brokers');
  worker = new Worker(h.deps, { concurrency: 2 });
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
  await s3?.close();
});

type Json = Record<string, any>;
async function post(path: string, body?: object) {
  const req = h.api.post(path).set(t.auth());
  return ((body === undefined ? await req : await req.send(body)) as unknown as { status: number; body: Json });
}
async function newDeal() {
  const biz = await post('/v1/businesses', { legal_name: `S3 ${Math.random().toString(36).slice(2, 8)} LLC` });
  await post('/v1/people', { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@s3.example', business_id: biz.body.data.id });
  return (await post('/v1/deals', { business_id: biz.body.data.id, requested_amount: 40000 })).body.data.id as string;
}

describe(`documents on S3 storage (${ENGINE})`, () => {
  it('presigned PUT to the bucket, finalize, S3 download link; a bank statement is analysed from the bucket', async () => {
    const dealId = await newDeal();
    const statement = await statementFixture(SPECS[2]);
    const slot = (await post(`/v1/deals/${dealId}/documents`, { filename: 'harborview-oct.pdf', content_type: 'application/pdf', size_bytes: statement.bytes.length, category: 'bank_statement' })).body.data;
    expect(slot.upload_url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const put = await fetch(slot.upload_url, { method: 'PUT', headers: slot.upload_headers, body: Buffer.from(statement.bytes) });
    expect(put.status).toBe(200);
    const fin = await post(`/v1/documents/${slot.document.id}/finalize`);
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    expect(fin.body.data).toMatchObject({ size_bytes: statement.bytes.length, sha256: createHash('sha256').update(statement.bytes).digest('hex') });
    const doc = (await h.api.get(`/v1/documents/${slot.document.id}`).set(t.auth())).body.data;
    expect(doc.download_url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const dl = await fetch(doc.download_url);
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(statement.bytes))).toBe(true);
    expect(dl.headers.get('content-disposition')).toContain('harborview-oct.pdf');
    await worker.drain();
    const analysis = (await h.api.get(`/v1/deals/${dealId}/statement-analysis`).set(t.auth())).body.data;
    expect(analysis).toMatchObject({ status: 'completed', statements_parsed: 1 });
    expect(analysis.statements[0]).toMatchObject({ parsed: true, true_revenue: statement.expected.true_revenue, mca_count: statement.expected.mca_count });
  });

  it('finalize says upload_missing when nothing, or not the declared size, reached the bucket', async () => {
    const dealId = await newDeal();
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1000, 0x20)]);
    const slot = (await post(`/v1/deals/${dealId}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: bytes.length, category: 'other' })).body.data;
    const none = await post(`/v1/documents/${slot.document.id}/finalize`);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('upload_missing');
    // s3rver stores a body of another length (S3 itself refuses it: the length is signed); finalize catches it either way.
    await fetch(slot.upload_url, { method: 'PUT', headers: slot.upload_headers, body: bytes.subarray(0, 500) });
    const short = await post(`/v1/documents/${slot.document.id}/finalize`);
    expect(short.status).toBe(409);
    expect(short.body.error).toMatchObject({ code: 'upload_missing' });
    expect(short.body.error.message).toContain('500 bytes');
  });

  it('a PUT to the upload URL after finalize cannot change the document: finalize pinned its own copy, which is what is hashed, read and downloaded', async () => {
    const dealId = await newDeal();
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 0x20)]);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const slot = (await post(`/v1/deals/${dealId}/documents`, { filename: 'pinned.pdf', content_type: 'application/pdf', size_bytes: bytes.length, category: 'other' })).body.data;
    expect((await fetch(slot.upload_url, { method: 'PUT', headers: slot.upload_headers, body: bytes })).status).toBe(200);
    const fin = await post(`/v1/documents/${slot.document.id}/finalize`);
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    expect(fin.body.data.sha256).toBe(sha);

    // A presigned PUT cannot be revoked before its expiry: the bucket takes it (same size and type).
    const swapped = Buffer.from(bytes);
    swapped.write('%PDF-1.4\nswapped after the check', 0);
    expect((await fetch(slot.upload_url, { method: 'PUT', headers: slot.upload_headers, body: swapped })).status).toBe(200);

    const row = await h.knex('documents').where({ id: slot.document.id }).first('storage_key', 'sha256');
    expect(row.sha256).toBe(sha);
    expect(createHash('sha256').update(await h.deps.storage.read(row.storage_key)).digest('hex')).toBe(sha);
    const doc = (await h.api.get(`/v1/documents/${slot.document.id}`).set(t.auth())).body.data;
    const dl = await fetch(doc.download_url);
    expect(createHash('sha256').update(Buffer.from(await dl.arrayBuffer())).digest('hex')).toBe(sha);
    expect(new URL(slot.upload_url).pathname).not.toContain(row.storage_key); // the pinned key is no upload URL's
  });

  it("the portal's Content-Security-Policy allows uploads to the bucket's origin only", async () => {
    const dealId = await newDeal();
    const link = (await post(`/v1/deals/${dealId}/portal-links`, { purpose: 'documents', send: false })).body.data;
    const open = await h.api.get(new URL(link.url).pathname);
    const cookie = String(open.headers['set-cookie'][0]).split(';')[0];
    const page = await h.api.get('/portal').set('Cookie', cookie);
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ${s3.endpoint};`);
  });
});
