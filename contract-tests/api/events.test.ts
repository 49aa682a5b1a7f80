import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEnvelope } from '../../src/events/outbox';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// The event log (GET /v1/events, GET /v1/events/{id}): the outbox rows of the caller's location of
// the last 30 days, exactly as webhooks deliver them, filtered by the credential's scopes. Events
// are produced through the API (businesses, people, deals); time only moves on the harness clock.

let h: Harness;
let t: Tenant;
let other: Tenant;

const DAY = 24 * 3600_000;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
type Evt = { id: string; type: string; created_at: string; location_id: string; data: Record<string, unknown> };

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Events');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

async function createBusiness(tenant: Tenant, legal_name: string): Promise<string> {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send({ legal_name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}
async function createPerson(tenant: Tenant, businessId: string): Promise<string> {
  const res = await h.api.post('/v1/people').set(tenant.auth()).send({ first_name: 'Maria', last_name: 'Lopez', email: 'maria@x.example', business_id: businessId });
  expect(res.status).toBe(201);
  return res.body.data.id;
}
async function createDeal(tenant: Tenant, businessId: string): Promise<string> {
  const res = await h.api.post('/v1/deals').set(tenant.auth()).send({ business_id: businessId, requested_amount: 50000 });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The outbox row of the event whose data names `key: id`. */
async function rowFor(tenant: Tenant, type: string, key: string, id: string) {
  const rows = await h.knex('events').where({ location_id: tenant.locationId, type });
  const row = rows.find((r) => (r.data as Record<string, unknown>)[key] === id);
  expect(row, `${type} for ${id}`).toBeDefined();
  return row;
}

/** Every page of a listing, following next_cursor. */
async function listAll(query: string, auth: Record<string, string>, limit = 100): Promise<{ events: Evt[]; pages: number }> {
  const events: Evt[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? '&' : '';
    const res: { status: number; body: any } = await h.api.get(`/v1/events?${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).set(auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    events.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    expect(res.body.meta.has_more).toBe(cursor !== null);
    pages++;
  } while (cursor);
  return { events, pages };
}
const idsOf = (events: Evt[]) => events.map((e) => e.id);

describe(`listEvents and getEvent (${ENGINE})`, () => {
  let bizId: string;
  let personId: string;
  let dealId: string;

  beforeAll(async () => {
    h.clock.advance(1000);
    bizId = await createBusiness(t, 'Sunrise Bakery LLC');
    h.clock.advance(1000);
    personId = await createPerson(t, bizId);
    h.clock.advance(1000);
    dealId = await createDeal(t, bizId);
    h.clock.advance(1000);
    await createBusiness(other, 'Other Tenant LLC');
  });

  it('serves each event exactly as toEnvelope shapes it (the bytes webhooks deliver), in list and get', async () => {
    for (const [type, key, id] of [['business.created', 'business_id', bizId], ['person.created', 'person_id', personId], ['deal.created', 'deal_id', dealId]] as const) {
      const row = await rowFor(t, type, key, id);
      const expected = JSON.stringify(toEnvelope(row));
      const got = await h.api.get(`/v1/events/${row.id}`).set(t.auth());
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body.data)).toBe(expected); // same keys, same order, same values
      expect(got.body.meta).toEqual({});
      const listed = (await listAll('', t.auth())).events.find((e) => e.id === row.id);
      expect(JSON.stringify(listed)).toBe(expected);
    }
    const biz = await h.api.get(`/v1/events/${(await rowFor(t, 'business.created', 'business_id', bizId)).id}`).set(t.auth());
    expect(biz.body.data).toMatchObject({ type: 'business.created', location_id: t.locationId, data: { business_id: bizId } });
  });

  it('lists newest first; pages neither repeat nor skip, even across equal created_at and inserts between pages', async () => {
    // Several events in the same millisecond (ties broken by id), then a few later ones.
    for (let i = 0; i < 4; i++) await createBusiness(t, `Tie ${i}`);
    for (let i = 0; i < 5; i++) {
      h.clock.advance(10);
      await createBusiness(t, `Later ${i}`);
    }
    const expected = (await h.knex('events').where({ location_id: t.locationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).select('id', 'created_at'));
    expect(expected.length).toBeGreaterThanOrEqual(12);

    const whole = await listAll('', t.auth());
    expect(whole.pages).toBe(1);
    expect(idsOf(whole.events)).toEqual(expected.map((r) => r.id));
    const times = whole.events.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const paged = await listAll('', t.auth(), 5);
    expect(paged.pages).toBe(Math.ceil(expected.length / 5));
    expect(idsOf(paged.events)).toEqual(expected.map((r) => r.id));

    // An event written between two page reads lands before the cursor: it neither repeats an item
    // nor pushes one off the next page.
    const first = await h.api.get('/v1/events?limit=3').set(t.auth());
    h.clock.advance(10);
    await createBusiness(t, 'Between pages');
    const second = await h.api.get(`/v1/events?limit=100&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`).set(t.auth());
    expect([...idsOf(first.body.data), ...idsOf(second.body.data)]).toEqual(expected.map((r) => r.id));

    // The cursor is opaque and bound to this list.
    const tampered = await h.api.get(`/v1/events?cursor=${encodeURIComponent(`${first.body.meta.next_cursor}x`)}`).set(t.auth());
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.code).toBe('invalid_cursor');
  });

  it('filters by type, comma-separated or repeated; an unknown type is 400', async () => {
    const all = (await listAll('', t.auth())).events;
    const of = (...types: string[]) => idsOf(all.filter((e) => types.includes(e.type)));
    expect(of('person.created')).toHaveLength(1);
    expect(of('deal.created')).toHaveLength(1);

    expect(idsOf((await listAll('type=person.created', t.auth())).events)).toEqual(of('person.created'));
    expect(idsOf((await listAll('type=person.created,deal.created', t.auth())).events)).toEqual(of('person.created', 'deal.created'));
    expect(idsOf((await listAll('type=person.created&type=deal.created', t.auth())).events)).toEqual(of('person.created', 'deal.created'));
    expect(idsOf((await listAll('type=deal.created&type=business.created', t.auth())).events)).toEqual(of('deal.created', 'business.created'));
    expect((await listAll('type=offer.received', t.auth())).events).toEqual([]);

    for (const q of ['type=deal.exploded', 'type=deal.created,nope', 'type=deal.created&type=nope', 'type=webhook.test']) {
      const res = await h.api.get(`/v1/events?${q}`).set(t.auth());
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_request' });
    }
  });

  it('created_after and created_before are exclusive bounds', async () => {
    const person = await rowFor(t, 'person.created', 'person_id', personId);
    const at = new Date(person.created_at);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const has = async (q: string) => idsOf((await listAll(q, t.auth())).events).includes(person.id);

    expect(await has(`created_after=${iso(at.getTime())}`)).toBe(false);
    expect(await has(`created_after=${iso(at.getTime() - 1)}`)).toBe(true);
    expect(await has(`created_before=${iso(at.getTime())}`)).toBe(false);
    expect(await has(`created_before=${iso(at.getTime() + 1)}`)).toBe(true);
    // Both: a window of exactly that event (the business 1 s before, the deal 1 s after).
    const window = (await listAll(`created_after=${iso(at.getTime() - 1)}&created_before=${iso(at.getTime() + 1)}`, t.auth())).events;
    expect(idsOf(window)).toEqual([person.id]);
    // Every listed event is strictly inside the bounds.
    const after = at.getTime() - 1;
    const upper = (await listAll(`created_after=${iso(after)}`, t.auth())).events;
    expect(upper.length).toBeGreaterThan(1);
    expect(upper.every((e) => Date.parse(e.created_at) > after)).toBe(true);
    expect((await h.api.get('/v1/events?created_after=yesterday').set(t.auth())).status).toBe(400);
  });

  it("another location's events are invisible: not listed, 404 on get", async () => {
    const mine = (await listAll('', t.auth())).events;
    expect(mine.every((e) => e.location_id === t.locationId)).toBe(true);
    const theirs = (await listAll('', other.auth())).events;
    expect(theirs.length).toBe(1);
    expect(theirs[0]).toMatchObject({ type: 'business.created', location_id: other.locationId });
    expect(idsOf(mine)).not.toContain(theirs[0].id);

    const foreign = await h.api.get(`/v1/events/${theirs[0].id}`).set(t.auth());
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing' });
    const missing = await h.api.get('/v1/events/evt_00000000-0000-4000-8000-000000000000').set(t.auth());
    expect(missing.status).toBe(404);
    expect((await h.api.get('/v1/events/not-an-event').set(t.auth())).status).toBe(400);
  });

  it('shows each type only to a credential that reads it; webhooks:manage or no scopes see every type', async () => {
    const all = (await listAll('', t.auth())).events;
    const typesOf = (events: Evt[]) => [...new Set(events.map((e) => e.type))].sort();
    expect(typesOf(all)).toEqual(['business.created', 'deal.created', 'person.created']);
    const business = all.find((e) => e.type === 'business.created')!;
    const person = all.find((e) => e.type === 'person.created')!;
    const deal = all.find((e) => e.type === 'deal.created')!;

    const peopleOnly = bearer((await t.key({ role: 'manager', scopes: ['people:read'] })).key);
    expect(idsOf((await listAll('', peopleOnly)).events)).toEqual([person.id]);
    expect((await h.api.get(`/v1/events/${person.id}`).set(peopleOnly)).status).toBe(200);
    // Filtering on a type the credential cannot read answers nothing of it, not an error.
    expect((await listAll('type=business.created,deal.created', peopleOnly)).events).toEqual([]);
    expect(idsOf((await listAll('type=business.created,person.created', peopleOnly)).events)).toEqual([person.id]);

    const dealsOnly = bearer((await t.key({ role: 'admin', scopes: ['deals:read', 'deals:write'] })).key);
    const seen = (await listAll('', dealsOnly)).events;
    expect(typesOf(seen)).toEqual(['deal.created']);
    expect(idsOf(seen)).toEqual([deal.id]);
    for (const unreadable of [business, person]) {
      const res = await h.api.get(`/v1/events/${unreadable.id}`).set(dealsOnly);
      expect(res.status, unreadable.type).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }

    const twoScopes = bearer((await t.key({ role: 'manager', scopes: ['businesses:read', 'people:read'] })).key);
    expect(typesOf((await listAll('', twoScopes)).events)).toEqual(['business.created', 'person.created']);

    const manage = bearer((await t.key({ role: 'manager', scopes: ['webhooks:manage'] })).key);
    expect(idsOf((await listAll('', manage)).events)).toEqual(idsOf(all));
    expect((await h.api.get(`/v1/events/${business.id}`).set(manage)).status).toBe(200);
    const everyScope = bearer((await t.key({ role: 'manager' })).key);
    expect(idsOf((await listAll('', everyScope)).events)).toEqual(idsOf(all));

    const none = bearer((await t.key({ role: 'admin', scopes: ['lenders:read', 'businesses:write'] })).key);
    for (const path of ['/v1/events', `/v1/events/${deal.id}`]) {
      const res = await h.api.get(path).set(none);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'missing_scope' });
    }
  });

  it('admin and manager only: role user is 403 role_not_allowed', async () => {
    const deal = (await listAll('type=deal.created', t.auth())).events[0];
    for (const path of ['/v1/events', `/v1/events/${deal.id}`]) {
      expect((await h.api.get(path).set(t.auth('admin'))).status).toBe(200);
      expect((await h.api.get(path).set(t.auth('manager'))).status).toBe(200);
      const res = await h.api.get(path).set(t.auth('user'));
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'role_not_allowed' });
    }
    expect((await h.api.get('/v1/events')).status).toBe(401);
  });

  // Last: it moves the clock 31 days (and puts it back).
  it('keeps 30 days on the clock: an older event leaves the list and its get is 404', async () => {
    const start = h.clock.now();
    try {
      const old = await rowFor(t, 'deal.created', 'deal_id', dealId);
      h.clock.advance(20 * DAY);
      const fresh = await createBusiness(t, 'Fresh Bakery LLC');
      const freshRow = await rowFor(t, 'business.created', 'business_id', fresh);

      h.clock.set(new Date(new Date(old.created_at).getTime() + 30 * DAY)); // exactly 30 days old: still in
      expect(idsOf((await listAll('', t.auth())).events)).toContain(old.id);
      expect((await h.api.get(`/v1/events/${old.id}`).set(t.auth())).status).toBe(200);

      h.clock.set(new Date(start.getTime() + 31 * DAY));
      const listed = idsOf((await listAll('', t.auth())).events);
      expect(listed).toEqual([freshRow.id]);
      const gone = await h.api.get(`/v1/events/${old.id}`).set(t.auth());
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('resource_missing');
      // An explicit created_after cannot reach behind the window either.
      expect(idsOf((await listAll(`created_after=${encodeURIComponent(new Date(start.getTime() - DAY).toISOString())}`, t.auth())).events)).toEqual([freshRow.id]);
      expect((await h.api.get(`/v1/events/${freshRow.id}`).set(t.auth())).status).toBe(200);
    } finally {
      h.clock.set(start);
    }
  });
});
