/**
 * `npm run bench:search [-- --deals 100000 --runs 200 --engine pg|pglite]`: a benchmark, not a test.
 *
 * Deal search and the filtered lists of issue 29 on a location with 100,000 deals (each with its own
 * business and owner), 150,000 submissions to 20 lenders and about 16,700 offers, next to a second
 * location of 10,000 deals that must never be read. Seeded in SQL (the migration's triggers fill the
 * search columns as for any insert), ANALYZEd, then each query is run through the services the API
 * handlers call (the page's SQL and the six context queries of a deal page), after a warm-up, and
 * p50/p95 reported. Default engine: a scratch PostgreSQL database, dropped at the end.
 */
import { parseArgs } from 'node:util';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLocation, createUser } from '../src/features/accounts/accounts.service';
import { listDeals } from '../src/features/deals/deals.service';
import { listOffers } from '../src/features/offers/offers.service';
import { listSubmissions } from '../src/features/submissions/submissions.service';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { log, scratchDatabase } from './bench-kit';

const { values: args } = parseArgs({
  options: { explain: { type: 'boolean', default: false }, deals: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' }, engine: { type: 'string', default: 'pg' } },
});
const N = Number(args.deals);
const RUNS = Number(args.runs);

const ADJ = 'Amber Apex Atlas Bay Bright Blue Cedar Copper Crest Crown Delta Eagle Elm Ember First Fox Golden Granite Green Harbor Iron Ivy Jade Key Lake Liberty Lucky Maple Metro Mill Noble North Oak Ocean Old Pacific Peak Pine Pioneer Prairie Prime Quartz Rapid Red River Rock Royal Sage Silver Star Stone Summit Sun Swift Union Valley Vista West Willow'.split(' ');
const NOUN = 'Auto Bakery Barber Bistro Books Builders Cafe Cleaners Clinic Coffee Construction Dental Diner Electric Fitness Florist Foods Freight Garage Grill Hardware Heating Kitchen Landscaping Laundry Logistics Market Motors Nails Optical Painting Pantry Pets Pharmacy Pizza Plumbing Print Roofing Salon Spa Supply Tacos Tailor Tire Tools Transport Travel Trucking Upholstery Vet Wellness Wine Yoga'.split(' ');
const KIND = 'Group|Partners|Services|Company|Holdings|& Sons|Brothers|Express|Works|Shop|Studio|Center|Depot|House|Co-op|Outlet|Plus|Pros|Hub|Corner'.split('|');
const SUFFIX = ['LLC', 'Inc', 'Corp', 'LLC', 'Ltd'];
const FIRST = 'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Carlos Karen Daniel Lisa Matthew Nancy Anthony Betty Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa George Deborah Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Amy Jacob Kathleen Gary Angela Nicholas Shirley Eric Brenda Jonathan Emma Stephen Anna Larry Pamela Justin Nicole Scott Samantha Brandon Katherine Benjamin Christine Samuel Helen Gregory Debra Alexander Rachel Frank Carolyn Patrick Janet Raymond Maria Jack Olivia Dennis Heather'.split(' ');
const LAST_A = 'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson'.split(' ');
const LAST_B = ['', 'son', 'field', 'ton', 'well', 'berg', 'ford', 'wood', 'ley', 'man'];

interface Stat { name: string; p50: number; p95: number; max: number; rows: number }

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

let seed = 0x29b;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

async function main(): Promise<void> {
  const { db, drop } = await scratchDatabase(args.engine!, 'svc_bench_search');
  try {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-search-secret-key-0123456789abcdef' };
    const deps = await buildDeps(config, createLogger('silent'), { db, clock: systemClock });
    const knex = deps.db.knex;
    const loc = await createLocation(knex, systemClock, { name: 'Bench Brokers', isTest: true });
    const loc2 = await createLocation(knex, systemClock, { name: 'Other Brokers', isTest: true });
    const user = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const scope = { locationId: loc.id, locationIsTest: true, role: 'admin' as const, userId: user.id, scopes: [] };

    const t0 = performance.now();
    const now = Date.now();
    const lenders: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = `lnd_BENCH${String(i).padStart(21, '0')}`;
      lenders.push(id);
      await knex('lenders').insert({ id, location_id: loc.id, name: `Lender ${i}`, created_at: new Date(now), updated_at: new Date(now) });
    }
    await knex('lenders').insert({ id: 'lnd_BENCHOTHER000000000000000', location_id: loc2.id, name: 'Other lender', created_at: new Date(now), updated_at: new Date(now) });
    const seedLocation = async (locationId: string, from: number, count: number, lenderSql: string, subsPerDeal: number) => {
      const stage = await knex('pipeline_stages').where({ location_id: locationId }).orderBy('sort_order').first('id');
      const words = { adj: ADJ, noun: NOUN, kind: KIND, suffix: SUFFIX, first: FIRST, lasta: LAST_A, lastb: LAST_B };
      const arr = (xs: string[]) => knex.raw('?::text[]', [xs]);
      // g -> business and owner: names from word lists (a name fragment matches a handful of deals, a last name ~300), unique EIN, phones and email.
      await knex.raw(
        `INSERT INTO businesses (id, location_id, legal_name, dba, ein, phone, email, status, tags, custom_data, created_at, updated_at)
         SELECT 'biz_BENCH' || lpad(g::text, 21, '0'), :loc,
           a[1 + (g * 7) % cardinality(a)] || ' ' || n[1 + (g * 13) % cardinality(n)] || ' ' || k[1 + (g / 7) % cardinality(k)] || ' ' || s[1 + g % cardinality(s)],
           CASE WHEN g % 3 = 0 THEN n[1 + (g * 13) % cardinality(n)] || ' by ' || a[1 + (g * 11) % cardinality(a)] END,
           substr(lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0'), 1, 2) || '-' || substr(lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0'), 3),
           '1' || (201 + g % 700)::text || lpad(((g::bigint * 104729) % 10000000)::text, 7, '0'),
           'office' || g || '@biz' || (g % 97) || '.example', 'active', '[]', '{}',
           to_timestamp(${now} / 1000.0) - ((${from + count} - g) * interval '5 minutes'), to_timestamp(${now} / 1000.0) - ((${from + count} - g) * interval '5 minutes')
         FROM generate_series(${from + 1}, ${from + count}) g, (SELECT :adj::text[] a, :noun::text[] n, :kind::text[] k, :suffix::text[] s) w`,
        { loc: locationId, adj: arr(words.adj), noun: arr(words.noun), kind: arr(words.kind), suffix: arr(words.suffix) },
      );
      await knex.raw(
        `INSERT INTO deals (id, location_id, business_id, requested_amount, product_type, status, stage_id, stage_entered_at, owner, risk_flags, form_data, manually_closed, created_by_user_id, created_at, updated_at)
         SELECT 'deal_BENCH' || lpad(g::text, 21, '0'), :loc, 'biz_BENCH' || lpad(g::text, 21, '0'), 10000 + (g % 50) * 5000, 'mca',
           (ARRAY['open','open','open','open','open','open','open','open','funded','dead'])[1 + g % 10], :stage,
           to_timestamp(${now} / 1000.0) - ((${from + count} - g) * interval '5 minutes'),
           jsonb_build_object('first_name', f[1 + (g * 17) % cardinality(f)], 'last_name', la[1 + (g * 3) % cardinality(la)] || lb[1 + (g / 30) % cardinality(lb)],
             'email', lower(f[1 + (g * 17) % cardinality(f)]) || '.' || g || '@mail' || (g % 31) || '.example',
             'phone', '1' || (300 + g % 600)::text || lpad(((g::bigint * 15485863) % 10000000)::text, 7, '0')),
           '{}', '{}', false, :user,
           to_timestamp(${now} / 1000.0) - ((${from + count} - g) * interval '5 minutes'),
           to_timestamp(${now} / 1000.0) - ((${from + count} - g) * interval '5 minutes') + ((g % 40) * interval '1 day')
         FROM generate_series(${from + 1}, ${from + count}) g, (SELECT :first::text[] f, :lasta::text[] la, :lastb::text[] lb) w`,
        { loc: locationId, stage: stage.id, user: locationId === loc.id ? user.id : null, first: arr(words.first), lasta: arr(words.lasta), lastb: arr(words.lastb) },
      );
      // Every other deal went to three lenders; every sixth has an offer.
      await knex.raw(
        `INSERT INTO submissions (id, location_id, deal_id, lender_id, status, submission_method, response_type, requested_items, created_at, updated_at)
         SELECT 'sub_BENCH' || lpad(g::text, 20, '0') || j, :loc, 'deal_BENCH' || lpad(g::text, 21, '0'), ${lenderSql},
           (ARRAY['sent','approved','declined','needs_info','sent'])[1 + (g + j) % 5],
           'email', (ARRAY[NULL,'approved','declined','more_info',NULL])[1 + (g + j) % 5], '[]',
           d.created_at + (j * interval '1 hour'), d.created_at + (j * interval '1 hour') + ((g % 5) * interval '1 day')
         FROM generate_series(${from + 1}, ${from + count}) g JOIN deals d ON d.id = 'deal_BENCH' || lpad(g::text, 21, '0'), generate_series(0, ${subsPerDeal - 1}) j
         WHERE g % 2 = 0`,
        { loc: locationId },
      );
      await knex.raw(
        `INSERT INTO offers (id, location_id, deal_id, lender_id, amount, factor_rate, term, term_unit, payment_amount, payment_frequency, payback_amount, status, source, received_at, created_at, updated_at)
         SELECT 'ofr_BENCH' || lpad(g::text, 21, '0'), :loc, 'deal_BENCH' || lpad(g::text, 21, '0'), ${lenderSql.replace(/j\b/g, '0')},
           50000, 1.35, 180, 'days', 375, 'daily', 67500, (ARRAY['pending','accepted','declined','expired','withdrawn'])[1 + (g / 6) % 5], 'api',
           d.created_at + interval '1 day', d.created_at + interval '1 day', d.created_at + interval '2 days'
         FROM generate_series(${from + 1}, ${from + count}) g JOIN deals d ON d.id = 'deal_BENCH' || lpad(g::text, 21, '0')
         WHERE g % 6 = 0`,
        { loc: locationId },
      );
    };
    await seedLocation(loc.id, 0, N, `(ARRAY[${lenders.map((l) => `'${l}'`).join(',')}])[1 + (g + j * 7) % 20]`, 3);
    await seedLocation(loc2.id, N, Math.round(N / 10), `'lnd_BENCHOTHER000000000000000'`, 1);
    await knex.raw('ANALYZE');
    const counts = async (table: string) => Number((await knex(table).count<{ c: number }[]>('* as c'))[0].c);
    log(`seeded ${await counts('deals')} deals, ${await counts('submissions')} submissions, ${await counts('offers')} offers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Search terms taken from the seeded rows, so each finds what a broker would look for.
    const sample = async () => {
      const g = 1 + Math.floor(rnd() * N);
      return knex('deals as d').join('businesses as b', 'b.id', 'd.business_id').where('d.id', `deal_BENCH${String(g).padStart(21, '0')}`)
        .first('b.legal_name', 'b.phone', 'b.ein', 'd.owner');
    };
    const kinds: Record<string, () => Promise<string>> = {
      'legal name fragment': async () => (await sample()).legal_name.split(' ').slice(0, 2).join(' ').toLowerCase(),
      'owner full name': async () => { const o = (await sample()).owner; return `${o.first_name} ${o.last_name}`; },
      'owner email': async () => (await sample()).owner.email.split('@')[0],
      'business phone (formatted)': async () => { const p = (await sample()).phone as string; return `(${p.slice(1, 4)}) ${p.slice(4, 7)}-${p.slice(7)}`; },
      'owner phone, last 7 digits': async () => (await sample()).owner.phone.slice(-7),
      'EIN last four': async () => (await sample()).ein.slice(-4),
      'common word ("llc")': async () => 'llc',
      'no match': async () => `zq${Math.floor(rnd() * 1e6)}x`,
    };
    if (args.explain) {
      // The plan of each kind's search page (EXPLAIN ANALYZE of the query listDeals runs), to see the indexes used.
      const { dealsQuery, whereDealSearch } = await import('../src/features/deals/deals.repository');
      for (const [kind, term] of Object.entries(kinds)) {
        const q = dealsQuery(knex, scope).select('deals.*');
        whereDealSearch(q, await term());
        q.orderBy([{ column: 'deals.created_at', order: 'desc' }, { column: 'deals.id', order: 'desc' }]).limit(26);
        const { sql, bindings } = q.toSQL();
        const plan = (await knex.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        process.stdout.write(`--- ${kind}\n${plan}\n`);
      }
    }
    const stats: Stat[] = [];
    const measure = async (name: string, run: () => Promise<{ data: unknown[] }>, runs = RUNS) => {
      for (let i = 0; i < Math.min(20, runs); i++) await run();
      const ms: number[] = [];
      let rows = 0;
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        rows += (await run()).data.length;
        ms.push(performance.now() - s);
      }
      stats.push({ name, p50: pct(ms, 50), p95: pct(ms, 95), max: Math.max(...ms), rows: rows / runs });
      return ms;
    };
    const allSearch: number[] = [];
    for (const [kind, term] of Object.entries(kinds)) {
      const terms: string[] = [];
      for (let i = 0; i < RUNS; i++) terms.push(await term());
      let i = 0;
      allSearch.push(...(await measure(`search: ${kind}`, () => listDeals(deps, scope, { search: terms[i++ % terms.length] }))));
    }
    stats.push({ name: 'search: all kinds together', p50: pct(allSearch, 50), p95: pct(allSearch, 95), max: Math.max(...allSearch), rows: NaN });
    // The search's own query (the page of deal rows, before the deal context every deal page reads),
    // and an unfiltered page for the cost of that context alone.
    {
      const { dealsQuery, whereDealSearch } = await import('../src/features/deals/deals.repository');
      const terms: string[] = [];
      for (const term of Object.values(kinds)) for (let i = 0; i < RUNS / 4; i++) terms.push(await term());
      let i = 0;
      await measure('search: page query only, all kinds', async () => {
        const q = dealsQuery(knex, scope).select('deals.*');
        whereDealSearch(q, terms[i++ % terms.length]);
        return { data: await q.orderBy([{ column: 'deals.created_at', order: 'desc' }, { column: 'deals.id', order: 'desc' }]).limit(26) };
      }, terms.length);
      // The same queries' execution inside PostgreSQL (EXPLAIN ANALYZE's Execution Time): the database's
      // share, without the round trip and the client's scheduling (which a loaded machine inflates).
      if (args.engine === 'pg') {
        const exec: number[] = [];
        for (const term of terms) {
          const q = dealsQuery(knex, scope).select('deals.*');
          whereDealSearch(q, term);
          const { sql, bindings } = q.orderBy([{ column: 'deals.created_at', order: 'desc' }, { column: 'deals.id', order: 'desc' }]).limit(26).toSQL();
          const plan = (await knex.raw(`EXPLAIN (ANALYZE, TIMING OFF) ${sql}`, bindings)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
          exec.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)![1]));
        }
        stats.push({ name: 'search: execution in PostgreSQL, all kinds', p50: pct(exec, 50), p95: pct(exec, 95), max: Math.max(...exec), rows: NaN });
      }
    }
    await measure('deals: no filter (the deal context of a page)', () => listDeals(deps, scope, {}));
    const iso = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString();
    const page2 = async (run: (cursor?: string) => Promise<{ data: unknown[]; meta: { next_cursor: string | null } }>) => {
      const first = await run();
      return () => run(first.meta.next_cursor ?? undefined);
    };
    await measure('deals: status funded', () => listDeals(deps, scope, { status: 'funded' }));
    await measure('deals: created in a 30-day window', () => listDeals(deps, scope, { created_after: iso(200), created_before: iso(170) }));
    await measure('deals: updated_after 3 days ago', () => listDeals(deps, scope, { updated_after: iso(3) }));
    await measure('deals: search + status open, page 2', await page2((cursor) => listDeals(deps, scope, { search: 'smith', status: 'open', cursor })));
    await measure('submissions: all, newest first', () => listSubmissions(deps, scope, {}));
    await measure('submissions: status approved', () => listSubmissions(deps, scope, { status: 'approved' }));
    await measure('submissions: lender + response declined', () => listSubmissions(deps, scope, { lender_id: lenders[3], response_type: 'declined' }));
    await measure('submissions: lender, 7-day window', () => listSubmissions(deps, scope, { lender_id: lenders[5], created_after: iso(60), created_before: iso(53) }));
    await measure('submissions: status approved, page 2', await page2((cursor) => listSubmissions(deps, scope, { status: 'approved', cursor })));
    await measure('offers: all, newest first', () => listOffers(deps, scope, {}));
    await measure('offers: status pending', () => listOffers(deps, scope, { status: 'pending' }));
    await measure('offers: lender, 30-day window', () => listOffers(deps, scope, { lender_id: lenders[2], created_after: iso(120), created_before: iso(90) }));

    const w = Math.max(...stats.map((s) => s.name.length));
    process.stdout.write(`engine ${args.engine}, ${N} deals, ${RUNS} runs per line (limit 25, through the services):\n`);
    for (const s of stats) {
      process.stdout.write(`  ${s.name.padEnd(w)}  p50 ${s.p50.toFixed(1).padStart(6)} ms  p95 ${s.p95.toFixed(1).padStart(6)} ms  max ${s.max.toFixed(1).padStart(6)} ms${Number.isNaN(s.rows) ? '' : `  rows/page ${s.rows.toFixed(1)}`}\n`);
    }
    await db.close();
  } finally {
    await drop();
  }
}

main().catch((err) => {
  log(`bench-search failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
