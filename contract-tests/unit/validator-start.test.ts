import express, { type NextFunction, type Request, type Response } from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractValidator } from '../../src/app';
import { loadSpec } from '../../src/http/spec';

// src/http/validator-start.ts remembers, per document hash, that express-openapi-validator's
// OpenAPI schema check passed (and that bundling left the document as it was), so a later start
// skips them. Only a pass is remembered: a document that fails is refused at every start.

/** An app behind the contract validator built from `doc`; answers 200, or 500 with the error's message. */
function appOn(doc: Record<string, unknown>) {
  const app = express();
  app.use(express.json());
  app.use(contractValidator(doc, false));
  app.get('/v1/people', (_req, res) => {
    res.json({ ok: true });
  });
  app.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ message: err.message });
  });
  return app;
}

describe('the validator start', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses a contract that fails the OpenAPI schema check at every start: a failure is never remembered as checked', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // the library prints the failed check
    const broken = loadSpec();
    broken.info = 'not an Info Object';
    for (let start = 0; start < 3; start++) {
      const r = await supertest(appOn(structuredClone(broken))).get('/v1/people');
      expect(r.status).toBe(500);
      expect(r.body.message).toMatch(/apiDoc was invalid/);
    }
  });

  it('serves on the real contract at every start (the remembered check and bundle give the same validator)', async () => {
    for (let start = 0; start < 2; start++) {
      const app = appOn(loadSpec());
      // An unknown query parameter is refused by the request validator, a known one passes.
      expect((await supertest(app).get('/v1/people?limit=5')).status).toBe(200);
      const bad = await supertest(app).get('/v1/people?nope=1');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/Unknown query parameter 'nope'/);
    }
  });
});
