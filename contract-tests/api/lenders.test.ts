import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createLocation, createUser } from '../../src/features/accounts/accounts.service';
import { funderSpecs, maskCredentials, splitCredentials, type FunderSpec } from '../../src/features/lenders/funder-specs';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
/** A production (non-test) workspace: no `mock` funder there. */
let prodKey: string;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Northwind');
  other = await h.tenant('Elsewhere');
  const loc = await createLocation(h.knex, h.clock, { name: 'Production shop', isTest: false });
  const admin = await createUser(h.knex, h.clock, { locationId: loc.id, name: 'Prod Admin', email: 'admin@prod.example', role: 'admin' });
  prodKey = (await createApiKey(h.knex, h.clock, { locationId: loc.id, name: 'prod', role: 'admin', userId: admin.id })).key;
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const eventCount = async () => Number((await h.knex('events').count<{ n: string }[]>('* as n'))[0].n);

async function createLender(body: Record<string, unknown>, tenant: Tenant = t) {
  const res = await h.api.post('/v1/lenders').set(tenant.auth('admin')).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string; updated_at: string | null; created_at: string };
}

async function withDisabledSpecs<T>(ids: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.FUNDER_SPECS_DISABLED;
  process.env.FUNDER_SPECS_DISABLED = ids;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.FUNDER_SPECS_DISABLED;
    else process.env.FUNDER_SPECS_DISABLED = before;
  }
}

describe(`createLender (${ENGINE})`, () => {
  it('201 with every field; phone normalised; starts on email, active, never updated', async () => {
    const events = await eventCount();
    const res = await h.api.post('/v1/lenders').set(t.auth('admin')).send({
      name: '  Atlas Capital ', submission_email: 'submissions@atlascapital.example', cc_emails: ['underwriting@atlascapital.example'],
      contact_name: 'Priya Shah', contact_phone: '(212) 555-0163', website: 'https://atlascapital.example', tier: 'A', notes: 'Prefers all bank statements in one PDF.',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^lnd_[0-9A-HJKMNP-TV-Z]{26}$/), name: 'Atlas Capital', submission_email: 'submissions@atlascapital.example',
      cc_emails: ['underwriting@atlascapital.example'], contact_name: 'Priya Shah', contact_phone: '12125550163', website: 'https://atlascapital.example',
      submission_method: 'email', funder_api_spec_id: null, tier: 'A', active: true, notes: 'Prefers all bank statements in one PDF.',
      created_at: h.clock.now().toISOString(), updated_at: null,
    });
    // Lenders have no webhook event in the catalogue: nothing reaches the outbox.
    expect(await eventCount()).toBe(events);
    const row = await h.knex('lenders').where({ id: res.body.data.id }).first();
    expect(row.location_id).toBe(t.locationId);
  });

  it('only a name is needed; manager may create', async () => {
    const res = await h.api.post('/v1/lenders').set(t.auth('manager')).send({ name: 'Cobalt Merchant Funding' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ submission_email: null, cc_emails: [], contact_name: null, contact_phone: null, website: null, tier: null, notes: null, active: true });
  });

  it('400 on bad input, with param', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'X', submission_email: 'not-an-email' }, 'submission_email'],
      [{ name: 'X', contact_phone: '12' }, 'contact_phone'],
      [{ name: 'X', tier: 'Z' }, 'tier'],
      [{ name: 'X', unknown_field: 1 }, 'unknown_field'],
    ];
    for (const [body, param] of cases) {
      const res = await h.api.post('/v1/lenders').set(t.auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param });
    }
  });

  it('role user is read-only (403 role_not_allowed); a key without lenders:write is 403 missing_scope', async () => {
    const res = await h.api.post('/v1/lenders').set(t.auth('user')).send({ name: 'Nope' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'role_not_allowed' });
    const k = await t.key({ role: 'admin', scopes: ['lenders:read'] });
    const res2 = await h.api.post('/v1/lenders').set(bearer(k.key)).send({ name: 'Nope' });
    expect(res2.status).toBe(403);
    expect(res2.body.error).toMatchObject({ code: 'missing_scope', param: 'lenders:write' });
  });
});

describe(`listLenders and getLender (${ENGINE})`, () => {
  let tenant: Tenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    tenant = await h.tenant('Lister');
    for (const [name, extra] of [
      ['Atlas Capital', { submission_email: 'subs@atlas.example', contact_name: 'Priya Shah' }],
      ['Brightline Funding', { submission_email: 'deals@brightline.example', contact_name: 'Tom Alvarez' }],
      ['Cobalt 100% Funding', { active: false }],
      ['Dune Capital', { contact_name: 'Sam Atlasson' }],
    ] as const) {
      h.clock.advance(1000);
      ids[name] = (await createLender({ name, ...extra }, tenant)).id;
    }
    // Brightline goes on its API integration.
    const put = await h.api.put(`/v1/lenders/${ids['Brightline Funding']}/api-config`).set(tenant.auth('admin'))
      .send({ submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: 'key_live_abcdefghijkl,123456' });
    expect(put.status).toBe(200);
  });

  const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((l) => l.name);

  it('newest first, only this location, every role may read', async () => {
    await createLender({ name: 'Other shop lender' }, other);
    for (const role of ['admin', 'manager', 'user'] as const) {
      const res = await h.api.get('/v1/lenders').set(tenant.auth(role));
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Dune Capital', 'Cobalt 100% Funding', 'Brightline Funding', 'Atlas Capital']);
      expect(res.body.meta).toEqual({ has_more: false, next_cursor: null });
    }
  });

  it('filters: active, submission_method, search (name, submission email, contact name; case-insensitive; wildcards literal)', async () => {
    const get = (q: string) => h.api.get(`/v1/lenders?${q}`).set(tenant.auth('user'));
    expect(names(await get('active=false'))).toEqual(['Cobalt 100% Funding']);
    expect(names(await get('active=true'))).toEqual(['Dune Capital', 'Brightline Funding', 'Atlas Capital']);
    expect(names(await get('submission_method=api'))).toEqual(['Brightline Funding']);
    expect(names(await get('submission_method=email&active=true'))).toEqual(['Dune Capital', 'Atlas Capital']);
    expect(names(await get('search=ATLAS'))).toEqual(['Dune Capital', 'Atlas Capital']);
    expect(names(await get('search=deals%40bright'))).toEqual(['Brightline Funding']);
    expect(names(await get('search=alvarez'))).toEqual(['Brightline Funding']);
    expect(names(await get('search=100%25'))).toEqual(['Cobalt 100% Funding']);
    expect(names(await get('search=%25'))).toEqual(['Cobalt 100% Funding']);
    expect(names(await get('search=zzz'))).toEqual([]);
    expect((await get('submission_method=fax')).status).toBe(400);
  });

  it('cursor pagination: no repeats, no gaps; a tampered cursor is 400', async () => {
    const p1 = await h.api.get('/v1/lenders?limit=3').set(tenant.auth());
    expect(names(p1)).toEqual(['Dune Capital', 'Cobalt 100% Funding', 'Brightline Funding']);
    expect(p1.body.meta.has_more).toBe(true);
    const p2 = await h.api.get(`/v1/lenders?limit=3&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`).set(tenant.auth());
    expect(names(p2)).toEqual(['Atlas Capital']);
    expect(p2.body.meta).toEqual({ has_more: false, next_cursor: null });
    const bad = await h.api.get(`/v1/lenders?cursor=${encodeURIComponent(p1.body.meta.next_cursor.slice(0, -2) + 'xx')}`).set(tenant.auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });

  it('getLender: 200 for every role; 404 for another location and for an unknown id', async () => {
    const res = await h.api.get(`/v1/lenders/${ids['Brightline Funding']}`).set(tenant.auth('user'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Brightline Funding', submission_method: 'api', funder_api_spec_id: 'brightline' });
    expect(JSON.stringify(res.body)).not.toContain('key_live_abcdefghijkl');
    const cross = await h.api.get(`/v1/lenders/${ids['Atlas Capital']}`).set(other.auth('admin'));
    expect(cross.status).toBe(404);
    expect(cross.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing' });
    expect((await h.api.get('/v1/lenders/lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0').set(tenant.auth())).status).toBe(404);
    expect((await h.api.get('/v1/lenders/not-an-id').set(tenant.auth())).status).toBe(400);
  });
});

describe(`updateLender (${ENGINE})`, () => {
  it('only sent fields change; null clears; cc_emails replaced whole; updated_at set', async () => {
    const l = await createLender({ name: 'Cobalt', submission_email: 'a@cobalt.example', cc_emails: ['x@cobalt.example', 'y@cobalt.example'], notes: 'old', tier: 'B' });
    h.clock.advance(5000);
    const events = await eventCount();
    const res = await h.api.patch(`/v1/lenders/${l.id}`).set(t.auth('manager'))
      .send({ submission_email: 'newdeals@cobaltmf.example', contact_name: 'Renee Okafor', contact_phone: '303-555-0190', cc_emails: ['z@cobalt.example'], notes: null, tier: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Cobalt', submission_email: 'newdeals@cobaltmf.example', contact_name: 'Renee Okafor', contact_phone: '13035550190',
      cc_emails: ['z@cobalt.example'], notes: null, tier: null, active: true, created_at: l.created_at, updated_at: h.clock.now().toISOString(),
    });
    expect((await h.api.get(`/v1/lenders/${l.id}`).set(t.auth())).body.data).toEqual(res.body.data);
    const off = await h.api.patch(`/v1/lenders/${l.id}`).set(t.auth('admin')).send({ active: false, submission_email: null });
    expect(off.body.data).toMatchObject({ active: false, submission_email: null, contact_name: 'Renee Okafor' });
    expect(await eventCount()).toBe(events);
  });

  it('400 on bad input; 403 for role user; 404 across locations', async () => {
    const l = await createLender({ name: 'Keep me' });
    for (const [body, param] of [[{ name: '  ' }, 'name'], [{ contact_phone: 'abc' }, 'contact_phone'], [{ website: 'not a uri' }, 'website'], [{ name: null }, 'name']] as const) {
      const res = await h.api.patch(`/v1/lenders/${l.id}`).set(t.auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    expect((await h.api.patch(`/v1/lenders/${l.id}`).set(t.auth('admin')).send({})).status).toBe(400);
    // A request that fails changes nothing.
    expect((await h.api.get(`/v1/lenders/${l.id}`).set(t.auth())).body.data).toMatchObject({ name: 'Keep me', updated_at: null });
    const user = await h.api.patch(`/v1/lenders/${l.id}`).set(t.auth('user')).send({ name: 'Hijack' });
    expect(user.status).toBe(403);
    expect(user.body.error.code).toBe('role_not_allowed');
    const cross = await h.api.patch(`/v1/lenders/${l.id}`).set(other.auth('admin')).send({ name: 'Hijack' });
    expect(cross.status).toBe(404);
    expect((await h.api.get(`/v1/lenders/${l.id}`).set(t.auth())).body.data.name).toBe('Keep me');
  });
});

describe(`lender criteria (${ENGINE})`, () => {
  const atlas = {
    min_monthly_revenue: 25000, min_time_in_business_months: 12, min_credit_score: 600, min_amount: 10000, max_amount: 250000,
    excluded_industries: ['Cannabis', 'Firearms'], paper_grades: ['A'], hard_gates: ['min_monthly_revenue', 'min_credit_score', 'excluded_industries'],
  };
  const empty = {
    min_monthly_revenue: null, min_time_in_business_months: null, min_credit_score: null, min_amount: null, max_amount: null, max_positions: null,
    min_average_daily_balance: null, max_negative_days: null, max_nsf_count: null, max_withhold_percent: null,
    allowed_states: [], excluded_states: [], excluded_industries: [], product_types: [], paper_grades: [], hard_gates: [],
  };

  it('never set: every limit null, every list empty, updated_at null (every role reads)', async () => {
    const l = await createLender({ name: 'Fresh' });
    const res = await h.api.get(`/v1/lenders/${l.id}/criteria`).set(t.auth('user'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ lender_id: l.id, ...empty, updated_at: null });
  });

  it('PUT replaces as a whole: left-out limits become null, lists empty; {} clears; lender updated_at moves', async () => {
    const l = await createLender({ name: 'Atlas' });
    h.clock.advance(60_000);
    const events = await eventCount();
    const res = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('manager')).send(atlas);
    expect(res.status).toBe(200);
    const now = h.clock.now().toISOString();
    expect(res.body.data).toEqual({ lender_id: l.id, ...empty, ...atlas, updated_at: now });
    expect((await h.api.get(`/v1/lenders/${l.id}/criteria`).set(t.auth('user'))).body.data).toEqual(res.body.data);
    expect((await h.api.get(`/v1/lenders/${l.id}`).set(t.auth())).body.data.updated_at).toBe(now);

    h.clock.advance(1000);
    const regional = { min_monthly_revenue: 15000.5, max_amount: 50000, max_positions: 1, min_average_daily_balance: 5000.25, max_negative_days: 4, max_nsf_count: 3, max_withhold_percent: 35.5, allowed_states: ['CO', 'UT', 'WY'], product_types: ['mca'], hard_gates: ['allowed_states', 'max_amount'] };
    const res2 = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('admin')).send(regional);
    expect(res2.body.data).toEqual({ lender_id: l.id, ...empty, ...regional, updated_at: h.clock.now().toISOString() });

    const cleared = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('admin')).send({});
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toEqual({ lender_id: l.id, ...empty, updated_at: h.clock.now().toISOString() });
    expect(await eventCount()).toBe(events);
  });

  it('400: min_amount above max_amount (param min_amount), bad state code, unknown hard gate; nothing changes', async () => {
    const l = await createLender({ name: 'Strict' });
    await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('admin')).send(atlas).expect(200);
    const before = (await h.api.get(`/v1/lenders/${l.id}/criteria`).set(t.auth())).body.data;
    const res = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('admin')).send({ min_amount: 50000, max_amount: 10000 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_request', param: 'min_amount' });
    for (const body of [{ allowed_states: ['co'] }, { hard_gates: ['max_speed'] }, { min_credit_score: 900 }, { min_amount: -1 }, { max_negative_days: 32 }, { max_nsf_count: 2.5 }, { max_withhold_percent: -1 }]) {
      const r = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('admin')).send(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await h.api.get(`/v1/lenders/${l.id}/criteria`).set(t.auth())).body.data).toEqual(before);
  });

  it('role user cannot replace (403); other locations get 404 on read and write', async () => {
    const l = await createLender({ name: 'Guarded' });
    const user = await h.api.put(`/v1/lenders/${l.id}/criteria`).set(t.auth('user')).send(atlas);
    expect(user.status).toBe(403);
    expect(user.body.error.code).toBe('role_not_allowed');
    expect((await h.api.get(`/v1/lenders/${l.id}/criteria`).set(other.auth())).status).toBe(404);
    expect((await h.api.put(`/v1/lenders/${l.id}/criteria`).set(other.auth()).send(atlas)).status).toBe(404);
    expect((await h.api.get(`/v1/lenders/${l.id}/criteria`).set(t.auth())).body.data.updated_at).toBeNull();
  });
});

describe(`createLender with its criteria in one call (${ENGINE})`, () => {
  const lenderCount = async () => Number((await h.knex('lenders').where({ location_id: t.locationId }).count<{ n: string }[]>('* as n'))[0].n);
  const harbor = { min_monthly_revenue: 30000, min_time_in_business_months: 12, min_credit_score: 550, max_amount: 150000, excluded_states: ['ND'], excluded_industries: [' Cannabis ', 'Cannabis'], hard_gates: ['min_monthly_revenue', 'excluded_industries'] };

  it('the lender and its criteria are written together; GET criteria reads them as PUT would have stored them', async () => {
    h.clock.advance(1000);
    const created = await createLender({ name: 'Harbor Funding Group', submission_email: 'deals@harborfunding.example', tier: 'B', criteria: harbor });
    const viaPut = await createLender({ name: 'Harbor by PUT' });
    const put = await h.api.put(`/v1/lenders/${viaPut.id}/criteria`).set(t.auth('admin')).send(harbor);
    const got = (await h.api.get(`/v1/lenders/${created.id}/criteria`).set(t.auth())).body.data;
    expect(got).toEqual({ ...put.body.data, lender_id: created.id, updated_at: h.clock.now().toISOString() });
    expect(got).toMatchObject({ excluded_industries: ['Cannabis'], min_amount: null, allowed_states: [] });
    // Criteria are not part of the lender's wire shape; created, not updated.
    expect(created).not.toHaveProperty('criteria');
    expect(created.updated_at).toBeNull();
    // Without criteria: none set, never updated.
    const plain = await createLender({ name: 'Plain' });
    expect((await h.api.get(`/v1/lenders/${plain.id}/criteria`).set(t.auth())).body.data.updated_at).toBeNull();
  });

  it('a bad criterion creates nothing: 400 with param under criteria (service rule and schema alike)', async () => {
    const before = await lenderCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ min_amount: 50000, max_amount: 10000 }, 'criteria.min_amount'],
      [{ allowed_states: ['co'] }, 'criteria.allowed_states.0'],
      [{ hard_gates: ['max_speed'] }, 'criteria.hard_gates.0'],
      [{ min_credit_score: 900 }, 'criteria.min_credit_score'],
      [{ max_nsf_count: 2.5 }, 'criteria.max_nsf_count'],
      [{ unknown_rule: 1 }, 'criteria'],
    ];
    for (const [criteria, param] of cases) {
      // No Idempotency-Key: only the service's own transaction stands between a bad criterion and a lender.
      const res = await h.api.post('/v1/lenders').set(t.auth('admin')).send({ name: 'Never Created', criteria });
      expect(res.status, JSON.stringify(criteria)).toBe(400);
      expect(res.body.error, JSON.stringify(criteria)).toMatchObject({ type: 'validation_error', param: expect.stringMatching(new RegExp(`^${param.replace(/\./g, '\\.')}`)) });
    }
    expect(await lenderCount()).toBe(before);
  });

  it('idempotent as every POST: a replay answers the first lender and creates no second one', async () => {
    const before = await lenderCount();
    const send = (body: object) => h.api.post('/v1/lenders').set(t.auth('admin')).set('Idempotency-Key', 'lender-with-criteria-1').send(body);
    const first = await send({ name: 'Once Only', criteria: { max_amount: 90000, hard_gates: ['max_amount'] } });
    expect(first.status).toBe(201);
    const replay = await send({ name: 'Once Only', criteria: { max_amount: 90000, hard_gates: ['max_amount'] } });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect((await send({ name: 'Once Only', criteria: { max_amount: 95000 } })).body.error.code).toBe('idempotency_key_reused');
    expect(await lenderCount()).toBe(before + 1);
  });
});

describe(`lenders import from CSV, the operator CLI (${ENGINE})`, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lenders-import-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const csvFile = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const run = async (file: string, values: Record<string, string | boolean>) => {
    const { LENDER_COMMANDS } = await import('../../src/cli/lenders');
    return LENDER_COMMANDS['lenders import']({ location: t.locationId, ...values }, [file])(h.knex, h.clock);
  };
  const rejection = async (p: Promise<unknown>) => {
    const { LenderImportRejected } = await import('../../src/cli/lenders');
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(LenderImportRejected);
    return (err as InstanceType<typeof LenderImportRejected>).report;
  };
  const lenderCount = async () => Number((await h.knex('lenders').where({ location_id: t.locationId }).count<{ n: string }[]>('* as n'))[0].n);

  const header = 'Name,submission_email,cc_emails,tier,active,min_monthly_revenue,min_credit_score,min_amount,max_amount,allowed_states,excluded_industries,hard_gates,notes';
  const good = [
    header,
    'Import Atlas,subs@import-atlas.example,uw@import-atlas.example;ops@import-atlas.example,A,yes,"$25,000",600,10000,250000,,Cannabis;Firearms,min_credit_score;excluded_industries,"Prefers one PDF, ""all"" statements"',
    '',
    'Import Cobalt,cobalt@import.example,,B,false,,,100000,300000,co;ut,,allowed_states,"two',
    'lines"',
    'Import Plain,,,,,,,,,,,,',
  ].join('\r\n');

  it('a dry run of a good file names what it would create and writes nothing; the real run writes them all, as the API would', async () => {
    const file = csvFile('good.csv', `\ufeff${good}\r\n`);
    const before = await lenderCount();
    const dry = (await run(file, { 'dry-run': true })) as { dry_run: boolean; rows: number; errors: unknown[]; lenders: { row: number; id: string | null; name: string }[] };
    expect(dry).toMatchObject({ dry_run: true, rows: 3, errors: [] });
    expect(dry.lenders).toEqual([{ row: 2, id: null, name: 'Import Atlas' }, { row: 4, id: null, name: 'Import Cobalt' }, { row: 5, id: null, name: 'Import Plain' }]);
    expect(await lenderCount()).toBe(before);

    const real = (await run(file, {})) as typeof dry;
    expect(real.errors).toEqual([]);
    expect(real.lenders.map((l) => [l.row, l.name])).toEqual([[2, 'Import Atlas'], [4, 'Import Cobalt'], [5, 'Import Plain']]);
    expect(await lenderCount()).toBe(before + 3);
    const [atlas, cobalt, plain] = real.lenders.map((l) => l.id!);
    expect((await h.api.get(`/v1/lenders/${atlas}`).set(t.auth())).body.data).toMatchObject({
      name: 'Import Atlas', submission_email: 'subs@import-atlas.example', cc_emails: ['uw@import-atlas.example', 'ops@import-atlas.example'], tier: 'A', active: true,
      notes: 'Prefers one PDF, "all" statements', submission_method: 'email',
    });
    expect((await h.api.get(`/v1/lenders/${atlas}/criteria`).set(t.auth())).body.data).toMatchObject({
      min_monthly_revenue: 25000, min_credit_score: 600, min_amount: 10000, max_amount: 250000, excluded_industries: ['Cannabis', 'Firearms'], hard_gates: ['min_credit_score', 'excluded_industries'],
    });
    expect((await h.api.get(`/v1/lenders/${cobalt}`).set(t.auth())).body.data).toMatchObject({ active: false, notes: 'two\r\nlines' });
    expect((await h.api.get(`/v1/lenders/${cobalt}/criteria`).set(t.auth())).body.data).toMatchObject({ allowed_states: ['CO', 'UT'], hard_gates: ['allowed_states'] });
    expect((await h.api.get(`/v1/lenders/${plain}/criteria`).set(t.auth())).body.data.updated_at).toBeNull();

    // The same file again: every row is a duplicate (by name and by email), nothing is written.
    const again = await rejection(run(file, {}));
    expect(again.errors).toContainEqual({ row: 2, column: 'Name', reason: `duplicate: lender ${atlas} has the same name` });
    expect(again.errors).toContainEqual({ row: 2, column: 'submission_email', reason: `duplicate: lender ${atlas} has the same submission email` });
    expect(again.errors).toContainEqual({ row: 5, column: 'Name', reason: `duplicate: lender ${plain} has the same name` });
    expect(await lenderCount()).toBe(before + 3);
  });

  it('bad rows are each named (row, column, reason), every bad column of a row at once; a dry run and a real run write nothing', async () => {
    const file = csvFile('bad.csv', [
      header,
      'Fine One,fine1@import.example,,,,,,,,,,,',
      'Bad Types,not-an-email,,Z,maybe,abc,200,,,,,min_score,',
      'Bad Range,range@import.example,,,,,,300000,100000,,,,',
      'fine one,other@import.example,,,,,,,,,,,',
      'Stray "quote",x@import.example,,,,,,,,,,,',
      'Too,few',
      'Unclosed,"oops,,,,,,,,,,,',
    ].join('\n'));
    const before = await lenderCount();
    for (const dryRun of [true, false]) {
      const report = await rejection(run(file, dryRun ? { 'dry-run': true } : {}));
      expect(report).toMatchObject({ dry_run: dryRun, rows: 7, lenders: [] });
      expect(report.errors).toEqual([
        { row: 3, column: 'active', reason: 'must be true or false (yes/no, 1/0)' },
        { row: 3, column: 'min_monthly_revenue', reason: 'must be a number (for example 25000 or 25,000.50)' },
        { row: 3, column: 'submission_email', reason: 'submission_email is not an email address' },
        { row: 3, column: 'tier', reason: 'tier must be A, B, C or D' },
        { row: 3, column: 'min_credit_score', reason: 'min_credit_score must be at least 300' },
        { row: 3, column: 'hard_gates', reason: expect.stringMatching(/^hard_gates must be one of min_monthly_revenue, /) },
        { row: 4, column: 'min_amount', reason: 'min_amount (300000) must not be greater than max_amount (100000)' },
        { row: 5, column: 'Name', reason: 'duplicate: row 2 has the same name' },
        { row: 6, column: null, reason: expect.stringContaining('a double quote inside a field') },
        { row: 7, column: null, reason: 'has 2 fields, the header has 13 (quote a field holding a comma)' },
        { row: 8, column: null, reason: 'a quoted field is never closed (a double quote is missing)' },
      ]);
      expect(await lenderCount()).toBe(before);
    }
  });

  it('the header is checked first (unknown or repeated column, no name column); usage mistakes never open the database', async () => {
    const { LenderUsageError } = await import('../../src/cli/lenders');
    const unknown = await rejection(run(csvFile('h1.csv', 'name,fax\nA,1\n'), { 'dry-run': true }));
    expect(unknown.errors).toEqual([{ row: 1, column: 'fax', reason: expect.stringMatching(/^unknown column \(the columns are: name, submission_email, /) }]);
    expect((await rejection(run(csvFile('h2.csv', 'name,NAME\nA,B\n'), {}))).errors).toEqual([{ row: 1, column: 'NAME', reason: 'the column appears twice' }]);
    expect((await rejection(run(csvFile('h3.csv', 'tier\nA\n'), {}))).errors).toEqual([{ row: 1, column: 'name', reason: 'the name column is required' }]);
    expect((await rejection(run(csvFile('h4.csv', ''), {}))).errors).toEqual([{ row: 1, column: null, reason: expect.stringContaining('the file is empty') }]);
    const { LENDER_COMMANDS } = await import('../../src/cli/lenders');
    expect(() => LENDER_COMMANDS['lenders import']({ location: t.locationId }, [])).toThrow(LenderUsageError);
    expect(() => LENDER_COMMANDS['lenders import']({}, [csvFile('h5.csv', 'name\nA\n')])).toThrow('--location is required');
    expect(() => LENDER_COMMANDS['lenders import']({ location: t.locationId }, [join(dir, 'missing.csv')])).toThrow(/Cannot read .*ENOENT/);
    await expect(LENDER_COMMANDS['lenders import']({ location: 'loc_01JD1B4D6F8H0K2M4P6R8T0V2X' }, [csvFile('h6.csv', 'name\nA\n')])(h.knex, h.clock)).rejects.toThrow('No location loc_01JD1B4D6F8H0K2M4P6R8T0V2X');
  });
});

describe(`listFunderApiSpecs (${ENGINE})`, () => {
  const brightline = {
    id: 'brightline', display_name: 'Brightline Funding API', tier: 'A',
    capabilities: { polls: true, returns_offers: true, uploads_docs: true, sandbox: true, max_owners: 2 },
    credential_spec: [
      { key: 'api_key', label: 'API key', secret: true, hint: 'From the Brightline partner portal; starts with key_' },
      { key: 'partner_code', label: 'Partner code', secret: true, hint: 'Your six-digit ISO partner code' },
    ],
    required_fields: ['business_name', 'ein', 'business_start_date', 'requested_amount', 'annual_revenue', 'owner.first_name', 'owner.last_name', 'owner.email'],
    active: true,
  };
  const mock = {
    id: 'mock', display_name: 'Mock funder (test only)', tier: 'A',
    capabilities: { polls: true, returns_offers: true, uploads_docs: true, sandbox: true, max_owners: 4 },
    credential_spec: [{ key: 'api_key', label: 'API key', secret: true, hint: 'Any value; the mock funder never contacts anyone' }],
    required_fields: ['business_name', 'requested_amount'],
    active: true,
  };

  it('a test workspace sees brightline and mock, sorted by id (the contract example, exactly); every role reads', async () => {
    for (const role of ['admin', 'user'] as const) {
      const res = await h.api.get('/v1/lenders/api-specs').set(t.auth(role));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [brightline, mock], meta: { next_cursor: null, has_more: false } });
    }
  });

  it('a production workspace never sees mock', async () => {
    const res = await h.api.get('/v1/lenders/api-specs').set(bearer(prodKey));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [brightline], meta: { next_cursor: null, has_more: false } });
  });

  it('paginates the registry with signed cursors', async () => {
    const p1 = await h.api.get('/v1/lenders/api-specs?limit=1').set(t.auth());
    expect(p1.body.data.map((s: { id: string }) => s.id)).toEqual(['brightline']);
    expect(p1.body.meta.has_more).toBe(true);
    const p2 = await h.api.get(`/v1/lenders/api-specs?limit=1&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`).set(t.auth());
    expect(p2.body.data.map((s: { id: string }) => s.id)).toEqual(['mock']);
    expect(p2.body.meta).toEqual({ has_more: false, next_cursor: null });
    // Tampered, or a cursor of another list: 400 invalid_cursor.
    const [payload, sig] = p1.body.meta.next_cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 'a' })).toString('base64url');
    const bad = await h.api.get(`/v1/lenders/api-specs?cursor=${forged}.${sig}`).set(t.auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
    const lenders = await h.api.get('/v1/lenders?limit=1').set(t.auth());
    const cross = await h.api.get(`/v1/lenders/api-specs?cursor=${encodeURIComponent(lenders.body.meta.next_cursor)}`).set(t.auth());
    expect(cross.status).toBe(400);
  });

  it('a switched-off integration is listed with active: false', async () => {
    await withDisabledSpecs('brightline', async () => {
      const res = await h.api.get('/v1/lenders/api-specs').set(t.auth());
      expect(res.body.data).toEqual([{ ...brightline, active: false }, mock]);
    });
  });

  it('403 without lenders:read', async () => {
    const k = await t.key({ scopes: ['deals:read'] });
    const res = await h.api.get('/v1/lenders/api-specs').set(bearer(k.key));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'lenders:read' });
  });
});

describe(`lender API configuration (${ENGINE})`, () => {
  const KEY = 'key_live_9a8b7c6d5e4f3a2b1c0d7f3a';
  const CODE = '482913';
  const fields = [
    { key: 'api_key', label: 'API key', secret: true, hint: 'From the Brightline partner portal; starts with key_' },
    { key: 'partner_code', label: 'Partner code', secret: true, hint: 'Your six-digit ISO partner code' },
  ];
  const put = (id: string, body: Record<string, unknown>, auth: Record<string, string> = t.auth('admin')) => h.api.put(`/v1/lenders/${id}/api-config`).set(auth).send(body);
  const stored = async (id: string) => (await h.knex('lenders').where({ id }).first()) as Record<string, unknown> & { api_credentials_encrypted: string | null };
  const secretsSeen: string[] = [KEY, CODE];
  /** No response body may carry a credential (not even the part a mask could hide). */
  const clean = (res: { text: string }) => {
    for (const s of secretsSeen) expect(res.text).not.toContain(s);
  };

  it('an email lender never set up: every API field null', async () => {
    const l = await createLender({ name: 'Atlas Capital' });
    const res = await h.api.get(`/v1/lenders/${l.id}/api-config`).set(t.auth('manager'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      lender_id: l.id, submission_method: 'email', funder_api_spec_id: null, spec_display_name: null, api_environment: null,
      credentials_masked: null, credential_fields: [], api_last_verified_at: null, api_last_error: null, capabilities: null, tier: null,
    });
  });

  it('switch to api: credentials stored encrypted, answered only masked, the lender routes through the integration', async () => {
    const l = await createLender({ name: 'Brightline Funding' });
    h.clock.advance(1000);
    const events = await eventCount();
    const res = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_environment: 'production', api_credentials: `${KEY},${CODE}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      lender_id: l.id, submission_method: 'api', funder_api_spec_id: 'brightline', spec_display_name: 'Brightline Funding API', api_environment: 'production',
      credentials_masked: '****7f3a, ****', credential_fields: fields, api_last_verified_at: null, api_last_error: null,
      capabilities: { polls: true, returns_offers: true, uploads_docs: true, sandbox: true, max_owners: 2 }, tier: 'A',
    });
    clean(res);
    const row = await stored(l.id);
    expect(row.api_credentials_encrypted).toBeTruthy();
    expect(row.api_credentials_encrypted).not.toContain(KEY);
    expect(row.api_credentials_encrypted).not.toContain(CODE);
    expect(h.deps.secrets.open(row.api_credentials_encrypted!)).toBe(`${KEY},${CODE}`);
    const lender = await h.api.get(`/v1/lenders/${l.id}`).set(t.auth('user'));
    expect(lender.body.data).toMatchObject({ submission_method: 'api', funder_api_spec_id: 'brightline', updated_at: h.clock.now().toISOString() });
    clean(lender);
    const got = await h.api.get(`/v1/lenders/${l.id}/api-config`).set(t.auth('admin'));
    expect(got.body.data).toEqual(res.body.data);
    clean(got);
    clean(await h.api.get('/v1/lenders').set(t.auth()));
    expect(await eventCount()).toBe(events);
  });

  it('400 invalid_api_config: api without an integration the first time; unknown integration; switched off', async () => {
    const l = await createLender({ name: 'Config errors' });
    const first = await put(l.id, { submission_method: 'api' });
    expect(first.status).toBe(400);
    expect(first.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_api_config', param: 'funder_api_spec_id' });
    const unknown = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'acme', api_credentials: 'a' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id', message: "Unknown funder integration 'acme'; see GET /v1/lenders/api-specs" });
    await withDisabledSpecs('brightline', async () => {
      const off = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE}` });
      expect(off.status).toBe(400);
      expect(off.body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id', message: "Funder integration 'brightline' is switched off" });
      clean(off);
    });
    expect((await stored(l.id))).toMatchObject({ submission_method: 'email', funder_api_spec_id: null, api_credentials_encrypted: null, updated_at: null });
  });

  it('400 invalid_api_config: wrong credential count, an empty credential, missing credentials; messages never echo values', async () => {
    const l = await createLender({ name: 'Counting' });
    const one = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: KEY });
    expect(one.status).toBe(400);
    expect(one.body.error).toMatchObject({ code: 'invalid_api_config', param: 'api_credentials', message: 'Brightline Funding API expects 2 credentials (api_key, partner_code); got 1' });
    clean(one);
    const three = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE},extra` });
    expect(three.body.error).toMatchObject({ code: 'invalid_api_config', param: 'api_credentials' });
    clean(three);
    const blank = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY}, ` });
    expect(blank.body.error).toMatchObject({ code: 'invalid_api_config', param: 'api_credentials' });
    clean(blank);
    const missing = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_api_config', param: 'api_credentials', message: 'api_credentials is required when the integration changes' });
    // Credentials without any integration.
    const orphan = await put(l.id, { api_credentials: 'something' });
    expect(orphan.body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id' });
    // Too long: the validator's 400 names the field, not the value.
    const long = 'q'.repeat(4001);
    const tooLong = await put(l.id, { api_credentials: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_request', param: 'api_credentials' });
    expect(tooLong.text).not.toContain('q'.repeat(20));
    expect(await stored(l.id)).toMatchObject({ submission_method: 'email', funder_api_spec_id: null, api_credentials_encrypted: null });
  });

  it('email switches back keeping the stored credentials; api again needs none; a new integration needs new ones', async () => {
    const l = await createLender({ name: 'Round trip' });
    await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE}` }).expect(200);
    const sealed = (await stored(l.id)).api_credentials_encrypted;
    const back = await put(l.id, { submission_method: 'email' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ submission_method: 'email', funder_api_spec_id: 'brightline', credentials_masked: '****7f3a, ****', credential_fields: fields });
    expect((await stored(l.id)).api_credentials_encrypted).toBe(sealed);
    expect((await h.api.get(`/v1/lenders/${l.id}`).set(t.auth())).body.data).toMatchObject({ submission_method: 'email', funder_api_spec_id: 'brightline' });
    const again = await put(l.id, { submission_method: 'api' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ submission_method: 'api', credentials_masked: '****7f3a, ****' });
    // Same integration named again: not a change, credentials optional.
    expect((await put(l.id, { funder_api_spec_id: 'brightline' })).status).toBe(200);
    // Changing the integration (to the test funder) without credentials: 400; with them: replaced.
    const change = await put(l.id, { funder_api_spec_id: 'mock' });
    expect(change.body.error).toMatchObject({ code: 'invalid_api_config', param: 'api_credentials' });
    const mock = await put(l.id, { funder_api_spec_id: 'mock', api_credentials: 'anything-goes-here' });
    expect(mock.status).toBe(200);
    expect(mock.body.data).toMatchObject({ funder_api_spec_id: 'mock', spec_display_name: 'Mock funder (test only)', credentials_masked: '****here', submission_method: 'api' });
    expect(mock.body.data.capabilities.max_owners).toBe(4);
    expect(h.deps.secrets.open((await stored(l.id)).api_credentials_encrypted!)).toBe('anything-goes-here');
  });

  it('environment: development by default; production with new credentials replaces the development string; environment alone keeps them', async () => {
    const l = await createLender({ name: 'Environments' });
    const dev = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: ' key_test_000011112222 , 111111 ' });
    expect(dev.body.data).toMatchObject({ api_environment: 'development', credentials_masked: '****2222, ****' });
    expect(h.deps.secrets.open((await stored(l.id)).api_credentials_encrypted!)).toBe('key_test_000011112222,111111');
    // Verified once by the funder (the submission worker would set these).
    await h.knex('lenders').where({ id: l.id }).update({ api_last_verified_at: h.clock.now(), api_last_error: 'old error' });
    h.clock.advance(1000);
    const prod = await put(l.id, { api_environment: 'production', api_credentials: `${KEY},${CODE}` });
    expect(prod.status).toBe(200);
    expect(prod.body.data).toMatchObject({ api_environment: 'production', credentials_masked: '****7f3a, ****', api_last_verified_at: null, api_last_error: null });
    const opened = h.deps.secrets.open((await stored(l.id)).api_credentials_encrypted!);
    expect(opened).toBe(`${KEY},${CODE}`);
    expect(opened).not.toContain('key_test_000011112222');
    const sealed = (await stored(l.id)).api_credentials_encrypted;
    const devAgain = await put(l.id, { api_environment: 'development' });
    expect(devAgain.body.data).toMatchObject({ api_environment: 'development', credentials_masked: '****7f3a, ****' });
    expect((await stored(l.id)).api_credentials_encrypted).toBe(sealed);
    // An environment needs an integration.
    const bare = await createLender({ name: 'Bare' });
    expect((await put(bare.id, { api_environment: 'production' })).body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id' });
    expect((await put(bare.id, { api_environment: 'staging' })).status).toBe(400);
  });

  it('a switched-off integration cannot be used for api, but the lender can go back to email', async () => {
    const l = await createLender({ name: 'Switched off later' });
    await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE}` }).expect(200);
    await withDisabledSpecs('brightline', async () => {
      const api = await put(l.id, { api_environment: 'production' });
      expect(api.body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id' });
      const email = await put(l.id, { submission_method: 'email' });
      expect(email.status).toBe(200);
      expect(email.body.data).toMatchObject({ submission_method: 'email', funder_api_spec_id: 'brightline' });
    });
  });

  it('mock is refused outside a test workspace (unknown there)', async () => {
    const created = await h.api.post('/v1/lenders').set(bearer(prodKey)).send({ name: 'Prod lender' });
    const res = await put(created.body.data.id, { submission_method: 'api', funder_api_spec_id: 'mock', api_credentials: 'x' }, bearer(prodKey));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_api_config', param: 'funder_api_spec_id', message: "Unknown funder integration 'mock'; see GET /v1/lenders/api-specs" });
    const ok = await put(created.body.data.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE}` }, bearer(prodKey));
    expect(ok.status).toBe(200);
  });

  it('role user may neither read nor set the configuration (403); other locations get 404; wrong scope 403', async () => {
    const l = await createLender({ name: 'Private config' });
    for (const res of [await h.api.get(`/v1/lenders/${l.id}/api-config`).set(t.auth('user')), await put(l.id, { submission_method: 'email' }, t.auth('user'))]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('role_not_allowed');
    }
    expect((await h.api.get(`/v1/lenders/${l.id}/api-config`).set(other.auth())).status).toBe(404);
    const cross = await put(l.id, { submission_method: 'api', funder_api_spec_id: 'brightline', api_credentials: `${KEY},${CODE}` }, other.auth());
    expect(cross.status).toBe(404);
    expect(await stored(l.id)).toMatchObject({ submission_method: 'email', api_credentials_encrypted: null });
    const k = await t.key({ role: 'admin', scopes: ['lenders:read'] });
    const res = await put(l.id, { submission_method: 'email' }, bearer(k.key));
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'lenders:write' });
  });

  it('no credential ever reached the logs', async () => {
    expect(h.logs.length).toBeGreaterThan(0);
    const all = h.logs.join('\n');
    for (const s of [...secretsSeen, 'key_test_000011112222', 'anything-goes-here']) expect(all).not.toContain(s);
  });
});

describe('credential helpers (unit)', () => {
  const spec: FunderSpec = {
    ...funderSpecs()[0],
    credential_spec: [
      { key: 'client_id', label: 'Client id', secret: false, hint: null },
      { key: 'secret', label: 'Secret', secret: true, hint: null },
      { key: 'pin', label: 'PIN', secret: true, hint: null },
    ],
  };
  it('masks per the contract: secret >= 12 chars last 4 only; shorter ****; non-secret in full', () => {
    expect(maskCredentials(spec, 'client-123,abcdefghijkl,12345678901')).toBe('client-123, ****ijkl, ****');
    expect(maskCredentials(undefined, 'abcdefghijklmnop')).toBe('****mnop');
  });
  it('splits in credential_spec order, trimming; refuses a wrong count naming the fields', () => {
    expect(splitCredentials(spec, ' a , b ,c')).toEqual(['a', 'b', 'c']);
    expect(() => splitCredentials(spec, 'a,b')).toThrow('expects 3 credentials (client_id, secret, pin); got 2');
  });
});
