import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchSnapshots } from '../../src/features/lender-matches/lender-matches.service';
import { formatDollars, monthlyRevenueCents, monthsSince, normalizeCriteria, parseCreditScore, scoreDeal, type DealFacts } from '../../src/features/lender-matches/scoring';
import { newId } from '../../src/lib/ids';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// ---- the pure scoring function ----

/** Sunrise Bakery, the contract's example deal. */
const sunrise: DealFacts = {
  monthlyRevenueCents: monthlyRevenueCents(1_020_000),
  timeInBusinessMonths: 127,
  state: 'CO',
  industry: 'Bakeries',
  positions: 0,
  creditScore: 712,
  requestedAmountCents: 7_500_000,
  productType: 'mca',
  paperGrade: 'B',
};
const atlasCriteria = {
  min_monthly_revenue: 25000, min_time_in_business_months: 12, min_credit_score: 600, min_amount: 10000, max_amount: 250000,
  excluded_industries: ['Cannabis', 'Firearms'], paper_grades: ['A'], hard_gates: ['min_monthly_revenue', 'min_credit_score', 'excluded_industries'],
};
const brightlineCriteria = { min_monthly_revenue: 20000, min_time_in_business_months: 24, min_credit_score: 650, paper_grades: ['A'], hard_gates: ['min_monthly_revenue', 'min_credit_score'] };
const cobaltCriteria = { min_credit_score: 550, min_amount: 5000, max_amount: 50000, hard_gates: ['max_amount'] };

/** The contract's example reasons, verbatim. */
const atlasReasons = [
  { criterion: 'min_monthly_revenue', passed: true, hard_gate: true, message: 'Monthly revenue $85,000 (stated on the deal) meets the $25,000 minimum', source: 'deal', statements: [] },
  { criterion: 'min_time_in_business_months', passed: true, hard_gate: false, message: '127 months in business (since the business start date) meets the 12 month minimum', source: 'business', statements: [] },
  { criterion: 'min_credit_score', passed: true, hard_gate: true, message: 'Credit score 712 meets the 600 minimum', source: 'primary_owner', statements: [] },
  { criterion: 'min_amount', passed: true, hard_gate: false, message: 'Requested $75,000 is at least the $10,000 minimum', source: 'deal', statements: [] },
  { criterion: 'max_amount', passed: true, hard_gate: false, message: 'Requested $75,000 is within the $250,000 maximum', source: 'deal', statements: [] },
  { criterion: 'excluded_industries', passed: true, hard_gate: true, message: 'Industry Bakeries is not excluded', source: 'business', statements: [] },
  { criterion: 'paper_grades', passed: false, hard_gate: false, message: 'Paper grade B is not in the accepted grades (A)', source: 'deal', statements: [] },
];
const brightlineReasons = [
  { criterion: 'min_monthly_revenue', passed: true, hard_gate: true, message: 'Monthly revenue $85,000 (stated on the deal) meets the $20,000 minimum', source: 'deal', statements: [] },
  { criterion: 'min_time_in_business_months', passed: true, hard_gate: false, message: '127 months in business (since the business start date) meets the 24 month minimum', source: 'business', statements: [] },
  { criterion: 'min_credit_score', passed: true, hard_gate: true, message: 'Credit score 712 meets the 650 minimum', source: 'primary_owner', statements: [] },
  { criterion: 'paper_grades', passed: false, hard_gate: false, message: 'Paper grade B is not in the accepted grades (A)', source: 'deal', statements: [] },
];
const cobaltReasons = [
  { criterion: 'min_credit_score', passed: true, hard_gate: false, message: 'Credit score 712 meets the 550 minimum', source: 'primary_owner', statements: [] },
  { criterion: 'min_amount', passed: true, hard_gate: false, message: 'Requested $75,000 is at least the $5,000 minimum', source: 'deal', statements: [] },
  { criterion: 'max_amount', passed: false, hard_gate: true, message: 'Requested $75,000 exceeds the $50,000 maximum', source: 'deal', statements: [] },
];

describe('scoreDeal (unit)', () => {
  it("reproduces the contract's example: 86 / 75 / 67, eligibility and reasons", () => {
    expect(scoreDeal(sunrise, normalizeCriteria(atlasCriteria))).toEqual({ score: 86, eligible: true, reasons: atlasReasons });
    expect(scoreDeal(sunrise, normalizeCriteria(brightlineCriteria))).toEqual({ score: 75, eligible: true, reasons: brightlineReasons });
    expect(scoreDeal(sunrise, normalizeCriteria(cobaltCriteria))).toEqual({ score: 67, eligible: false, reasons: cobaltReasons });
  });

  it('no criteria: 100, eligible, no reasons', () => {
    expect(scoreDeal(sunrise, normalizeCriteria({}))).toEqual({ score: 100, eligible: true, reasons: [] });
    expect(scoreDeal(sunrise, normalizeCriteria(null))).toEqual({ score: 100, eligible: true, reasons: [] });
  });

  it('a hard gate on an unset criterion has no effect; failing a soft criterion only lowers the score', () => {
    const r = scoreDeal(sunrise, normalizeCriteria({ paper_grades: ['A'], hard_gates: ['max_positions', 'allowed_states'] }));
    expect(r).toMatchObject({ score: 0, eligible: true });
    expect(r.reasons).toHaveLength(1);
  });

  it('missing deal data fails the criterion (and a hard gate on it disqualifies)', () => {
    const unknown: DealFacts = { monthlyRevenueCents: null, timeInBusinessMonths: null, state: null, industry: null, positions: null, creditScore: null, requestedAmountCents: null, productType: null, paperGrade: null };
    const all = {
      min_monthly_revenue: 1, min_time_in_business_months: 1, min_credit_score: 300, min_amount: 1, max_amount: 10, max_positions: 5,
      allowed_states: ['CO'], excluded_states: ['NY'], excluded_industries: ['Cannabis'], product_types: ['mca'], paper_grades: ['A'],
    };
    const r = scoreDeal(unknown, normalizeCriteria({ ...all, hard_gates: ['excluded_states'] }));
    expect(r.reasons).toHaveLength(11);
    expect(r.reasons.every((x) => !x.passed)).toBe(true);
    expect(r).toMatchObject({ score: 0, eligible: false });
    expect(r.reasons.map((x) => x.criterion)).toEqual([
      'min_monthly_revenue', 'min_time_in_business_months', 'min_credit_score', 'min_amount', 'max_amount', 'max_positions',
      'allowed_states', 'excluded_states', 'excluded_industries', 'product_types', 'paper_grades',
    ]);
  });

  it('states, industries, products and grades compare case-insensitively; positions count against the maximum', () => {
    const facts = { ...sunrise, state: 'co', industry: ' cannabis ', productType: 'MCA', paperGrade: 'a', positions: 2 };
    const r = scoreDeal(facts, normalizeCriteria({
      allowed_states: ['CO', 'UT'], excluded_states: ['CO'], excluded_industries: ['Cannabis'], product_types: ['mca'], paper_grades: ['A'], max_positions: 1,
      hard_gates: ['allowed_states'],
    }));
    expect(Object.fromEntries(r.reasons.map((x) => [x.criterion, x.passed]))).toEqual({
      max_positions: false, allowed_states: true, excluded_states: false, excluded_industries: false, product_types: true, paper_grades: true,
    });
    expect(r).toMatchObject({ score: 50, eligible: true });
    expect(r.reasons[0].message).toBe('2 existing positions (advances recorded on the business) exceeds the 1 position maximum');
  });

  it('boundaries are inclusive; amounts compare in cents', () => {
    const r = scoreDeal({ ...sunrise, requestedAmountCents: 1_000_001, monthlyRevenueCents: 2_500_000 }, normalizeCriteria({ min_amount: 10000.01, max_amount: 10000.01, min_monthly_revenue: 25000 }));
    expect(r.reasons.map((x) => x.passed)).toEqual([true, true, true]);
    expect(r.reasons[1].message).toBe('Requested $10,000.01 is at least the $10,000.01 minimum');
    expect(scoreDeal({ ...sunrise, requestedAmountCents: 1_000_000 }, normalizeCriteria({ min_amount: 10000.01 })).score).toBe(0);
  });

  it('helpers: months in business, monthly revenue, credit score, dollars', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(monthsSince('2016-04-23', now)).toBe(127);
    expect(monthsSince('2016-04-24', now)).toBe(126);
    expect(monthsSince('2027-01-01', now)).toBe(0);
    expect(monthsSince(null, now)).toBeNull();
    expect(monthlyRevenueCents('1020000.00')).toBe(8_500_000);
    expect(monthlyRevenueCents(null)).toBeNull();
    expect(parseCreditScore('712')).toBe(712);
    expect(parseCreditScore('712 (Experian)')).toBe(712);
    expect(parseCreditScore('excellent')).toBeNull();
    expect(parseCreditScore('100')).toBeNull();
    expect(formatDollars(123456789)).toBe('$1,234,567.89');
    expect(formatDollars(50)).toBe('$0.50');
  });
});

// ---- the endpoint ----

let h: Harness;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Northwind');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function insertBusiness(tenant: Tenant, fields: Record<string, unknown> = {}) {
  const now = h.clock.now();
  const id = newId('biz', now.getTime());
  await h.knex('businesses').insert({ id, location_id: tenant.locationId, legal_name: 'Sunrise Bakery LLC', state: 'CO', industry: 'Bakeries', business_start_date: '2016-04-23', created_at: now, updated_at: now, ...fields });
  return id;
}

async function insertOwner(tenant: Tenant, businessId: string, creditScore: string | null, link: Record<string, unknown> = {}) {
  const now = h.clock.now();
  const id = newId('per', now.getTime());
  await h.knex('people').insert({ id, location_id: tenant.locationId, first_name: 'Maria', last_name: 'Lopez', credit_score: creditScore, created_at: now, updated_at: now });
  await h.knex('business_people').insert({ id: newId('asc', now.getTime()), location_id: tenant.locationId, business_id: businessId, person_id: id, role: 'owner', is_primary_contact: true, created_at: now, updated_at: now, ...link });
  return id;
}

async function insertDeal(tenant: Tenant, businessId: string, createdBy: 'admin' | 'manager' | 'user', fields: Record<string, unknown> = {}) {
  const now = h.clock.now();
  const stage = await h.knex('pipeline_stages').where({ location_id: tenant.locationId }).orderBy('sort_order').first('id');
  const id = newId('deal', now.getTime());
  await h.knex('deals').insert({
    id, location_id: tenant.locationId, business_id: businessId, requested_amount: 75000, annual_revenue: 1020000, product_type: 'mca', paper_grade: 'B',
    stage_id: stage.id, stage_entered_at: now, created_by_user_id: tenant.users[createdBy].id, created_at: now, updated_at: now, ...fields,
  });
  return id;
}

async function insertSubmission(tenant: Tenant, dealId: string, lenderId: string) {
  const now = h.clock.now();
  const id = newId('sub', now.getTime());
  await h.knex('submissions').insert({ id, location_id: tenant.locationId, deal_id: dealId, lender_id: lenderId, status: 'sent', submission_method: 'email', created_at: now });
  return id;
}

async function insertAdvance(tenant: Tenant, dealId: string, businessId: string, lenderId: string, status: string) {
  const now = h.clock.now();
  await h.knex('advances').insert({
    id: newId('adv', now.getTime()), location_id: tenant.locationId, deal_id: dealId, business_id: businessId, lender_id: lenderId, status,
    funded_amount: 50000, factor_rate: 1.3, term: 120, payment_frequency: 'daily', payment_amount: 541.67, payback_amount: 65000,
    funded_at: now, first_payment_date: '2026-01-02', created_at: now, updated_at: now,
  });
}

async function lender(tenant: Tenant, name: string, criteria: Record<string, unknown> | null, extra: Record<string, unknown> = {}) {
  h.clock.advance(10);
  const res = await h.api.post('/v1/lenders').set(tenant.auth('admin')).send({ name, ...extra });
  expect(res.status).toBe(201);
  if (criteria) await h.api.put(`/v1/lenders/${res.body.data.id}/criteria`).set(tenant.auth('admin')).send(criteria).expect(200);
  return res.body.data.id as string;
}

const matches = (tenant: Tenant, dealId: string, q = '', role: 'admin' | 'manager' | 'user' = 'admin') => h.api.get(`/v1/deals/${dealId}/lender-matches${q}`).set(tenant.auth(role));

describe(`listDealLenderMatches (${ENGINE})`, () => {
  let biz: string;
  let deal: string;
  const L: Record<string, string> = {};
  const S: Record<string, string> = {};

  beforeAll(async () => {
    biz = await insertBusiness(t);
    await insertOwner(t, biz, '712');
    deal = await insertDeal(t, biz, 'admin');
    L.atlas = await lender(t, 'Atlas Capital', atlasCriteria);
    L.brightline = await lender(t, 'Brightline Funding', brightlineCriteria);
    L.cobalt = await lender(t, 'Cobalt Merchant Funding', cobaltCriteria);
    L.paused = await lender(t, 'Paused Lender', null, { active: false });
    S.atlas = await insertSubmission(t, deal, L.atlas);
    S.brightline = await insertSubmission(t, deal, L.brightline);
  });

  it("scores every active lender of the location, best first, exactly as the contract's example", async () => {
    await lender(other, 'Elsewhere Capital', null);
    const res = await matches(t, deal);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { lender_id: L.atlas, lender_name: 'Atlas Capital', score: 86, eligible: true, reasons: atlasReasons, already_submitted: true, submission_id: S.atlas },
        { lender_id: L.brightline, lender_name: 'Brightline Funding', score: 75, eligible: true, reasons: brightlineReasons, already_submitted: true, submission_id: S.brightline },
        { lender_id: L.cobalt, lender_name: 'Cobalt Merchant Funding', score: 67, eligible: false, reasons: cobaltReasons, already_submitted: false, submission_id: null },
      ],
      meta: { next_cursor: null, has_more: false },
    });
  });

  it('eligible=true / eligible=false filter on the hard gates', async () => {
    const yes = await matches(t, deal, '?eligible=true');
    expect(yes.body.data.map((m: { lender_name: string }) => m.lender_name)).toEqual(['Atlas Capital', 'Brightline Funding']);
    const no = await matches(t, deal, '?eligible=false');
    expect(no.body.data.map((m: { lender_name: string }) => m.lender_name)).toEqual(['Cobalt Merchant Funding']);
  });

  it('computed on read: new criteria, a deactivated lender and the deal\'s own data change the result', async () => {
    await h.api.put(`/v1/lenders/${L.cobalt}/criteria`).set(t.auth('admin')).send({ ...cobaltCriteria, max_amount: 100000 }).expect(200);
    let res = await matches(t, deal);
    expect(res.body.data.map((m: { lender_name: string; score: number }) => [m.lender_name, m.score])).toEqual([['Cobalt Merchant Funding', 100], ['Atlas Capital', 86], ['Brightline Funding', 75]]);
    await h.api.patch(`/v1/lenders/${L.brightline}`).set(t.auth('admin')).send({ active: false }).expect(200);
    res = await matches(t, deal);
    expect(res.body.data.map((m: { lender_name: string }) => m.lender_name)).toEqual(['Cobalt Merchant Funding', 'Atlas Capital']);
    await h.knex('deals').where({ id: deal }).update({ annual_revenue: 120000 }); // $10,000 a month, under Atlas's hard gate
    res = await matches(t, deal, '?eligible=false');
    expect(res.body.data.map((m: { lender_name: string }) => m.lender_name)).toEqual(['Atlas Capital']);
    expect(res.body.data[0].reasons[0]).toEqual({ criterion: 'min_monthly_revenue', passed: false, hard_gate: true, message: 'Monthly revenue $10,000 (stated on the deal) is below the $25,000 minimum', source: 'deal', statements: [] });
    // restore
    await h.knex('deals').where({ id: deal }).update({ annual_revenue: 1020000 });
    await h.api.patch(`/v1/lenders/${L.brightline}`).set(t.auth('admin')).send({ active: true }).expect(200);
    await h.api.put(`/v1/lenders/${L.cobalt}/criteria`).set(t.auth('admin')).send(cobaltCriteria).expect(200);
  });

  it('existing positions: active advances of the business count, paid-off ones and this deal\'s own do not', async () => {
    const tenant = await h.tenant('Positions');
    const b = await insertBusiness(tenant);
    const d = await insertDeal(tenant, b, 'admin');
    const old1 = await insertDeal(tenant, b, 'admin');
    const old2 = await insertDeal(tenant, b, 'admin');
    const funder = await lender(tenant, 'First position only', { max_positions: 0, hard_gates: ['max_positions'] });
    await insertAdvance(tenant, old1, b, funder, 'paid-off');
    await insertAdvance(tenant, d, b, funder, 'on-track');
    let res = await matches(tenant, d);
    expect(res.body.data[0]).toMatchObject({ score: 100, eligible: true });
    await insertAdvance(tenant, old2, b, funder, 'missed-payments');
    res = await matches(tenant, d);
    expect(res.body.data[0]).toMatchObject({ score: 0, eligible: false, reasons: [{ criterion: 'max_positions', passed: false, hard_gate: true, message: '1 existing position (advances recorded on the business) exceeds the 0 position maximum', source: 'advances' }] });
  });

  it("credit score comes from the business's primary owner; none means the criterion fails", async () => {
    const tenant = await h.tenant('Credit');
    const b = await insertBusiness(tenant);
    await insertOwner(tenant, b, '590', { is_primary_contact: false, role: 'bookkeeper' });
    const d = await insertDeal(tenant, b, 'admin');
    await lender(tenant, 'Scored', { min_credit_score: 600 });
    let res = await matches(tenant, d);
    expect(res.body.data[0].reasons[0]).toMatchObject({ passed: false, message: 'Credit score 590 is below the 600 minimum' });
    await insertOwner(tenant, b, '701');
    res = await matches(tenant, d);
    expect(res.body.data[0].reasons[0]).toMatchObject({ passed: true, message: 'Credit score 701 meets the 600 minimum' });
    const bare = await insertBusiness(tenant, { state: null, industry: null, business_start_date: null });
    const d2 = await insertDeal(tenant, bare, 'admin', { annual_revenue: null });
    res = await matches(tenant, d2);
    expect(res.body.data[0]).toMatchObject({ score: 0, reasons: [{ criterion: 'min_credit_score', passed: false }] });
  });

  it('ties by lender name; cursor pagination neither repeats nor skips; tampered or foreign cursors are 400', async () => {
    const tenant = await h.tenant('Pages');
    const b = await insertBusiness(tenant);
    const d = await insertDeal(tenant, b, 'admin');
    const d2 = await insertDeal(tenant, b, 'admin');
    for (const name of ['zeta Funding', 'Alpha Funding', 'Mid Funding', 'beta Funding']) await lender(tenant, name, null);
    await lender(tenant, 'Picky', { paper_grades: ['A'] });
    const all = await matches(tenant, d);
    const names = all.body.data.map((m: { lender_name: string }) => m.lender_name);
    expect(names).toEqual(['Alpha Funding', 'beta Funding', 'Mid Funding', 'zeta Funding', 'Picky']);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await matches(tenant, d, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((m: { lender_name: string }) => m.lender_name));
      cursor = res.body.meta.next_cursor;
      expect(res.body.meta.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(names);

    const p1 = await matches(tenant, d, '?limit=2');
    const c = p1.body.meta.next_cursor as string;
    const bad = await matches(tenant, d, `?limit=2&cursor=${encodeURIComponent(`${c.split('.')[0]}.0000`)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    expect((await matches(tenant, d2, `?cursor=${encodeURIComponent(c)}`)).status).toBe(400);
    const lendersPage = await h.api.get('/v1/lenders?limit=1').set(tenant.auth());
    expect((await matches(tenant, d, `?cursor=${encodeURIComponent(lendersPage.body.meta.next_cursor)}`)).status).toBe(400);
  });

  it('role user sees matches only for deals it created; others are 404', async () => {
    const mine = await insertDeal(t, biz, 'user');
    expect((await matches(t, mine, '', 'user')).status).toBe(200);
    const theirs = await matches(t, deal, '', 'user');
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ type: 'not_found', code: 'resource_missing' });
    expect((await matches(t, deal, '', 'manager')).status).toBe(200);
  });

  it("another location's deal and an unknown deal are 404; a key without lenders:read is 403", async () => {
    expect((await matches(other, deal)).status).toBe(404);
    expect((await matches(t, 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X')).status).toBe(404);
    expect((await matches(t, 'deal_nope')).status).toBe(400);
    const k = await t.key({ scopes: ['deals:read'] });
    const res = await h.api.get(`/v1/deals/${deal}/lender-matches`).set(bearer(k.key));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'lenders:read' });
  });

  it('matchSnapshots (for submissions): score and eligibility per lender, inactive ones included, inside a transaction', async () => {
    await h.api.patch(`/v1/lenders/${L.cobalt}`).set(t.auth('admin')).send({ active: false }).expect(200);
    const scope = { locationId: t.locationId, role: 'admin' as const, userId: t.users.admin.id, scopes: [] };
    const snap = await h.knex.transaction((trx) => matchSnapshots(trx, scope, deal, [L.atlas, L.cobalt, L.paused], h.clock.now()));
    expect(Object.fromEntries(snap)).toMatchObject({ [L.atlas]: { score: 86, eligible: true }, [L.cobalt]: { score: 67, eligible: false }, [L.paused]: { score: 100, eligible: true } });
    expect(snap.get(L.atlas)!.figures).toMatchObject({ monthly_revenue: { value: 85000, source: 'deal' }, statements: [], revenue_check: null });
    await expect(matchSnapshots(h.knex, { ...scope, locationId: other.locationId }, deal, [L.atlas], h.clock.now())).rejects.toMatchObject({ status: 404 });
    await h.api.patch(`/v1/lenders/${L.cobalt}`).set(t.auth('admin')).send({ active: true }).expect(200);
  });
});
