/**
 * The typed client: its runtime behaviour (with a fake fetch) and its compile-time guarantees
 * (client-types.typecheck.ts, type-checked here with tsc).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClient,
  type ApiError,
  type components,
  type CreateClientOptions,
  type ListMeta,
  type RequestBody,
  type Submission,
  type SubmissionStatus,
} from '../../src/client';
import { BIN, ROOT, run } from './helpers';

const SPEC_DIR = join(ROOT, 'contract-tests', 'spec');
const TYPECHECK_FILE = join(SPEC_DIR, 'client-types.typecheck.ts');

describe('createClient at runtime', () => {
  const seen: Request[] = [];
  const fakeFetch = async (request: Request): Promise<Response> => {
    seen.push(request);
    const notFound = request.url.includes('deal_00000000000000000000000000');
    const body = notFound
      ? { error: { type: 'not_found', message: 'No deal', code: 'resource_missing', param: 'id', request_id: 'req_1' } }
      : { data: [], meta: { next_cursor: null, has_more: false } };
    return new Response(JSON.stringify(body), {
      status: notFound ? 404 : 200,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1' },
    });
  };
  const api = createClient({ baseUrl: 'http://sandbox.test/', apiKey: 'svc_live_abc', fetch: fakeFetch });

  it('sends the bearer key, fills path parameters and serialises the query', async () => {
    const { data, error, response } = await api.GET('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X' }, query: { status: 'approved', limit: 10 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toEqual({ data: [], meta: { next_cursor: null, has_more: false } });
    const request = seen.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('http://sandbox.test/v1/deals/deal_01JD1B4D6F8H0K2M4P6R8T0V2X/submissions?status=approved&limit=10');
    expect(request.headers.get('authorization')).toBe('Bearer svc_live_abc');
  });

  it('sends per-request headers (Idempotency-Key) and JSON bodies; null removes a header', async () => {
    await api.POST('/v1/deals/{dealId}/submissions', {
      params: { path: { dealId: 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X' }, header: { 'Idempotency-Key': 'key-1' } },
      body: { lender_ids: ['lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0'], document_ids: [], send: false },
    });
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.get('idempotency-key')).toBe('key-1');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toEqual({ lender_ids: ['lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0'], document_ids: [], send: false });

    await api.GET('/v1/pipeline/stages', { headers: { Authorization: null } });
    expect(seen.at(-1)!.headers.has('authorization')).toBe(false);
  });

  it('returns the error envelope as `error` on non-2xx answers', async () => {
    const { data, error, response } = await api.GET('/v1/deals/{id}', {
      params: { path: { id: 'deal_00000000000000000000000000' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error).toMatchObject({ type: 'not_found', code: 'resource_missing', request_id: 'req_1' });
  });

  it('refuses to build a client without a base address or a key', () => {
    expect(() => createClient({ baseUrl: 'http://sandbox.test', apiKey: '' })).toThrow(/apiKey/);
    expect(() => createClient({ baseUrl: '', apiKey: 'svc_live_abc' })).toThrow(/baseUrl/);
  });
});

describe('createClient types', () => {
  it('exposes the generated types under convenient names', () => {
    // Checked by tsc (below, and in `npx tsc --noEmit -p .`); no-ops at runtime.
    expectTypeOf<Submission>().toEqualTypeOf<components['schemas']['Submission']>();
    expectTypeOf<Submission['status']>().toEqualTypeOf<SubmissionStatus>();
    expectTypeOf<SubmissionStatus>().toEqualTypeOf<
      'pending' | 'queued' | 'recorded' | 'sent' | 'approved' | 'declined' | 'needs_info' | 'expired' | 'funded' | 'withdrawn'
    >();
    expectTypeOf<ListMeta>().toEqualTypeOf<{ next_cursor: string | null; has_more: boolean }>();
    expectTypeOf<ApiError['type']>().toEqualTypeOf<
      'validation_error' | 'authentication_error' | 'permission_error' | 'not_found' | 'conflict' | 'rate_limit_error' | 'api_error'
    >();
    expectTypeOf<RequestBody<'createDealSubmissions'>>().toHaveProperty('lender_ids').toEqualTypeOf<string[]>();
    expectTypeOf(createClient).parameter(0).toEqualTypeOf<CreateClientOptions>();
  });

  const tmp = mkdtempSync(join(tmpdir(), 'client-types-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('client-types.typecheck.ts compiles, and each of its @ts-expect-error lines is exactly one error', async () => {
    // One tsc program (to keep the run short) over:
    //  - src/client.ts, client-types.typecheck.ts and this file, which must compile cleanly (an
    //    expect-error directive that no longer meets an error is itself an error, TS2578);
    //  - a copy of client-types.typecheck.ts without the directives, which must fail on exactly
    //    the lines below them: every directive guards the very line it claims to.
    const source = readFileSync(TYPECHECK_FILE, 'utf8')
      .replace("from '../../src/client'", `from ${JSON.stringify(join(ROOT, 'src', 'client'))}`)
      .split('\n');
    const expected: number[] = [];
    const stripped = source.map((line, i) => {
      if (!line.trim().startsWith('// @ts-expect-error')) return line;
      expected.push(i + 2); // 1-based number of the next line
      return '';
    });
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const strippedFile = join(tmp, 'stripped.ts');
    writeFileSync(strippedFile, stripped.join('\n'));
    writeFileSync(
      join(tmp, 'tsconfig.json'),
      JSON.stringify({
        extends: join(SPEC_DIR, 'tsconfig.client-types.json'),
        compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files: [join(ROOT, 'src', 'client.ts'), TYPECHECK_FILE, join(SPEC_DIR, 'client-types.test.ts'), strippedFile],
      }),
    );
    const result = await run(BIN('tsc'), ['--noEmit', '--pretty', 'false', '-p', join(tmp, 'tsconfig.json')]);
    const errors = [...result.stdout.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+)/gm)];
    const elsewhere = errors.filter((m) => !m[1].endsWith('stripped.ts')).map((m) => m[0]);
    expect(elsewhere, result.stdout).toEqual([]);
    const strippedLines = errors.filter((m) => m[1].endsWith('stripped.ts')).map((m) => Number(m[2]));
    expect([...new Set(strippedLines)].sort((a, b) => a - b)).toEqual(expected);
  });
});
