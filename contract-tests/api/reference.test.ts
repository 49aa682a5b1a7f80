import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_PATH } from '../../src/http/spec';
import express from 'express';
import request from 'supertest';
import { DOCS_CSP, DOCS_PATH, pageForBase, pickEncoding, referenceRoutes } from '../../src/web/reference/reference.routes';
import { docsPage } from '../support/global-setup-docs';
import { ENGINE, type Harness } from '../support/harness';
import { startServedHarness } from '../support/served';

// The contract and the reference, served by the API without a credential.
let h: Harness;
let served: Awaited<ReturnType<typeof startServedHarness>>;
beforeAll(async () => {
  // This checkout's page (built once per run, for this file and reference-browser.test.ts: global-setup-docs.ts).
  expect(await docsPage()).toBe(DOCS_PATH);
  served = await startServedHarness();
  h = served.h;
});
afterAll(async () => {
  await served?.close();
});

/** A raw GET on the listening server: the bytes as sent (no client-side decompression). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${served.base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`the contract and the reference (${ENGINE})`, () => {
  it('GET /openapi.yaml is the hand-written file, byte for byte; /openapi.json the same document', async () => {
    const yaml = await h.api.get('/openapi.yaml').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(Buffer.compare(yaml.body as Buffer, readFileSync(SPEC_PATH))).toBe(0);
    const json = await h.api.get('/openapi.json');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.body).toEqual(parse(readFileSync(SPEC_PATH, 'utf8')));
    expect(json.headers['access-control-allow-origin']).toBe('*');
  });

  it('GET /docs is the built reference with the code samples; HEAD works; no credential needed', async () => {
    const page = await h.api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>Deal-Funding Platform API</title>');
    expect(page.text).toContain('import urllib.request');
    expect(page.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("frame-ancestors 'none'");
    expect(DOCS_CSP).toContain("connect-src 'self' blob:");
    expect((await h.api.head('/openapi.yaml')).status).toBe(200);
    expect((await h.api.get('/openapi.yml')).status).toBe(404);
  });

  // Samples copied from a server's own /docs run against that server; the built file keeps production.
  const PROD = 'https://api.svc.example';
  const servers = (html: string) => JSON.parse(html.match(/"servers":(\[[^\]]*\])/)![1]) as { url: string; description: string }[];

  it('GET /docs offers this server first (PUBLIC_BASE_URL): the servers list, every sample; the built page keeps production', async () => {
    const built = readFileSync(DOCS_PATH, 'utf8');
    expect(servers(built)[0]).toEqual({ url: PROD, description: 'Production' });
    expect(built.includes(`curl -sS -X POST \\"${PROD}/v1/businesses\\"`), 'the built page samples production').toBe(true);

    const page = (await h.api.get('/docs')).text;
    expect(servers(page).slice(0, 2)).toEqual([{ url: served.base, description: 'This server' }, { url: PROD, description: 'Production' }]);
    expect(page.includes(`curl -sS -X POST \\"${served.base}/v1/businesses\\"`), 'curl sample').toBe(true);
    expect(page.includes(`createClient({ baseUrl: '${served.base}'`), 'TypeScript sample').toBe(true);
    expect(page.includes(`\\"${served.base}/v1/deals?limit=25&status=open\\"`), 'Python sample').toBe(true);
    expect(page.includes(`${PROD}/v1/`), 'no sample left on production').toBe(false);
    expect(page.split(PROD).length - 1).toBe(1); // only the servers list's second entry
  });

  it('without PUBLIC_BASE_URL, /docs offers the address it was asked at (scheme from X-Forwarded-Proto only under trust proxy); a Host that is not an address changes nothing', async () => {
    const plain = express().use(referenceRoutes({}));
    const asked = await request(plain).get('/docs').set('Host', 'docs.partner.test:8080').set('X-Forwarded-Proto', 'https');
    expect(servers(asked.text)[0]).toEqual({ url: 'http://docs.partner.test:8080', description: 'This server' });
    expect(asked.text.includes(`createClient({ baseUrl: 'http://docs.partner.test:8080'`)).toBe(true);
    expect(asked.headers.vary).toBe('Host, X-Forwarded-Proto, Accept-Encoding');

    const proxied = express().set('trust proxy', 1).use(referenceRoutes({}));
    const behind = await request(proxied).get('/docs').set('Host', 'api.partner.test').set('X-Forwarded-Proto', 'https');
    expect(servers(behind.text)[0]).toEqual({ url: 'https://api.partner.test', description: 'This server' });

    const hostile = await request(plain).get('/docs').set('Host', 'x"><script>alert(1)</script>');
    expect(servers(hostile.text)[0]).toEqual({ url: PROD, description: 'Production' });
    expect(hostile.text.includes('<script>alert(1)')).toBe(false);
  });

  it('GET / leads to the reference: a redirect to /docs for a browser or curl, the addresses as JSON for a JSON client', async () => {
    for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*', undefined]) {
      const res = await raw('/', accept ? { Accept: accept } : {});
      expect(res.status, String(accept)).toBe(302);
      expect(res.headers.location).toBe('/docs');
    }
    const json = await raw('/', { Accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body.toString())).toEqual({ reference: '/docs', openapi_yaml: '/openapi.yaml', openapi_json: '/openapi.json', api: '/v1' });
    expect(json.headers.vary).toContain('Accept');
    expect((await raw('/nothing-here')).status).toBe(404);
  });

  it('/docs is sent compressed (br, else gzip) when accepted, identical once decoded, and as it is otherwise', async () => {
    const page = Buffer.from(pageForBase(readFileSync(DOCS_PATH, 'utf8'), PROD, served.base)); // this server's page (its own address)
    const plain = await raw('/docs');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.body, page)).toBe(0);
    const br = await raw('/docs', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(Buffer.compare(brotliDecompressSync(br.body), page)).toBe(0);
    const gz = await raw('/docs', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(gunzipSync(gz.body), page)).toBe(0);
    // Measured: the 3.4 MB page goes out at well under a quarter of its size.
    expect(br.body.length).toBeLessThan(page.length / 4);
    expect(gz.body.length).toBeLessThan(page.length / 3);
    console.log(`/docs: ${page.length} bytes, br ${br.body.length}, gzip ${gz.body.length}`);
    const yaml = await raw('/openapi.yaml', { 'Accept-Encoding': 'gzip' });
    expect(Buffer.compare(gunzipSync(yaml.body), readFileSync(SPEC_PATH))).toBe(0);
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('gzip;q=0, *;q=0')).toBe('identity');
  });

  it('/docs is cached: Cache-Control and an ETag per encoding; revalidation answers 304 with no body', async () => {
    const first = await raw('/docs', { 'Accept-Encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}-br"$/);
    const again = await raw('/docs', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // The plain copy's tag revalidates too (same bytes); a stale tag gets the page.
    const plainTag = (await raw('/docs')).headers.etag as string;
    expect(plainTag).toBe(etag.replace('-br"', '"'));
    expect((await raw('/docs', { 'If-None-Match': plainTag })).status).toBe(304);
    const stale = await raw('/docs', { 'If-None-Match': '"AAAAAAAAAAAAAAAAAAAAAAAAAAA"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(Buffer.byteLength(pageForBase(readFileSync(DOCS_PATH, 'utf8'), PROD, served.base)));
    expect((await raw('/openapi.json', { 'If-None-Match': (await raw('/openapi.json')).headers.etag as string })).status).toBe(304);
    // HEAD: the headers, no body.
    const head = await raw('/docs', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag.replace('-br"', '-gzip"'));
    expect(head.body.length).toBe(0);
  });
});
