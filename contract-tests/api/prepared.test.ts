import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveEmbeddedSocket } from '../../src/db/embedded-socket';
import { connectToServer, openPostgres, wrapPglite, type Database } from '../../src/db/engine';
import { prepared, preparedForTests } from '../../src/db/prepared';

const { MAX_NAMED, forgetNamedTexts, namedTextCount } = preparedForTests;
import { holdFinalWrite, sendTogether, writeTogether } from '../../src/db/together';
import { ENGINE } from '../support/harness';
import { adminUrl } from '../support/pg-urls';

// The pipeline's fixed statements (credential lookup with its rate-limit count, Idempotency-Key
// claim and answer) go through prepared(): on PostgreSQL each distinct text is prepared once per
// connection under a name of its own. One connection here, so every call meets the statements the
// earlier calls left on it.
let db: Database;
beforeAll(async () => {
  db = ENGINE === 'pg' ? openPostgres(adminUrl(), { poolMax: 1 }) : wrapPglite(new PGlite());
  // A new PGlite starts (WASM, initdb) on its first query: done here, under the hook's limit, so a busy
  // machine's slow start is not counted against the first test.
  await db.knex.raw('SELECT 1');
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
    // The names are the process's: test files run before this one in the same worker (isolate: false)
    // took some already. Counted from where this test finds them, and its own texts forgotten after.
    const before = namedTextCount();
    const onConnection = async () =>
      (await db.knex.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'svc\\_%'`)).rows[0].n;
    const preparedBefore = ENGINE === 'pg' ? await onConnection() : 0;
    const texts = Array.from({ length: MAX_NAMED + 5 }, (_, i) => `SELECT ?::int + ${i} AS v /* cap test */`);
    try {
      for (const [i, text] of texts.entries()) expect((await prepared<{ rows: { v: number }[] }>(db.knex, text, [1])).rows).toEqual([{ v: 1 + i }]);
      if (ENGINE !== 'pg') {
        expect(namedTextCount()).toBe(before); // the embedded engine names nothing
        return;
      }
      expect(before).toBeLessThan(MAX_NAMED);
      expect(namedTextCount()).toBe(MAX_NAMED);
      // Exactly the texts that found a free name were named on this connection; the last five never were.
      expect((await onConnection()) - preparedBefore).toBe(MAX_NAMED - before);
      const { rows } = await db.knex.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%/* cap test */' AND name LIKE 'svc\\_%'`);
      expect(rows[0].n).toBe(MAX_NAMED - before);
    } finally {
      forgetNamedTexts(texts);
    }
    expect(namedTextCount()).toBe(before);
  });

  it('inside a transaction too (the Idempotency-Key claim runs in the operation\'s)', async () => {
    const answer = await db.knex.transaction(async (trx) => (await prepared<{ rows: { v: number }[] }>(trx, 'SELECT ?::int + 1 AS v', [41])).rows[0].v);
    expect(answer).toBe(42);
  });
});

// The seed, the CLI and a worker reach a running server's embedded database through its operator
// socket with the `pg` client: each process's connection is the ONE PGlite session, where a named
// statement outlives the connection that made it and meets the next process's ("prepared statement
// svc_0 already exists"). Two connections here stand for two processes: the second one's `pg` client
// knows nothing of what the first one prepared. Engine-free (it opens its own PGlite): run once.
describe.skipIf(ENGINE !== 'pglite')("over a running server's operator socket", () => {
  let tmp: string;
  let server: Database;
  let sock: Awaited<ReturnType<typeof serveEmbeddedSocket>>;
  const operators: Database[] = [];
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'svc-prep-'));
    server = wrapPglite(new PGlite());
    await server.knex.raw('create table t (id text primary key)');
    sock = await serveEmbeddedSocket(server, tmp);
  });
  afterAll(async () => {
    for (const op of operators) await op.close();
    await sock?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  const operator = async () => {
    const op = (await connectToServer({ pid: process.pid, socket: sock.path }))!;
    operators.push(op);
    return op;
  };

  it('names no statement, in the pipeline\'s texts nor in an idempotent run\'s held write and answer (sendTogether); a second connection runs the same texts', async () => {
    const text = 'SELECT ?::int + 2 AS v /* operator */';
    const answer = 'SELECT ?::int AS v /* operator answer */';
    for (const [n, op] of [await operator(), await operator()].entries()) {
      expect((await prepared<{ rows: { v: number }[] }>(op.knex, text, [n])).rows).toEqual([{ v: n + 2 }]);
      await op.knex.transaction(async (trx) => {
        expect((await prepared<{ rows: { v: number }[] }>(trx, text, [n + 10])).rows).toEqual([{ v: n + 12 }]);
        const held = holdFinalWrite(trx);
        await writeTogether(trx, [trx('t').insert({ id: `op-${n}` })], { final: true });
        await sendTogether(trx, held, { sql: answer, bindings: [n] });
      });
    }
    expect(await server.knex('t').orderBy('id').pluck('id')).toEqual(['op-0', 'op-1']);
    const { rows } = await server.pglite!.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
    expect(rows).toEqual([]);
  });
});
