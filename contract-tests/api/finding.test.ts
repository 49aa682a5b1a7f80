import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Issue 29, finding things: deal search, time filters on lists (exclusive bounds, cursors bound to
// their filters), and submissions and offers across deals. Both engines: the search runs on
// migration 0021's trigger-kept columns and trigram indexes (pg_trgm on PostgreSQL and PGlite).

let h: Harness;
let t: Tenant;
let other: Tenant;
let bizA: string;
let bizB: string;
let dealA: string;
let dealB: string;
let lender1: string;
let lender2: string;

const SEC = 1000;
type Role = 'admin' | 'manager' | 'user';

async function business(tenant: Tenant, body: Record<string, unknown>): Promise<string> {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send(body);
  expect(res.status).toBe(201);
  return res.body.data.id;
}
async function deal(tenant: Tenant, businessId: string, body: Record<string, unknown> = {}, role: Role = 'admin'): Promise<{ id: string; created_at: string }> {
  h.clock.advance(SEC);
  const res = await h.api.post('/v1/deals').set(tenant.auth(role)).send({ business_id: businessId, ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}
async function lender(tenant: Tenant, name: string): Promise<string> {
  const now = h.clock.now();
  const id = newId('lnd', now.getTime());
  await h.knex('lenders').insert({ id, location_id: tenant.locationId, name, created_at: now, updated_at: now });
  return id;
}
const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);

async function search(term: string, role: Role = 'admin', tenant = t): Promise<string[]> {
  const res = await h.api.get('/v1/deals').query({ search: term, limit: 100 }).set(tenant.auth(role));
  expect(res.status).toBe(200);
  return ids(res.body);
}

/** Every item of a list, page by page (`limit` 2), failing on a repeated id. */
async function walk(path: string, query: Record<string, string>, auth = t.auth()): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await h.api.get(path).query({ ...query, limit: 2, ...(cursor ? { cursor } : {}) }).set(auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const id of ids(res.body)) {
      expect(seen).not.toContain(id);
      seen.push(id);
    }
    if (!res.body.meta.has_more) {
      expect(res.body.meta.next_cursor).toBeNull();
      return seen;
    }
    cursor = res.body.meta.next_cursor;
  }
  throw new Error('too many pages');
}

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Finding Co');
  other = await h.tenant('Elsewhere Co');
  bizA = await business(t, { legal_name: 'Quartzline Bakery LLC', dba: 'Crumbwise', email: 'front@quartzline.example', phone: '(720) 555-0191', ein: '12-3456789' });
  bizB = await business(t, { legal_name: 'Harbor Tools Inc', dba: 'Harbor Hardware', email: 'desk@harbortools.example', phone: '212-555-0100', ein: '98-7654320' });
  dealA = (await deal(t, bizA, { owner: { first_name: 'Eleni', last_name: 'Vasquez-Orr', email: 'eleni@owners.example', phone: '+1 (415) 555-0123' } })).id;
  dealB = (await deal(t, bizB, { owner: { first_name: 'Tom', last_name: 'Reyes', email: 'tom@harbortools.example', phone: '646-555-0188' } })).id;
  // Another location with the very same business and owner: never found from Finding Co.
  const otherBiz = await business(other, { legal_name: 'Quartzline Bakery LLC', dba: 'Crumbwise', email: 'front@quartzline.example', phone: '(720) 555-0191', ein: '12-3456789' });
  await deal(other, otherBiz, { owner: { first_name: 'Eleni', last_name: 'Vasquez-Orr', email: 'eleni@owners.example', phone: '+1 (415) 555-0123' } });
  lender1 = await lender(t, 'Atlas Capital');
  lender2 = await lender(t, 'Brightline Funding');
});
afterAll(() => h?.close());

describe(`deal search (${ENGINE})`, () => {
  it.each([
    ['legal name, any case, any part', 'quartzLINE bak'],
    ['DBA', 'CRUMBWISE'],
    ['owner name, first and last', 'eleni vasquez'],
    ['owner last name with its hyphen', 'Vasquez-Orr'],
    ['owner email', 'ELENI@owners'],
    ['business email', 'front@quartz'],
    ['business phone as typed', '(720) 555-0191'],
    ['business phone, a run of its digits', '5550191'],
    ['owner phone in another format', '415.555.0123'],
    ['EIN last four', '6789'],
    ['EIN last four with spaces around', '  6789 '],
  ])('%s finds that deal and nothing else', async (_what, term) => {
    expect(await search(term)).toEqual([dealA]);
  });

  it('the other deal is found by its own fields, and a term of neither finds nothing', async () => {
    expect(await search('harbor hard')).toEqual([dealB]);
    expect(await search('7654320'.slice(-4))).toEqual([dealB]);
    expect(await search('zzqx')).toEqual([]);
  });

  it('the EIN matches on its last four only; digits in the middle of an EIN find nothing', async () => {
    expect(await search('3456')).toEqual([]);
    expect(await search('12-3456789')).toEqual([]);
  });

  it('a phone needs 4 digits and no letters; % and _ are plain characters', async () => {
    expect(await search('555')).toEqual([]);
    expect(await search('x5550191')).toEqual([]);
    expect(await search('%%%')).toEqual([]);
    expect(await search('___')).toEqual([]);
  });

  it("another location's deals are never found, and that location finds only its own", async () => {
    const mine = await search('quartzline');
    expect(mine).toEqual([dealA]);
    const theirs = await search('quartzline', 'admin', other);
    expect(theirs).toHaveLength(1);
    expect(theirs).not.toContain(dealA);
  });

  it('role user finds only the deals it created', async () => {
    const own = (await deal(t, bizA, {}, 'user')).id;
    expect(await search('quartzline', 'user')).toEqual([own]);
    expect((await search('quartzline')).sort()).toEqual([dealA, own].sort());
    await h.knex('deals').where({ id: own }).delete();
  });

  it('follows the business and the owner when they change (a rename is found at once, the old name no more)', async () => {
    const biz = await business(t, { legal_name: 'Old Mill Pizza' });
    const d = (await deal(t, biz, { owner: { first_name: 'Nadia', last_name: 'Kowal' } })).id;
    expect(await search('old mill')).toEqual([d]);
    expect((await h.api.patch(`/v1/businesses/${biz}`).set(t.auth()).send({ legal_name: 'Copper Oven Pizza', phone: '303 555 0999' })).status).toBe(200);
    expect(await search('old mill')).toEqual([]);
    expect(await search('copper oven')).toEqual([d]);
    expect(await search('5550999')).toEqual([d]);
    expect((await h.api.patch(`/v1/deals/${d}`).set(t.auth()).send({ owner: { first_name: 'Nadia', last_name: 'Brandt' } })).status).toBe(200);
    expect(await search('kowal')).toEqual([]);
    expect(await search('nadia brandt')).toEqual([d]);
  });

  it('combines with the other filters', async () => {
    expect(await h.api.get('/v1/deals').query({ search: 'quartzline', status: 'dead' }).set(t.auth()).then((r) => ids(r.body))).toEqual([]);
    expect(await h.api.get('/v1/deals').query({ search: 'quartzline', business_id: bizA }).set(t.auth()).then((r) => ids(r.body))).toEqual([dealA]);
  });

  it.each([['ab'], ['  ab  '], ['a\tbc']])('%j is 400 validation_error naming search', async (term) => {
    const res = await h.api.get('/v1/deals').query({ search: term }).set(t.auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'validation_error', param: 'search' });
  });

  it('pages through search results with no repeat and no gap, and a cursor refuses other filters', async () => {
    const biz = await business(t, { legal_name: 'Pagewise Florist' });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await deal(t, biz)).id);
      await deal(t, bizB); // interleaved non-matching deals
    }
    expect(await walk('/v1/deals', { search: 'pagewise' })).toEqual([...made].reverse());
    const first = await h.api.get('/v1/deals').query({ search: 'pagewise', limit: 2 }).set(t.auth());
    const cursor = first.body.meta.next_cursor as string;
    // Same filters, another limit: fine. Other filters, or none: 400 invalid_cursor.
    expect((await h.api.get('/v1/deals').query({ search: 'pagewise', limit: 3, cursor }).set(t.auth())).status).toBe(200);
    for (const q of [{ search: 'pagewiser' }, {}, { search: 'pagewise', status: 'open' }]) {
      const res = await h.api.get('/v1/deals').query({ ...q, cursor }).set(t.auth());
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_cursor', param: 'cursor' });
    }
  });
});

describe(`time filters on lists (${ENGINE})`, () => {
  it('created_after and created_before are exclusive bounds on created_at, and combine', async () => {
    const biz = await business(t, { legal_name: 'Boundary Bikes' });
    const d1 = await deal(t, biz);
    const d2 = await deal(t, biz);
    const d3 = await deal(t, biz);
    const at = (d: { created_at: string }, ms = 0) => new Date(Date.parse(d.created_at) + ms).toISOString();
    const list = async (q: Record<string, string>) => ids((await h.api.get('/v1/deals').query({ business_id: biz, ...q }).set(t.auth())).body);
    expect(await list({ created_after: at(d1) })).toEqual([d3.id, d2.id]);
    expect(await list({ created_after: at(d1, -1) })).toEqual([d3.id, d2.id, d1.id]);
    expect(await list({ created_before: at(d3) })).toEqual([d2.id, d1.id]);
    expect(await list({ created_before: at(d3, 1) })).toEqual([d3.id, d2.id, d1.id]);
    expect(await list({ created_after: at(d1), created_before: at(d3) })).toEqual([d2.id]);
    // An offset names the same instant as Z.
    const offset = new Date(Date.parse(d1.created_at) - 5 * 3600 * SEC).toISOString().replace('.000Z', '-05:00');
    expect(await list({ created_after: offset })).toEqual([d3.id, d2.id]);
    expect(await list({ created_after: at(d3), created_before: at(d1) })).toEqual([]);
  });

  it('updated_after is exclusive on updated_at; the order stays newest created first', async () => {
    const biz = await business(t, { legal_name: 'Updated Upholstery' });
    const d1 = await deal(t, biz);
    const d2 = await deal(t, biz);
    h.clock.advance(SEC);
    const patched = await h.api.patch(`/v1/deals/${d1.id}`).set(t.auth()).send({ use_of_funds: 'Inventory' });
    const updatedAt = patched.body.data.updated_at as string;
    const list = async (after: string) => ids((await h.api.get('/v1/deals').query({ business_id: biz, updated_after: after }).set(t.auth())).body);
    expect(await list(new Date(Date.parse(updatedAt) - 1).toISOString())).toEqual([d1.id]);
    expect(await list(updatedAt)).toEqual([]);
    expect(await list(new Date(Date.parse(d2.created_at) - 1).toISOString())).toEqual([d2.id, d1.id]);
  });

  it('apply to the other lists too (businesses, per-deal submissions and offers, notes, webhooks...)', async () => {
    const before = new Date(h.clock.now().getTime() + 1).toISOString();
    h.clock.advance(SEC);
    const biz = await business(t, { legal_name: 'Late Lamps' });
    const res = await h.api.get('/v1/businesses').query({ created_after: before }).set(t.auth());
    expect(ids(res.body)).toEqual([biz]);
    const none = await h.api.get('/v1/businesses').query({ created_before: '2000-01-01T00:00:00Z' }).set(t.auth());
    expect(none.body.data).toEqual([]);
    const notes = await h.api.get(`/v1/deals/${dealA}/notes`).query({ updated_after: before }).set(t.auth());
    expect(notes.status).toBe(200);
    const hooks = await h.api.get('/v1/webhooks').query({ created_after: before, updated_after: before }).set(t.auth());
    expect(hooks.status).toBe(200);
  });

  it.each([
    ['created_after', 'yesterday'],
    ['created_after', '2026-11-01'],
    ['created_before', '2026-11-01T00:00:00'],
    ['created_before', '2026-02-30T00:00:00Z'],
    ['updated_after', '2026-11-01 10:00:00Z'],
  ])('%s=%s is 400 validation_error naming the field', async (param, value) => {
    for (const path of ['/v1/deals', '/v1/submissions', '/v1/offers', '/v1/businesses']) {
      const res = await h.api.get(path).query({ [param]: value }).set(t.auth());
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param });
    }
  });

  it('a list without updated_at does not take updated_after (400)', async () => {
    const res = await h.api.get(`/v1/deals/${dealA}/portal-links`).query({ updated_after: '2026-11-01T00:00:00Z' }).set(t.auth());
    expect(res.status).toBe(400);
  });

  it('paging through a time-filtered list: no repeat, no gap, cursor bound to the window', async () => {
    const biz = await business(t, { legal_name: 'Window Washers' });
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push((await deal(t, biz)).id);
    const from = new Date(Date.parse((await h.knex('deals').where({ id: made[0] }).first()).created_at) + 1).toISOString();
    const got = await walk('/v1/deals', { created_after: from });
    expect(got).toEqual(made.slice(1).reverse());
    const first = await h.api.get('/v1/deals').query({ created_after: from, limit: 2 }).set(t.auth());
    const moved = await h.api.get('/v1/deals').query({ created_after: '2026-01-01T00:00:00Z', cursor: first.body.meta.next_cursor }).set(t.auth());
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe('invalid_cursor');
    // The same instant spelled with an offset is the same filter.
    const spelled = new Date(Date.parse(from)).toISOString().replace('Z', '+00:00');
    expect((await h.api.get('/v1/deals').query({ created_after: spelled, cursor: first.body.meta.next_cursor }).set(t.auth())).status).toBe(200);
  });
});

describe(`submissions and offers across deals (${ENGINE})`, () => {
  const subs: Record<string, string> = {};
  let userDeal: string;

  beforeAll(async () => {
    userDeal = (await deal(t, bizB, {}, 'user')).id;
    const row = (key: string, dealId: string, lenderId: string, status: string, responseType: string | null, location = t.locationId) => {
      h.clock.advance(SEC);
      const now = h.clock.now();
      const id = newId('sub', now.getTime());
      subs[key] = id;
      return { id, location_id: location, deal_id: dealId, lender_id: lenderId, status, submission_method: 'email', response_type: responseType, created_at: now, updated_at: now };
    };
    const otherDeal = await h.knex('deals').where({ location_id: other.locationId }).first('id');
    const otherLender = await lender(other, 'Atlas Capital');
    const rows = [
      row('a1', dealA, lender1, 'approved', 'approved'),
      row('a2', dealA, lender2, 'declined', 'declined'),
      row('b1', dealB, lender1, 'sent', null),
      row('b2', dealB, lender2, 'approved', 'counter'),
      row('u1', userDeal, lender1, 'needs_info', 'more_info'),
      row('o1', otherDeal.id, otherLender, 'approved', 'approved', other.locationId),
    ];
    await h.knex('submissions').insert(rows);
  });

  const list = async (q: Record<string, string>, role: Role = 'admin') => {
    const res = await h.api.get('/v1/submissions').query({ limit: 100, ...q }).set(t.auth(role));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ids(res.body);
  };

  it('lists every visible deal of the location, newest first, in the per-deal shape', async () => {
    expect(await list({})).toEqual([subs.u1, subs.b2, subs.b1, subs.a2, subs.a1]);
    const all = await h.api.get('/v1/submissions').set(t.auth());
    const perDeal = await h.api.get(`/v1/deals/${dealA}/submissions`).set(t.auth());
    expect(all.body.data.find((s: { id: string }) => s.id === subs.a1)).toEqual(perDeal.body.data.find((s: { id: string }) => s.id === subs.a1));
  });

  it('filters by status, lender_id, response_type (none: not answered) and combine', async () => {
    expect(await list({ status: 'approved' })).toEqual([subs.b2, subs.a1]);
    expect(await list({ lender_id: lender2 })).toEqual([subs.b2, subs.a2]);
    expect(await list({ response_type: 'counter' })).toEqual([subs.b2]);
    expect(await list({ response_type: 'none' })).toEqual([subs.b1]);
    expect(await list({ status: 'approved', lender_id: lender1 })).toEqual([subs.a1]);
    expect(await list({ lender_id: 'lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0' })).toEqual([]);
  });

  it('date range with exclusive bounds', async () => {
    const created = async (key: string) => new Date((await h.knex('submissions').where({ id: subs[key] }).first()).created_at);
    const a2 = await created('a2');
    const b2 = await created('b2');
    expect(await list({ created_after: a2.toISOString(), created_before: b2.toISOString() })).toEqual([subs.b1]);
    expect(await list({ created_after: new Date(a2.getTime() - 1).toISOString(), created_before: new Date(b2.getTime() + 1).toISOString() })).toEqual([subs.b2, subs.b1, subs.a2]);
    expect(await list({ updated_after: b2.toISOString() })).toEqual([subs.u1]);
  });

  it("role user sees only its own deals' submissions; another location's never appear", async () => {
    expect(await list({}, 'user')).toEqual([subs.u1]);
    const theirs = await h.api.get('/v1/submissions').set(other.auth());
    expect(ids(theirs.body)).toEqual([subs.o1]);
  });

  it('pages through a filtered list with no repeat and no gap', async () => {
    expect(await walk('/v1/submissions', { status: 'approved' })).toEqual([subs.b2, subs.a1]);
    expect(await walk('/v1/submissions', {})).toEqual([subs.u1, subs.b2, subs.b1, subs.a2, subs.a1]);
    expect(await walk('/v1/submissions', { lender_id: lender1 })).toEqual([subs.u1, subs.b1, subs.a1]);
  });

  it('bad filters are 400 naming the field', async () => {
    for (const [param, value] of [['status', 'maybe'], ['response_type', 'yes'], ['lender_id', 'atlas']]) {
      const res = await h.api.get('/v1/submissions').query({ [param]: value }).set(t.auth());
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', param });
    }
  });

  it('offers across deals: filters, role user, other location, paging', async () => {
    const offer = async (dealId: string, lenderId: string, body: Record<string, unknown> = {}, role: Role = 'admin', tenant = t) => {
      h.clock.advance(SEC);
      const res = await h.api.post(`/v1/deals/${dealId}/offers`).set(tenant.auth(role)).send({ lender_id: lenderId, amount: 50000, factor_rate: 1.3, term: 120, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const o1 = await offer(dealA, lender1);
    const o2 = await offer(dealB, lender2, { status: 'declined' });
    const o3 = await offer(userDeal, lender1, {}, 'user');
    const otherDeal = await h.knex('deals').where({ location_id: other.locationId }).first('id');
    const otherLender = await h.knex('lenders').where({ location_id: other.locationId }).first('id');
    await offer(otherDeal.id, otherLender.id, {}, 'admin', other);
    const offers = async (q: Record<string, string>, role: Role = 'admin') => {
      const res = await h.api.get('/v1/offers').query({ limit: 100, ...q }).set(t.auth(role));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return ids(res.body);
    };
    expect(await offers({})).toEqual([o3, o2, o1]);
    expect(await offers({ status: 'declined' })).toEqual([o2]);
    expect(await offers({ lender_id: lender1 })).toEqual([o3, o1]);
    expect(await offers({}, 'user')).toEqual([o3]);
    const o1Created = (await h.knex('offers').where({ id: o1 }).first()).created_at as Date;
    expect(await offers({ created_after: o1Created.toISOString() })).toEqual([o3, o2]);
    expect(await offers({ created_before: o1Created.toISOString() })).toEqual([]);
    expect(await walk('/v1/offers', {})).toEqual([o3, o2, o1]);
    const perDeal = await h.api.get(`/v1/deals/${dealA}/offers`).set(t.auth());
    const across = await h.api.get('/v1/offers').query({ lender_id: lender1 }).set(t.auth());
    expect(across.body.data.find((x: { id: string }) => x.id === o1)).toEqual(perDeal.body.data[0]);
    const bad = await h.api.get('/v1/offers').query({ status: 'maybe' }).set(t.auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('status');
  });
});
