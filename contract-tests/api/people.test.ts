import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('People');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const countRows = async (table: string, tenant = t) => Number((await h.knex(table).where({ location_id: tenant.locationId }).count<{ c: number }[]>('* as c'))[0].c);

async function business(name: string, tenant = t) {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send({ legal_name: name });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
async function person(body: Record<string, unknown>, tenant = t) {
  const res = await h.api.post('/v1/people').set(tenant.auth()).send(body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}
/** Every reserved character percent-encoded, parentheses included (as URLSearchParams does). */
const enc = (v: string) => encodeURIComponent(v).replace(/[()!'*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const link = (personId: string, body: Record<string, unknown>, auth = t.auth()) => h.api.post(`/v1/people/${personId}/associations`).set(auth).send(body);

describe(`createPerson (${ENGINE})`, () => {
  it('creates a person: phone normalised, SSN sealed and masked, person.created without business', async () => {
    h.clock.advance(1000);
    const res = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Maria', last_name: 'Lopez', email: 'Maria@Sunrise.example', phone: '(303) 555-0177', ssn: '123-45-4821', dob: '1981-06-23', credit_score: '712', ghl_contact_id: 'ghl-1' });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(p).toMatchObject({
      first_name: 'Maria', last_name: 'Lopez', full_name: 'Maria Lopez', email: 'Maria@Sunrise.example', phone: '13035550177', ssn_masked: '***-**-4821', dob: '1981-06-23',
      credit_score: '712', ghl_contact_id: 'ghl-1', status: 'active', address: null, created_at: h.clock.now().toISOString(),
    });
    expect(p).not.toHaveProperty('ssn');
    const row = await h.knex('people').where({ id: p.id }).first();
    expect(row.ssn_encrypted).not.toContain('123');
    expect(h.deps.secrets.open(row.ssn_encrypted)).toBe('123454821');
    const [evt] = await h.knex('events').where({ type: 'person.created' }).whereRaw(`data->>'person_id' = ?`, [p.id]);
    expect(evt.location_id).toBe(t.locationId);
    expect(evt.data).toEqual({ person_id: p.id, business_id: null, person: { id: p.id, first_name: 'Maria', last_name: 'Lopez', email: 'Maria@Sunrise.example', phone: '13035550177', created_at: p.created_at } });
    expect(JSON.stringify(evt.data)).not.toMatch(/4821|1981|712|ghl/);
  });

  it('dob is returned only to admin and manager', async () => {
    const asUser = await h.api.post('/v1/people').set(t.auth('user')).send({ first_name: 'U', last_name: 'Ser', dob: '1990-01-01' });
    expect(asUser.status).toBe(201);
    expect(asUser.body.data.dob).toBeNull();
    expect((await h.api.get(`/v1/people/${asUser.body.data.id}`).set(t.auth('manager'))).body.data.dob).toBe('1990-01-01');
    expect((await h.api.get(`/v1/people/${asUser.body.data.id}`).set(t.auth('user'))).body.data.dob).toBeNull();
  });

  it('links at creation: first person becomes primary contact; person.created carries business_id', async () => {
    const biz = await business('Linked Co');
    const p = await person({ first_name: 'First', last_name: 'Owner', business_id: biz, ownership_percent: 60 });
    const [evt] = await h.knex('events').where({ type: 'person.created' }).whereRaw(`data->>'person_id' = ?`, [p.id]);
    expect(evt.data.business_id).toBe(biz);
    const links = (await h.api.get(`/v1/people/${p.id}/associations`).set(t.auth())).body.data;
    expect(links).toEqual([{ business_id: biz, legal_name: 'Linked Co', dba: null, status: 'active', role: 'owner', ownership_percent: 60, active: true, is_primary_contact: true }]);
    const second = await person({ first_name: 'Second', last_name: 'Contact', business_id: biz, role: 'bookkeeper' });
    const l2 = (await h.api.get(`/v1/people/${second.id}/associations`).set(t.auth())).body.data[0];
    expect(l2).toMatchObject({ role: 'bookkeeper', is_primary_contact: false, ownership_percent: null });
    expect((await h.api.get(`/v1/businesses/${biz}`).set(t.auth())).body.data.primary_contact.id).toBe(p.id);
  });

  it('ownership over 100% rejects the whole creation: 400 ownership_exceeded, no person, no event', async () => {
    const biz = await business('Full Co');
    await person({ first_name: 'A', last_name: 'Owner', business_id: biz, ownership_percent: 70 });
    const people = await countRows('people');
    const events = await countRows('events');
    const res = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'B', last_name: 'Owner', business_id: biz, role: 'co-owner', ownership_percent: 30.01 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'ownership_exceeded', param: 'ownership_percent' });
    expect(await countRows('people')).toBe(people);
    expect(await countRows('events')).toBe(events);
    // Exactly 100 is fine; a bookkeeper's share does not count.
    await person({ first_name: 'C', last_name: 'Owner', business_id: biz, role: 'co-owner', ownership_percent: 30 });
    await person({ first_name: 'D', last_name: 'Books', business_id: biz, role: 'bookkeeper', ownership_percent: 50 });
  });

  it('404 param business_id for an unknown or foreign business; nothing created', async () => {
    const foreign = await business('Foreign', other);
    const events = await countRows('events');
    for (const id of [foreign, 'biz_01JD1A2B3C4D5E6F7G8H9J0K1M']) {
      const res = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'X', last_name: 'Y', business_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'business_id' });
    }
    expect(await countRows('events')).toBe(events);
  });

  it('400 on bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ last_name: 'Y' }, 'first_name'],
      [{ first_name: 'X', last_name: 'Y', ssn: '12345' }, 'ssn'],
      [{ first_name: 'X', last_name: 'Y', phone: '123' }, 'phone'],
      [{ first_name: 'X', last_name: 'Y', email: 'nope' }, 'email'],
      [{ first_name: 'X', last_name: 'Y', dob: '1990-13-45' }, 'dob'],
      [{ first_name: 'X', last_name: 'Y', ownership_percent: 10 }, 'business_id'],
    ];
    for (const [body, param] of cases) {
      const res = await h.api.post('/v1/people').set(t.auth()).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param, JSON.stringify(body)).toBe(param);
    }
    const biz = await business('Pct Co');
    const over = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'X', last_name: 'Y', business_id: biz, ownership_percent: 101 });
    expect(over.status).toBe(400);
    expect(over.body.error.param).toBe('ownership_percent');
  });

  it('needs people:write', async () => {
    const k = await t.key({ scopes: ['people:read'] });
    const res = await h.api.post('/v1/people').set(bearer(k.key)).send({ first_name: 'X', last_name: 'Y' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'people:write' });
  });
});

describe(`getPerson and updatePerson (${ENGINE})`, () => {
  it('updates only sent fields; null clears; ssn replaced or deleted; phone normalised', async () => {
    const p = await person({ first_name: 'Up', last_name: 'Date', email: 'up@x.example', city: 'Denver', ssn: '111223333' });
    h.clock.advance(2000);
    const res = await h.api.patch(`/v1/people/${p.id}`).set(t.auth()).send({ city: null, phone: '303.555.0199', ssn: '999-88-7777', last_name: 'Dated' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ first_name: 'Up', last_name: 'Dated', full_name: 'Up Dated', email: 'up@x.example', city: null, phone: '13035550199', ssn_masked: '***-**-7777', updated_at: h.clock.now().toISOString(), created_at: p.created_at });
    const cleared = await h.api.patch(`/v1/people/${p.id}`).set(t.auth()).send({ ssn: null });
    expect(cleared.body.data.ssn_masked).toBeNull();
    const row = await h.knex('people').where({ id: p.id }).first();
    expect(row.ssn_encrypted).toBeNull();
    expect((await h.api.get(`/v1/people/${p.id}`).set(t.auth())).body.data).toMatchObject({ last_name: 'Dated', city: null, ssn_masked: null });
  });

  it('400 for an empty body or a null first_name; 404 for a foreign person', async () => {
    const p = await person({ first_name: 'Keep', last_name: 'Me' });
    for (const body of [{}, { first_name: null }, { phone: '12' }]) {
      expect((await h.api.patch(`/v1/people/${p.id}`).set(t.auth()).send(body)).status).toBe(400);
    }
    expect((await h.api.get(`/v1/people/${p.id}`).set(other.auth())).status).toBe(404);
    const foreign = await h.api.patch(`/v1/people/${p.id}`).set(other.auth()).send({ city: 'X' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('resource_missing');
  });
});

describe(`listPeople (${ENGINE})`, () => {
  let f: Tenant;
  let maria: Record<string, any>;
  let james: Record<string, any>;
  let intl: Record<string, any>;
  let biz: string;

  beforeAll(async () => {
    f = await h.tenant('Lookup');
    biz = await business('Lookup Co', f);
    maria = await person({ first_name: 'Maria', last_name: 'Lopez', email: 'Maria@Sunrise.example', phone: '303-555-0177', business_id: biz }, f);
    h.clock.advance(1000);
    james = await person({ first_name: 'James', last_name: 'Smith', email: 'james@other.example', phone: '+1 (720) 555-0188' }, f);
    h.clock.advance(1000);
    intl = await person({ first_name: 'Nigel', last_name: 'Brown', phone: '+44 20 7946 0958' }, f);
    // A phone stored by an older import, not normalised: lookups still find it.
    h.clock.advance(1000);
    const now = h.clock.now();
    await h.knex('people').insert({ id: 'per_01JD1A3C5E7G9J1K3M5N7P9R1Z', location_id: f.locationId, first_name: 'Legacy', last_name: 'Row', phone: '(212) 555-0100', status: 'active', created_at: now, updated_at: now });
  });

  const ids = async (qs: string, auth = f.auth()) => {
    const res = await h.api.get(`/v1/people?${qs}`).set(auth);
    expect(res.status, qs).toBe(200);
    return res.body.data.map((p: { id: string }) => p.id);
  };

  it('phone in any format finds the E.164 digits', async () => {
    for (const q of ['(303) 555-0177', '303-555-0177', '+13035550177', '13035550177', '3035550177']) {
      expect(await ids(`phone=${enc(q)}`), q).toEqual([maria.id]);
    }
    expect(await ids(`phone=${enc('720.555.0188')}`)).toEqual([james.id]);
    expect(await ids(`phone=${enc('+44 20 7946 0958')}`)).toEqual([intl.id]);
    expect(await ids(`phone=${enc('212-555-0100')}`)).toEqual(['per_01JD1A3C5E7G9J1K3M5N7P9R1Z']);
    expect(await ids('phone=3035550000')).toEqual([]);
    const bad = await h.api.get('/v1/people?phone=12').set(f.auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('phone');
  });

  it('email is exact and case-insensitive', async () => {
    expect(await ids('email=maria%40sunrise.example')).toEqual([maria.id]);
    expect(await ids('email=MARIA%40SUNRISE.EXAMPLE')).toEqual([maria.id]);
    expect(await ids('email=aria%40sunrise.example')).toEqual([]);
  });

  it('business_id lists the people linked to it; an unknown or foreign business is a filter that matches no one (200, empty), as on listDeals', async () => {
    expect(await ids(`business_id=${biz}`)).toEqual([maria.id]);
    const foreign = await business('Not yours', other);
    const unknown = 'biz_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    for (const id of [foreign, unknown]) {
      const people = await h.api.get(`/v1/people?business_id=${id}`).set(f.auth());
      expect(people.status, JSON.stringify(people.body)).toBe(200);
      expect(people.body.data).toEqual([]);
      const deals = await h.api.get(`/v1/deals?business_id=${id}`).set(f.auth());
      expect(deals.status, JSON.stringify(deals.body)).toBe(200);
      expect(deals.body.data).toEqual([]);
      const advances = await h.api.get(`/v1/advances?business_id=${id}`).set(f.auth());
      expect(advances.status, JSON.stringify(advances.body)).toBe(200);
      expect(advances.body.data).toEqual([]);
    }
  });

  it('search matches first name, last name, email and (4+ digits) phone; filters combine', async () => {
    expect(await ids('search=mari')).toEqual([maria.id]);
    expect(await ids('search=SMITH')).toEqual([james.id]);
    expect(await ids('search=other.example')).toEqual([james.id]);
    expect(await ids('search=Maria%20Lopez')).toEqual([maria.id]);
    expect(await ids('search=555-0188')).toEqual([james.id]);
    expect(await ids('search=555')).toEqual([]);
    expect(await ids(`search=lopez&business_id=${biz}`)).toEqual([maria.id]);
    expect(await ids(`search=smith&business_id=${biz}`)).toEqual([]);
  });

  it('without filters lists the location newest first, paginated; dob null for role user', async () => {
    const page1 = await h.api.get('/v1/people?limit=2').set(f.auth('user'));
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual(['per_01JD1A3C5E7G9J1K3M5N7P9R1Z', intl.id]);
    expect(page1.body.meta.has_more).toBe(true);
    const page2 = await h.api.get(`/v1/people?limit=2&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`).set(f.auth());
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual([james.id, maria.id]);
    expect(page2.body.meta).toEqual({ has_more: false, next_cursor: null });
  });
});

describe(`associations (${ENGINE})`, () => {
  it('relinking the same pair updates role and ownership and reactivates, always 200', async () => {
    const biz = await business('Relink Co');
    const p = await person({ first_name: 'Re', last_name: 'Link' });
    const first = await link(p.id, { business_id: biz, role: 'co-owner', ownership_percent: 40 });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ business_id: biz, legal_name: 'Relink Co', dba: null, status: 'active', role: 'co-owner', ownership_percent: 40, active: true, is_primary_contact: true });
    await h.knex('business_people').where({ person_id: p.id }).update({ active: false });
    const again = await link(p.id, { business_id: biz, role: 'owner', ownership_percent: 100 });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ role: 'owner', ownership_percent: 100, active: true, is_primary_contact: true });
    expect(await h.knex('business_people').where({ person_id: p.id, business_id: biz })).toHaveLength(1);
  });

  it('owners and co-owners may not exceed 100% together; nothing changes on 400', async () => {
    const biz = await business('Shares Co');
    const a = await person({ first_name: 'A', last_name: 'A' });
    const b = await person({ first_name: 'B', last_name: 'B' });
    expect((await link(a.id, { business_id: biz, ownership_percent: 80 })).status).toBe(200);
    const over = await link(b.id, { business_id: biz, role: 'co-owner', ownership_percent: 25 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'ownership_exceeded', param: 'ownership_percent' });
    expect(await h.knex('business_people').where({ person_id: b.id })).toHaveLength(0);
    // Relinking A at a lower share frees room; A's own old share does not count against itself.
    expect((await link(a.id, { business_id: biz, ownership_percent: 75 })).status).toBe(200);
    expect((await link(b.id, { business_id: biz, role: 'co-owner', ownership_percent: 25 })).status).toBe(200);
    // A bookkeeper may carry a share outside the owners' total; an inactive owner's share does not count.
    expect((await link(b.id, { business_id: biz, role: 'bookkeeper', ownership_percent: 25 })).status).toBe(200);
    expect((await link(a.id, { business_id: biz, ownership_percent: 100 })).status).toBe(200);
  });

  it('primary contact: the first person linked to a business, and only that one', async () => {
    const biz = await business('Primary Co');
    const a = await person({ first_name: 'First', last_name: 'In' });
    const b = await person({ first_name: 'Second', last_name: 'In' });
    expect((await link(a.id, { business_id: biz, role: 'other' })).body.data.is_primary_contact).toBe(true);
    expect((await link(b.id, { business_id: biz, role: 'other' })).body.data.is_primary_contact).toBe(false);
    expect((await h.api.get(`/v1/businesses/${biz}`).set(t.auth())).body.data.primary_contact).toEqual({ id: a.id, name: 'First In', email: null, phone: null });
  });

  it('404: unknown person (param id), unknown or foreign business (param business_id); 400 bad role or share', async () => {
    const biz = await business('Errors Co');
    const p = await person({ first_name: 'E', last_name: 'R' });
    const noPerson = await link('per_01JD1A3C5E7G9J1K3M5N7P9R1T', { business_id: biz });
    expect(noPerson.status).toBe(404);
    expect(noPerson.body.error.param).toBe('id');
    const foreignBiz = await business('Theirs', other);
    const noBiz = await link(p.id, { business_id: foreignBiz });
    expect(noBiz.status).toBe(404);
    expect(noBiz.body.error.param).toBe('business_id');
    expect((await link(p.id, { business_id: biz }, other.auth())).status).toBe(404);
    const badRole = await link(p.id, { business_id: biz, role: 'ceo' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.param).toBe('role');
    expect((await link(p.id, { business_id: biz, ownership_percent: -1 })).status).toBe(400);
  });

  it('listPersonAssociations: most recently linked first, paginated; 404 for a foreign person', async () => {
    const p = await person({ first_name: 'Many', last_name: 'Links' });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      const biz = await business(`Link ${i}`);
      made.push(biz);
      await link(p.id, { business_id: biz, role: 'other' });
    }
    const page1 = await h.api.get(`/v1/people/${p.id}/associations?limit=2`).set(t.auth());
    expect(page1.body.data.map((a: { business_id: string }) => a.business_id)).toEqual([made[2], made[1]]);
    const page2 = await h.api.get(`/v1/people/${p.id}/associations?limit=2&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`).set(t.auth());
    expect(page2.body.data.map((a: { business_id: string }) => a.business_id)).toEqual([made[0]]);
    expect((await h.api.get(`/v1/people/${p.id}/associations`).set(other.auth())).status).toBe(404);
  });

  it('needs people:write to link and people:read to list', async () => {
    const p = await person({ first_name: 'S', last_name: 'C' });
    const biz = await business('Scope Co');
    const r = await t.key({ scopes: ['people:read'] });
    expect((await link(p.id, { business_id: biz }, bearer(r.key))).body.error).toMatchObject({ code: 'missing_scope', param: 'people:write' });
    const w = await t.key({ scopes: ['businesses:read'] });
    expect((await h.api.get(`/v1/people/${p.id}/associations`).set(bearer(w.key))).body.error).toMatchObject({ code: 'missing_scope', param: 'people:read' });
  });
});
