/**
 * `npm run seed [-- --location loc_...]`: fills a location with a realistic book through the public
 * API itself (an in-process server on a loopback port and the typed client), so every rule, event
 * and activity line is exactly what a partner's calls would produce. Prints one JSON object on
 * stdout and nothing else there: its log (LOG_LEVEL, default warn) goes to stderr, so
 * `npm run --silent seed | jq` and scripts read the result alone.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from '../app';
import { buildDeps } from '../bootstrap';
import { createClient, type ApiClient } from '../client';
import { loadConfig } from '../config';
import { openOperatorDatabase } from '../db/engine';
import { createApiKey, createLocation, createUser } from '../features/accounts/accounts.service';
import { handlers } from '../features/handlers';
import { createLogger } from '../logger';

type Stage = { id: string; phase: string; label: string };

const BUSINESSES = [
  { legal_name: 'Sunrise Bakery LLC', dba: 'Sunrise Bakery', ein: '84-1234567', industry: 'Bakeries', city: 'Denver', state: 'CO', zip: '80202', owner: ['Maria', 'Lopez', '(303) 555-0177'], revenue: 1_020_000 },
  { legal_name: 'Harbor Freight Movers Inc', dba: 'Harbor Movers', ein: '91-2233445', industry: 'Trucking', city: 'Tacoma', state: 'WA', zip: '98402', owner: ['Kevin', 'Osei', '253-555-0133'], revenue: 2_400_000 },
  { legal_name: 'Bella Vista Salon & Spa LLC', dba: 'Bella Vista', ein: '47-5566778', industry: 'Beauty salons', city: 'Scottsdale', state: 'AZ', zip: '85251', owner: ['Priya', 'Nair', '+1 480 555 0119'], revenue: 640_000 },
  { legal_name: 'Copper Kettle Diner Corp', dba: 'Copper Kettle', ein: '36-7788990', industry: 'Restaurants', city: 'Columbus', state: 'OH', zip: '43215', owner: ['Tom', 'Becker', '614.555.0160'], revenue: 880_000 },
  { legal_name: 'Greenline Landscaping LLC', dba: null, ein: '58-1122334', industry: 'Landscaping', city: 'Raleigh', state: 'NC', zip: '27601', owner: ['Luis', 'Ortega', '9195550144'], revenue: 1_350_000 },
  { legal_name: 'Northstar Auto Repair LLC', dba: 'Northstar Auto', ein: '27-9988776', industry: 'Auto repair', city: 'Minneapolis', state: 'MN', zip: '55401', owner: ['Anna', 'Lindqvist', '612-555-0190'], revenue: 1_150_000 },
  { legal_name: 'Blue Ridge Dental Group PC', dba: 'Blue Ridge Dental', ein: '54-4455667', industry: 'Dentists', city: 'Asheville', state: 'NC', zip: '28801', owner: ['Samuel', 'Grant', '828-555-0111'], revenue: 2_900_000 },
  { legal_name: 'Lakeside Fitness Studio LLC', dba: 'Lakeside Fit', ein: '39-3344556', industry: 'Fitness', city: 'Madison', state: 'WI', zip: '53703', owner: ['Jenna', 'Cho', '608-555-0175'], revenue: 520_000 },
] as const;

const LENDERS = [
  { name: 'Atlas Capital', submission_email: 'submissions@atlascapital.example', tier: 'A' },
  { name: 'Brightline Funding', submission_email: 'deals@brightline.example', tier: 'A' },
  { name: 'Cobalt Merchant Funding', submission_email: null, tier: 'B' },
  { name: 'Summit Revenue Partners', submission_email: 'uw@summitrevenue.example', tier: 'B' },
  { name: 'Keystone Advance Co', submission_email: 'new@keystoneadvance.example', tier: 'C' },
] as const;

async function must<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
  const r = await p;
  if (r.error || !r.data) throw new Error(`${what} failed (${r.response.status}): ${JSON.stringify(r.error)}`);
  return r.data;
}

async function seed(api: ApiClient, clockDays: (n: number) => string) {
  const stages = (await must(api.GET('/v1/pipeline/stages'), 'list stages')).data as Stage[];
  const byPhase = (phase: string) => stages.find((s) => s.phase === phase)!;

  const lenders = [];
  for (const l of LENDERS) {
    lenders.push((await must(api.POST('/v1/lenders', { body: { name: l.name, submission_email: l.submission_email ?? undefined, tier: l.tier } }), `lender ${l.name}`)).data);
  }

  const counts = { businesses: 0, people: 0, deals: 0, offers: 0, advances: 0, notes: 0, tasks: 0, lenders: lenders.length };
  // Stage plan per business: two funded (with advances at different payment levels), and one deal in each other phase.
  const plan = ['funded', 'funded', 'offers', 'contracts', 'submitted', 'new', 'dead', 'funded'] as const;
  const paidShare = [0.4, 0.62, 0, 0, 0, 0, 0, 1];

  for (const [i, b] of BUSINESSES.entries()) {
    const biz = (await must(api.POST('/v1/businesses', { body: { legal_name: b.legal_name, dba: b.dba ?? undefined, ein: b.ein, entity_type: 'llc', industry: b.industry, city: b.city, state: b.state, zip: b.zip, business_start_date: `${2010 + i}-0${(i % 9) + 1}-01`, tags: i % 2 ? ['repeat-client'] : ['new-client'] } }), 'business')).data;
    counts.businesses++;
    const [first, last, phone] = b.owner;
    (await must(api.POST('/v1/people', { body: { first_name: first, last_name: last, phone, email: `${first.toLowerCase()}@${b.legal_name.split(' ')[0].toLowerCase()}.example`, credit_score: String(640 + i * 12), business_id: biz.id, role: 'owner', ownership_percent: 100 - (i % 2) * 25 } }), 'owner')).data;
    counts.people++;
    if (i % 2) {
      await must(api.POST('/v1/people', { body: { first_name: 'Chris', last_name: last, business_id: biz.id, role: 'co-owner', ownership_percent: 25 } }), 'co-owner');
      counts.people++;
    }
    const phase = plan[i];
    const deal = (await must(api.POST('/v1/deals', { body: { business_id: biz.id, requested_amount: Math.round(b.revenue * 0.08 / 1000) * 1000, annual_revenue: b.revenue, use_of_funds: 'Working capital and equipment', product_type: 'mca', desired_term_months: 9, desired_frequency: 'daily', source: 'api', lead_source: 'partner_referral', owner: { first_name: first, last_name: last } } }), 'deal')).data;
    counts.deals++;
    await must(api.POST('/v1/deals/{id}/notes', { params: { path: { id: deal.id } }, body: { body: `Spoke with ${first}: ${b.industry.toLowerCase()} business, steady deposits, wants funds within two weeks.` } }), 'note');
    counts.notes++;
    await must(api.POST('/v1/deals/{id}/tasks', { params: { path: { id: deal.id } }, body: { title: 'Collect last 3 months of bank statements', due_date: clockDays(3) } }), 'task');
    counts.tasks++;
    if (phase === 'new') continue;
    if (phase === 'dead') {
      await must(api.POST('/v1/deals/{id}/dead', { params: { path: { id: deal.id } }, body: { reason: 'Merchant went with a bank line of credit' } }), 'dead');
      continue;
    }
    await must(api.POST('/v1/deals/{id}/stage', { params: { path: { id: deal.id } }, body: { stage_id: byPhase('submitted').id } }), 'stage submitted');
    if (phase === 'submitted') continue;
    const amount = deal.requested_amount ?? 50_000;
    const offers = [];
    for (const [j, lender] of lenders.slice(0, 2).entries()) {
      offers.push((await must(api.POST('/v1/deals/{id}/offers', { params: { path: { id: deal.id } }, body: { lender_id: lender.id, amount, factor_rate: j ? 1.42 : 1.35, term: 180, term_unit: 'days', payment_frequency: 'daily' } }), 'offer')).data);
      counts.offers++;
    }
    await must(api.POST('/v1/offers/{id}/primary', { params: { path: { id: offers[0].id } } }), 'primary');
    await must(api.POST('/v1/deals/{id}/stage', { params: { path: { id: deal.id } }, body: { stage_id: byPhase('offers').id } }), 'stage offers');
    if (phase === 'offers') continue;
    await must(api.PATCH('/v1/offers/{id}', { params: { path: { id: offers[0].id } }, body: { status: 'accepted' } }), 'accept');
    await must(api.POST('/v1/deals/{id}/stage', { params: { path: { id: deal.id } }, body: { stage_id: byPhase('contracts').id } }), 'stage contracts');
    if (phase === 'contracts') continue;
    const advance = (await must(api.POST('/v1/deals/{id}/fund', { params: { path: { id: deal.id } }, body: { offer_id: offers[0].id } }), 'fund')).data;
    counts.advances++;
    const share = paidShare[i];
    if (share > 0) {
      const paid = Math.round(advance.payback_amount * share * 100) / 100;
      await must(api.PATCH('/v1/advances/{id}', { params: { path: { id: advance.id } }, body: { paid_amount: paid, payments_made: Math.round(advance.payments_expected * share) } }), 'payments');
    }
  }
  return counts;
}

async function main() {
  const { values } = parseArgs({ options: { location: { type: 'string' } } });
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 'stderr');
  // While `npm start` runs on the embedded database, this goes through that server's operator socket.
  const db = await openOperatorDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const deps = await buildDeps(config, logger, { db });
  const knex = deps.db.knex;
  try {
    const loc = values.location ? await knex('locations').where({ id: values.location }).first() : await createLocation(knex, deps.clock, { name: 'Demo brokerage', isTest: true });
    if (!loc) throw new Error(`No location ${values.location}`);
    const admin = await createUser(knex, deps.clock, { locationId: loc.id, name: 'Seed Admin', email: `seed-admin-${Date.now()}@demo.example`, role: 'admin' });
    const key = await createApiKey(knex, deps.clock, { locationId: loc.id, name: 'Seed key', role: 'admin', userId: admin.id });
    const server = createApp(deps, handlers).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const api = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key.key });
    const day = (n: number) => new Date(deps.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
    try {
      const counts = await seed(api, day);
      process.stdout.write(`${JSON.stringify({ location_id: loc.id, api_key: key.key, ...counts })}\n`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  } finally {
    await deps.db.close();
  }
}

main().catch((err) => {
  process.stderr.write(`Seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
