/**
 * The benchmark's reference: a bare Express route per scenario that runs exactly the SQL the API's
 * handler ran for it (captured by scripts/bench.ts from the real server) on a pool of the same size,
 * and answers the rows as JSON; for the idempotent create, the rows it writes (business, outbox
 * event, activity line, idempotency record) in one transaction. No auth, no rate limit, no
 * validation, no mapping: the floor the API's pipeline is measured against. Started by `npm run bench`; not part of the product.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import { openDatabase } from '../src/db/engine';
import { newEventId, newId } from '../src/lib/ids';

interface Captured {
  sql: string;
  bindings: unknown[];
}
const plan = JSON.parse(readFileSync(process.env.BENCH_PLAN!, 'utf8')) as { reads: Record<string, Captured[]>; locationId: string };
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '' });
const knex = db.knex;

const app = express();
app.use(express.json());
for (const [name, statements] of Object.entries(plan.reads)) {
  app.get(`/${name}`, async (_req, res) => {
    let rows: unknown = [];
    for (const s of statements) rows = (await knex.raw(s.sql, s.bindings as never)).rows;
    res.json({ data: rows });
  });
}
// What the idempotent create writes, bare: the business, its outbox event, its activity line and the
// idempotency record, in one transaction (no claim, no sealing, no mapping).
app.post('/create', async (req, res) => {
  const now = new Date();
  const legalName = String(req.body.legal_name);
  const row = { id: newId('biz', now.getTime()), location_id: plan.locationId, legal_name: legalName, status: 'active', tags: '[]', custom_data: '{}', created_at: now, updated_at: now };
  const body = { data: { ...row, tags: [], custom_data: {} } };
  await knex.transaction(async (trx) => {
    await trx('businesses').insert(row);
    await trx('events').insert({ id: newEventId(), type: 'business.created', location_id: plan.locationId, data: JSON.stringify({ business_id: row.id, business: { id: row.id, legal_name: legalName } }), created_at: now });
    await trx('activities').insert({
      id: newId('act', now.getTime()), location_id: plan.locationId, business_id: row.id, entity_type: 'business', entity_id: row.id, entity_name: legalName,
      action: 'business.created', description: `Business ${legalName} created`, data: '{}', created_at: now,
    });
    await trx('idempotency_keys').insert({ credential_id: 'bare', key: `${row.id}`, request_hash: row.id, state: 'done', response_status: 201, response_body: JSON.stringify({ body }), created_at: now, locked_until: now });
  });
  res.status(201).json(body);
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`bare listening on ${process.env.PORT}\n`));
process.on('SIGTERM', () => server.close(() => db.close().then(() => process.exit(0))));
