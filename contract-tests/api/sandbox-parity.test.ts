import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../mocks/sandbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { countSchemaCompilations } from '../support/schema-compilations';

// The sandbox answers an invalid request as production does: the same invalid requests go to
// `npm run mock` (Prism behind mocks/sandbox.ts) and to the real server, and must get the same
// status, error type, code, param and message. Once, on PostgreSQL (the answers come before any
// database work).

const DEAL = 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X';
let sandbox: Sandbox;
let h: Harness;
let t: Tenant;

type Case = { name: string; method: string; path: string; body?: string; type?: string; auth?: boolean };
const json = 'application/json';
const CASES: Case[] = [
  { name: 'limit above 100', method: 'GET', path: '/v1/deals?limit=500' },
  { name: 'limit 0', method: 'GET', path: '/v1/deals?limit=0' },
  { name: 'limit not a number', method: 'GET', path: '/v1/deals?limit=abc' },
  { name: 'an enum value that does not exist', method: 'GET', path: '/v1/deals?status=nope' },
  { name: 'an unknown query parameter', method: 'GET', path: '/v1/deals?colour=red' },
  { name: 'a path id of the wrong shape', method: 'GET', path: '/v1/deals/not-an-id' },
  { name: 'a malformed %-escape', method: 'GET', path: '/v1/deals/deal_%E0%A4%A' },
  { name: 'malformed JSON', method: 'POST', path: '/v1/businesses', body: '{"legal_name": ', type: json },
  { name: 'a wrong type', method: 'POST', path: '/v1/businesses', body: '{"legal_name": 5}', type: json },
  { name: 'a missing required field', method: 'POST', path: '/v1/businesses', body: '{}', type: json },
  { name: 'an unknown field', method: 'POST', path: '/v1/businesses', body: '{"legal_name": "Acme LLC", "colour": "red"}', type: json },
  { name: 'a NUL character', method: 'POST', path: '/v1/businesses', body: '{"legal_name": "Acme\\u0000 LLC"}', type: json },
  { name: 'no body where one is required', method: 'POST', path: '/v1/businesses' },
  { name: 'a body that is not JSON', method: 'POST', path: '/v1/businesses', body: 'legal_name=Acme', type: 'application/x-www-form-urlencoded' },
  { name: 'a body over 1 MB', method: 'POST', path: '/v1/businesses', body: JSON.stringify({ legal_name: 'x'.repeat(1_100_000) }), type: json },
  { name: 'an empty list where one item is required', method: 'POST', path: `/v1/deals/${DEAL}/submissions`, body: '{"lender_ids": []}', type: json },
  { name: 'an unknown route', method: 'GET', path: '/v1/nowhere' },
  { name: 'a method the path does not have', method: 'DELETE', path: '/v1/deals' },
  { name: 'no credential', method: 'GET', path: '/v1/deals', auth: false },
];

describe.skipIf(ENGINE !== 'pg')('the sandbox answers invalid requests as production does (pg)', () => {
  beforeAll(async () => {
    sandbox = await startSandbox(0);
    h = await startHarness();
    t = await h.tenant('Parity');
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await h?.close();
  });

  it.each(CASES)('$name: same status, type, code, param and message', async (c) => {
    const headers: Record<string, string> = {};
    if (c.type) headers['content-type'] = c.type;
    const real = await (() => {
      let req = (h.api as unknown as Record<string, (p: string) => any>)[c.method.toLowerCase()](c.path);
      if (c.auth !== false) req = req.set(t.auth('admin'));
      if (c.type) req = req.set('Content-Type', c.type);
      return c.body !== undefined ? req.send(c.body) : req;
    })();
    if (c.auth !== false) headers.authorization = `Bearer ${t.keys.admin}`;
    const res = await fetch(`${sandbox.url}${c.path}`, { method: c.method, headers, body: c.body });
    const mock = { status: res.status, body: (await res.json()) as { error: Record<string, string> } };
    expect(real.status, JSON.stringify(real.body)).toBeGreaterThanOrEqual(400);
    const pick = (e: Record<string, string>) => ({ type: e.type, code: e.code, param: e.param, message: e.message });
    expect({ status: mock.status, ...pick(mock.body.error) }).toEqual({ status: real.status, ...pick(real.body.error) });
  });

  it('Content-Type parameters cannot make the sandbox compile or grow: each shape answers alike, no schema is added', async () => {
    // Counted in this process: the sandbox runs here.
    const compiled = countSchemaCompilations();
    try {
      const send = (method: string, path: string, type: string, body?: string) =>
        fetch(`${sandbox.url}${path}`, { method, headers: { authorization: `Bearer ${t.keys.admin}`, 'content-type': type }, body });
      const shapes = (i: number) => [
        { status: 400, send: () => send('GET', '/v1/deals?limit=500', `application/json; x=${i}`) },
        { status: 400, send: () => send('POST', '/v1/businesses', `Application/JSON; charset=utf-8; x=${i}`, '{}') },
        { status: 415, send: () => send('POST', '/v1/businesses', `text/x-${i}`, 'x') },
      ];
      for (const shape of shapes(0)) expect((await shape.send()).status).toBe(shape.status);
      const before = compiled.count();
      for (let i = 1; i <= 20; i++) {
        for (const [n, shape] of shapes(i).entries()) expect((await shape.send()).status, `shape ${n} #${i}`).toBe(shape.status);
      }
      expect(compiled.count() - before).toBe(0);
    } finally {
      compiled.restore();
    }
  });
});
