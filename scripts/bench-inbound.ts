/**
 * `npx tsx scripts/bench-inbound.ts [--replies 200] [--engine pglite|pg] [--concurrency 4]`: a
 * benchmark, not a test.
 *
 * Lender replies processed end to end by the service the HTTP endpoint and the SMTP listener call:
 * parse (mailparser), store the raw message, match by the Reply-To trace code, classify, record the
 * submission's answer and log the offer, all in one transaction per reply. One reply per submission
 * (an approval with terms in prose and a quoted thread), then the 97-message fixture corpus
 * (nothing matches: parse, classify and store only). Fresh embedded database (default) or a scratch
 * PostgreSQL database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import MailComposer from 'nodemailer/lib/mail-composer';
import { EML_DIR, loadManifest } from '../contract-tests/fixtures/replies/evaluate';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLocation, createUser } from '../src/features/accounts/accounts.service';
import { createBusiness } from '../src/features/businesses/businesses.service';
import { createDeal } from '../src/features/deals/deals.service';
import { receiveInboundEmail } from '../src/features/inbound/inbound.service';
import { createLender } from '../src/features/lenders/lenders.service';
import { createDealSubmissions } from '../src/features/submissions/submissions.service';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { setMailbox } from '../src/mail/mailbox';
import { log, scratchDatabase } from './bench-kit';

const { values: args } = parseArgs({
  options: { replies: { type: 'string', default: '200' }, engine: { type: 'string', default: 'pglite' }, concurrency: { type: 'string', default: '4' } },
});
const N = Number(args.replies);
const CONCURRENCY = args.engine === 'pg' ? Number(args.concurrency) : 1;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(items: Buffer[], fn: (raw: Buffer) => Promise<unknown>): Promise<{ ms: number; each: number[] }> {
  const each: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < items.length; i = next++) {
        const s = performance.now();
        await fn(items[i]);
        each.push(performance.now() - s);
      }
    }),
  );
  return { ms: performance.now() - t0, each: each.sort((a, b) => a - b) };
}

async function main(): Promise<void> {
  const { db, drop: dropPg } = await scratchDatabase(args.engine!, 'svc_bench_inb');
  try {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-inbound-secret-key-0123456789abc' };
    const deps = await buildDeps(config, createLogger('silent'), { db, clock: systemClock });
    const knex = deps.db.knex;
    const loc = await createLocation(knex, systemClock, { name: 'Bench Brokers', isTest: true });
    const user = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const scope = { locationId: loc.id, locationIsTest: true, role: 'admin' as const, userId: user.id, scopes: [] };
    // Submissions only need their trace codes here: the emails stay queued (no worker runs).
    await setMailbox(knex, deps.secrets, systemClock, { locationId: loc.id, smtpUrl: 'smtp://127.0.0.1:9', from: 'Bench Deals <deals@bench.example>' });
    const subs: { id: string; lender: number }[] = [];
    for (let d = 0; d * 50 < N; d++) {
      const biz = await createBusiness(deps, scope, { legal_name: `Bakery ${d} LLC` } as never);
      const deal = await createDeal(deps, scope, { business_id: biz.id, requested_amount: 75000 } as never);
      const lenderIds: string[] = [];
      for (let i = 0; i < Math.min(50, N - d * 50); i++) {
        lenderIds.push((await createLender(deps, scope, { name: `Lender ${d}-${i}`, submission_email: `subs@lender${d}x${i}.example` } as never)).id);
      }
      const res = await createDealSubmissions(deps, scope, deal.id, { lender_ids: lenderIds });
      res.data.forEach((s, i) => subs.push({ id: s.id, lender: d * 50 + i }));
    }
    const codes = new Map((await knex('submissions').whereIn('id', subs.map((s) => s.id)).select('id', 'trace_code')).map((r: { id: string; trace_code: string }) => [r.id, r.trace_code]));
    const replies = await Promise.all(
      subs.map((s, i) => {
        const d = Math.floor(s.lender / 50);
        const tag = codes.get(s.id)!.replace(/-/g, '').toLowerCase();
        return new MailComposer({
          from: `Underwriting <uw@lender${d}x${s.lender % 50}.example>`, to: `deals+${tag}@bench.example`, subject: 'RE: New submission',
          messageId: `<bench-${i}-${Date.now()}@lender.example>`,
          text: `Approved! We can do $${60 + (i % 30)},000 at a 1.3${i % 10} factor, ${120 + (i % 60)} days, daily payments.\n\nOn Mon, Bench Deals wrote:\n> Please find attached a new funding request for $75,000.\n> Reference in the package.`,
        }).compile().build();
      }),
    );

    const matched = await run(replies, (raw) => receiveInboundEmail(deps, loc.id, raw));
    const processed = Number((await knex('inbound_emails').where({ location_id: loc.id, status: 'processed' }).count<{ c: number }[]>('* as c'))[0].c);
    const offers = Number((await knex('offers').where({ location_id: loc.id, source: 'email_classifier' }).count<{ c: number }[]>('* as c'))[0].c);
    const corpus = loadManifest().map((m) => readFileSync(join(EML_DIR, m.file)));
    const other = await createLocation(knex, systemClock, { name: 'Corpus', isTest: true });
    const unmatched = await run(corpus, (raw) => receiveInboundEmail(deps, other.id, raw));
    const rss = process.memoryUsage().rss / 1024 / 1024;
    process.stdout.write(
      `engine ${args.engine}, concurrency ${CONCURRENCY}: ${N} replies matched, classified and applied in ${(matched.ms / 1000).toFixed(2)} s ` +
        `(${((N * 1000) / matched.ms).toFixed(0)}/s; per reply p50 ${pct(matched.each, 50).toFixed(1)} ms, p95 ${pct(matched.each, 95).toFixed(1)} ms); ` +
        `${processed}/${N} processed, ${offers} offers logged\n` +
        `corpus: ${corpus.length} fixture replies parsed, classified and stored in ${(unmatched.ms / 1000).toFixed(2)} s ` +
        `(p50 ${pct(unmatched.each, 50).toFixed(1)} ms, p95 ${pct(unmatched.each, 95).toFixed(1)} ms, max ${unmatched.each.at(-1)!.toFixed(1)} ms); RSS ${rss.toFixed(0)} MB\n`,
    );
    await db.close();
  } finally {
    await dropPg();
  }
}

main().catch((err) => {
  log(`bench-inbound failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
