import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDealsForBusiness } from '../../src/features/deals/deals.service';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
let bizId: string;
let lenderId: string;

const DAY = 86_400_000;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function eventsOf(type: string, locationId = t.locationId) {
  return h.knex('events').where({ type, location_id: locationId }).orderBy('created_at', 'asc').orderBy('id', 'asc');
}
async function eventCount(locationId = t.locationId) {
  return Number((await h.knex('events').where({ location_id: locationId }).count<{ count: number }[]>('* as count'))[0].count);
}
async function activities(dealId: string, action?: string) {
  const q = h.knex('activities').where({ deal_id: dealId });
  if (action) q.where({ action });
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc');
}
async function stages(tenant = t) {
  const res = await h.api.get('/v1/pipeline/stages').set(tenant.auth());
  return res.body.data as { id: string; label: string; phase: string; event: string | null; sort_order: number }[];
}
const stageOf = async (phase: string, tenant = t) => (await stages(tenant)).find((s) => s.phase === phase)!;

async function business(tenant: Tenant, name: string): Promise<string> {
  const res = await h.api.post('/v1/businesses').set(tenant.auth()).send({ legal_name: name, dba: `${name} DBA`, city: 'Denver', state: 'CO', phone: '303-555-0142' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}
async function lender(tenant: Tenant, name: string): Promise<string> {
  const now = h.clock.now();
  const id = newId('lnd', now.getTime());
  await h.knex('lenders').insert({ id, location_id: tenant.locationId, name, created_at: now, updated_at: now });
  return id;
}
async function deal(body: Record<string, unknown> = {}, role: 'admin' | 'manager' | 'user' = 'admin', tenant = t, biz = bizId) {
  const res = await h.api.post('/v1/deals').set(tenant.auth(role)).send({ business_id: biz, ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}
async function offer(dealId: string, body: Record<string, unknown> = {}) {
  const res = await h.api.post(`/v1/deals/${dealId}/offers`).set(t.auth()).send({ lender_id: lenderId, amount: 75000, factor_rate: 1.35, term: 180, ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Deals Co');
  other = await h.tenant('Other Co');
  bizId = await business(t, 'Sunrise Bakery LLC');
  lenderId = await lender(t, 'Atlas Capital');
  // A primary contact for the business (people are built elsewhere; insert the rows).
  const now = h.clock.now();
  const perId = newId('per', now.getTime());
  await h.knex('people').insert({ id: perId, location_id: t.locationId, first_name: 'Maria', last_name: 'Lopez', email: 'maria@sunrise.example', phone: '13035550177', created_at: now, updated_at: now });
  await h.knex('business_people').insert({ id: newId('asc', now.getTime()), location_id: t.locationId, business_id: bizId, person_id: perId, is_primary_contact: true, created_at: now, updated_at: now });
});
afterAll(() => h?.close());

describe(`createDeal (${ENGINE})`, () => {
  it('minimal: open, first stage, owner from the primary contact, originator = the key user; deal.created with the snapshot and an activity line', async () => {
    const before = await eventCount();
    const d = await deal();
    expect(d).toMatchObject({
      business_id: bizId,
      business: { id: bizId, legal_name: 'Sunrise Bakery LLC', dba: 'Sunrise Bakery LLC DBA' },
      business_name: 'Sunrise Bakery LLC',
      business_city: 'Denver',
      business_phone: '13035550142',
      status: 'open',
      stage: { label: 'New lead', phase: 'new', sort_order: 1, event: 'deal_created' },
      days_in_stage: 0,
      owner: { first_name: 'Maria', last_name: 'Lopez', email: 'maria@sunrise.example', phone: '13035550177' },
      originator: { id: t.users.admin.id, name: t.users.admin.name },
      closer: null,
      product_type: 'mca',
      source: 'api',
      primary_offer: null,
      submissions_count: 0,
      offers_count: 0,
      manually_closed: false,
      closed_at: null,
    });
    expect(d.stage_entered_at).toBe(h.clock.now().toISOString());
    expect(await eventCount()).toBe(before + 1);
    const ev = (await eventsOf('deal.created')).find((e) => e.data.deal_id === d.id)!;
    expect(ev.data).toEqual({
      deal_id: d.id,
      business_id: bizId,
      deal: {
        id: d.id, business_id: bizId, business_name: 'Sunrise Bakery LLC', requested_amount: null, status: 'open',
        stage: { id: d.stage.id, label: 'New lead', phase: 'new', event: 'deal_created' },
        originator_id: t.users.admin.id, closer_id: null, primary_offer_id: null, submissions_count: 0, offers_count: 0,
        created_at: d.created_at, updated_at: d.updated_at,
      },
    });
    const [act] = await activities(d.id, 'deal.created');
    expect(act).toMatchObject({ business_id: bizId, entity_type: 'deal', entity_id: d.id, entity_name: 'Sunrise Bakery LLC', actor_user_id: t.users.admin.id });
  });

  it('full body: money rounded to cents, phone normalised, paper grade source api; the snapshot never carries form_data, owner or CRM ids', async () => {
    const contracts = await stageOf('contracts');
    const d = await deal({
      requested_amount: 75000.456, annual_revenue: 1020000, use_of_funds: 'Oven', desired_term_months: 9, desired_frequency: 'daily', paper_grade: 'B',
      stage_id: contracts.id, originator_id: t.users.manager.id, closer_id: t.users.user.id, source: 'partner', lead_source: 'referral', state_incorporated: 'CO',
      form_data: { monthly_deposits: 85000 }, owner: { first_name: 'Ann', last_name: 'Lee', email: 'ann@x.example', phone: '(303) 555-0199' },
    });
    expect(d).toMatchObject({
      requested_amount: 75000.46, paper_grade: 'B', paper_grade_source: 'api', stage: { id: contracts.id }, originator: { id: t.users.manager.id }, closer: { id: t.users.user.id },
      owner: { first_name: 'Ann', last_name: 'Lee', email: 'ann@x.example', phone: '13035550199' }, form_data: { monthly_deposits: 85000 }, source: 'partner',
    });
    const ev = (await eventsOf('deal.created')).find((e) => e.data.deal_id === d.id)!;
    const text = JSON.stringify(ev.data);
    expect(text).not.toMatch(/monthly_deposits|form_data|ghl_|owner|ann@x/);
    expect(ev.data.deal.requested_amount).toBe(75000.46);
  });

  it('400 for a closed-phase stage, a bad owner email or phone, and a fractional term; 404 naming the field for unknown ids', async () => {
    const dead = await stageOf('dead');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ stage_id: dead.id }, 400, 'stage_id'],
      [{ owner: { email: 'nope' } }, 400, 'owner.email'],
      [{ owner: { phone: '12' } }, 400, 'owner.phone'],
      [{ desired_term_months: 9.5 }, 400, 'desired_term_months'],
      [{ requested_amount: 0 }, 400, 'requested_amount'],
      [{ stage_id: (await stageOf('new', other)).id }, 404, 'stage_id'],
      [{ originator_id: other.users.admin.id }, 404, 'originator_id'],
      [{ closer_id: newId('usr') }, 404, 'closer_id'],
    ];
    const before = await eventCount();
    for (const [body, status, param] of cases) {
      const res = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: bizId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.param).toBe(param);
    }
    const foreign = await h.api.post('/v1/deals').set(other.auth()).send({ business_id: bizId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'resource_missing', param: 'business_id' });
    expect(await eventCount()).toBe(before);
  });

  it('403 missing_scope without deals:write', async () => {
    const k = await t.key({ scopes: ['deals:read'] });
    const res = await h.api.post('/v1/deals').set(bearer(k.key)).send({ business_id: bizId });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'deals:write' });
  });
});

describe(`reading deals (${ENGINE})`, () => {
  it('days_in_stage follows the injected clock; business fields are read from the business at read time', async () => {
    const d = await deal();
    h.clock.advance(3 * DAY + 3600_000);
    const res = await h.api.get(`/v1/deals/${d.id}`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body.data.days_in_stage).toBe(3);
    const b2 = await business(t, 'Renamed Later Inc');
    const d2 = await deal({}, 'admin', t, b2);
    await h.api.patch(`/v1/businesses/${b2}`).set(t.auth()).send({ legal_name: 'Renamed Now Inc', city: 'Boulder' });
    const again = await h.api.get(`/v1/deals/${d2.id}`).set(t.auth());
    expect(again.body.data).toMatchObject({ business_name: 'Renamed Now Inc', business: { legal_name: 'Renamed Now Inc' }, business_city: 'Boulder' });
  });

  it('offers_count, submissions_count and primary_offer are true at read time', async () => {
    const d = await deal();
    const o = await offer(d.id, { status: 'accepted' });
    const now = h.clock.now();
    await h.knex('submissions').insert({ id: newId('sub', now.getTime()), location_id: t.locationId, deal_id: d.id, lender_id: lenderId, status: 'sent', submission_method: 'email', created_at: now });
    let res = await h.api.get(`/v1/deals/${d.id}`).set(t.auth());
    expect(res.body.data).toMatchObject({ offers_count: 1, submissions_count: 1, primary_offer: null });
    await h.api.post(`/v1/offers/${o.id}/primary`).set(t.auth());
    res = await h.api.get(`/v1/deals/${d.id}`).set(t.auth());
    expect(res.body.data.primary_offer).toEqual({ id: o.id, lender_id: lenderId, lender_name: 'Atlas Capital', amount: 75000, factor_rate: 1.35, status: 'accepted' });
    await h.knex('lenders').where({ id: lenderId }).update({ name: 'Atlas Capital Group' });
    res = await h.api.get(`/v1/deals/${d.id}`).set(t.auth());
    expect(res.body.data.primary_offer.lender_name).toBe('Atlas Capital Group');
    await h.knex('lenders').where({ id: lenderId }).update({ name: 'Atlas Capital' });
  });

  it('one deal reads exactly as the list shows it (one statement reads it; the list reads the same context query by query)', async () => {
    const biz = await business(t, 'Same Bytes LLC');
    const d = await deal({ requested_amount: 50000, annual_revenue: 1_200_000, closer_id: t.users.manager.id, paper_grade: 'B', desired_term_months: 12, form_data: { a: [1, 'x'] } }, 'admin', t, biz);
    const o = await offer(d.id, { status: 'accepted', amount: 48250.5, factor_rate: 1.29 });
    await h.api.post(`/v1/offers/${o.id}/primary`).set(t.auth()).expect(200);
    const now = h.clock.now();
    await h.knex('submissions').insert({ id: newId('sub', now.getTime()), location_id: t.locationId, deal_id: d.id, lender_id: lenderId, status: 'sent', submission_method: 'email', created_at: now });
    const figures = (month: string, revenue: number) => ({
      period_start: `2026-${month}-01`, period_end: `2026-${month}-28`, bank_name: 'First Bank', beginning_balance: 1000.5, deposits_total: revenue, deposit_count: 12, true_revenue: revenue,
      average_daily_balance: 2500.25, ending_balance: 3000, negative_days: 2, nsf_count: 1, mca_count: 1, mca_withhold_percent: 7.5, has_recovery_activity: false,
    });
    const doc = (status: string, statement: object | null, at: number) => ({
      id: newId('doc', now.getTime() + at), location_id: t.locationId, deal_id: d.id, business_id: biz, filename: 's.pdf', content_type: 'application/pdf', declared_size: 10, category: 'bank_statement',
      status, source: 'api', storage_key: `k/${Math.random()}`, statement: statement && JSON.stringify(statement), upload_expires_at: now, created_at: new Date(now.getTime() + at), updated_at: now,
    });
    // Two reads of one period (the later one counts), another month, a failed one and one never uploaded (not read).
    await h.knex('documents').insert([doc('processed', figures('02', 90000), 1), doc('processed', figures('02', 95000.75), 2), doc('processed', figures('03', 80000), 3), doc('failed', null, 4), doc('pending_upload', null, 5)]);
    const one = await h.api.get(`/v1/deals/${d.id}`).set(t.auth());
    expect(one.status).toBe(200);
    const listed = await h.api.get(`/v1/deals?business_id=${biz}`).set(t.auth());
    expect(listed.body.data).toHaveLength(1);
    expect(JSON.stringify(one.body.data)).toBe(JSON.stringify(listed.body.data[0]));
    expect(one.body.data).toMatchObject({
      offers_count: 1, submissions_count: 1, closer: { id: t.users.manager.id }, originator: { id: t.users.admin.id },
      primary_offer: { id: o.id, lender_name: 'Atlas Capital', amount: 48250.5, factor_rate: 1.29, status: 'accepted' }, business: { legal_name: 'Same Bytes LLC', dba: 'Same Bytes LLC DBA' },
    });
    expect(one.body.data.revenue_check).toMatchObject({ stated_monthly_revenue: 100000, analyzed_monthly_revenue: 87500.38 });
  });

  it("another location's deal is 404; role user sees only the deals it created", async () => {
    const mine = await deal({}, 'user');
    const theirs = await deal({}, 'manager');
    expect((await h.api.get(`/v1/deals/${theirs.id}`).set(other.auth())).status).toBe(404);
    expect((await h.api.patch(`/v1/deals/${theirs.id}`).set(other.auth()).send({ use_of_funds: 'x' })).status).toBe(404);
    expect((await h.api.get(`/v1/deals/${mine.id}`).set(t.auth('user'))).status).toBe(200);
    const hidden = await h.api.get(`/v1/deals/${theirs.id}`).set(t.auth('user'));
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('resource_missing');
    expect((await h.api.patch(`/v1/deals/${theirs.id}`).set(t.auth('user')).send({ use_of_funds: 'x' })).status).toBe(404);
    expect((await h.api.post(`/v1/deals/${theirs.id}/stage`).set(t.auth('user')).send({ stage_id: (await stageOf('contracts')).id })).status).toBe(404);
    expect((await h.api.post(`/v1/deals/${theirs.id}/dead`).set(t.auth('user')).send({ reason: 'x' })).status).toBe(404);
    const list = await h.api.get('/v1/deals?limit=100').set(t.auth('user'));
    const ids = list.body.data.map((d: { id: string }) => d.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.body.data.every((d: { originator: { id: string } | null }) => d.originator?.id === t.users.user.id)).toBe(true);
    const foreignList = await h.api.get('/v1/deals?limit=100').set(other.auth());
    expect(foreignList.body.data).toEqual([]);
  });

  it('filters status, stage_id, business_id, originator_id, newest first, paginated; unknown filter ids give an empty page', async () => {
    const p = await h.tenant('Filters');
    const b1 = await business(p, 'Filter One');
    const b2 = await business(p, 'Filter Two');
    const contracts = await stageOf('contracts', p);
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1000);
      made.push((await deal(i % 2 ? { stage_id: contracts.id, originator_id: p.users.manager.id } : {}, 'admin', p, i < 2 ? b1 : b2)).id);
    }
    h.clock.advance(1000);
    await h.api.post(`/v1/deals/${made[3]}/dead`).set(p.auth()).send({ reason: 'Lost' });
    const get = async (qs: string) => (await h.api.get(`/v1/deals?${qs}`).set(p.auth())).body;
    expect((await get('')).data.map((d: { id: string }) => d.id)).toEqual([...made].reverse());
    expect((await get(`business_id=${b1}`)).data.map((d: { id: string }) => d.id)).toEqual([made[1], made[0]]);
    expect((await get(`stage_id=${contracts.id}`)).data.map((d: { id: string }) => d.id)).toEqual([made[1]]);
    expect((await get(`originator_id=${p.users.manager.id}`)).data.map((d: { id: string }) => d.id)).toEqual([made[3], made[1]]);
    expect((await get('status=dead')).data.map((d: { id: string }) => d.id)).toEqual([made[3]]);
    expect((await get('status=open&business_id=' + b2)).data.map((d: { id: string }) => d.id)).toEqual([made[2]]);
    expect((await get(`business_id=${newId('biz')}`)).data).toEqual([]);
    const page1 = await get('limit=3');
    expect(page1.meta.has_more).toBe(true);
    const page2 = await get(`limit=3&cursor=${encodeURIComponent(page1.meta.next_cursor)}`);
    expect(page2.data.map((d: { id: string }) => d.id)).toEqual([made[0]]);
    expect(page2.meta).toEqual({ has_more: false, next_cursor: null });
    expect((await h.api.get('/v1/deals?status=closed').set(p.auth())).status).toBe(400);
  });
});

describe(`listDealsForBusiness (${ENGINE})`, () => {
  it("the business's deals, newest first, up to the limit; role user only its own; days_in_stage at the given time", async () => {
    const b = await business(t, 'Embedded Deals Inc');
    const made: string[] = [];
    for (const role of ['admin', 'user', 'manager', 'user'] as const) {
      h.clock.advance(1000);
      made.push((await deal({}, role, t, b)).id);
    }
    const scope = (role: 'admin' | 'user') => ({ locationId: t.locationId, role, userId: t.users[role].id, scopes: [] });
    const later = new Date(h.clock.now().getTime() + 2 * DAY);
    const all = await listDealsForBusiness(h.knex, scope('admin'), b, 100, later);
    expect(all.map((d) => d.id)).toEqual([...made].reverse());
    expect(all[0]).toMatchObject({ business_id: b, business_name: 'Embedded Deals Inc', days_in_stage: 2, stage: { phase: 'new' } });
    expect((await listDealsForBusiness(h.knex, scope('admin'), b, 2, later)).map((d) => d.id)).toEqual([made[3], made[2]]);
    expect((await listDealsForBusiness(h.knex, scope('user'), b, 100, later)).map((d) => d.id)).toEqual([made[3], made[1]]);
    expect(await listDealsForBusiness(h.knex, { ...scope('admin'), locationId: other.locationId }, b, 100, later)).toEqual([]);
  });
});

describe(`updateDeal (${ENGINE})`, () => {
  it('changes only sent fields, merges owner, replaces form_data, clears paper grade with its source; no event, one activity line', async () => {
    const d = await deal({ paper_grade: 'A', form_data: { a: 1, b: 2 }, owner: { first_name: 'Ann', email: 'ann@x.example' } });
    const before = await eventCount();
    h.clock.advance(5000);
    const res = await h.api.patch(`/v1/deals/${d.id}`).set(t.auth()).send({ requested_amount: 50000, owner: { phone: '3035550100' }, form_data: { c: 3 }, paper_grade: null, closer_id: t.users.manager.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      requested_amount: 50000, owner: { first_name: 'Ann', email: 'ann@x.example', phone: '13035550100', last_name: null }, form_data: { c: 3 },
      paper_grade: null, paper_grade_source: null, closer: { id: t.users.manager.id }, source: 'api', updated_at: h.clock.now().toISOString(), created_at: d.created_at,
    });
    expect(await eventCount()).toBe(before);
    const [act] = await activities(d.id, 'deal.updated');
    expect(act.data.fields).toEqual(expect.arrayContaining(['requested_amount', 'owner', 'form_data', 'paper_grade', 'closer_id']));
    const set = await h.api.patch(`/v1/deals/${d.id}`).set(t.auth()).send({ paper_grade: 'C' });
    expect(set.body.data).toMatchObject({ paper_grade: 'C', paper_grade_source: 'api' });
  });
  it('400 for an empty body, stage or status fields and a bad owner email; 404 for an unknown closer', async () => {
    const d = await deal();
    for (const [body, param] of [[{}, undefined], [{ status: 'dead' }, undefined], [{ stage_id: d.stage.id }, undefined], [{ owner: { email: 'bad' } }, 'owner.email']] as const) {
      const res = await h.api.patch(`/v1/deals/${d.id}`).set(t.auth()).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (param) expect(res.body.error.param).toBe(param);
    }
    const res = await h.api.patch(`/v1/deals/${d.id}`).set(t.auth()).send({ closer_id: other.users.admin.id });
    expect(res.status).toBe(404);
    expect(res.body.error.param).toBe('closer_id');
  });
});

describe(`moveDealStage (${ENGINE})`, () => {
  it('moves, resets stage_entered_at, fires deal.stage_changed (trigger api, reason, changed_at) with an activity line', async () => {
    const d = await deal();
    h.clock.advance(2 * DAY);
    const contracts = await stageOf('contracts');
    const res = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: contracts.id, reason: 'Contract sent' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ stage: { id: contracts.id, phase: 'contracts' }, stage_entered_at: h.clock.now().toISOString(), days_in_stage: 0, status: 'open' });
    const ev = (await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toEqual({
      deal_id: d.id,
      from_stage: { id: d.stage.id, label: 'New lead', phase: 'new', event: 'deal_created' },
      to_stage: { id: contracts.id, label: 'Contracts out', phase: 'contracts', event: null },
      trigger: 'api', event: null, reason: 'Contract sent', changed_at: h.clock.now().toISOString(),
    });
    const [act] = await activities(d.id, 'deal.stage_changed');
    expect(act.data).toMatchObject({ trigger: 'api', reason: 'Contract sent', from_stage: { id: d.stage.id }, to_stage: { id: contracts.id } });
    h.clock.advance(DAY);
    expect((await h.api.get(`/v1/deals/${d.id}`).set(t.auth())).body.data.days_in_stage).toBe(1);
    // Backwards, without a reason.
    const back = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth('user')).send({ stage_id: d.stage.id });
    expect(back.status).toBe(404); // role user did not create it
    const back2 = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth('manager')).send({ stage_id: d.stage.id });
    expect(back2.status).toBe(200);
    const last = (await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id).pop()!;
    expect(last.data.reason).toBeNull();
  });

  it('the same stage answers 200 and fires nothing', async () => {
    const d = await deal();
    const before = await eventCount();
    h.clock.advance(DAY);
    const res = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: d.stage.id });
    expect(res.status).toBe(200);
    expect(res.body.data.stage_entered_at).toBe(d.stage_entered_at);
    expect(res.body.data.days_in_stage).toBe(1);
    expect(await eventCount()).toBe(before);
  });

  it('409 into a funded or dead stage (param stage_id); 404 for an unknown stage; a dead deal moved to an open stage is reopened', async () => {
    const d = await deal();
    const before = await eventCount();
    for (const phase of ['funded', 'dead']) {
      const res = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: (await stageOf(phase)).id });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'invalid_state_transition', param: 'stage_id' });
    }
    const unknown = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: (await stageOf('contracts', other)).id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe('stage_id');
    expect(await eventCount()).toBe(before);
    await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'Went quiet' });
    const reopened = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: (await stageOf('submitted')).id, reason: 'Back' });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: 'open', closed_at: null, closed_reason: null, manually_closed: false, stage: { phase: 'submitted' } });
  });
});

describe(`markDealDead (${ENGINE})`, () => {
  it('reason required; moves to the first dead stage, status dead, closed fields set; fires deal.dead and deal.stage_changed', async () => {
    const d = await deal();
    const missing = await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.param).toBe('reason');
    const notDead = await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'x', stage_id: (await stageOf('contracts')).id });
    expect(notDead.status).toBe(400);
    expect(notDead.body.error.param).toBe('stage_id');
    h.clock.advance(1000);
    const res = await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'Merchant went elsewhere' });
    expect(res.status).toBe(200);
    const dead = await stageOf('dead');
    const now = h.clock.now().toISOString();
    expect(res.body.data).toMatchObject({ status: 'dead', stage: { id: dead.id }, closed_at: now, closed_reason: 'Merchant went elsewhere', manually_closed: true });
    const [ev] = (await eventsOf('deal.dead')).filter((e) => e.data.deal_id === d.id);
    expect(ev.data).toEqual({
      deal_id: d.id, stage: { id: dead.id, label: 'Dead', phase: 'dead', event: 'deal_dead' }, reason: 'Merchant went elsewhere', changed_at: now,
      deal: expect.objectContaining({ id: d.id, status: 'dead', stage: { id: dead.id, label: 'Dead', phase: 'dead', event: 'deal_dead' } }),
    });
    expect(Object.keys(ev.data.deal).sort()).toEqual(
      ['business_id', 'business_name', 'closer_id', 'created_at', 'id', 'offers_count', 'originator_id', 'primary_offer_id', 'requested_amount', 'stage', 'status', 'submissions_count', 'updated_at'],
    );
    const sc = (await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id);
    expect(sc).toHaveLength(1);
    expect(sc[0].data).toMatchObject({ trigger: 'api', reason: 'Merchant went elsewhere', to_stage: { id: dead.id } });
    const [act] = await activities(d.id, 'deal.dead');
    expect(act.data).toEqual({ stage: { id: dead.id, label: 'Dead' }, reason: 'Merchant went elsewhere' });
    const again = await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state_transition');
  });
});

describe(`fundDeal (${ENGINE})`, () => {
  it('403 for role user; 404 unknown offer; 409 for an offer not accepted or of another deal; 400 for a future funded_at or an early first payment', async () => {
    const d = await deal();
    const pending = await offer(d.id);
    const otherDeal = await deal();
    const foreignOffer = await offer(otherDeal.id, { status: 'accepted' });
    const before = await eventCount();
    const asUser = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth('user')).send({ offer_id: pending.id });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error.code).toBe('role_not_allowed');
    const unknown = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: newId('ofr') });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe('offer_id');
    for (const o of [pending, foreignOffer]) {
      const res = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: o.id });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_state_transition', param: 'offer_id' });
    }
    expect(await eventCount()).toBe(before);
    // Accepting the offer is itself an event (offer.accepted); the refused fundings after it add none.
    await h.api.patch(`/v1/offers/${pending.id}`).set(t.auth()).send({ status: 'accepted' });
    const accepted = await eventCount();
    expect(accepted).toBe(before + 1);
    const future = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: pending.id, funded_at: new Date(h.clock.now().getTime() + 60_000).toISOString() });
    expect(future.status).toBe(400);
    expect(future.body.error.param).toBe('funded_at');
    const early = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: pending.id, funded_at: '2026-11-20T10:00:00Z', first_payment_date: '2026-11-19' });
    expect(early.status).toBe(400);
    expect(early.body.error.param).toBe('first_payment_date');
    expect(await eventCount()).toBe(accepted);
    const foreign = await h.api.post(`/v1/deals/${d.id}/fund`).set(other.auth()).send({ offer_id: pending.id });
    expect(foreign.status).toBe(404);
  });

  it('creates the advance, selects the offer (making it primary), funds its submission, moves the deal into the funded stage; then deal.funded, deal.stage_changed and offer.primary_changed', async () => {
    h.clock.set('2026-11-27T15:00:00.000Z'); // a Friday
    const d = await deal({ requested_amount: 80000 });
    const now0 = h.clock.now();
    const subId = newId('sub', now0.getTime());
    await h.knex('submissions').insert({ id: subId, location_id: t.locationId, deal_id: d.id, lender_id: lenderId, status: 'approved', submission_method: 'email', created_at: now0 });
    const first = await offer(d.id, { status: 'accepted', amount: 60000 });
    await h.api.post(`/v1/offers/${first.id}/primary`).set(t.auth());
    const chosen = await offer(d.id, { status: 'accepted', submission_id: subId, position: 2 });
    h.clock.advance(60_000);
    const res = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth('manager')).send({ offer_id: chosen.id });
    expect(res.status).toBe(201);
    const now = h.clock.now().toISOString();
    const adv = res.body.data;
    expect(adv).toMatchObject({
      deal_id: d.id, business_id: bizId, business_name: 'Sunrise Bakery LLC', lender_id: lenderId, lender_name: 'Atlas Capital', offer_id: chosen.id,
      status: 'on-track', funded_amount: 75000, factor_rate: 1.35, term: 180, payment_frequency: 'daily', payment_amount: 562.5, payback_amount: 101250,
      paid_amount: 0, remaining_balance: 101250, percent_paid: 0, payments_made: 0, payments_expected: 180, position: 2, renewal_ready: false,
      renewal_threshold: 50, renewal_threshold_override: null, funded_at: now, first_payment_date: '2026-11-30', actual_payoff_date: null,
    });
    const dealNow = (await h.api.get(`/v1/deals/${d.id}`).set(t.auth())).body.data;
    const funded = await stageOf('funded');
    expect(dealNow).toMatchObject({ status: 'funded', stage: { id: funded.id }, closed_at: now, manually_closed: true, primary_offer: { id: chosen.id } });
    const o = (await h.api.get(`/v1/offers/${chosen.id}`).set(t.auth())).body.data;
    expect(o).toMatchObject({ is_selected: true, is_primary: true });
    expect((await h.api.get(`/v1/offers/${first.id}`).set(t.auth())).body.data.is_primary).toBe(false);
    expect((await h.knex('submissions').where({ id: subId }).first()).status).toBe('funded');

    const fundedEv = (await eventsOf('deal.funded')).filter((e) => e.data.deal_id === d.id);
    expect(fundedEv).toHaveLength(1);
    expect(fundedEv[0].data).toEqual({
      deal_id: d.id, stage: { id: funded.id, label: 'Funded', phase: 'funded', event: 'deal_funded' }, reason: null, changed_at: now,
      deal: expect.objectContaining({ id: d.id, status: 'funded', primary_offer_id: chosen.id, offers_count: 2, submissions_count: 1, requested_amount: 80000 }),
    });
    expect(JSON.stringify(fundedEv[0].data)).not.toMatch(/form_data|ghl_|owner/);
    const sc = (await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id);
    expect(sc.map((e) => e.data.to_stage.phase)).toContain('funded');
    const pc = (await eventsOf('offer.primary_changed')).filter((e) => e.data.deal_id === d.id);
    expect(pc.map((e) => e.data.offer_id)).toEqual([first.id, chosen.id]);
    expect(pc[1].data).toMatchObject({ previous_primary_offer_id: first.id, lender_id: lenderId, offer: { id: chosen.id, is_primary: true, is_selected: true, status_id: 'ost_accepted' } });
    // The advance exists in the same commit as deal.funded.
    expect(await h.knex('advances').where({ deal_id: d.id }).first()).toBeTruthy();
    const [act] = await activities(d.id, 'deal.funded');
    expect(act.data).toEqual({ stage: { id: funded.id, label: 'Funded' }, advance_id: adv.id, funded_amount: 75000 });
    expect(act.description).toBe('Deal funded with Atlas Capital for $75,000.00');

    // Closed for good: no second funding, no death, no moves.
    expect((await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: chosen.id })).status).toBe(409);
    expect((await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'x' })).status).toBe(409);
    const move = await h.api.post(`/v1/deals/${d.id}/stage`).set(t.auth()).send({ stage_id: (await stageOf('new')).id });
    expect(move.status).toBe(409);
    expect(move.body.error.code).toBe('invalid_state_transition');
  });

  it('funding from the primary offer fires no offer.primary_changed; explicit dates and position are kept', async () => {
    const d = await deal();
    const o = await offer(d.id, { status: 'accepted' });
    await h.api.post(`/v1/offers/${o.id}/primary`).set(t.auth());
    const before = (await eventsOf('offer.primary_changed')).length;
    const res = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: o.id, funded_at: '2026-11-06T17:30:00Z', first_payment_date: '2026-11-09', position: 3 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ funded_at: '2026-11-06T17:30:00.000Z', first_payment_date: '2026-11-09', expected_payoff_date: '2027-07-16', position: 3 });
    expect((await eventsOf('offer.primary_changed')).length).toBe(before);
  });

  it('a funding that fails mid-way (the advance insert conflicts) leaves nothing behind: no event, offer not selected, deal open', async () => {
    const d = await deal();
    const o = await offer(d.id, { status: 'accepted' });
    const now = h.clock.now();
    // A concurrent writer already recorded an advance for this deal (unique deal_id).
    await h.knex('advances').insert({
      id: newId('adv', now.getTime()), location_id: t.locationId, deal_id: d.id, business_id: bizId, lender_id: lenderId, funded_amount: 1, factor_rate: 1, term: 1,
      payment_frequency: 'daily', payment_amount: 1, payback_amount: 1, funded_at: now, first_payment_date: '2026-12-01', created_at: now, updated_at: now,
    });
    const before = await eventCount();
    const activityBefore = (await activities(d.id)).length;
    const res = await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: o.id });
    expect(res.status).toBe(409);
    expect(await eventCount()).toBe(before);
    expect((await activities(d.id)).length).toBe(activityBefore);
    const offerRow = await h.knex('offers').where({ id: o.id }).first();
    expect(offerRow).toMatchObject({ is_selected: false, is_primary: false });
    const dealRow = await h.knex('deals').where({ id: d.id }).first();
    expect(dealRow).toMatchObject({ status: 'open', primary_offer_id: null, closed_at: null });
  });
});
