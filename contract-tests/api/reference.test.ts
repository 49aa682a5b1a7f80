import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_PATH } from '../../src/http/spec';
import { DOCS_PATH } from '../../src/web/reference/reference.routes';
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
});
