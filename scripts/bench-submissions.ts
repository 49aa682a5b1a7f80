/**
 * `npx tsx scripts/bench-submissions.ts [--lenders 50] [--engine pglite|pg]`: a benchmark, not a test.
 *
 * The time to send one deal to N lenders by email with packages, end to end: the submission request
 * (records, match snapshots, N emails queued in one transaction), then the worker building each
 * package and sending it through the location's mailbox to a real SMTP server on loopback, until the
 * last submission is `sent`. Runs in one process on a fresh embedded database (default) or a scratch
 * PostgreSQL database.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { buildDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLocation, createUser } from '../src/features/accounts/accounts.service';
import { createBusiness } from '../src/features/businesses/businesses.service';
import { createDeal } from '../src/features/deals/deals.service';
import { createLender } from '../src/features/lenders/lenders.service';
import { createDealSubmissions } from '../src/features/submissions/submissions.service';
import { registerAllJobs } from '../src/background';
import { Worker } from '../src/jobs/worker';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/logger';
import { setMailbox } from '../src/mail/mailbox';
import { log, scratchDatabase } from './bench-kit';

const { values: args } = parseArgs({ options: { lenders: { type: 'string', default: '50' }, engine: { type: 'string', default: 'pglite' } } });
const N = Number(args.lenders);

async function main(): Promise<void> {
  const { db, drop: dropPg } = await scratchDatabase(args.engine!, 'svc_bench_sub');
  let received = 0;
  let bytes = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 60 * 1024 * 1024,
    onData(stream, _session, cb) {
      stream.on('data', (c: Buffer) => (bytes += c.length));
      stream.on('end', () => {
        received++;
        cb();
      });
    },
  });
  const port = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)));
  try {
    registerAllJobs();
    const config = { ...loadConfig({ NODE_ENV: 'test' }), secretKey: 'bench-submissions-secret-key-0123456789' };
    const deps = await buildDeps(config, createLogger('silent'), { db, clock: systemClock });
    const knex = deps.db.knex;
    const loc = await createLocation(knex, systemClock, { name: 'Bench Brokers', isTest: true });
    const user = await createUser(knex, systemClock, { locationId: loc.id, name: 'Bench Admin', email: 'admin@bench.example', role: 'admin' });
    const scope = { locationId: loc.id, locationIsTest: true, role: 'admin' as const, userId: user.id, scopes: [] };
    await setMailbox(knex, deps.secrets, systemClock, { locationId: loc.id, smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Bench Deals <deals@bench.example>' });
    const biz = await createBusiness(deps, scope, { legal_name: 'Sunrise Bakery LLC', dba: 'Sunrise Bakery', industry: 'Bakeries', state: 'CO', ein: '841234567' } as never);
    const deal = await createDeal(deps, scope, { business_id: biz.id, requested_amount: 75000 } as never);
    const lenderIds: string[] = [];
    for (let i = 0; i < N; i++) lenderIds.push((await createLender(deps, scope, { name: `Lender ${i}`, submission_email: `subs${i}@lender${i}.example`, cc_emails: [`uw${i}@lender${i}.example`] } as never)).id);
    const worker = new Worker(deps, { concurrency: 8 });

    const t0 = performance.now();
    const res = await createDealSubmissions(deps, scope, deal.id, { lender_ids: lenderIds });
    const tRequest = performance.now() - t0;
    await worker.drain();
    const tDone = performance.now() - t0;
    const sent = Number((await knex('submissions').where({ deal_id: deal.id, status: 'sent' }).count<{ c: number }[]>('* as c'))[0].c);
    await worker.close();
    const rss = process.memoryUsage().rss / 1024 / 1024;
    process.stdout.write(
      `engine ${args.engine}: ${res.data.length} submissions queued in ${tRequest.toFixed(0)} ms; ` +
        `${received} emails with packages accepted by the SMTP server and ${sent}/${N} submissions sent after ${(tDone / 1000).toFixed(2)} s ` +
        `(${(tDone / N).toFixed(0)} ms per lender, ${(bytes / 1024 / 1024).toFixed(1)} MB of mail); RSS ${rss.toFixed(0)} MB\n`,
    );
    await db.close();
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await dropPg();
  }
}

main().catch((err) => {
  log(`bench-submissions failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
