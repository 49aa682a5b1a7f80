import express, { type NextFunction, type Request, type Response } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { contractValidator } from '../../src/app';
import { loadSpec } from '../../src/http/spec';
import { fastPath, fastPathStats } from '../../src/http/validator-fast';

// src/http/validator-fast.ts takes a GET with plain scalar query and path parameters past
// express-openapi-validator's parameter mutator, to the validator's own compiled checks. The
// reference is the validator's own middleware (fastPath off): every request must come out the
// same, accepted with the same coerced and defaulted parameters, or refused with the same error.

/** The contract validator in front of three GET operations that answer what they were handed. */
function appOn() {
  const app = express();
  app.set('query parser', 'extended');
  app.use(contractValidator(loadSpec(), false));
  const echo = (req: Request, res: Response) => {
    res.json({ query: req.query, params: req.params, pathParams: (req as unknown as { openapi: { pathParams: unknown } }).openapi.pathParams });
  };
  app.get('/v1/people', echo);
  app.get('/v1/businesses', echo);
  app.get('/v1/deals/:id', echo);
  app.use((err: Error & { status?: number; errors?: unknown }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ message: err.message, errors: err.errors });
  });
  return app;
}

const DEAL = 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X';
/** Requests the fast path takes (plain query strings), valid and invalid. */
const PLAIN = [
  '/v1/people',
  '/v1/people?limit=5',
  '/v1/people?limit=5&cursor=abc.def-_~',
  '/v1/people?limit=abc',
  '/v1/people?limit=0',
  '/v1/people?limit=101',
  '/v1/people?limit=5.5',
  '/v1/people?limit=1e3',
  '/v1/people?email=a%40b.example',
  '/v1/people?email=nope&limit=abc&business_id=x',
  '/v1/people?phone=%2B13035550177',
  '/v1/people?created_after=2026-01-01T00%3A00%3A00Z',
  '/v1/people?created_after=yesterday',
  '/v1/businesses?status=active&limit=10',
  '/v1/businesses?status=bogus',
  '/v1/businesses?search=%E2%82%AC',
  `/v1/deals/${DEAL}`,
  '/v1/deals/deal_bad',
  '/v1/people?__proto__=1', // the query parser drops it: an empty query, as the validator sees it too
];
/** Requests the fast path hands to the validator's own middleware. */
const OTHER = [
  '/v1/people?nope=1',
  '/v1/people?LIMIT=5',
  '/v1/people?limit=',
  '/v1/people?limit',
  '/v1/people?limit=5&limit=6',
  '/v1/people?limit[a]=1',
  '/v1/people?limit=5&',
  '/v1/people?=1',
  '/v1/people?hasOwnProperty=1',
  '/v1/people?email=a@b.example',
  '/v1/people?phone=+13035550177',
  '/v1/people?created_after=2026-01-01T00:00:00Z',
  '/v1/people?cursor=a,b',
  `/v1/deals/${DEAL}?limit=1`,
];

async function answers(app: express.Express, urls: string[]) {
  const out: Record<string, { status: number; body: unknown }> = {};
  const fast: string[] = [];
  for (const url of urls) {
    const before = fastPathStats.fast;
    const r = await supertest(app).get(url);
    out[url] = { status: r.status, body: r.body };
    if (fastPathStats.fast > before) fast.push(url);
  }
  return { out, fast };
}

describe('the validator fast path for plain query and path parameters', () => {
  it('answers every request exactly as the validator alone does', async () => {
    const app = appOn();
    const urls = [...PLAIN, ...OTHER];
    fastPath.enabled = false;
    const { out: reference, fast: none } = await answers(app, urls);
    fastPath.enabled = true;
    const { out: answered, fast } = await answers(app, urls);
    expect(none).toEqual([]);
    expect(answered).toEqual(reference);
    // Both kinds were seen: some accepted with coerced values and defaults, some refused.
    expect(reference['/v1/people?limit=5'].body).toMatchObject({ query: { limit: 5 } });
    expect(reference['/v1/people'].body).toMatchObject({ query: { limit: 25 } });
    expect(reference['/v1/people?limit=abc'].status).toBe(400);
    // Every valid plain request was answered on the fast path (an invalid one went on to the
    // validator's own middleware for its error); every other one went to the validator's at once.
    const valid = PLAIN.filter((u) => reference[u].status === 200);
    expect(valid.length).toBeGreaterThan(5);
    expect(fast).toEqual(valid);
  });
});
