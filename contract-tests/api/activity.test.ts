import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity, type ActivityInput } from '../../src/events/activity';
import type { Scope } from '../../src/http/types';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
let biz: string;
let adminDeal: string;
let userDeal: string;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const scopeOf = (tenant: Tenant, role: 'admin' | 'user' | null): Scope => ({ locationId: tenant.locationId, role: role ?? 'admin', userId: role ? tenant.users[role].id : null, scopes: [] });

async function insertDeal(tenant: Tenant, businessId: string, createdBy: string) {
  const now = h.clock.now();
  const stage = await h.knex('pipeline_stages').where({ location_id: tenant.locationId }).orderBy('sort_order').first();
  const id = newId('deal', now.getTime());
  await h.knex('deals').insert({ id, location_id: tenant.locationId, business_id: businessId, stage_id: stage.id, stage_entered_at: now, created_by_user_id: createdBy, created_at: now, updated_at: now });
  return id;
}
/** What the deals, submissions, offers and advances features write: an activity line with businessId and dealId. */
async function record(scope: Scope, input: ActivityInput) {
  h.clock.advance(1000);
  await h.knex.transaction((trx) => recordActivity(trx, h.clock, scope, input));
}
const actions = (body: { data: { action: string }[] }) => body.data.map((e) => e.action);

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Activity');
  other = await h.tenant('Elsewhere');
  biz = (await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Sunrise Bakery LLC' })).body.data.id;
  const admin = scopeOf(t, 'admin');
  const user = scopeOf(t, 'user');
  h.clock.advance(1000);
  adminDeal = await insertDeal(t, biz, t.users.admin.id);
  await record(admin, { businessId: biz, dealId: adminDeal, entityType: 'deal', entityId: adminDeal, entityName: 'Sunrise Bakery LLC', action: 'deal.created', description: 'Deal created', data: { requested_amount: 75000, source: 'api' } });
  userDeal = await insertDeal(t, biz, t.users.user.id);
  await record(user, { businessId: biz, dealId: userDeal, entityType: 'deal', entityId: userDeal, entityName: 'Sunrise Bakery LLC', action: 'deal.created', description: 'Deal created' });
  await record(admin, { businessId: biz, dealId: adminDeal, entityType: 'deal', entityId: adminDeal, entityName: 'Sunrise Bakery LLC', action: 'deal.stage_changed', description: 'Moved to Submitted', data: { from_stage: 'New lead', to_stage: 'Submitted' } });
  await record(admin, { businessId: biz, dealId: adminDeal, entityType: 'submission', entityId: 'sub_x', entityName: 'Atlas Capital', action: 'submission.sent', description: 'Sent to Atlas Capital' });
  await record(scopeOf(t, null), { businessId: biz, dealId: userDeal, entityType: 'offer', entityId: 'ofr_x', entityName: 'Atlas Capital', action: 'offer.received', description: 'Offer from Atlas Capital', data: { amount: 50000 } });
  await record(admin, { businessId: biz, dealId: adminDeal, entityType: 'deal', entityId: adminDeal, entityName: 'Sunrise Bakery LLC', action: 'deal.funded', description: 'Funded' });
  await record(scopeOf(t, null), { businessId: biz, dealId: userDeal, entityType: 'advance', entityId: 'adv_x', entityName: 'Atlas Capital', action: 'advance.status_changed', description: 'Missed payments' });
  h.clock.advance(1000);
  expect((await h.api.post(`/v1/businesses/${biz}/notes`).set(t.auth('manager')).send({ body: 'Business note' })).status).toBe(201);
  h.clock.advance(1000);
  expect((await h.api.post(`/v1/deals/${userDeal}/tasks`).set(t.auth('user')).send({ title: 'Follow up' })).status).toBe(201);
  h.clock.advance(1000);
  expect((await h.api.post(`/v1/deals/${adminDeal}/notes`).set(t.auth()).send({ body: 'Deal note' })).status).toBe(201);
  // Another business's history stays out.
  const elsewhere = (await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Other Biz' })).body.data.id;
  await record(admin, { businessId: elsewhere, entityType: 'business', entityId: elsewhere, entityName: 'Other Biz', action: 'business.updated', description: 'x' });
});
afterAll(() => h?.close());

describe(`listBusinessActivity (${ENGINE})`, () => {
  it('one history of the business, newest first, each entry with its actor', async () => {
    const res = await h.api.get(`/v1/businesses/${biz}/activity`).set(t.auth('manager'));
    expect(res.status).toBe(200);
    expect(actions(res.body)).toEqual([
      'note.created', 'task.created', 'note.created', 'advance.status_changed', 'deal.funded', 'offer.received', 'submission.sent', 'deal.stage_changed', 'deal.created', 'deal.created', 'business.created',
    ]);
    const [dealNote, task, bizNote, advance] = res.body.data;
    expect(dealNote).toMatchObject({ entity_type: 'note', actor: { user_id: t.users.admin.id, user_name: t.users.admin.name }, data: { parent_type: 'deal', parent_id: adminDeal } });
    expect(task).toMatchObject({ entity_type: 'task', entity_name: 'Follow up', actor: { user_id: t.users.user.id, user_name: t.users.user.name } });
    expect(bizNote.actor.user_id).toBe(t.users.manager.id);
    expect(advance.actor).toEqual({ user_id: null, user_name: null });
    expect(res.body.data[9]).toMatchObject({ action: 'deal.created', entity_id: adminDeal, data: { requested_amount: 75000, source: 'api' } });
    expect(res.body.data[0].id).toMatch(/^act_/);
    expect(res.body.meta).toEqual({ has_more: false, next_cursor: null });
    // last_activity_at is the newest entry.
    expect((await h.api.get(`/v1/businesses/${biz}`).set(t.auth())).body.data.last_activity_at).toBe(dealNote.created_at);
  });

  it('pages with a cursor without repeating or skipping', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await h.api.get(`/v1/businesses/${biz}/activity?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).set(t.auth());
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(11);
    expect(new Set(seen).size).toBe(11);
  });

  it('role user: business entries and entries of deals it created, no advance.* entries', async () => {
    const res = await h.api.get(`/v1/businesses/${biz}/activity`).set(t.auth('user'));
    expect(res.status).toBe(200);
    expect(actions(res.body)).toEqual(['task.created', 'note.created', 'offer.received', 'deal.created', 'business.created']);
    expect(res.body.data.map((e: { entity_id: string }) => e.entity_id)).not.toContain(adminDeal);
  });

  it("404 for another location's business; needs businesses:read", async () => {
    const res = await h.api.get(`/v1/businesses/${biz}/activity`).set(other.auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    const k = await t.key({ scopes: ['deals:read'] });
    const denied = await h.api.get(`/v1/businesses/${biz}/activity`).set(bearer(k.key));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'missing_scope', param: 'businesses:read' });
  });

  it('400 for a cursor of another list', async () => {
    const notes = await h.api.get(`/v1/businesses?limit=1`).set(t.auth());
    const res = await h.api.get(`/v1/businesses/${biz}/activity?cursor=${encodeURIComponent(notes.body.meta.next_cursor)}`).set(t.auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});
