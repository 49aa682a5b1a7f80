/**
 * The benchmark's reference: a bare Express route per scenario that runs exactly the SQL the API's
 * handler ran for it (captured by scripts/bench.ts from the real server) on a pool of the same size,
 * and answers the rows as JSON. No auth, no rate limit, no validation, no mapping: the floor the
 * API's pipeline is measured against. Started by `npm run bench`; not part of the product.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import { openDatabase } from '../src/db/engine';
import { newId } from '../src/lib/ids';

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
// The bare INSERT the idempotent create is compared with.
app.post('/create', async (req, res) => {
  const now = new Date();
  const row = { id: newId('biz', now.getTime()), location_id: plan.locationId, legal_name: String(req.body.legal_name), created_at: now, updated_at: now };
  await knex('businesses').insert(row);
  res.status(201).json({ data: row });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`bare listening on ${process.env.PORT}\n`));
process.on('SIGTERM', () => server.close(() => db.close().then(() => process.exit(0))));
