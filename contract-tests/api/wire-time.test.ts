import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, pgliteParsers, wrapPglite, type Database } from '../../src/db/engine';
import { wireTimes } from '../../src/db/wire-time';
import { iso } from '../../src/lib/format';
import { ENGINE } from '../support/harness';
import { adminUrl } from '../support/pg-urls';

// Issue 31: the list and get reads take their timestamps as wire text from the driver (`wireTimes`)
// instead of a Date formatted by `iso`. On each engine, what reaches the wire must be what the Date
// path gave for the same stored value, and the query's other types must parse as the pool's do.
let db: Database;
beforeAll(async () => {
  db = ENGINE === 'pg' ? openPostgres(adminUrl(), { poolMax: 1 }) : wrapPglite(new PGlite({ parsers: pgliteParsers }));
  // A new PGlite starts (WASM, initdb) on its first query: done here, under the hook's limit, so a busy
  // machine's slow start is not counted against the first test.
  await db.knex.raw('SELECT 1');
});
afterAll(() => db.close());

type Row = { t: Date | string | null; n: number; m: number; d: string; s: string };
const SQL = (values: string) => `
  SELECT t, 12345678901::int8 AS n, 12.34::numeric AS m, '2026-11-29'::date AS d, 'x' AS s FROM (${values}) v(t)`;

async function both(values: string, bindings: unknown[] = []): Promise<{ dated: Row[]; wired: Row[] }> {
  const dated = (await db.knex.raw<{ rows: Row[] }>(SQL(values), bindings as never[])).rows;
  const wired = (await wireTimes(db.knex.raw<{ rows: Row[] }>(SQL(values), bindings as never[]))).rows;
  return { dated, wired };
}

describe('wireTimes on this engine', () => {
  it('every fraction length, edge instants and NULL read as text equal to the Date path, other types unchanged', async () => {
    const literals = [
      '2026-11-29 01:02:03+00', '2026-11-29 01:02:03.4+00', '2026-11-29 01:02:03.45+00', '2026-11-29 01:02:03.456+00',
      '2026-11-29 01:02:03.4567+00', '2026-11-29 01:02:03.45678+00', '2026-11-29 01:02:03.456789+00', '2026-11-29 01:02:03.999999+00',
      '2026-11-28 20:02:03.456789-05', '2024-02-29 23:59:59.999999+00', '1970-01-01 00:00:00+00', '1000-01-01 00:00:00.000001+00', '9999-12-31 23:59:59.999999+00',
    ];
    const { dated, wired } = await both(`SELECT x::timestamptz FROM unnest(?::text[]) x UNION ALL SELECT NULL::timestamptz`, [literals]);
    expect(wired.map((r) => r.t)).toEqual(dated.map((r) => iso(r.t)));
    expect(wired.slice(0, 7).map((r) => r.t)).toEqual([
      '2026-11-29T01:02:03.000Z', '2026-11-29T01:02:03.400Z', '2026-11-29T01:02:03.450Z', '2026-11-29T01:02:03.456Z',
      '2026-11-29T01:02:03.456Z', '2026-11-29T01:02:03.456Z', '2026-11-29T01:02:03.456Z',
    ]);
    expect(typeof wired[0].t).toBe('string');
    expect(dated[0].t).toBeInstanceOf(Date); // the pool's own queries keep their Dates
    expect(wired.map(({ t: _, ...rest }) => rest)).toEqual(dated.map(({ t: _, ...rest }) => rest));
    expect(wired[0]).toMatchObject({ n: 12345678901, m: 12.34, d: '2026-11-29', s: 'x' });
  });

  it('10,000 random stored instants with microseconds (years 1000 to 9999) read the same either way', async () => {
    const { rows } = await db.knex.raw<{ rows: { t: string }[] }>(
      `SELECT (timestamptz '1000-01-01 00:00:00+00' + (floor(random() * 283996800000000) || ' microseconds')::interval)::text AS t FROM generate_series(1, 10000)`,
    );
    const { dated, wired } = await both(`SELECT x::timestamptz FROM unnest(?::text[]) x`, [rows.map((r) => r.t)]);
    expect(wired.every((r) => typeof r.t === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.t))).toBe(true);
    expect(wired.map((r) => r.t)).toEqual(dated.map((r) => iso(r.t)));
  });
});
