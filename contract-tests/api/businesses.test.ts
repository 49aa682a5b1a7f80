import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Businesses');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const eventsOf = (type: string) => h.knex('events').where({ location_id: t.locationId, type }).orderBy('created_at');
const countEvents = async () => Number((await h.knex('events').where({ location_id: t.locationId }).count<{ c: number }[]>('* as c'))[0].c);

async function createBusiness(body: Record<string, unknown>, auth = t.auth()) {
  const res = await h.api.post('/v1/businesses').set(auth).send(body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}

// Deals, lenders and advances are written directly (their features are built elsewhere).
async function insertDeal(tenant: Tenant, businessId: string, createdBy: string | null) {
  const now = h.clock.now();
  const stage = await h.knex('pipeline_stages').where({ location_id: tenant.locationId }).orderBy('sort_order').first();
  const id = newId('deal', now.getTime());
  await h.knex('deals').insert({ id, location_id: tenant.locationId, business_id: businessId, stage_id: stage.id, stage_entered_at: now, created_by_user_id: createdBy, requested_amount: 50000, created_at: now, updated_at: now });
  return id;
}
async function insertLender(tenant: Tenant, name: string) {
  const now = h.clock.now();
  const id = newId('lnd', now.getTime());
  await h.knex('lenders').insert({ id, location_id: tenant.locationId, name, created_at: now, updated_at: now });
  return id;
}
async function insertAdvance(tenant: Tenant, dealId: string, businessId: string, lenderId: string, a: { funded: number; payback: number; paid: number; status: string }) {
  const now = h.clock.now();
  const id = newId('adv', now.getTime());
  await h.knex('advances').insert({
    id, location_id: tenant.locationId, deal_id: dealId, business_id: businessId, lender_id: lenderId, status: a.status, funded_amount: a.funded, factor_rate: a.payback / a.funded,
    term: 120, payment_frequency: 'daily', payment_amount: 500, payback_amount: a.payback, paid_amount: a.paid, funded_at: now, first_payment_date: '2026-11-24', created_at: now, updated_at: now,
  });
  return id;
}

describe(`createBusiness (${ENGINE})`, () => {
  it('creates with defaults, normalises phone and EIN, records business.created and its activity', async () => {
    h.clock.advance(1000);
    const before = await countEvents();
    const b = await createBusiness({ legal_name: '  Sunrise Bakery LLC ', ein: '841234567', phone: '(303) 555-0142', tags: ['bakery'], custom_data: { tier: 'gold' } });
    expect(b).toMatchObject({
      legal_name: 'Sunrise Bakery LLC', ein: '84-1234567', phone: '13035550142', status: 'active', dba: null, email: null, tags: ['bakery'], custom_data: { tier: 'gold' },
      primary_contact: null, deal_count: 0, lifetime_funded: 0, active_advances: 0, outstanding_balance: 0,
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(), last_activity_at: h.clock.now().toISOString(),
    });
    expect(await countEvents()).toBe(before + 1);
    const [evt] = (await eventsOf('business.created')).filter((e) => e.data.business_id === b.id);
    expect(evt.data.business).toEqual({ id: b.id, legal_name: 'Sunrise Bakery LLC', dba: null, status: 'active', industry: null, state: null, created_at: b.created_at, updated_at: b.updated_at });
    const act = await h.knex('activities').where({ business_id: b.id });
    expect(act.map((a) => a.action)).toEqual(['business.created']);
  });

  it('409 duplicate_business on an EIN already in the location, whatever its format; no event', async () => {
    await createBusiness({ legal_name: 'First', ein: '12-3456789' });
    const before = await countEvents();
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Second', ein: '123456789' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict', code: 'duplicate_business', param: 'ein' });
    expect(await countEvents()).toBe(before);
    // Another location may use the same EIN.
    expect((await h.api.post('/v1/businesses').set(other.auth()).send({ legal_name: 'Other', ein: '12-3456789' })).status).toBe(201);
  });

  it('400 on bad input with param', async () => {
    const noName = await h.api.post('/v1/businesses').set(t.auth()).send({ dba: 'x' });
    expect(noName.status).toBe(400);
    expect(noName.body.error.param).toBe('legal_name');
    const badPhone = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'X', phone: '12' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error.param).toBe('phone');
    const badEin = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'X', ein: '12-34' });
    expect(badEin.status).toBe(400);
    expect(badEin.body.error.param).toBe('ein');
  });

  it('needs businesses:write', async () => {
    const k = await t.key({ scopes: ['businesses:read'] });
    const res = await h.api.post('/v1/businesses').set(bearer(k.key)).send({ legal_name: 'X' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'businesses:write' });
  });
});

describe(`updateBusiness (${ENGINE})`, () => {
  it('changes only sent fields; tags and custom_data replaced whole; null clears', async () => {
    const b = await createBusiness({ legal_name: 'Patch Me', dba: 'PM', industry: 'Food', city: 'Denver', tags: ['a', 'b'], custom_data: { x: 1, y: 2 } });
    h.clock.advance(5000);
    const res = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send({ dba: null, tags: ['c'], custom_data: { z: 3 }, phone: '+44 20 7946 0958' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ legal_name: 'Patch Me', dba: null, industry: 'Food', city: 'Denver', tags: ['c'], custom_data: { z: 3 }, phone: '442079460958', created_at: b.created_at, updated_at: h.clock.now().toISOString() });
    h.clock.advance(1000); // two updates in one instant would tie on created_at below
    const cleared = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send({ tags: [], custom_data: {}, phone: null });
    expect(cleared.body.data).toMatchObject({ tags: [], custom_data: {}, phone: null, industry: 'Food' });
    const got = await h.api.get(`/v1/businesses/${b.id}`).set(t.auth());
    expect(got.body.data).toMatchObject({ tags: [], custom_data: {}, phone: null, dba: null, industry: 'Food' });
    const act = await h.knex('activities').where({ business_id: b.id, action: 'business.updated' }).orderBy('created_at');
    expect(act[0].data.fields.sort()).toEqual(['custom_data', 'dba', 'phone', 'tags']);
  });

  it('409 duplicate_business when the EIN changes to one another business has; its own EIN is fine', async () => {
    await createBusiness({ legal_name: 'Holder', ein: '55-5555555' });
    const b = await createBusiness({ legal_name: 'Mover', ein: '66-6666666' });
    const res = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send({ ein: '555555555' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'duplicate_business', param: 'ein' });
    expect((await h.knex('businesses').where({ id: b.id }).first()).ein).toBe('66-6666666');
    expect((await h.knex('activities').where({ business_id: b.id, action: 'business.updated' })).length).toBe(0);
    const same = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send({ ein: '666666666' });
    expect(same.status).toBe(200);
    const cleared = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send({ ein: null });
    expect(cleared.body.data.ein).toBeNull();
  });

  it('400 for an empty body, a null legal_name or status, an unknown field', async () => {
    const b = await createBusiness({ legal_name: 'Strict' });
    for (const body of [{}, { legal_name: null }, { status: null }, { status: 'closed' }, { nickname: 'x' }]) {
      const res = await h.api.patch(`/v1/businesses/${b.id}`).set(t.auth()).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it("404 for another location's business", async () => {
    const b = await createBusiness({ legal_name: 'Mine' });
    const res = await h.api.patch(`/v1/businesses/${b.id}`).set(other.auth()).send({ dba: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing', param: 'id' });
  });
});

describe(`listBusinesses (${ENGINE})`, () => {
  it('filters by status, tag and search (name, EIN digits, phone digits)', async () => {
    const f = await h.tenant('Filters');
    const a = await createBusiness({ legal_name: 'Alpha Pizza', ein: '11-2233445', phone: '3035550100', tags: ['pizza'] }, f.auth());
    h.clock.advance(1000);
    const b = await createBusiness({ legal_name: 'Beta Tacos', status: 'watchlist', tags: ['tacos'] }, f.auth());
    const ids = async (qs: string) => (await h.api.get(`/v1/businesses?${qs}`).set(f.auth())).body.data.map((x: { id: string }) => x.id);
    expect(await ids('status=watchlist')).toEqual([b.id]);
    expect(await ids('tag=pizza')).toEqual([a.id]);
    expect(await ids('search=alpha')).toEqual([a.id]);
    expect(await ids('search=1122334')).toEqual([a.id]);
    expect(await ids('search=555-0100')).toEqual([a.id]);
    expect(await ids('search=tacos&status=active')).toEqual([]);
    expect(await ids('')).toEqual([b.id, a.id]);
  });
});

describe(`getBusiness and computed fields (${ENGINE})`, () => {
  it('deal_count, lifetime_funded, active_advances, outstanding_balance, last_activity_at, primary_contact are true at read time', async () => {
    const b = await createBusiness({ legal_name: 'Figures Inc' });
    const d1 = await insertDeal(t, b.id, t.users.admin.id);
    const d2 = await insertDeal(t, b.id, t.users.user.id);
    const lender = await insertLender(t, 'Atlas Capital');
    await insertAdvance(t, d1, b.id, lender, { funded: 75000, payback: 101250, paid: 40500, status: 'on-track' });
    await insertAdvance(t, d2, b.id, lender, { funded: 20000.5, payback: 26000.65, paid: 26000.65, status: 'paid-off' });
    h.clock.advance(60_000);
    const p = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Maria', last_name: 'Lopez', email: 'maria@x.example', phone: '303-555-0177', business_id: b.id });
    expect(p.status).toBe(201);
    h.clock.advance(60_000);
    const note = await h.api.post(`/v1/businesses/${b.id}/notes`).set(t.auth()).send({ body: 'Called the owner' });
    expect(note.status).toBe(201);
    const res = await h.api.get(`/v1/businesses/${b.id}`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      deal_count: 2, lifetime_funded: 95000.5, active_advances: 1, outstanding_balance: 60750,
      last_activity_at: h.clock.now().toISOString(),
      primary_contact: { id: p.body.data.id, name: 'Maria Lopez', email: 'maria@x.example', phone: '13035550177' },
    });
    // Nothing embedded by default.
    expect(res.body.data).not.toHaveProperty('people');
    expect(res.body.data).not.toHaveProperty('deals');
    expect(res.body.data).not.toHaveProperty('advances');
    // The list shows the same figures.
    const listed = (await h.api.get('/v1/businesses?search=Figures').set(t.auth())).body.data[0];
    expect(listed).toMatchObject({ deal_count: 2, lifetime_funded: 95000.5, active_advances: 1, outstanding_balance: 60750 });
  });

  it("404 for another location's business and for an unknown id", async () => {
    const b = await createBusiness({ legal_name: 'Hidden' });
    expect((await h.api.get(`/v1/businesses/${b.id}`).set(other.auth())).status).toBe(404);
    expect((await h.api.get('/v1/businesses/biz_01JD1A2B3C4D5E6F7G8H9J0K1M').set(t.auth())).status).toBe(404);
  });
});

describe(`getBusiness include (${ENGINE})`, () => {
  let biz: Record<string, any>;
  let owner: string;
  let coOwner: string;
  let userDeal: string;
  let adminDeal: string;
  let advance: string;

  beforeAll(async () => {
    biz = await createBusiness({ legal_name: 'Includes LLC' });
    // James first (primary contact, 25%), then Maria with the bigger share, then a bookkeeper.
    coOwner = (await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'James', last_name: 'Lopez', dob: '1980-01-02', business_id: biz.id, role: 'co-owner', ownership_percent: 25 })).body.data.id;
    owner = (await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Maria', last_name: 'Lopez', ssn: '123-45-4821', business_id: biz.id, role: 'owner', ownership_percent: 75 })).body.data.id;
    await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Bob', last_name: 'Books', business_id: biz.id, role: 'bookkeeper' });
    h.clock.advance(1000);
    adminDeal = await insertDeal(t, biz.id, t.users.admin.id);
    h.clock.advance(1000);
    userDeal = await insertDeal(t, biz.id, t.users.user.id);
    const lender = await insertLender(t, 'Include Capital');
    advance = await insertAdvance(t, adminDeal, biz.id, lender, { funded: 10000, payback: 13000, paid: 6500, status: 'on-track' });
  });

  it('include=people: every linked person with the link fields, primary contact first then by share', async () => {
    const res = await h.api.get(`/v1/businesses/${biz.id}?include=people`).set(t.auth());
    expect(res.status).toBe(200);
    const people = res.body.data.people;
    expect(people.map((p: { id: string }) => p.id).slice(0, 2)).toEqual([coOwner, owner]);
    expect(people[0]).toMatchObject({ role: 'co-owner', ownership_percent: 25, active: true, is_primary_contact: true, dob: '1980-01-02', full_name: 'James Lopez' });
    expect(people[1]).toMatchObject({ role: 'owner', ownership_percent: 75, is_primary_contact: false, ssn_masked: '***-**-4821' });
    expect(people[2]).toMatchObject({ role: 'bookkeeper', ownership_percent: null });
    expect(JSON.stringify(res.body)).not.toContain('123454821');
    expect(res.body.data).not.toHaveProperty('deals');
    const asUser = await h.api.get(`/v1/businesses/${biz.id}?include=people`).set(t.auth('user'));
    expect(asUser.body.data.people[0].dob).toBeNull();
  });

  it('include=deals: newest first; role user only its own deals', async () => {
    const res = await h.api.get(`/v1/businesses/${biz.id}?include=deals`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body.data.deals.map((d: { id: string }) => d.id)).toEqual([userDeal, adminDeal]);
    const asUser = await h.api.get(`/v1/businesses/${biz.id}?include=deals`).set(t.auth('user'));
    expect(asUser.body.data.deals.map((d: { id: string }) => d.id)).toEqual([userDeal]);
  });

  it('include=deals returns at most the 100 most recent', async () => {
    const many = await createBusiness({ legal_name: 'Many Deals' });
    const stage = await h.knex('pipeline_stages').where({ location_id: t.locationId }).orderBy('sort_order').first();
    const base = h.clock.now().getTime();
    const rows = Array.from({ length: 101 }, (_, i) => {
      const at = new Date(base + i);
      return { id: newId('deal', at.getTime()), location_id: t.locationId, business_id: many.id, stage_id: stage.id, stage_entered_at: at, created_by_user_id: t.users.admin.id, created_at: at, updated_at: at };
    });
    await h.knex('deals').insert(rows);
    const res = await h.api.get(`/v1/businesses/${many.id}?include=deals`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body.data.deals).toHaveLength(100);
    expect(res.body.data.deals[0].id).toBe(rows[100].id);
    expect(res.body.data.deals.map((d: { id: string }) => d.id)).not.toContain(rows[0].id);
    expect(res.body.data.deal_count).toBe(101);
  });

  it('include=advances for admin and manager; role user gets 403 role_not_allowed param include', async () => {
    const res = await h.api.get(`/v1/businesses/${biz.id}?include=advances,people,advances`).set(t.auth('manager'));
    expect(res.status).toBe(200);
    expect(res.body.data.advances.map((a: { id: string }) => a.id)).toEqual([advance]);
    expect(res.body.data.people).toHaveLength(3);
    const denied = await h.api.get(`/v1/businesses/${biz.id}?include=advances`).set(t.auth('user'));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ type: 'permission_error', code: 'role_not_allowed', param: 'include' });
  });

  it('role user: deal_count counts only its own deals and the advance figures are 0', async () => {
    const asAdmin = (await h.api.get(`/v1/businesses/${biz.id}`).set(t.auth())).body.data;
    expect(asAdmin.deal_count).toBe(2);
    expect(asAdmin.active_advances).toBe(1);
    const asUser = (await h.api.get(`/v1/businesses/${biz.id}`).set(t.auth('user'))).body.data;
    expect(asUser).toMatchObject({ deal_count: 1, lifetime_funded: 0, active_advances: 0, outstanding_balance: 0 });
  });

  it('each include needs its own scope: 403 missing_scope with the scope in param', async () => {
    const k = await t.key({ scopes: ['businesses:read'] });
    for (const [inc, scope] of [['people', 'people:read'], ['deals', 'deals:read'], ['advances', 'advances:read']]) {
      const res = await h.api.get(`/v1/businesses/${biz.id}?include=${inc}`).set(bearer(k.key));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'missing_scope', param: scope });
    }
    expect((await h.api.get(`/v1/businesses/${biz.id}`).set(bearer(k.key))).status).toBe(200);
    const withPeople = await t.key({ scopes: ['businesses:read', 'people:read'] });
    expect((await h.api.get(`/v1/businesses/${biz.id}?include=people`).set(bearer(withPeople.key))).status).toBe(200);
  });

  it('400 for an unknown include name', async () => {
    const res = await h.api.get(`/v1/businesses/${biz.id}?include=people,lenders`).set(t.auth());
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('include');
  });
});

describe(`dates stay dates in every time zone (${ENGINE})`, () => {
  it('business_start_date and dob read back as written, whatever the process time zone', async () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC']) {
        process.env.TZ = tz;
        const b = await createBusiness({ legal_name: `TZ ${tz}`, business_start_date: '2016-04-01' });
        expect(b.business_start_date).toBe('2016-04-01');
        const p = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Tz', last_name: tz, dob: '1981-06-23' });
        expect(p.body.data.dob).toBe('1981-06-23');
        const again = await h.api.get(`/v1/businesses/${b.id}`).set(t.auth());
        expect(again.body.data.business_start_date).toBe('2016-04-01');
        expect(again.body.data.created_at).toMatch(/Z$/);
      }
    } finally {
      process.env.TZ = saved;
    }
  });
});
