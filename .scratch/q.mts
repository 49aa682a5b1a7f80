import { openPostgres } from '../src/db/engine';
const db = openPostgres('postgres://postgres@127.0.0.1:5432/postgres');
db.knex.on('query', (q: any) => console.log('query', JSON.stringify(q.sql), q.__knexTxId));
db.knex.on('query-response', (_r: any, q: any) => console.log('resp', JSON.stringify(q.sql), q.__knexTxId));
await db.knex.raw('create temp table if not exists zz(x int)');
await db.knex.transaction(async (tx) => { await tx('pg_class').where({ relname: 'x' }).first(); });
await db.knex('pg_class').where({ relname: 'y' }).first();
await db.close();
