import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAdvanceSummariesForBusiness } from '../../src/features/advances/advances.service';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;
let bizId: string;
let biz2Id: string;
let lenderId: string;
let lender2Id: string;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function eventsOf(type: string, advanceId: string) {
  return (await h.knex('events').where({ type, location_id: t.locationId }).orderBy('created_at', 'asc').orderBy('id', 'asc')).filter((e) => e.data.advance_id === advanceId);
}
async function eventCount(locationId = t.locationId) {
  return Number((await h.knex('events').where({ location_id: locationId }).count<{ count: number }[]>('* as count'))[0].count);
}
async function lender(tenant: Tenant, name: string): Promise<string> {
  const now = h.clock.now();
  const id = newId('lnd', now.getTime());
  await h.knex('lenders').insert({ id, location_id: tenant.locationId, name, created_at: now, updated_at: now });
  return id;
}

interface FundOpts {
  offer?: Record<string, unknown>;
  fund?: Record<string, unknown>;
  biz?: string;
  tenant?: Tenant;
  lender?: string;
}
/** A funded advance through the public API: deal -> accepted offer -> fundDeal. */
async function advance(opts: FundOpts = {}) {
  const tenant = opts.tenant ?? t;
  const d = await h.api.post('/v1/deals').set(tenant.auth()).send({ business_id: opts.biz ?? bizId });
  expect(d.status).toBe(201);
  const o = await h.api.post(`/v1/deals/${d.body.data.id}/offers`).set(tenant.auth())
    .send({ lender_id: opts.lender ?? lenderId, amount: 75000, factor_rate: 1.35, term: 180, status: 'accepted', ...opts.offer });
  expect(o.status).toBe(201);
  const f = await h.api.post(`/v1/deals/${d.body.data.id}/fund`).set(tenant.auth()).send({ offer_id: o.body.data.id, ...opts.fund });
  expect(f.status).toBe(201);
  return f.body.data;
}
const patch = (id: string, body: Record<string, unknown>, role: 'admin' | 'manager' | 'user' = 'admin') => h.api.patch(`/v1/advances/${id}`).set(t.auth(role)).send(body);

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Advances Co');
  other = await h.tenant('Elsewhere');
  bizId = (await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Sunrise Bakery LLC' })).body.data.id;
  biz2Id = (await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: 'Moonlight Diner Inc' })).body.data.id;
  lenderId = await lender(t, 'Atlas Capital');
  lender2Id = await lender(t, 'Beacon Funding');
});
afterAll(() => h?.close());

describe(`derived fields (${ENGINE})`, () => {
  it('remaining_balance, percent_paid, payments_expected and expected_payoff_date follow the stored figures', async () => {
    const a = await advance({ fund: { funded_at: '2026-11-06T17:30:00Z', first_payment_date: '2026-11-09' } });
    const res = await patch(a.id, { paid_amount: 40500, payments_made: 72 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      business_name: 'Sunrise Bakery LLC', lender_name: 'Atlas Capital', funded_amount: 75000, payback_amount: 101250, paid_amount: 40500,
      remaining_balance: 60750, percent_paid: 40, payments_made: 72, payments_expected: 180, renewal_ready: false, renewal_threshold: 50,
      first_payment_date: '2026-11-09', expected_payoff_date: '2027-07-16', status: 'on-track',
    });
    const get = await h.api.get(`/v1/advances/${a.id}`).set(t.auth('manager'));
    expect(get.body.data).toEqual(res.body.data);
  });

  it('payoff dates: daily skips weekends (from a weekend too), weekly, bi-weekly and monthly (clamped to month end)', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, number, string][] = [
      [{ amount: 600, factor_rate: 1, term: 6 }, { first_payment_date: '2026-11-28' }, 6, '2026-12-04'],
      [{ amount: 2600, factor_rate: 1, term: 26, term_unit: 'weeks', payment_frequency: 'weekly' }, { first_payment_date: '2026-11-30' }, 26, '2027-05-24'],
      [{ amount: 1300, factor_rate: 1, term: 26, term_unit: 'weeks', payment_frequency: 'bi-weekly' }, { first_payment_date: '2026-11-30' }, 13, '2027-05-17'],
      [{ amount: 1200, factor_rate: 1, term: 4, term_unit: 'months', payment_frequency: 'monthly' }, { first_payment_date: '2027-01-31' }, 4, '2027-04-30'],
      [{ amount: 1000, factor_rate: 1, term: 3, payment_amount: 300 }, { first_payment_date: '2026-11-30' }, 4, '2026-12-03'],
    ];
    h.clock.set('2026-11-25T12:00:00.000Z');
    for (const [offer, fund, expected, payoff] of cases) {
      const a = await advance({ offer, fund });
      expect(a.payments_expected, JSON.stringify(offer)).toBe(expected);
      expect(a.expected_payoff_date, JSON.stringify(offer)).toBe(payoff);
    }
  });

  it('the location default threshold is read at read time; the override replaces it', async () => {
    const a = await advance();
    await patch(a.id, { paid_amount: 30375 }); // 30%
    await h.knex('locations').where({ id: t.locationId }).update({ renewal_threshold: 25 });
    const res = await h.api.get(`/v1/advances/${a.id}`).set(t.auth());
    expect(res.body.data).toMatchObject({ percent_paid: 30, renewal_threshold: 25, renewal_ready: true, renewal_threshold_override: null });
    await h.knex('locations').where({ id: t.locationId }).update({ renewal_threshold: 50 });
    const back = await h.api.get(`/v1/advances/${a.id}`).set(t.auth());
    expect(back.body.data).toMatchObject({ renewal_threshold: 50, renewal_ready: false });
  });
});

describe(`updateAdvance (${ENGINE})`, () => {
  it('crossing the location default fires advance.renewal_ready exactly once, with the snapshot; never again after dropping and rising', async () => {
    const a = await advance();
    const before = await eventCount();
    await patch(a.id, { paid_amount: 50000 }); // 49.38%
    expect(await eventsOf('advance.renewal_ready', a.id)).toHaveLength(0);
    const acts0 = await h.knex('activities').where({ entity_id: a.id, action: 'advance.updated' });
    expect(acts0).toHaveLength(1);
    expect(acts0[0].data).toEqual({ deal_id: a.deal_id, fields: ['paid_amount'] });
    h.clock.advance(1000);
    const crossed = await patch(a.id, { paid_amount: 50625, payments_made: 90 }); // exactly 50%
    expect(crossed.body.data).toMatchObject({ percent_paid: 50, renewal_ready: true, remaining_balance: 50625 });
    const evs = await eventsOf('advance.renewal_ready', a.id);
    expect(evs).toHaveLength(1);
    expect(evs[0].data).toEqual({
      advance_id: a.id, deal_id: a.deal_id, lender_id: lenderId, percent_paid: 50, renewal_threshold: 50,
      advance: {
        id: a.id, deal_id: a.deal_id, business_id: bizId, lender_id: lenderId, status: 'on-track', funded_amount: 75000, payback_amount: 101250, paid_amount: 50625,
        remaining_balance: 50625, percent_paid: 50, renewal_ready: true, funded_at: a.funded_at, updated_at: h.clock.now().toISOString(),
      },
    });
    const act = await h.knex('activities').where({ entity_id: a.id, action: 'advance.renewal_ready' }).first();
    expect(act).toMatchObject({ business_id: bizId, deal_id: a.deal_id, entity_type: 'advance' });
    expect(act.data).toEqual({ deal_id: a.deal_id, percent_paid: 50, renewal_threshold: 50 });
    await patch(a.id, { paid_amount: 60000 });
    await patch(a.id, { paid_amount: 20000 });
    await patch(a.id, { paid_amount: 70000 });
    expect(await eventsOf('advance.renewal_ready', a.id)).toHaveLength(1);
    expect(await eventCount()).toBe(before + 1);
  });

  it('a lower override makes it renewal ready (and fires); null returns to the default', async () => {
    const a = await advance();
    await patch(a.id, { paid_amount: 40500 });
    const lowered = await patch(a.id, { renewal_threshold_override: 40 });
    expect(lowered.body.data).toMatchObject({ renewal_threshold: 40, renewal_threshold_override: 40, renewal_ready: true, percent_paid: 40 });
    const evs = await eventsOf('advance.renewal_ready', a.id);
    expect(evs).toHaveLength(1);
    expect(evs[0].data).toMatchObject({ percent_paid: 40, renewal_threshold: 40 });
    const reset = await patch(a.id, { renewal_threshold_override: null });
    expect(reset.body.data).toMatchObject({ renewal_threshold: 50, renewal_threshold_override: null, renewal_ready: false });
  });

  it('reaching the payback sets paid-off with actual_payoff_date today; advance.status_changed with previous_status; no renewal event when paid off at once', async () => {
    h.clock.set('2026-12-01T09:00:00.000Z');
    const a = await advance();
    const res = await patch(a.id, { paid_amount: 101250 });
    expect(res.body.data).toMatchObject({ status: 'paid-off', actual_payoff_date: '2026-12-01', remaining_balance: 0, percent_paid: 100, renewal_ready: false });
    const sc = await eventsOf('advance.status_changed', a.id);
    expect(sc).toHaveLength(1);
    expect(sc[0].data).toMatchObject({ advance_id: a.id, deal_id: a.deal_id, lender_id: lenderId, previous_status: 'on-track', status: 'paid-off', advance: { status: 'paid-off', remaining_balance: 0 } });
    expect(Object.keys(sc[0].data.advance).sort()).toEqual(
      ['business_id', 'deal_id', 'funded_amount', 'funded_at', 'id', 'lender_id', 'paid_amount', 'payback_amount', 'percent_paid', 'remaining_balance', 'renewal_ready', 'status', 'updated_at'],
    );
    expect(await eventsOf('advance.renewal_ready', a.id)).toHaveLength(0);
    const act = await h.knex('activities').where({ entity_id: a.id, action: 'advance.status_changed' }).first();
    expect(act.data).toEqual({ deal_id: a.deal_id, previous_status: 'on-track', status: 'paid-off' });
    // Leaving paid-off clears the payoff date (and, now below 100% only by status, makes it renewal ready).
    h.clock.advance(86_400_000);
    const reopened = await patch(a.id, { status: 'missed-payments', paid_amount: 90000 });
    expect(reopened.body.data).toMatchObject({ status: 'missed-payments', actual_payoff_date: null });
    expect((await eventsOf('advance.status_changed', a.id)).map((e) => [e.data.previous_status, e.data.status])).toEqual([['on-track', 'paid-off'], ['paid-off', 'missed-payments']]);
    expect(await eventsOf('advance.renewal_ready', a.id)).toHaveLength(1);
  });

  it('an explicit status wins over paid-off; the same status fires nothing', async () => {
    const a = await advance();
    const res = await patch(a.id, { paid_amount: 101250, status: 'defaulted' });
    expect(res.body.data).toMatchObject({ status: 'defaulted', actual_payoff_date: null });
    const before = await eventCount();
    await patch(a.id, { status: 'defaulted' });
    expect(await eventCount()).toBe(before);
  });

  it('400 above the payback (param paid_amount) or for an empty body, with nothing written; 403 for role user and without advances:write; 404 across locations', async () => {
    const a = await advance();
    const before = await eventCount();
    const over = await patch(a.id, { paid_amount: 101250.01 });
    expect(over.status).toBe(400);
    expect(over.body.error.param).toBe('paid_amount');
    expect((await patch(a.id, {})).status).toBe(400);
    expect((await patch(a.id, { renewal_threshold_override: 101 })).status).toBe(400);
    expect(await eventCount()).toBe(before);
    expect((await h.api.get(`/v1/advances/${a.id}`).set(t.auth())).body.data.paid_amount).toBe(0);
    const user = await patch(a.id, { paid_amount: 1 }, 'user');
    expect(user.status).toBe(403);
    expect(user.body.error.code).toBe('role_not_allowed');
    expect((await h.api.get(`/v1/advances/${a.id}`).set(t.auth('user'))).status).toBe(403);
    const k = await t.key({ scopes: ['advances:read'] });
    const scoped = await h.api.patch(`/v1/advances/${a.id}`).set(bearer(k.key)).send({ paid_amount: 1 });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toMatchObject({ code: 'missing_scope', param: 'advances:write' });
    expect((await h.api.get(`/v1/advances/${a.id}`).set(bearer(k.key))).status).toBe(200);
    expect((await h.api.get(`/v1/advances/${a.id}`).set(other.auth())).status).toBe(404);
    expect((await h.api.patch(`/v1/advances/${a.id}`).set(other.auth()).send({ paid_amount: 1 })).status).toBe(404);
  });
});

describe(`listAdvances (${ENGINE})`, () => {
  it('renewal_ready both ways (location default and override), status, lender and business filters, newest first with pages', async () => {
    const p = await h.tenant('Lister');
    const pBiz = (await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: 'List One' })).body.data.id;
    const pBiz2 = (await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: 'List Two' })).body.data.id;
    const pL1 = await lender(p, 'L1');
    const pL2 = await lender(p, 'L2');
    const mk = async (biz: string, l: string) => {
      h.clock.advance(1000);
      return advance({ tenant: p, biz, lender: l });
    };
    const below = await mk(pBiz, pL1); // 40%: not ready at 50
    const atDefault = await mk(pBiz, pL2); // 60%: ready
    const byOverride = await mk(pBiz2, pL1); // 40% with override 30: ready
    const overrideHigh = await mk(pBiz2, pL2); // 60% with override 80: not ready
    const paidOff = await mk(pBiz2, pL1); // 100%: not ready
    const p2 = (id: string, body: Record<string, unknown>) => h.api.patch(`/v1/advances/${id}`).set(p.auth()).send(body);
    await p2(below.id, { paid_amount: 40500 });
    await p2(atDefault.id, { paid_amount: 60750 });
    await p2(byOverride.id, { paid_amount: 40500, renewal_threshold_override: 30 });
    await p2(overrideHigh.id, { paid_amount: 60750, renewal_threshold_override: 80 });
    await p2(paidOff.id, { paid_amount: 101250 });
    const ids = async (qs: string) => {
      const res = await h.api.get(`/v1/advances?${qs}`).set(p.auth());
      expect(res.status, qs).toBe(200);
      return res.body.data.map((a: { id: string }) => a.id);
    };
    expect(await ids('')).toEqual([paidOff.id, overrideHigh.id, byOverride.id, atDefault.id, below.id]);
    expect(await ids('renewal_ready=true')).toEqual([byOverride.id, atDefault.id]);
    expect(await ids('renewal_ready=false')).toEqual([paidOff.id, overrideHigh.id, below.id]);
    expect(await ids('status=paid-off')).toEqual([paidOff.id]);
    expect(await ids(`lender_id=${pL2}`)).toEqual([overrideHigh.id, atDefault.id]);
    expect(await ids(`business_id=${pBiz}`)).toEqual([atDefault.id, below.id]);
    expect(await ids(`business_id=${pBiz2}&renewal_ready=true`)).toEqual([byOverride.id]);
    // The location default moves: the filter follows it.
    await h.knex('locations').where({ id: p.locationId }).update({ renewal_threshold: 35 });
    expect(await ids('renewal_ready=true')).toEqual([byOverride.id, atDefault.id, below.id]);
    const page1 = await h.api.get('/v1/advances?limit=2').set(p.auth());
    expect(page1.body.meta.has_more).toBe(true);
    const page2 = await h.api.get(`/v1/advances?limit=2&cursor=${encodeURIComponent(page1.body.meta.next_cursor)}`).set(p.auth());
    expect(page2.body.data.map((a: { id: string }) => a.id)).toEqual([byOverride.id, atDefault.id]);
    expect((await h.api.get('/v1/advances').set(other.auth())).body.data).toEqual([]);
    expect((await h.api.get('/v1/advances?status=late').set(p.auth())).status).toBe(400);
    expect((await h.api.get('/v1/advances').set(p.auth('user'))).status).toBe(403);
  });
});

describe(`listAdvanceSummariesForBusiness (${ENGINE})`, () => {
  it("the business's advances as AdvanceSummary, newest first; none for role user or another location", async () => {
    const a1 = await advance({ biz: biz2Id, lender: lender2Id });
    h.clock.advance(1000);
    const a2 = await advance({ biz: biz2Id });
    await patch(a2.id, { paid_amount: 50625 });
    const scope = { locationId: t.locationId, role: 'manager' as const, userId: t.users.manager.id, scopes: [] };
    const list = await listAdvanceSummariesForBusiness(h.knex, scope, biz2Id);
    expect(list.map((a) => a.id)).toEqual([a2.id, a1.id]);
    expect(list[0]).toEqual({
      id: a2.id, deal_id: a2.deal_id, lender: { id: lenderId, name: 'Atlas Capital' }, status: 'on-track', funded_amount: 75000, payback_amount: 101250,
      paid_amount: 50625, remaining_balance: 50625, factor_rate: 1.35, payment_amount: 562.5, payment_frequency: 'daily', percent_paid: 50,
      renewal_threshold: 50, renewal_ready: true, funded_at: a2.funded_at,
    });
    expect(list[1].lender).toEqual({ id: lender2Id, name: 'Beacon Funding' });
    expect(await listAdvanceSummariesForBusiness(h.knex, { ...scope, role: 'user' }, biz2Id)).toEqual([]);
    expect(await listAdvanceSummariesForBusiness(h.knex, { ...scope, locationId: other.locationId }, biz2Id)).toEqual([]);
  });
});
