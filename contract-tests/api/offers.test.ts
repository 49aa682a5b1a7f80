import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
let bizId: string;
let lenderId: string;
let lender2Id: string;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function eventsOf(type: string, locationId = t.locationId) {
  return h.knex('events').where({ type, location_id: locationId }).orderBy('created_at', 'asc').orderBy('id', 'asc');
}
async function eventCount(locationId = t.locationId) {
  return Number((await h.knex('events').where({ location_id: locationId }).count<{ count: number }[]>('* as count'))[0].count);
}
async function stages(tenant = t) {
  return (await h.api.get('/v1/pipeline/stages').set(tenant.auth())).body.data as { id: string; label: string; phase: string; event: string | null }[];
}
async function lender(tenant: Tenant, name: string): Promise<string> {
  const now = h.clock.now();
  const id = newId('lnd', now.getTime());
  await h.knex('lenders').insert({ id, location_id: tenant.locationId, name, created_at: now, updated_at: now });
  return id;
}
async function deal(role: 'admin' | 'manager' | 'user' = 'admin', body: Record<string, unknown> = {}, tenant = t, biz = bizId) {
  const res = await h.api.post('/v1/deals').set(tenant.auth(role)).send({ business_id: biz, ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}
async function submission(dealId: string, lender: string): Promise<string> {
  const now = h.clock.now();
  const id = newId('sub', now.getTime());
  await h.knex('submissions').insert({ id, location_id: t.locationId, deal_id: dealId, lender_id: lender, status: 'sent', submission_method: 'email', created_at: now });
  return id;
}
const log = (dealId: string, body: Record<string, unknown> = {}, role: 'admin' | 'manager' | 'user' = 'admin') =>
  h.api.post(`/v1/deals/${dealId}/offers`).set(t.auth(role)).send({ lender_id: lenderId, amount: 75000, factor_rate: 1.35, term: 180, ...body });

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Offers Co');
  other = await h.tenant('Elsewhere');
  const biz = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Sunrise Bakery LLC' });
  bizId = biz.body.data.id;
  lenderId = await lender(t, 'Atlas Capital');
  lender2Id = await lender(t, 'Beacon Funding');
});
afterAll(() => h?.close());

describe(`createDealOffer (${ENGINE})`, () => {
  it('logs the offer (source api, pending, not primary), payment derived; offer.received with the snapshot and an activity line', async () => {
    const d = await deal();
    const sub = await submission(d.id, lenderId);
    const before = await eventCount();
    const res = await log(d.id, { submission_id: sub, expires_at: '2026-12-11T23:59:59Z', notes: 'Stips: voided check', position: 1 });
    expect(res.status).toBe(201);
    const o = res.body.data;
    const now = h.clock.now().toISOString();
    expect(o).toMatchObject({
      deal_id: d.id, lender_id: lenderId, lender_name: 'Atlas Capital', submission_id: sub, amount: 75000, factor_rate: 1.35, term: 180, term_unit: 'days',
      payment_amount: 562.5, payment_frequency: 'daily', payback_amount: 101250, position: 1, status: 'pending', status_id: 'ost_pending', is_primary: false,
      is_selected: false, source: 'api', notes: 'Stips: voided check', received_at: now, expires_at: '2026-12-11T23:59:59.000Z', created_at: now, updated_at: now,
    });
    const ev = (await eventsOf('offer.received')).filter((e) => e.data.offer_id === o.id);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toEqual({
      offer_id: o.id, deal_id: d.id, lender_id: lenderId, lender_name: 'Atlas Capital',
      offer: {
        id: o.id, deal_id: d.id, lender_id: lenderId, submission_id: sub, amount: 75000, factor_rate: 1.35, term: 180, term_unit: 'days', payment_amount: 562.5,
        payment_frequency: 'daily', payback_amount: 101250, position: 1, status_id: 'ost_pending', is_primary: false, is_selected: false, source: 'api',
        received_at: now, expires_at: '2026-12-11T23:59:59.000Z', created_at: now, updated_at: now,
      },
    });
    const act = await h.knex('activities').where({ entity_id: o.id, action: 'offer.received' }).first();
    expect(act).toMatchObject({ business_id: bizId, deal_id: d.id, entity_type: 'offer', entity_name: 'Atlas Capital', description: 'Atlas Capital offered $75,000.00 at 1.35 over 180 days' });
    expect(act.data).toEqual({ deal_id: d.id, lender_id: lenderId, lender_name: 'Atlas Capital', amount: 75000, factor_rate: 1.35, source: 'api' });
    // offer.received, plus the automatic move into "Offers in".
    expect(await eventCount()).toBe(before + 2);
  });

  it('money: payback = amount x factor rounded to cents; payment derived per term unit and frequency', async () => {
    const d = await deal();
    const cases: [Record<string, unknown>, number, number][] = [
      [{ amount: 10000.01, factor_rate: 1.3333, term: 100 }, 13333.01, 133.33],
      [{ amount: 12345.67, factor_rate: 1.4999, term: 120 }, 18517.27, 154.31],
      [{ amount: 0.05, factor_rate: 1.5, term: 1 }, 0.08, 0.08],
      [{ amount: 1000.1, factor_rate: 1.125, term: 3, term_unit: 'months', payment_frequency: 'monthly' }, 1125.11, 375.04],
      // 9 weeks paid bi-weekly: 5 whole payments (the last at the end of the term).
      [{ amount: 50000, factor_rate: 1.3, term: 9, term_unit: 'weeks', payment_frequency: 'bi-weekly' }, 65000, 13000],
      [{ amount: 50000, factor_rate: 1.3, term: 10, term_unit: 'weeks', payment_frequency: 'bi-weekly' }, 65000, 13000],
      [{ amount: 60000, factor_rate: 1.42, term: 26, term_unit: 'weeks', payment_frequency: 'weekly' }, 85200, 3276.92],
      [{ amount: 60000, factor_rate: 1.42, term: 9, term_unit: 'months', payment_frequency: 'weekly', payment_amount: 2184.62 }, 85200, 2184.62],
    ];
    for (const [body, payback, payment] of cases) {
      const res = await log(d.id, body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(res.body.data.payback_amount, JSON.stringify(body)).toBe(payback);
      expect(res.body.data.payment_amount, JSON.stringify(body)).toBe(payment);
    }
  });

  it('400 when the payment cannot be derived or the input is bad; 404 for unknown lender or submission; 400 for a submission of another lender or deal', async () => {
    const d = await deal();
    const otherDeal = await deal();
    const subOtherLender = await submission(d.id, lender2Id);
    const subOtherDeal = await submission(otherDeal.id, lenderId);
    const foreignLender = await lender(other, 'Foreign Lender');
    const before = await eventCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ term_unit: 'months', payment_frequency: 'daily' }, 400, 'payment_amount'],
      [{ term_unit: 'days', payment_frequency: 'weekly' }, 400, 'payment_amount'],
      [{ factor_rate: 5.5 }, 400, 'factor_rate'],
      [{ amount: 0 }, 400, 'amount'],
      [{ term: 0 }, 400, 'term'],
      [{ lender_id: foreignLender }, 404, 'lender_id'],
      [{ submission_id: newId('sub') }, 404, 'submission_id'],
      [{ submission_id: subOtherLender }, 400, 'submission_id'],
      [{ submission_id: subOtherDeal }, 400, 'submission_id'],
    ];
    for (const [body, status, param] of cases) {
      const res = await log(d.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.param, JSON.stringify(body)).toBe(param);
    }
    const missing = await h.api.post(`/v1/deals/${d.id}/offers`).set(t.auth()).send({ lender_id: lenderId, amount: 1000 });
    expect(missing.status).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('an open deal moves forwards into the offer_received stage (trigger system); a deal already past it does not', async () => {
    const offersIn = (await stages()).find((s) => s.event === 'offer_received')!;
    const d = await deal();
    await log(d.id);
    const moved = (await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id);
    expect(moved).toHaveLength(1);
    expect(moved[0].data).toMatchObject({ trigger: 'system', event: 'offer_received', reason: null, to_stage: { id: offersIn.id, phase: 'offers' }, from_stage: { phase: 'new' } });
    const deal1 = (await h.api.get(`/v1/deals/${d.id}`).set(t.auth())).body.data;
    expect(deal1).toMatchObject({ stage: { id: offersIn.id }, offers_count: 1 });
    // Already in the stage: nothing more.
    await log(d.id);
    expect((await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d.id)).toHaveLength(1);
    const contracts = (await stages()).find((s) => s.phase === 'contracts')!;
    const d2 = await deal('admin', { stage_id: contracts.id });
    await log(d2.id);
    expect((await eventsOf('deal.stage_changed')).filter((e) => e.data.deal_id === d2.id)).toHaveLength(0);
  });

  it('409 on a funded deal', async () => {
    const d = await deal();
    const o = (await log(d.id, { status: 'accepted' })).body.data;
    expect((await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: o.id })).status).toBe(201);
    const res = await log(d.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('invalid_state_transition');
  });

  it('role user logs pending offers on its own deals only; another status is 403 role_not_allowed with param status', async () => {
    const mine = await deal('user');
    const theirs = await deal('manager');
    expect((await log(mine.id, {}, 'user')).status).toBe(201);
    const accepted = await log(mine.id, { status: 'accepted' }, 'user');
    expect(accepted.status).toBe(403);
    expect(accepted.body.error).toMatchObject({ code: 'role_not_allowed', param: 'status' });
    expect((await log(theirs.id, {}, 'user')).status).toBe(404);
    expect((await h.api.post(`/v1/deals/${theirs.id}/offers`).set(other.auth()).send({ lender_id: lenderId, amount: 1, factor_rate: 1.1, term: 10 })).status).toBe(404);
  });

  it('403 missing_scope without offers:write', async () => {
    const d = await deal();
    const k = await t.key({ scopes: ['offers:read', 'deals:write'] });
    const res = await h.api.post(`/v1/deals/${d.id}/offers`).set(bearer(k.key)).send({ lender_id: lenderId, amount: 1000, factor_rate: 1.2, term: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'offers:write' });
  });
});

describe(`reading offers (${ENGINE})`, () => {
  it('listDealOffers: newest received first, status filter, pages; 404 for another location or a user who did not create the deal', async () => {
    const d = await deal();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      ids.push((await log(d.id, { status: i === 1 ? 'declined' : 'pending', lender_id: i ? lender2Id : lenderId })).body.data.id);
    }
    const all = await h.api.get(`/v1/deals/${d.id}/offers`).set(t.auth());
    expect(all.status).toBe(200);
    expect(all.body.data.map((o: { id: string }) => o.id)).toEqual([...ids].reverse());
    expect(all.body.data[0].lender_name).toBe('Beacon Funding');
    const declined = await h.api.get(`/v1/deals/${d.id}/offers?status=declined`).set(t.auth());
    expect(declined.body.data.map((o: { id: string }) => o.id)).toEqual([ids[1]]);
    const p1 = await h.api.get(`/v1/deals/${d.id}/offers?limit=2`).set(t.auth());
    expect(p1.body.meta.has_more).toBe(true);
    const p2 = await h.api.get(`/v1/deals/${d.id}/offers?limit=2&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`).set(t.auth());
    expect(p2.body.data.map((o: { id: string }) => o.id)).toEqual([ids[0]]);
    expect(p2.body.data[0].created_at).toBe(p2.body.data[0].received_at);
    expect(p2.body.meta).toEqual({ has_more: false, next_cursor: null });
    expect((await h.api.get(`/v1/deals/${d.id}/offers`).set(other.auth())).status).toBe(404);
    expect((await h.api.get(`/v1/deals/${d.id}/offers`).set(t.auth('user'))).status).toBe(404);
    expect((await h.api.get(`/v1/offers/${ids[0]}`).set(t.auth('user'))).status).toBe(404);
    expect((await h.api.get(`/v1/offers/${ids[0]}`).set(other.auth())).status).toBe(404);
    const one = await h.api.get(`/v1/offers/${ids[0]}`).set(t.auth('manager'));
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: ids[0], lender_name: 'Atlas Capital', status: 'pending' });
  });
  it('role user reads the offers of its own deals', async () => {
    const mine = await deal('user');
    const o = (await log(mine.id, {}, 'user')).body.data;
    expect((await h.api.get(`/v1/offers/${o.id}`).set(t.auth('user'))).status).toBe(200);
    expect((await h.api.get(`/v1/deals/${mine.id}/offers`).set(t.auth('user'))).body.data).toHaveLength(1);
  });
});

describe(`updateOffer (${ENGINE})`, () => {
  it('reprices: payback recomputed, payment derived again; a new status changes status_id; edits fire no event, accepting fires offer.accepted (broker) once; one activity line each', async () => {
    const d = await deal();
    const o = (await log(d.id)).body.data;
    const before = await eventCount();
    h.clock.advance(1000);
    const res = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth('manager')).send({ factor_rate: 1.32, notes: 'Improved' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ factor_rate: 1.32, payback_amount: 99000, payment_amount: 550, notes: 'Improved', updated_at: h.clock.now().toISOString() });
    const explicit = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ payment_amount: 600 });
    expect(explicit.body.data).toMatchObject({ payment_amount: 600, payback_amount: 99000 });
    const weekly = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ term: 26, term_unit: 'weeks', payment_frequency: 'weekly' });
    expect(weekly.body.data).toMatchObject({ payment_amount: 3807.69, term: 26 });
    const accepted = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ status: 'accepted', expires_at: null, notes: null });
    expect(accepted.body.data).toMatchObject({ status: 'accepted', status_id: 'ost_accepted', expires_at: null, notes: null, payment_amount: 3807.69 });
    expect(await eventCount()).toBe(before + 1);
    const ev = await h.knex('events').where({ type: 'offer.accepted' }).whereRaw(`data->>'offer_id' = ?`, [o.id]);
    expect(ev.map((e) => e.data.accepted_by)).toEqual(['broker']);
    // Already accepted: accepting again is an edit, no event.
    await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ status: 'accepted' });
    expect(await eventCount()).toBe(before + 1);
    const acts = await h.knex('activities').where({ entity_id: o.id, action: 'offer.updated' });
    expect(acts).toHaveLength(5);
    expect(await h.knex('activities').where({ entity_id: o.id, action: 'offer.accepted' })).toHaveLength(1);
  });
  it('400 when the payment cannot be derived; 403 for role user; 404 across locations; 409 once it funded the deal', async () => {
    const d = await deal();
    const o = (await log(d.id, { status: 'accepted' })).body.data;
    const bad = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ payment_frequency: 'monthly' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('payment_amount');
    expect((await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({})).status).toBe(400);
    const asUser = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth('user')).send({ status: 'accepted' });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error.code).toBe('role_not_allowed');
    expect((await h.api.patch(`/v1/offers/${o.id}`).set(other.auth()).send({ notes: 'x' })).status).toBe(404);
    expect((await h.api.post(`/v1/deals/${d.id}/fund`).set(t.auth()).send({ offer_id: o.id })).status).toBe(201);
    const frozen = await h.api.patch(`/v1/offers/${o.id}`).set(t.auth()).send({ notes: 'late change' });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.code).toBe('invalid_state_transition');
  });
});

describe(`setOfferPrimary (${ENGINE})`, () => {
  it('fires offer.primary_changed with previous_primary_offer_id; idempotent when already primary (meta = own id, no event)', async () => {
    const d = await deal();
    const a = (await log(d.id)).body.data;
    const b = (await log(d.id, { lender_id: lender2Id, status: 'accepted' })).body.data;
    const first = await h.api.post(`/v1/offers/${a.id}/primary`).set(t.auth());
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ previous_primary_offer_id: null });
    expect(first.body.data).toMatchObject({ id: a.id, is_primary: true });
    h.clock.advance(1000); // events of one millisecond have no order
    const second = await h.api.post(`/v1/offers/${b.id}/primary`).set(t.auth('manager'));
    expect(second.body.meta).toEqual({ previous_primary_offer_id: a.id });
    expect((await h.api.get(`/v1/offers/${a.id}`).set(t.auth())).body.data.is_primary).toBe(false);
    expect((await h.api.get(`/v1/deals/${d.id}`).set(t.auth())).body.data.primary_offer).toMatchObject({ id: b.id, lender_name: 'Beacon Funding', status: 'accepted' });
    const evs = (await eventsOf('offer.primary_changed')).filter((e) => e.data.deal_id === d.id);
    expect(evs.map((e) => [e.data.offer_id, e.data.previous_primary_offer_id])).toEqual([[a.id, null], [b.id, a.id]]);
    expect(evs[1].data).toMatchObject({ lender_id: lender2Id, offer: { id: b.id, is_primary: true, status_id: 'ost_accepted' } });
    expect(evs[1].data.offer).not.toHaveProperty('status');
    expect(evs[1].data.offer).not.toHaveProperty('lender_name');
    const act = await h.knex('activities').where({ entity_id: b.id, action: 'offer.primary_changed' }).first();
    expect(act.data).toEqual({ deal_id: d.id, previous_primary_offer_id: a.id });
    const before = await eventCount();
    const again = await h.api.post(`/v1/offers/${b.id}/primary`).set(t.auth());
    expect(again.status).toBe(200);
    expect(again.body.meta).toEqual({ previous_primary_offer_id: b.id });
    expect(await eventCount()).toBe(before);
  });
  it('409 for a declined, expired or withdrawn offer, and on a dead deal; 403 for role user; 404 across locations', async () => {
    const d = await deal();
    for (const status of ['declined', 'expired', 'withdrawn']) {
      const o = (await log(d.id, { status })).body.data;
      const res = await h.api.post(`/v1/offers/${o.id}/primary`).set(t.auth());
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('invalid_state_transition');
    }
    const ok = (await log(d.id)).body.data;
    expect((await h.api.post(`/v1/offers/${ok.id}/primary`).set(t.auth('user'))).status).toBe(403);
    expect((await h.api.post(`/v1/offers/${ok.id}/primary`).set(other.auth())).status).toBe(404);
    await h.api.post(`/v1/deals/${d.id}/dead`).set(t.auth()).send({ reason: 'Lost' });
    const dead = await h.api.post(`/v1/offers/${ok.id}/primary`).set(t.auth());
    expect(dead.status).toBe(409);
  });
});
