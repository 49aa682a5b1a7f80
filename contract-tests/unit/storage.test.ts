import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, parseStorageUrl, StorageError, type Storage } from '../../src/storage';
import { localStorageRoutes, type StorageRouteEvents, type UploadOutcome } from '../../src/storage/routes';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '../support/s3-server';

// The storage interface's two back ends, the same cases against each: the local folder served by
// this server's signed routes (on a loopback port, its clock injected), and S3 through s3rver on
// loopback with real presigned URLs.

const MIN = 60_000;
let now = new Date('2026-11-23T12:00:00Z');
const clock = () => now;
let dir: string;
let server: Server;
let s3: S3Server;
let events: StorageRouteEvents;
const backends: Record<'local' | 's3', Storage> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-storage-'));
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backends.local = createStorage({ dataDir: dir, publicBaseUrl: base, signingKey: 'k'.repeat(64) });
  const app = express();
  // A bound above the concurrent uploads these tests make (the bound itself: documents.test.ts).
  const routes = localStorageRoutes(backends.local, { clock, maxConcurrentUploads: 1000 });
  events = routes.events;
  app.use(routes);
  server.on('request', app);
  s3 = await startS3Server();
  backends.s3 = createStorage({ storageUrl: s3.storageUrl, dataDir: dir, publicBaseUrl: base, signingKey: 'unused', s3Credentials: S3_CREDENTIALS });
});
afterAll(async () => {
  await backends.s3?.close?.();
  await s3?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x41)]);
let n = 0;
const key = () => `loc_T/deal_T/doc_${++n}`;
/** A real presign for `now` (local: the route checks expiry on the injected clock; S3: on its own clock, so the signing time moves). */
async function presign(s: Storage, k: string, o: { size?: number; type?: string; ttlMs?: number; signedAt?: Date } = {}) {
  const at = o.signedAt ?? (s.kind === 's3' ? new Date() : now);
  return s.presignUpload(k, { contentType: o.type ?? 'application/pdf', size: o.size ?? PDF.length, expiresAt: new Date(at.getTime() + (o.ttlMs ?? 15 * MIN)), now: at });
}
const put = (url: string, body: Buffer, headers: Record<string, string>) => fetch(url, { method: 'PUT', body, headers });

/** A PUT on its own connection, headers sent, body written by the caller. */
function rawPut(url: string, size: number, headers: Record<string, string>) {
  const u = new URL(url);
  const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'PUT', agent: false, headers: { ...headers, 'Content-Length': String(size) } });
  req.on('error', () => undefined); // the aborts are ours
  return req;
}
function responseOf(req: ReturnType<typeof rawPut>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
  });
}
/** The route's event for `k` (its listener added before the request is sent). */
function once(k: string, event: 'receiving'): Promise<void> {
  return new Promise((resolve) => {
    const on = (key: string) => {
      if (key !== k) return;
      events.off(event, on);
      resolve();
    };
    events.on(event, on);
  });
}
/**
 * How each upload of `keys` ended, once the route says all are over (their files closed and removed).
 * Fails loudly, naming the uploads still open, when that does not happen within 10 s.
 */
function settledOutcomes(keys: string[], emitter: StorageRouteEvents = events): Promise<Map<string, UploadOutcome>> {
  const got = new Map<string, UploadOutcome>();
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      emitter.off('settled', on);
      reject(new Error(`${keys.length - got.size} of ${keys.length} uploads never settled: ${keys.filter((k) => !got.has(k)).slice(0, 3).join(', ')}`));
    }, 10_000);
    const on = (key: string, outcome: UploadOutcome) => {
      if (!keys.includes(key)) return;
      got.set(key, outcome);
      if (got.size === keys.length) {
        clearTimeout(bound);
        emitter.off('settled', on);
        resolve(got);
      }
    };
    emitter.on('settled', on);
  });
}
const openDescriptors = () => readdirSync('/proc/self/fd').length;
/**
 * Sockets close a loop turn or two after the route settles: up to 1000 turns of the event loop for
 * the count to come back, then the assertion fails with the count it saw.
 */
async function descriptorsBackTo(baseline: number) {
  for (let i = 0; i < 1000 && openDescriptors() > baseline; i++) await new Promise((r) => setImmediate(r));
  expect(openDescriptors(), `open descriptors (baseline ${baseline})`).toBeLessThanOrEqual(baseline);
}
const partFiles = (sub: string) => readdirSync(join(dir, 'files', sub)).filter((f) => f.endsWith('.part'));

describe.each(['local', 's3'] as const)('%s storage', (kind) => {
  const s = () => backends[kind];

  it('presign, PUT, describe (size and SHA-256), read, download with the file name', async () => {
    const k = key();
    const up = await presign(s(), k);
    expect(up.headers).toEqual({ 'Content-Type': 'application/pdf' });
    expect((await put(up.url, PDF, up.headers)).status).toBe(200);
    expect(await s().describe(k)).toEqual({ size: PDF.length, sha256: createHash('sha256').update(PDF).digest('hex') });
    expect(Buffer.compare(await s().read(k), PDF)).toBe(0);
    expect(Buffer.compare(await s().readHead(k, 9), PDF.subarray(0, 9))).toBe(0);
    expect((await s().readHead(k, 10_000)).length).toBe(PDF.length);
    const at = kind === 's3' ? new Date() : now;
    const url = await s().presignDownload(k, { filename: 'Sunrise Oct statement.pdf', contentType: 'application/pdf', expiresAt: new Date(at.getTime() + 5 * MIN), now: at });
    const dl = await fetch(url);
    expect(dl.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await dl.arrayBuffer()), PDF)).toBe(0);
    expect(dl.headers.get('content-disposition')).toContain('Sunrise Oct statement.pdf');
  });

  it('an upload URL refuses another content type and a tampered signature, storing nothing', async () => {
    const k = key();
    const up = await presign(s(), k);
    if (kind === 'local') {
      const wrongType = await put(up.url, PDF, { 'Content-Type': 'image/png' });
      expect(wrongType.status).toBe(415);
    } else {
      // S3 refuses a request whose signed headers differ; s3rver does not check them, so what is
      // checked here is that the type and the size are signed (finalize checks both again).
      const q = new URL(up.url).searchParams;
      expect(q.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-type', 'content-length']));
      expect([...q.keys()].filter((x) => /checksum/i.test(x))).toEqual([]); // no checksum of an empty body signed in
    }
    // s3rver does not verify SigV4 signatures (its source says so), only the access key and the
    // expiry; against it, a URL signed with unknown credentials stands in for a forged one.
    const tampered =
      kind === 'local'
        ? up.url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`)
        : (await createStorage({ storageUrl: s3.storageUrl, dataDir: dir, publicBaseUrl: 'http://x', signingKey: 'x', s3Credentials: { accessKeyId: 'FORGED', secretAccessKey: 'FORGED' } })
            .presignUpload(k, { contentType: 'application/pdf', size: PDF.length, expiresAt: new Date(Date.now() + MIN), now: new Date() })).url;
    expect(tampered).not.toBe(up.url);
    expect((await put(tampered, PDF, up.headers)).status).toBe(403);
    expect(await s().describe(k)).toBeNull();
  });

  it('an expired upload URL is refused', async () => {
    const k = key();
    if (kind === 'local') {
      const up = await presign(s(), k, { ttlMs: 15 * MIN });
      now = new Date(now.getTime() + 15 * MIN);
      expect((await put(up.url, PDF, up.headers)).status).toBe(403);
    } else {
      const up = await presign(s(), k, { signedAt: new Date(Date.now() - 20 * MIN), ttlMs: 15 * MIN });
      expect((await put(up.url, PDF, up.headers)).status).toBe(403);
    }
    expect(await s().describe(k)).toBeNull();
  });

  it('read refuses an object over maxBytes before reading it; missing objects are not_found; delete is idempotent', async () => {
    const k = key();
    await s().put(k, PDF, 'application/pdf');
    await expect(s().read(k, { maxBytes: 100 })).rejects.toMatchObject({ code: 'too_large' });
    await expect(s().read(`${k}-missing`)).rejects.toBeInstanceOf(StorageError);
    expect(await s().describe(`${k}-missing`)).toBeNull();
    await s().delete(k);
    await s().delete(k);
    expect(await s().describe(k)).toBeNull();
  });
});

describe('local upload route', () => {
  const s = () => backends.local;
  it('refuses another size (more, fewer, zero bytes) and leaves no partial file behind', async () => {
    const k = key();
    const up = await presign(s(), k);
    expect((await put(up.url, Buffer.concat([PDF, Buffer.from('x')]), up.headers)).status).toBe(413);
    expect((await put(up.url, PDF.subarray(0, 10), up.headers)).status).toBe(400);
    expect((await put(up.url, Buffer.alloc(0), up.headers)).status).toBe(400);
    expect(await s().describe(k)).toBeNull();
    expect(readdirSync(join(dir, 'files', 'loc_T', 'deal_T')).filter((f) => f.includes('.part'))).toEqual([]);
  });

  it('a chunked upload (no Content-Length) is cut off as soon as it passes the declared size; nothing is stored', async () => {
    const k = key();
    const up = await presign(s(), k, { size: 1000 });
    const chunks = [Buffer.alloc(600, 1), Buffer.alloc(600, 2), Buffer.alloc(600, 3)];
    const body = new ReadableStream({
      pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    const res = await fetch(up.url, { method: 'PUT', body, headers: up.headers, duplex: 'half' } as RequestInit).catch((e: Error) => ({ status: 0, error: e }));
    expect([413, 0]).toContain(res.status); // the server answers 413 and closes; a client may see the reset instead
    expect(await s().describe(k)).toBeNull();
  });

  it('a re-upload before expiry replaces the bytes', async () => {
    const k = key();
    const up = await presign(s(), k);
    await put(up.url, PDF, up.headers);
    const other = Buffer.from(PDF);
    other[100] = 0x42;
    expect((await put(up.url, other, up.headers)).status).toBe(200);
    expect((await s().describe(k))!.sha256).toBe(createHash('sha256').update(other).digest('hex'));
  });

  it('clients gone mid-body (40 at once): every file descriptor is closed and no temporary file is left', async () => {
    const N = 40;
    const keys = Array.from({ length: N }, () => `loc_T/deal_abort/doc_${++n}`);
    const settled = settledOutcomes(keys);
    const baseline = openDescriptors();
    await Promise.all(keys.map(async (k) => {
      const up = await presign(s(), k, { size: 100_000 });
      const req = rawPut(up.url, 100_000, up.headers);
      const receiving = once(k, 'receiving');
      req.write(Buffer.alloc(10_000, 0x41));
      await receiving; // the server has opened the file for this upload
      req.destroy(); // the client is gone mid-body
    }));
    expect(new Set((await settled).values())).toEqual(new Set(['aborted']));
    await descriptorsBackTo(baseline);
    expect(partFiles('loc_T/deal_abort')).toEqual([]);
    for (const k of keys.slice(0, 3)) expect(await s().describe(k)).toBeNull();
  });

  it('a client gone before the file is opened (while the document is looked up) still leaves no descriptor and no temporary file', async () => {
    // Its own route, whose document lookup waits for the test: the client leaves during it.
    let lookedUp!: () => void;
    const lookup = new Promise<void>((r) => (lookedUp = r));
    let answer!: (open: boolean) => void;
    const routes = localStorageRoutes(backends.local, { clock, uploadOpen: () => { lookedUp(); return new Promise<boolean>((r) => (answer = r)); } });
    const srv = createServer(express().use(routes));
    const sockets: import('node:net').Socket[] = [];
    srv.on('connection', (c) => sockets.push(c));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    try {
      const k = `loc_T/deal_gap/doc_${++n}`;
      const up = await presign(s(), k, { size: 100_000 });
      const url = up.url.replace(/^http:\/\/[^/]+/, `http://127.0.0.1:${(srv.address() as AddressInfo).port}`);
      const baseline = openDescriptors();
      const settled = settledOutcomes([k], routes.events);
      const req = rawPut(url, 100_000, up.headers);
      req.write(Buffer.alloc(10_000, 0x41));
      await lookup;
      const serverSide = sockets[0];
      const closed = new Promise((r) => serverSide.once('close', r));
      req.destroy();
      await closed; // the server has seen the client leave, before the file exists
      answer(true);
      expect((await settled).get(k)).toBe('aborted');
      await descriptorsBackTo(baseline);
      expect(partFiles('loc_T/deal_gap')).toEqual([]);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  it('a disk error (the folder cannot be created) answers 503 in the envelope and leaves no descriptor open', async () => {
    mkdirSync(join(dir, 'files', 'loc_T'), { recursive: true });
    writeFileSync(join(dir, 'files', 'loc_T', 'deal_file'), 'not a folder');
    const k = `loc_T/deal_file/doc_${++n}`;
    const settled = settledOutcomes([k]);
    const baseline = openDescriptors();
    const up = await presign(s(), k);
    const res = await put(up.url, PDF, up.headers);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { type: 'api_error', code: 'storage_unavailable' } });
    expect((await settled).get(k)).toBe('error');
    await descriptorsBackTo(baseline);
  });

  it('one upload per URL at a time: a second PUT while the first streams answers 409, and the first completes', async () => {
    const k = key();
    const up = await presign(s(), k);
    const first = rawPut(up.url, PDF.length, up.headers);
    const answer = responseOf(first);
    const receiving = once(k, 'receiving');
    first.write(PDF.subarray(0, 1000));
    await receiving;
    const other = Buffer.from(PDF);
    other[200] = 0x42;
    const second = await put(up.url, other, up.headers);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { type: 'conflict', code: 'upload_in_progress' } });
    first.end(PDF.subarray(1000));
    expect((await answer).status).toBe(200);
    expect((await s().describe(k))!.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    // Once the first is over the URL takes an upload again (before finalize, a re-upload replaces the bytes).
    expect((await put(up.url, other, up.headers)).status).toBe(200);
  });

  it('keys that could leave the root are refused', async () => {
    await expect(s().put('../escape', PDF, 'application/pdf')).rejects.toBeInstanceOf(StorageError);
    await expect(s().presignUpload('a/../../b', { contentType: 'application/pdf', size: 1, expiresAt: now, now })).rejects.toBeInstanceOf(StorageError);
    const res = await fetch(`${(await presign(s(), key())).url.split('/files/')[0]}/files/upload/..%2F..%2Fetc%2Fpasswd?expires=1&size=1&type=x&signature=${'0'.repeat(64)}`, { method: 'PUT', body: 'x', headers: { 'Content-Type': 'x' } });
    expect(res.status).toBe(403);
  });

  it('a download URL stops at its expiry (on the injected clock) and answers in the envelope', async () => {
    const k = key();
    await s().put(k, PDF, 'application/pdf');
    const url = await s().presignDownload(k, { filename: 'a.pdf', contentType: 'application/pdf', expiresAt: new Date(now.getTime() + 5 * MIN), now });
    now = new Date(now.getTime() + 5 * MIN);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'download_url_expired' } });
  });
});

describe('STORAGE_URL', () => {
  it('parses local and S3 URLs and names what is wrong with a bad one', () => {
    expect(parseStorageUrl(undefined)).toEqual({ kind: 'local' });
    expect(parseStorageUrl('s3://docs')).toEqual({ kind: 's3', bucket: 'docs', endpoint: undefined, region: 'us-east-1', forcePathStyle: false });
    expect(parseStorageUrl('s3://docs?endpoint=http://127.0.0.1:4569&region=eu-west-1')).toEqual({ kind: 's3', bucket: 'docs', endpoint: 'http://127.0.0.1:4569', region: 'eu-west-1', forcePathStyle: true });
    expect(() => parseStorageUrl('gs://docs')).toThrow(/s3:\/\//);
    expect(() => parseStorageUrl('s3://docs?bucket=x')).toThrow(/unknown parameter bucket/);
    expect(() => parseStorageUrl('s3://key:secret@docs')).toThrow(/credentials/);
    expect(() => parseStorageUrl('s3://docs?endpoint=ftp://x')).toThrow(/http/);
  });
});
