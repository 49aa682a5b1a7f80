import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
let biz: string;
let adminDeal: string;
let userDeal: string;
let foreignDeal: string;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const countRows = async (table: string) => Number((await h.knex(table).where({ location_id: t.locationId }).count<{ c: number }[]>('* as c'))[0].c);

async function business(name: string, tenant: Tenant) {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send({ legal_name: name });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
// Deals are written directly (the deals feature is built elsewhere).
async function insertDeal(tenant: Tenant, businessId: string, createdBy: string | null) {
  const now = h.clock.now();
  const stage = await h.knex('pipeline_stages').where({ location_id: tenant.locationId }).orderBy('sort_order').first();
  const id = newId('deal', now.getTime());
  await h.knex('deals').insert({ id, location_id: tenant.locationId, business_id: businessId, stage_id: stage.id, stage_entered_at: now, created_by_user_id: createdBy, created_at: now, updated_at: now });
  return id;
}

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Notes');
  other = await h.tenant('Elsewhere');
  biz = await business('Sunrise Bakery LLC', t);
  adminDeal = await insertDeal(t, biz, t.users.admin.id);
  userDeal = await insertDeal(t, biz, t.users.user.id);
  foreignDeal = await insertDeal(other, await business('Foreign', other), other.users.admin.id);
});
afterAll(() => h?.close());

describe(`business notes (${ENGINE})`, () => {
  it('creates a note with its author and records note.created (no webhook event)', async () => {
    h.clock.advance(1000);
    const events = await countRows('events');
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth('manager')).send({ body: 'Owner prefers calls after 3pm', pinned: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      entity_type: 'business', entity_id: biz, body: 'Owner prefers calls after 3pm', pinned: true,
      author: { id: t.users.manager.id, name: t.users.manager.name }, created_at: h.clock.now().toISOString(),
    });
    expect(res.body.data.id).toMatch(/^note_/);
    const act = await h.knex('activities').where({ entity_id: res.body.data.id }).first();
    expect(act).toMatchObject({ action: 'note.created', entity_type: 'note', business_id: biz, deal_id: null, actor_user_id: t.users.manager.id, data: { parent_type: 'business', parent_id: biz } });
    expect(await countRows('events')).toBe(events);
  });

  it('author is null for a key without a user; pinned defaults to false', async () => {
    const k = await t.key({ user: null });
    const res = await h.api.post(`/v1/businesses/${biz}/notes`).set(bearer(k.key)).send({ body: 'From an integration' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ author: null, pinned: false });
  });

  it('lists newest first with the pinned filter; deal notes are not listed on the business', async () => {
    const b = await business('Listing Co', t);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      made.push((await h.api.post(`/v1/businesses/${b}/notes`).set(t.auth()).send({ body: `n${i}`, pinned: i === 1 })).body.data.id);
    }
    const d = await insertDeal(t, b, t.users.admin.id);
    await h.api.post(`/v1/deals/${d}/notes`).set(t.auth()).send({ body: 'on the deal' });
    const all = await h.api.get(`/v1/businesses/${b}/notes`).set(t.auth());
    expect(all.body.data.map((n: { id: string }) => n.id)).toEqual([...made].reverse());
    const pinned = await h.api.get(`/v1/businesses/${b}/notes?pinned=true`).set(t.auth());
    expect(pinned.body.data.map((n: { id: string }) => n.id)).toEqual([made[1]]);
    const unpinned = await h.api.get(`/v1/businesses/${b}/notes?pinned=false&limit=1`).set(t.auth());
    expect(unpinned.body.data.map((n: { id: string }) => n.id)).toEqual([made[2]]);
    const next = await h.api.get(`/v1/businesses/${b}/notes?pinned=false&limit=1&cursor=${encodeURIComponent(unpinned.body.meta.next_cursor)}`).set(t.auth());
    expect(next.body.data.map((n: { id: string }) => n.id)).toEqual([made[0]]);
    expect(next.body.meta.has_more).toBe(false);
  });

  it('400 on an empty body; 404 for a foreign business; scopes', async () => {
    expect((await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth()).send({ body: '' })).body.error.param).toBe('body');
    expect((await h.api.post(`/v1/businesses/${biz}/notes`).set(other.auth()).send({ body: 'x' })).status).toBe(404);
    expect((await h.api.get(`/v1/businesses/${biz}/notes`).set(other.auth())).status).toBe(404);
    const r = await t.key({ scopes: ['businesses:read'] });
    expect((await h.api.post(`/v1/businesses/${biz}/notes`).set(bearer(r.key)).send({ body: 'x' })).body.error).toMatchObject({ code: 'missing_scope', param: 'businesses:write' });
    expect((await h.api.get(`/v1/businesses/${biz}/notes`).set(bearer(r.key))).status).toBe(200);
  });
});

describe(`deal notes (${ENGINE})`, () => {
  it('creates and lists notes on a deal; activity on the business with the deal', async () => {
    h.clock.advance(1000);
    const res = await h.api.post(`/v1/deals/${adminDeal}/notes`).set(t.auth()).send({ body: 'Bank statements requested' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ entity_type: 'deal', entity_id: adminDeal, author: { id: t.users.admin.id, name: t.users.admin.name } });
    const act = await h.knex('activities').where({ entity_id: res.body.data.id }).first();
    expect(act).toMatchObject({ action: 'note.created', business_id: biz, deal_id: adminDeal, entity_name: 'Sunrise Bakery LLC', data: { parent_type: 'deal', parent_id: adminDeal } });
    const list = await h.api.get(`/v1/deals/${adminDeal}/notes`).set(t.auth());
    expect(list.body.data.map((n: { id: string }) => n.id)).toEqual([res.body.data.id]);
  });

  it("role user reaches only the deals it created; another location's deal is 404", async () => {
    const own = await h.api.post(`/v1/deals/${userDeal}/notes`).set(t.auth('user')).send({ body: 'mine' });
    expect(own.status).toBe(201);
    for (const req of [
      h.api.post(`/v1/deals/${adminDeal}/notes`).set(t.auth('user')).send({ body: 'not mine' }),
      h.api.get(`/v1/deals/${adminDeal}/notes`).set(t.auth('user')),
      h.api.post(`/v1/deals/${foreignDeal}/notes`).set(t.auth()).send({ body: 'x' }),
      h.api.get(`/v1/deals/${foreignDeal}/notes`).set(t.auth()),
      h.api.get('/v1/deals/deal_01JD1B4D6F8H0K2M4P6R8T0V2X/notes').set(t.auth()),
    ]) {
      const res = await req;
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
    expect((await h.api.get(`/v1/deals/${userDeal}/notes`).set(t.auth('user'))).body.data[0].id).toBe(own.body.data.id);
  });

  it('needs deals:write to add and deals:read to list', async () => {
    const k = await t.key({ scopes: ['businesses:write', 'businesses:read'] });
    expect((await h.api.post(`/v1/deals/${adminDeal}/notes`).set(bearer(k.key)).send({ body: 'x' })).body.error).toMatchObject({ code: 'missing_scope', param: 'deals:write' });
    expect((await h.api.get(`/v1/deals/${adminDeal}/notes`).set(bearer(k.key))).body.error).toMatchObject({ code: 'missing_scope', param: 'deals:read' });
  });
});

describe(`tasks (${ENGINE})`, () => {
  it('creates a deal task with an assignee; task.created activity; no webhook event', async () => {
    h.clock.advance(1000);
    const events = await countRows('events');
    const res = await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth('manager')).send({ title: 'Call for bank statements', due_date: '2026-11-30', assignee_id: t.users.user.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      entity_type: 'deal', entity_id: adminDeal, title: 'Call for bank statements', due_date: '2026-11-30', completed: false, completed_at: null,
      assignee: { id: t.users.user.id, name: t.users.user.name }, created_by: { id: t.users.manager.id, name: t.users.manager.name },
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    });
    const act = await h.knex('activities').where({ entity_id: res.body.data.id }).first();
    expect(act).toMatchObject({ action: 'task.created', entity_type: 'task', entity_name: 'Call for bank statements', business_id: biz, deal_id: adminDeal, data: { title: 'Call for bank statements', due_date: '2026-11-30', assignee_id: t.users.user.id } });
    expect(await countRows('events')).toBe(events);
    expect((await h.api.get(`/v1/tasks/${res.body.data.id}`).set(t.auth())).body.data).toEqual(res.body.data);
  });

  it('accepts deals:write or businesses:write; 403 with neither', async () => {
    const viaBiz = await t.key({ scopes: ['businesses:write'] });
    expect((await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(bearer(viaBiz.key)).send({ title: 'a' })).status).toBe(201);
    const viaDeals = await t.key({ scopes: ['deals:write'] });
    expect((await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(bearer(viaDeals.key)).send({ title: 'b' })).status).toBe(201);
    const neither = await t.key({ scopes: ['deals:read'] });
    const res = await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(bearer(neither.key)).send({ title: 'c' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('missing_scope');
  });

  it('400: assignee not a user of the location, empty title, bad date; nothing written', async () => {
    const tasks = await countRows('tasks');
    const foreignUser = await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: 'x', assignee_id: other.users.admin.id });
    expect(foreignUser.status).toBe(400);
    expect(foreignUser.body.error).toMatchObject({ type: 'validation_error', param: 'assignee_id' });
    expect((await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: '' })).body.error.param).toBe('title');
    expect((await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: 'x', due_date: '30/11/2026' })).body.error.param).toBe('due_date');
    expect(await countRows('tasks')).toBe(tasks);
  });

  it('lists deal tasks newest first, with the completed filter', async () => {
    const d = await insertDeal(t, biz, t.users.admin.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      ids.push((await h.api.post(`/v1/deals/${d}/tasks`).set(t.auth()).send({ title: `t${i}` })).body.data.id);
    }
    await h.api.patch(`/v1/tasks/${ids[1]}`).set(t.auth()).send({ completed: true });
    const list = async (qs: string) => (await h.api.get(`/v1/deals/${d}/tasks${qs}`).set(t.auth())).body.data.map((x: { id: string }) => x.id);
    expect(await list('')).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list('?completed=true')).toEqual([ids[1]]);
    expect(await list('?completed=false')).toEqual([ids[2], ids[0]]);
  });

  it('updateTask: only sent fields; completing sets completed_at once and records task.completed; reopening clears it', async () => {
    const created = (await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: 'Collect voided check', due_date: '2026-12-01', assignee_id: t.users.admin.id })).body.data;
    h.clock.advance(60_000);
    const done = await h.api.patch(`/v1/tasks/${created.id}`).set(t.auth()).send({ completed: true });
    expect(done.status).toBe(200);
    const doneAt = h.clock.now().toISOString();
    expect(done.body.data).toMatchObject({ completed: true, completed_at: doneAt, title: 'Collect voided check', due_date: '2026-12-01', updated_at: doneAt });
    h.clock.advance(60_000);
    const again = await h.api.patch(`/v1/tasks/${created.id}`).set(t.auth()).send({ completed: true, title: 'Collect the voided check' });
    expect(again.body.data).toMatchObject({ completed_at: doneAt, title: 'Collect the voided check' });
    const completions = await h.knex('activities').where({ entity_id: created.id, action: 'task.completed' });
    expect(completions).toHaveLength(1);
    expect(completions[0]).toMatchObject({ business_id: biz, deal_id: adminDeal, data: { title: 'Collect voided check' } });
    const reopened = await h.api.patch(`/v1/tasks/${created.id}`).set(t.auth()).send({ completed: false, due_date: null, assignee_id: null });
    expect(reopened.body.data).toMatchObject({ completed: false, completed_at: null, due_date: null, assignee: null });
    const bad = await h.api.patch(`/v1/tasks/${created.id}`).set(t.auth()).send({ assignee_id: other.users.user.id });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('assignee_id');
    expect((await h.api.patch(`/v1/tasks/${created.id}`).set(t.auth()).send({})).status).toBe(400);
  });

  it('tasks on business: role user may read and update them', async () => {
    const now = h.clock.now();
    const id = newId('task', now.getTime());
    await h.knex('tasks').insert({ id, location_id: t.locationId, entity_type: 'business', entity_id: biz, title: 'Annual review', created_by_user_id: null, created_at: now, updated_at: now });
    const got = await h.api.get(`/v1/tasks/${id}`).set(t.auth('user'));
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ entity_type: 'business', entity_id: biz, created_by: null, assignee: null });
    const done = await h.api.patch(`/v1/tasks/${id}`).set(t.auth('user')).send({ completed: true });
    expect(done.status).toBe(200);
    expect(await h.knex('activities').where({ entity_id: id, action: 'task.completed' }).first()).toMatchObject({ business_id: biz, deal_id: null, actor_user_id: t.users.user.id });
  });

  it("role user: only tasks of deals it created; another location's task is 404", async () => {
    const adminTask = (await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: 'Admin only' })).body.data.id;
    const mine = await h.api.post(`/v1/deals/${userDeal}/tasks`).set(t.auth('user')).send({ title: 'Mine' });
    expect(mine.status).toBe(201);
    expect((await h.api.get(`/v1/tasks/${mine.body.data.id}`).set(t.auth('user'))).status).toBe(200);
    for (const req of [
      h.api.get(`/v1/tasks/${adminTask}`).set(t.auth('user')),
      h.api.patch(`/v1/tasks/${adminTask}`).set(t.auth('user')).send({ completed: true }),
      h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth('user')).send({ title: 'x' }),
      h.api.get(`/v1/deals/${adminDeal}/tasks`).set(t.auth('user')),
      h.api.get(`/v1/tasks/${adminTask}`).set(other.auth()),
      h.api.patch(`/v1/tasks/${adminTask}`).set(other.auth()).send({ title: 'hijack' }),
      h.api.post(`/v1/deals/${foreignDeal}/tasks`).set(t.auth()).send({ title: 'x' }),
    ]) {
      const res = await req;
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
    expect((await h.knex('tasks').where({ id: adminTask }).first()).completed).toBe(false);
  });

  it('getTask accepts businesses:read or deals:read', async () => {
    const id = (await h.api.post(`/v1/deals/${adminDeal}/tasks`).set(t.auth()).send({ title: 'scoped' })).body.data.id;
    for (const scopes of [['businesses:read'], ['deals:read']]) {
      const k = await t.key({ scopes });
      expect((await h.api.get(`/v1/tasks/${id}`).set(bearer(k.key))).status).toBe(200);
    }
    const k = await t.key({ scopes: ['people:read'] });
    expect((await h.api.get(`/v1/tasks/${id}`).set(bearer(k.key))).status).toBe(403);
  });
});
