import pg from 'pg';

/**
 * Timestamps from the database to the wire as text, never a Date on the way (issue 31: parsing each
 * timestamptz into a Date and formatting it again was ~6.5% of a read's CPU).
 *
 * The API's wire form of a timestamp is `Date#toISOString()` of what the `pg` driver's parser makes of
 * PostgreSQL's text: `YYYY-MM-DDTHH:MM:SS.mmmZ`, milliseconds TRUNCATED from PostgreSQL's microseconds.
 * `toWireTime` gives exactly that string from the text itself when the text is UTC with a four-digit
 * year (`2026-11-29 01:02:03.456789+00`: a session whose TimeZone is UTC, as on both engines here);
 * any other text (another session time zone, a year past 9999 or BC, `infinity`) goes the old way,
 * through the `pg` driver's own parser, so the result is the same for every value
 * (contract-tests/api/wire-time.test.ts compares both over every fraction length and a million
 * random instants).
 *
 * Only queries that ask for it (`wireTimes`) get text; their rows' timestamps are `Date | string`
 * and the mappers' `iso`/`isoRequired` (src/lib/format.ts) pass wire-form text through as it is.
 */
export const TIMESTAMPTZ_OID = 1184;

const driverParse = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number;

const DASH = 45;
const COLON = 58;
const SPACE = 32;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

/** PostgreSQL's text of a timestamptz (DateStyle ISO) as the API's wire form; text it cannot read comes back as it is. */
export function toWireTime(text: string): string {
  const n = text.length;
  // 'YYYY-MM-DD HH:MM:SS' (19) + optional '.' and 1..6 digits + '+00'
  if (
    (n === 22 || (n >= 24 && n <= 29 && text.charCodeAt(19) === DOT)) &&
    text.charCodeAt(n - 3) === PLUS && text.charCodeAt(n - 2) === ZERO && text.charCodeAt(n - 1) === ZERO &&
    text.charCodeAt(4) === DASH && text.charCodeAt(7) === DASH && text.charCodeAt(10) === SPACE &&
    text.charCodeAt(13) === COLON && text.charCodeAt(16) === COLON
  ) {
    const head = `${text.slice(0, 10)}T${text.slice(11, 19)}`;
    if (n === 22) return `${head}.000Z`;
    // Milliseconds truncated, as the driver's parser does (1000 * parseFloat('.456789') -> 456).
    const digits = n - 23; // after the '.', before the '+00'
    const ms = digits >= 3 ? text.slice(20, 23) : digits === 2 ? `${text.slice(20, 22)}0` : `${text[20]}00`;
    return `${head}.${ms}Z`;
  }
  const d = driverParse(text);
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : text;
}

/** `pg`'s per-query parsers: timestamptz as wire text, every other type as the pool parses it. */
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === TIMESTAMPTZ_OID ? toWireTime : pg.types.getTypeParser(oid, format as 'text')),
};
/** PGlite's per-query parsers (merged over the instance's own: engine.ts pgliteParsers). */
const pgliteParsers = { [TIMESTAMPTZ_OID]: toWireTime };

/**
 * This query's timestamptz columns come back as wire-form text (`toWireTime`) instead of Date, on
 * either engine (`types` is read by `pg`, `parsers` by PGlite; each ignores the other's).
 */
export function wireTimes<Q extends { options(options: Readonly<Record<string, unknown>>): Q }>(query: Q): Q {
  return query.options({ types: pgTypes, parsers: pgliteParsers });
}
