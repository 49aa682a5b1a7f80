import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, wrapPglite, type Database } from '../../src/db/engine';
import { MAX_NAMED, prepared } from '../../src/db/prepared';
import { ENGINE } from '../support/harness';
import { adminUrl } from '../support/pg-urls';

// The pipeline's fixed statements (credential lookup with its rate-limit count, Idempotency-Key
// claim and answer) go through prepared(): on PostgreSQL each distinct text is prepared once per
// connection under a name of its own. One connection here, so every call meets the statements the
// earlier calls left on it.
let db: Database;
beforeAll(() => {
  db = ENGINE === 'pg' ? openPostgres(adminUrl(), { poolMax: 1 }) : wrapPglite(new PGlite());
});
afterAll(() => db.close());

describe('prepared statements', () => {
  it('two texts on one connection each keep their own statement and answer for their own bindings, again and again', async () => {
    const add = 'SELECT ?::int + 1 AS v';
    const mul = 'SELECT ?::int * 10 AS v';
    for (let i = 0; i < 3; i++) {
      expect((await prepared<{ rows: { v: number }[] }>(db.knex, add, [i])).rows).toEqual([{ v: i + 1 }]);
      expect((await prepared<{ rows: { v: number }[] }>(db.knex, mul, [i])).rows).toEqual([{ v: i * 10 }]);
    }
    if (ENGINE !== 'pg') return;
    const { rows } = await db.knex.raw<{ rows: { statement: string }[] }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'svc\\_%' ORDER BY statement`);
    expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int * 10 AS v', 'SELECT $1::int + 1 AS v']);
  });

  it(`at most ${MAX_NAMED} texts get a name: past that a new text runs unnamed, and still answers`, async () => {
    for (let i = 0; i < MAX_NAMED + 5; i++) {
      expect((await prepared<{ rows: { v: number }[] }>(db.knex, `SELECT ?::int + ${i} AS v`, [1])).rows).toEqual([{ v: 1 + i }]);
    }
    if (ENGINE !== 'pg') return;
    const { rows } = await db.knex.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'svc\\_%'`);
    expect(rows[0].n).toBe(MAX_NAMED);
  });

  it('inside a transaction too (the Idempotency-Key claim runs in the operation\'s)', async () => {
    const answer = await db.knex.transaction(async (trx) => (await prepared<{ rows: { v: number }[] }>(trx, 'SELECT ?::int + 1 AS v', [41])).rows[0].v);
    expect(answer).toBe(42);
  });
});
