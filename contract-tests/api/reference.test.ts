import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_PATH } from '../../src/http/spec';
import express from 'express';
import request from 'supertest';
import { DOCS_PATH, referenceRoutes } from '../../src/web/reference/reference.routes';
import { buildDocs } from '../../scripts/docs.mjs';
import { ENGINE, startHarness, type Harness } from '../support/harness';

// The contract and the reference, served by the API without a credential.
let h: Harness;
beforeAll(async () => {
  if (!existsSync(DOCS_PATH)) buildDocs(DOCS_PATH);
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

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
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'");
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
    expect(servers(page).slice(0, 2)).toEqual([{ url: 'http://127.0.0.1:3000', description: 'This server' }, { url: PROD, description: 'Production' }]);
    expect(page.includes(`curl -sS -X POST \\"http://127.0.0.1:3000/v1/businesses\\"`), 'curl sample').toBe(true);
    expect(page.includes(`createClient({ baseUrl: 'http://127.0.0.1:3000'`), 'TypeScript sample').toBe(true);
    expect(page.includes(`\\"http://127.0.0.1:3000/v1/deals?limit=25&status=open\\"`), 'Python sample').toBe(true);
    expect(page.includes(`${PROD}/v1/`), 'no sample left on production').toBe(false);
    expect(page.split(PROD).length - 1).toBe(1); // only the servers list's second entry
  });

  it('without PUBLIC_BASE_URL, /docs offers the address it was asked at (scheme from X-Forwarded-Proto only under trust proxy); a Host that is not an address changes nothing', async () => {
    const plain = express().use(referenceRoutes({}));
    const asked = await request(plain).get('/docs').set('Host', 'docs.partner.test:8080').set('X-Forwarded-Proto', 'https');
    expect(servers(asked.text)[0]).toEqual({ url: 'http://docs.partner.test:8080', description: 'This server' });
    expect(asked.text.includes(`createClient({ baseUrl: 'http://docs.partner.test:8080'`)).toBe(true);
    expect(asked.headers.vary).toBe('Host, X-Forwarded-Proto');

    const proxied = express().set('trust proxy', 1).use(referenceRoutes({}));
    const behind = await request(proxied).get('/docs').set('Host', 'api.partner.test').set('X-Forwarded-Proto', 'https');
    expect(servers(behind.text)[0]).toEqual({ url: 'https://api.partner.test', description: 'This server' });

    const hostile = await request(plain).get('/docs').set('Host', 'x"><script>alert(1)</script>');
    expect(servers(hostile.text)[0]).toEqual({ url: PROD, description: 'Production' });
    expect(hostile.text.includes('<script>alert(1)')).toBe(false);
  });
});
