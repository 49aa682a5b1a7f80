import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { toWireTime } from '../../src/db/wire-time';
import { iso, isoRequired } from '../../src/lib/format';

// Issue 31: timestamps of the list and get reads go from PostgreSQL's text to the wire without a
// Date. The wire form must be byte-identical to what the API sent before: the `pg` driver's parser
// (a Date) formatted by `iso`/`isoRequired` (Date#toISOString()).
const driver = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;
const before = (text: string) => isoRequired(driver(text));

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** PostgreSQL's text of a timestamptz in a UTC session (DateStyle ISO): trailing zeros of the fraction dropped, none if whole. */
function pgText(ms: number, micros: number): string {
  const d = new Date(ms);
  const frac = (d.getUTCMilliseconds() * 1000 + micros).toString().padStart(6, '0').replace(/0+$/, '');
  const y = d.getUTCFullYear();
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}${frac ? `.${frac}` : ''}+00`;
}

describe('toWireTime: PostgreSQL timestamptz text to the wire form, as the Date path gave it', () => {
  it('every fraction of 0 to 4 digits, and 5 and 6 digits at every millisecond edge, equal the driver-and-Date path', () => {
    const head = '2026-11-29 01:02:03';
    expect(toWireTime(`${head}+00`)).toBe(before(`${head}+00`));
    expect(toWireTime(`${head}+00`)).toBe('2026-11-29T01:02:03.000Z');
    for (let len = 1; len <= 6; len++) {
      const count = len <= 4 ? 10 ** len : 20_000;
      for (let k = 0; k < count; k++) {
        // Past 4 digits: the values around every millisecond boundary (…999, …000, …001) and random ones.
        const i = len <= 4 ? k : k < 3000 ? (Math.floor(k / 3) * 10 ** (len - 3) + [10 ** (len - 3) - 1, 0, 1][k % 3]) % 10 ** len : Math.floor(Math.random() * 10 ** len);
        const text = `${head}.${pad(i, len)}+00`;
        const got = toWireTime(text);
        if (got !== before(text)) expect(`${text} -> ${got}`).toBe(`${text} -> ${before(text)}`);
      }
    }
    expect(toWireTime(`${head}.456789+00`)).toBe('2026-11-29T01:02:03.456Z'); // truncated, never rounded
    expect(toWireTime(`${head}.9999+00`)).toBe('2026-11-29T01:02:03.999Z');
    expect(toWireTime(`${head}.5+00`)).toBe('2026-11-29T01:02:03.500Z');
    expect(toWireTime(`${head}.05+00`)).toBe('2026-11-29T01:02:03.050Z');
  });

  it('years 1 to 9999 (the Date path has its own rule for years below 100), and leap days', () => {
    for (let y = 1; y <= 9999; y++) {
      for (const md of ['01-01 00:00:00', '02-28 23:59:59.999999', '12-31 12:34:56.7']) {
        const text = `${pad(y, 4)}-${md}+00`;
        const got = toWireTime(text);
        if (got !== before(text)) expect(`${text} -> ${got}`).toBe(`${text} -> ${before(text)}`);
      }
      if ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0) expect(toWireTime(`${pad(y, 4)}-02-29 00:00:00.1+00`)).toBe(before(`${pad(y, 4)}-02-29 00:00:00.1+00`));
    }
  });

  it('a million random instants (years 1 to 9999, microseconds) equal the driver-and-Date path', () => {
    // 0001-01-01 (Date.UTC would read year 1 as 1901).
    const first = new Date(0);
    first.setUTCFullYear(1, 0, 1);
    first.setUTCHours(0, 0, 0, 0);
    const from = first.getTime();
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    let wrong = 0;
    let example = '';
    for (let n = 0; n < 1_000_000; n++) {
      // Half the draws in the years the API meets (2000-2100), half over the whole range.
      const ms = n % 2 ? from + Math.floor(Math.random() * (to - from)) : Date.UTC(2000, 0, 1) + Math.floor(Math.random() * 3.2e12);
      const text = pgText(ms, Math.floor(Math.random() * 1000) * (n % 3 ? 1 : 0));
      if (toWireTime(text) !== before(text)) {
        wrong++;
        example ||= `${text} -> ${toWireTime(text)}, before ${before(text)}`;
      }
    }
    expect(example).toBe('');
    expect(wrong).toBe(0);
  });

  it('other session time zones, offsets with seconds, years past 9999, BC and infinity go the driver way', () => {
    const texts = [
      '2026-11-29 01:02:03.456789-05',
      '2026-11-28 20:32:03+05:30',
      '2026-11-29 23:59:59.999-09:30',
      '1900-01-01 00:00:00+00:19:32',
      '1883-11-18 11:59:59.5-07:00:02',
      '12026-11-29 01:02:03.4+00',
      '0044-03-15 12:00:00+00 BC',
      '0001-01-01 00:00:00+00',
      '0099-12-31 23:59:59.999999+00',
    ];
    for (const text of texts) expect(`${text} -> ${toWireTime(text)}`).toBe(`${text} -> ${before(text)}`);
    // What the Date path cannot format stays text (iso() of it throws as it did: no instant is invented).
    expect(toWireTime('infinity')).toBe('infinity');
    expect(() => iso(toWireTime('infinity'))).toThrow(RangeError);
  });
});

describe('iso / isoRequired pass wire-form text through', () => {
  it('wire text comes back as it is; a Date and other text are formatted as before', () => {
    const wire = '2026-11-29T01:02:03.456Z';
    expect(iso(wire)).toBe(wire);
    expect(isoRequired(wire)).toBe(wire);
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
    expect(iso(new Date(wire))).toBe(wire);
    expect(isoRequired('2026-11-29T01:02:03Z')).toBe('2026-11-29T01:02:03.000Z');
    expect(isoRequired('2026-11-29 01:02:03.456789+00')).toBe(wire);
    expect(isoRequired('2026-11-28T20:02:03.456-05:00')).toBe('2026-11-29T01:02:03.456Z');
    for (let n = 0; n < 10_000; n++) {
      const d = new Date(Date.UTC(1970, 0, 1) + Math.floor(Math.random() * 4e12));
      expect(isoRequired(d.toISOString())).toBe(d.toISOString());
    }
  });
});
