import { describe, expect, it } from 'vitest';
import { csvCell, csvColumns, csvHeader, csvRow } from '../../src/http/csv';
import { negotiate } from '../../src/http/negotiate';
import { loadSpec } from '../../src/http/spec';

// The CSV writer's rules (RFC 4180 quoting, formula neutralisation, columns from openapi.yaml) and
// content negotiation, as pure functions. The API tests (exports.test.ts) check them on the wire.

describe('CSV cells', () => {
  it('quotes a field holding a comma, a quote, CR or LF, doubling quotes; leaves others bare', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('neutralises text that a spreadsheet would run as a formula, and only text', () => {
    for (const bad of ['=1+2', '+1', '-1+1', '@SUM(A1)', '\tx', '\rx', '\nx', '＝1', '＋1', '－1', '＠x']) {
      expect(csvCell(bad).replace(/^"|"$/g, '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-250.5)).toBe('-250.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =x')).toBe(' =x');
    // JSON columns start with [ or { (or a quote): never a formula.
    expect(csvCell(['=x', 'a,b'], true)).toBe('"[""=x"",""a,b""]"');
    expect(csvCell({ k: '-1' }, true)).toBe('"{""k"":""-1""}"');
  });
});

describe('CSV columns from openapi.yaml', () => {
  const spec = loadSpec();
  it('follow the item schema: scalars, nested objects flattened, arrays and free-form objects as JSON', () => {
    const cols = csvColumns(spec, '/v1/businesses', 'get')!;
    expect(cols.map((c) => c.name).slice(0, 3)).toEqual(['id', 'legal_name', 'dba']);
    expect(cols.find((c) => c.name === 'tags')!.json).toBe(true);
    expect(cols.find((c) => c.name === 'custom_data')!.json).toBe(true);
    expect(cols.filter((c) => c.name.startsWith('primary_contact.')).map((c) => c.name)).toEqual(['primary_contact.id', 'primary_contact.name', 'primary_contact.email', 'primary_contact.phone']);
    expect(csvHeader(cols).endsWith('\r\n')).toBe(true);
    expect(csvRow(cols, { id: 'biz_1', primary_contact: null, tags: [] }).split(',').length).toBe(cols.length);
  });

  it('an event list: the fields every event shape shares, `type` as text, `data` as JSON', () => {
    expect(csvColumns(spec, '/v1/events', 'get')!.map((c) => [c.name, c.json])).toEqual([['id', false], ['type', false], ['created_at', false], ['location_id', false], ['data', true]]);
  });

  it('none for an operation that is not a list', () => {
    expect(csvColumns(spec, '/v1/businesses/{id}', 'get')).toBeNull();
  });
});

describe('content negotiation', () => {
  const list = ['application/json', 'text/csv'];
  it.each([
    [undefined, 'application/json'], ['', 'application/json'], ['*/*', 'application/json'], ['application/*', 'application/json'],
    ['text/csv', 'text/csv'], ['text/*', 'text/csv'], ['text/csv; charset=utf-8', 'text/csv'], ['application/json; charset=utf-8', 'application/json'],
    ['text/csv;q=0.5, application/json', 'application/json'], ['application/json;q=0.5, text/csv', 'text/csv'],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'application/json'], ['text/*, */*;q=0', 'text/csv'],
    ['application/xml', undefined], ['*/*;q=0', undefined], ['text/csv;q=0, application/json;q=0', undefined], ['application/json;q=2', undefined], ['nonsense', undefined],
    ['*/*, text/csv;q=0', 'application/json'],
  ])('Accept %j -> %j', (accept, chosen) => {
    expect(negotiate(accept, list)).toBe(chosen);
  });
  it('only NDJSON for the export', () => {
    expect(negotiate('application/json', ['application/x-ndjson'])).toBeUndefined();
    expect(negotiate('*/*', ['application/x-ndjson'])).toBe('application/x-ndjson');
  });
});
