import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

let h: Harness;
let t: Tenant;
let other: Tenant;

interface Stage {
  id: string;
  label: string;
  phase: string;
  sort_order: number;
  event: string | null;
  created_at: string;
  updated_at: string;
}
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function list(tenant: Tenant): Promise<Stage[]> {
  const res = await h.api.get('/v1/pipeline/stages').set(tenant.auth('user'));
  expect(res.status).toBe(200);
  const stages: Stage[] = res.body.data;
  // Positions are always contiguous 1..n and listed in order.
  expect(stages.map((s) => s.sort_order)).toEqual(stages.map((_, i) => i + 1));
  return stages;
}
const labels = async (tenant: Tenant) => (await list(tenant)).map((s) => s.label);
async function eventCount(locationId: string) {
  return Number((await h.knex('events').where({ location_id: locationId }).count<{ count: number }[]>('* as count'))[0].count);
}

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Pipeline Co');
  other = await h.tenant('Elsewhere');
});
afterAll(() => h?.close());

describe(`listPipelineStages (${ENGINE})`, () => {
  it('the default stages of a new location, by sort_order, in one page', async () => {
    const res = await h.api.get('/v1/pipeline/stages').set(t.auth());
    expect(res.body.meta).toEqual({ has_more: false, next_cursor: null });
    expect(res.body.data.map((s: Stage) => [s.label, s.phase, s.sort_order, s.event])).toEqual([
      ['New lead', 'new', 1, 'deal_created'],
      ['Submitted', 'submitted', 2, 'submission_sent'],
      ['Offers in', 'offers', 3, 'offer_received'],
      ['Contracts out', 'contracts', 4, null],
      ['Funded', 'funded', 5, 'deal_funded'],
      ['Dead', 'dead', 6, 'deal_dead'],
    ]);
    const mine = new Set(res.body.data.map((s: Stage) => s.id));
    expect((await list(other)).some((s) => mine.has(s.id))).toBe(false);
  });
  it('needs deals:read', async () => {
    const k = await t.key({ scopes: ['people:read'] });
    const res = await h.api.get('/v1/pipeline/stages').set(bearer(k.key));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'deals:read' });
  });
});

describe(`createPipelineStage (${ENGINE})`, () => {
  it('admin only: manager and user get 403 role_not_allowed; deals:write is required', async () => {
    for (const role of ['manager', 'user'] as const) {
      const res = await h.api.post('/v1/pipeline/stages').set(t.auth(role)).send({ label: 'Nope', phase: 'new' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('role_not_allowed');
    }
    const k = await t.key({ role: 'admin', scopes: ['deals:read'] });
    const res = await h.api.post('/v1/pipeline/stages').set(bearer(k.key)).send({ label: 'Nope', phase: 'new' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'deals:write' });
  });

  it('at a position: later stages shift down (their updated_at too); without one: after the last stage of its phase; beyond the end: last', async () => {
    const p = await h.tenant('Positions');
    const before = await list(p);
    h.clock.advance(60_000);
    const res = await h.api.post('/v1/pipeline/stages').set(p.auth()).send({ label: 'Underwriting review', phase: 'submitted', sort_order: 3 });
    expect(res.status).toBe(201);
    const now = h.clock.now().toISOString();
    expect(res.body.data).toMatchObject({ label: 'Underwriting review', phase: 'submitted', sort_order: 3, event: null, created_at: now, updated_at: now });
    const after = await list(p);
    expect(after.map((s) => s.label)).toEqual(['New lead', 'Submitted', 'Underwriting review', 'Offers in', 'Contracts out', 'Funded', 'Dead']);
    expect(after.find((s) => s.label === 'Offers in')!.updated_at).toBe(now);
    expect(after.find((s) => s.label === 'New lead')!.updated_at).toBe(before[0].updated_at);

    const signed = await h.api.post('/v1/pipeline/stages').set(p.auth()).send({ label: 'Contract signed', phase: 'contracts' });
    expect(signed.body.data.sort_order).toBe(6);
    const lost2 = await h.api.post('/v1/pipeline/stages').set(p.auth()).send({ label: 'Disqualified', phase: 'dead', sort_order: 99 });
    expect(lost2.body.data.sort_order).toBe(9);
    expect(await labels(p)).toEqual(['New lead', 'Submitted', 'Underwriting review', 'Offers in', 'Contracts out', 'Contract signed', 'Funded', 'Dead', 'Disqualified']);
  });

  it('event rules: one stage per event; deal_funded only on funded, deal_dead only on dead, and those phases take no other event (400 param event)', async () => {
    const p = await h.tenant('Events');
    const cases: [Record<string, unknown>, string][] = [
      [{ label: 'X', phase: 'contracts', event: 'deal_funded' }, 'event'],
      [{ label: 'X', phase: 'offers', event: 'deal_dead' }, 'event'],
      [{ label: 'X', phase: 'funded', event: 'offer_received' }, 'event'],
      [{ label: 'X', phase: 'dead', event: 'deal_created' }, 'event'],
      [{ label: 'X', phase: 'offers', event: 'offer_received' }, 'event'],
      [{ label: 'X', phase: 'funded', event: 'deal_funded' }, 'event'],
      [{ label: '', phase: 'new' }, 'label'],
      [{ label: '   ', phase: 'new' }, 'label'],
      [{ label: 'X', phase: 'closed' }, 'phase'],
      [{ label: 'X', phase: 'new', event: 'moon_landing' }, 'event'],
    ];
    for (const [body, param] of cases) {
      const res = await h.api.post('/v1/pipeline/stages').set(p.auth()).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param, JSON.stringify(body)).toBe(param);
    }
    expect((await list(p)).length).toBe(6);
    const ok = await h.api.post('/v1/pipeline/stages').set(p.auth()).send({ label: 'Funded (renewal)', phase: 'funded', event: null });
    expect(ok.status).toBe(201);
  });
});

describe(`updatePipelineStage (${ENGINE})`, () => {
  it('renames, moves (stages in between shift), unbinds and rebinds events; deals keep stage_entered_at and no event fires', async () => {
    const p = await h.tenant('Editor');
    const stages = await list(p);
    const biz = (await h.api.post('/v1/businesses').set(p.auth()).send({ legal_name: 'Board Biz' })).body.data.id;
    const deal = (await h.api.post('/v1/deals').set(p.auth()).send({ business_id: biz, stage_id: stages[3].id })).body.data;
    const events = await eventCount(p.locationId);
    h.clock.advance(60_000);
    const renamed = await h.api.patch(`/v1/pipeline/stages/${stages[2].id}`).set(p.auth()).send({ label: 'Offers received' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ label: 'Offers received', sort_order: 3, phase: 'offers', updated_at: h.clock.now().toISOString() });

    const up = await h.api.patch(`/v1/pipeline/stages/${stages[3].id}`).set(p.auth()).send({ sort_order: 1 });
    expect(up.body.data.sort_order).toBe(1);
    expect(await labels(p)).toEqual(['Contracts out', 'New lead', 'Submitted', 'Offers received', 'Funded', 'Dead']);
    const down = await h.api.patch(`/v1/pipeline/stages/${stages[3].id}`).set(p.auth()).send({ sort_order: 3 });
    expect(down.body.data.sort_order).toBe(3);
    expect(await labels(p)).toEqual(['New lead', 'Submitted', 'Contracts out', 'Offers received', 'Funded', 'Dead']);
    const last = await h.api.patch(`/v1/pipeline/stages/${stages[0].id}`).set(p.auth()).send({ sort_order: 50 });
    expect(last.body.data.sort_order).toBe(6);
    expect(await labels(p)).toEqual(['Submitted', 'Contracts out', 'Offers received', 'Funded', 'Dead', 'New lead']);

    const taken = await h.api.patch(`/v1/pipeline/stages/${stages[3].id}`).set(p.auth()).send({ event: 'offer_received' });
    expect(taken.status).toBe(400);
    expect(taken.body.error.param).toBe('event');
    const unbound = await h.api.patch(`/v1/pipeline/stages/${stages[2].id}`).set(p.auth()).send({ event: null });
    expect(unbound.body.data.event).toBeNull();
    const rebound = await h.api.patch(`/v1/pipeline/stages/${stages[3].id}`).set(p.auth()).send({ event: 'offer_received' });
    expect(rebound.status).toBe(200);
    expect(rebound.body.data.event).toBe('offer_received');
    const same = await h.api.patch(`/v1/pipeline/stages/${stages[3].id}`).set(p.auth()).send({ event: 'offer_received' });
    expect(same.status).toBe(200);
    const wrongPhase = await h.api.patch(`/v1/pipeline/stages/${stages[4].id}`).set(p.auth()).send({ event: null });
    expect(wrongPhase.status).toBe(200);
    const badFunded = await h.api.patch(`/v1/pipeline/stages/${stages[4].id}`).set(p.auth()).send({ event: 'deal_dead' });
    expect(badFunded.status).toBe(400);

    const after = (await h.api.get(`/v1/deals/${deal.id}`).set(p.auth())).body.data;
    expect(after.stage_entered_at).toBe(deal.stage_entered_at);
    expect(after.stage).toMatchObject({ id: stages[3].id, sort_order: 2, event: 'offer_received' });
    expect(await eventCount(p.locationId)).toBe(events);
  });

  it('the phase cannot change; empty body is 400; manager 403; another location 404', async () => {
    const stages = await list(t);
    expect((await h.api.patch(`/v1/pipeline/stages/${stages[0].id}`).set(t.auth()).send({ phase: 'dead' })).status).toBe(400);
    expect((await h.api.patch(`/v1/pipeline/stages/${stages[0].id}`).set(t.auth()).send({})).status).toBe(400);
    const manager = await h.api.patch(`/v1/pipeline/stages/${stages[0].id}`).set(t.auth('manager')).send({ label: 'X' });
    expect(manager.status).toBe(403);
    const foreign = await h.api.patch(`/v1/pipeline/stages/${stages[0].id}`).set(other.auth()).send({ label: 'Hijack' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('resource_missing');
    expect((await list(t))[0].label).toBe('New lead');
  });
});
