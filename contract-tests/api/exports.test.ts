import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLocationExport } from '../../src/features/exports/exports.handlers';
import type { HandlerContext } from '../../src/http/types';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Issue 29, taking the data out: every list as CSV (`Accept: text/csv`, the same filters, streamed
// past one page), 406 for an Accept no operation answers, and the location's NDJSON export.

let h: Harness;
let t: Tenant;
let other: Tenant;
const TRICKY = [
  '=HYPERLINK("http://evil.example","x")', '+1+2', '-3+cmd|calc', '@SUM(A1)', '\tTabbed', '\rCarriage',
  'Comma, Inc.', 'The "Quoted" LLC', 'Two\nLines LLC', 'Ünïcødé 🍞 Bakery', '＝Fullwidth',
];
let businesses: string[] = [];
let otherBiz: string;
let webhookSecret: string;
const SEC = 1000;

/** RFC 4180 reader: rows of fields (quoted fields may hold commas, doubled quotes, CR and LF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (field += c), i++;
    } else if (c === '"' && field === '') (quoted = true), i++;
    else if (c === ',') row.push(field), (field = ''), i++;
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), (i += 2);
    else if (c === '\n' || c === '\r') throw new Error(`bare line break at ${i}`);
    else (field += c), i++;
  }
  if (field !== '' || row.length) throw new Error('the last row does not end with CRLF');
  return rows;
}

/** What a cell holds for a JSON value (the guide's rules), to compare CSV with JSON. */
function expectedCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'string') return /^[=+\-@\t\r\n＝＋－＠]/.test(v) ? `'${v}` : v;
  return String(v);
}

function flatten(rec: Record<string, unknown>, header: string[]): string[] {
  return header.map((col) => {
    let v: unknown = rec;
    for (const k of col.split('.')) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k];
    return expectedCell(v);
  });
}

async function csv(path: string, query: Record<string, unknown> = {}, auth = t.auth()) {
  return h.api.get(path).query(query).set(auth).set('Accept', 'text/csv').buffer(true).parse((res, cb) => {
    let s = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (s += c));
    res.on('end', () => cb(null, s));
  });
}

/** Every record of a JSON list, page by page (`limit` 100). */
async function walk(path: string, query: Record<string, unknown> = {}, auth = t.auth()): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const res = await h.api.get(path).query({ ...query, limit: 100, ...(cursor ? { cursor } : {}) }).set(auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.meta.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

async function exportText(auth = t.auth(), accept?: string) {
  const req = h.api.get('/v1/exports/location').set(auth);
  if (accept) req.set('Accept', accept);
  return req.buffer(true).parse((res, cb) => {
    let s = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (s += c));
    res.on('end', () => cb(null, s));
  });
}

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Exporter');
  other = await h.tenant('Someone else');
  // 130 businesses (more than one page of 100), one in four on the watchlist, some with names a
  // spreadsheet would run or a naive writer would break.
  for (let i = 0; i < 130; i++) {
    h.clock.advance(SEC);
    const name = i < TRICKY.length ? TRICKY[i] : `Business ${String(i).padStart(3, '0')}`;
    const res = await h.api.post('/v1/businesses').set(t.auth()).send({ legal_name: name, status: i % 4 === 0 ? 'watchlist' : 'active', tags: ['a,b', '=x'], custom_data: { note: 'say "hi"' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    businesses.push(res.body.data.id);
  }
  h.clock.advance(61 * SEC);
  const o = await h.api.post('/v1/businesses').set(other.auth()).send({ legal_name: 'Other Location Secret Bakery' });
  otherBiz = o.body.data.id;
  await h.api.post('/v1/deals').set(other.auth()).send({ business_id: otherBiz });
  // Deals by the admin and by the user, a note and a task, a person with a date of birth, a webhook.
  // Each deal has one kind of child only (a note, a task, a document), so the export must find each kind.
  for (const role of ['admin', 'admin', 'user'] as const) {
    h.clock.advance(SEC);
    const d = await h.api.post('/v1/deals').set(t.auth(role)).send({ business_id: businesses[0], requested_amount: 50000 });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    if (d.body.data && role === 'admin' && !(await h.knex('notes').where({ location_id: t.locationId }).first())) {
      await h.api.post(`/v1/deals/${d.body.data.id}/notes`).set(t.auth()).send({ body: '=cmd|"/c calc"!A1, then\na new line' });
    } else if (role === 'admin') {
      await h.api.post(`/v1/deals/${d.body.data.id}/tasks`).set(t.auth()).send({ title: 'Call the bank' });
    }
    if (role === 'user') {
      const doc = await h.api.post(`/v1/deals/${d.body.data.id}/documents`).set(t.auth()).send({ filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 1000, category: 'other' });
      expect(doc.status, JSON.stringify(doc.body)).toBe(201);
    }
  }
  const p = await h.api.post('/v1/people').set(t.auth()).send({ first_name: 'Maria', last_name: 'Lopez', dob: '1980-02-03', business_id: businesses[1] });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  const w = await h.api.post('/v1/webhooks').set(t.auth()).send({ url: 'http://127.0.0.1:9/hook' });
  expect(w.status, JSON.stringify(w.body)).toBe(201);
  webhookSecret = w.body.data.secret;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe(`CSV of a list (${ENGINE})`, () => {
  it('equals the JSON pages record for record, past one page, with a header, RFC 4180 and a file name', async () => {
    const json = await walk('/v1/businesses');
    expect(json.length).toBe(130);
    const res = await csv('/v1/businesses');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe('attachment; filename="businesses-2026-11-23.csv"');
    const [header, ...rows] = parseCsv(res.body as string);
    expect(header.slice(0, 4)).toEqual(['id', 'legal_name', 'dba', 'ein']);
    expect(header).toContain('primary_contact.name');
    expect(rows.map((r) => r[0])).toEqual(json.map((b) => b.id));
    rows.forEach((r, i) => expect(r).toEqual(flatten(json[i], header)));
  });

  it('applies the same filters as the JSON list', async () => {
    for (const q of [{ status: 'watchlist' }, { search: 'Business 1' }, { tag: '=x', status: 'active' }]) {
      const json = await walk('/v1/businesses', q);
      const [header, ...rows] = parseCsv((await csv('/v1/businesses', q)).body as string);
      expect(rows.length, JSON.stringify(q)).toBe(json.length);
      rows.forEach((r, i) => expect(r).toEqual(flatten(json[i], header)));
    }
    expect(parseCsv((await csv('/v1/businesses', { status: 'watchlist' })).body as string).length - 1).toBe(33);
  });

  it('neutralises cells a spreadsheet would run, and keeps commas, quotes and line breaks in quoted fields', async () => {
    const text = (await csv('/v1/businesses')).body as string;
    const [header, ...rows] = parseCsv(text);
    const names = rows.map((r) => r[header.indexOf('legal_name')]);
    // What the API stored (leading whitespace may be trimmed on input), each neutralised in the CSV.
    const stored = (await walk('/v1/businesses')).map((b) => b.legal_name as string);
    const risky = stored.filter((n) => /^[=+\-@\t\r\n＝＋－＠]/.test(n));
    expect(risky).toEqual(expect.arrayContaining(['=HYPERLINK("http://evil.example","x")', '+1+2', '-3+cmd|calc', '@SUM(A1)', '＝Fullwidth']));
    for (const bad of risky) {
      expect(names).toContain(`'${bad}`);
      expect(names).not.toContain(bad);
    }
    expect(names).toEqual(expect.arrayContaining(['Comma, Inc.', 'The "Quoted" LLC', 'Two\nLines LLC', 'Ünïcødé 🍞 Bakery']));
    // On the wire: no cell starts with a formula character, and quoting is RFC 4180's.
    expect(text).toContain('"The ""Quoted"" LLC"');
    expect(text).toContain('"Two\nLines LLC"');
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+@\t\r＝]/);
    // JSON columns: the array and the object, whole.
    expect(rows[0][header.indexOf('tags')]).toBe('["a,b","=x"]');
    expect(rows[0][header.indexOf('custom_data')]).toBe('{"note":"say \\"hi\\""}');
    // Numbers stay numbers.
    expect(rows[0][header.indexOf('deal_count')]).toMatch(/^\d+$/);
    const noted = (await h.knex('notes').where({ location_id: t.locationId }).first('entity_id')).entity_id;
    const notes = parseCsv((await csv(`/v1/deals/${noted}/notes`)).body as string);
    expect(notes[1][notes[0].indexOf('body')]).toBe(`'=cmd|"/c calc"!A1, then\na new line`);
  });

  it('follows the role rules and location of the JSON list: a user sees its own deals only, no advances; another location nothing', async () => {
    const own = await walk('/v1/deals', {}, t.auth('user'));
    expect(own.length).toBe(1);
    const rows = parseCsv((await csv('/v1/deals', {}, t.auth('user'))).body as string).slice(1);
    expect(rows.map((r) => r[0])).toEqual(own.map((d) => d.id));
    const adv = await csv('/v1/advances', {}, t.auth('user'));
    expect(adv.status).toBe(403);
    expect(adv.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(adv.body as string).error.code).toBe('role_not_allowed');
    const narrow = await t.key({ role: 'admin', scopes: ['deals:read'] });
    const scoped = await csv('/v1/businesses', {}, { Authorization: `Bearer ${narrow.key}` });
    expect(scoped.status).toBe(403);
    expect(JSON.parse(scoped.body as string).error).toMatchObject({ code: 'missing_scope', param: 'businesses:read' });
    const theirs = parseCsv((await csv('/v1/businesses', {}, other.auth())).body as string).slice(1);
    expect(theirs.map((r) => r[0])).toEqual([otherBiz]);
    expect((await csv('/v1/businesses')).body).not.toContain(otherBiz);
  });

  it('an error before the first byte is the JSON envelope (bad cursor, unknown deal, invalid filter)', async () => {
    for (const [path, q, status, code] of [
      ['/v1/businesses', { cursor: 'nope.nope' }, 400, 'invalid_cursor'],
      ['/v1/deals/deal_01JD1B4D6F8H0K2M4P6R8T0V2X/notes', {}, 404, 'resource_missing'],
      ['/v1/businesses', { status: 'bogus' }, 400, 'invalid_request'],
    ] as const) {
      const res = await csv(path, q);
      expect(res.status, path).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body as string).error.code).toBe(code);
    }
  });

  it('a cursor starts the CSV where that page starts; limit does not bound it', async () => {
    const first = await h.api.get('/v1/businesses').query({ limit: 20 }).set(t.auth());
    const rest = parseCsv((await csv('/v1/businesses', { cursor: first.body.meta.next_cursor, limit: 5 })).body as string).slice(1);
    expect(rest.length).toBe(110);
    expect(rest[0][0]).toBe(businesses[109]);
    expect(rest[109][0]).toBe(businesses[0]);
  });

  it('every list offers it, GET /v1/submissions and /v1/offers included', async () => {
    for (const path of ['/v1/deals', '/v1/people', '/v1/lenders', '/v1/pipeline/stages', '/v1/webhooks', '/v1/events', '/v1/submissions', '/v1/offers', '/v1/advances', '/v1/inbound-emails']) {
      const res = await csv(path);
      expect(res.status, `${path}: ${String(res.body).slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const [header, ...rows] = parseCsv(res.body as string);
      expect(header[0]).toBe('id');
      for (const r of rows) expect(r.length).toBe(header.length);
    }
  });
});

describe(`content negotiation (${ENGINE})`, () => {
  it('JSON without Accept, with application/json, */* or a browser Accept; the preferred of several', async () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/json; charset=utf-8', 'text/html,application/xhtml+xml,*/*;q=0.8', 'text/csv;q=0.1, application/json']) {
      const req = h.api.get('/v1/businesses').query({ limit: 1 }).set(t.auth());
      if (accept) req.set('Accept', accept);
      const res = await req;
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
    }
    for (const accept of ['text/csv', 'text/*', 'text/csv; charset=utf-8', 'application/json;q=0.5, text/csv']) {
      const res = await h.api.get('/v1/businesses').set(t.auth()).set('Accept', accept);
      expect(res.headers['content-type'], accept).toMatch(/^text\/csv/);
    }
  });

  it('406 not_acceptable in the envelope for an Accept the operation cannot answer', async () => {
    const cases: [string, string][] = [
      ['/v1/businesses', 'application/xml'],
      ['/v1/businesses', 'text/csv;q=0, application/json;q=0'],
      [`/v1/businesses/${businesses[0]}`, 'text/csv'],
      ['/v1/exports/location', 'application/json'],
      ['/v1/exports/location', 'text/csv'],
    ];
    for (const [path, accept] of cases) {
      const res = await h.api.get(path).set(t.auth()).set('Accept', accept);
      expect(res.status, `${path} ${accept}`).toBe(406);
      expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'not_acceptable', param: 'Accept' });
    }
    const post = await h.api.post('/v1/businesses').set(t.auth()).set('Accept', 'text/csv').send({ legal_name: 'Never' });
    expect(post.status).toBe(406);
    expect(await h.knex('businesses').where({ legal_name: 'Never' }).first()).toBeUndefined();
  });
});

describe(`location export (${ENGINE})`, () => {
  it('streams every record of the location as NDJSON, parents first, from export to export_end', async () => {
    const res = await exportText();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="location-export-2026-11-23.ndjson"');
    const text = res.body as string;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { object: string; data: Record<string, unknown>; parent?: Record<string, string> });
    expect(lines[0]).toMatchObject({ object: 'export', data: { format: 'location_export', version: 1, location_id: t.locationId, snapshot: ENGINE === 'pg' } });
    const end = lines[lines.length - 1];
    expect(end.object).toBe('export_end');
    const of = (o: string) => lines.filter((l) => l.object === o).map((l) => l.data);
    const counts: Record<string, number> = {};
    for (const l of lines) counts[l.object] = (counts[l.object] ?? 0) + 1;
    expect(end.data.lines).toEqual(counts);
    // Every record, exactly as the API lists it to an admin.
    expect(of('business')).toEqual(await walk('/v1/businesses'));
    expect(of('person')).toEqual(await walk('/v1/people'));
    expect(of('deal')).toEqual(await walk('/v1/deals'));
    expect(of('pipeline_stage')).toEqual((await h.api.get('/v1/pipeline/stages').set(t.auth())).body.data);
    expect(of('note').length).toBe(1);
    expect(of('task').length).toBe(1);
    expect(of('person_association')).toHaveLength(1);
    expect(lines.find((l) => l.object === 'person_association')!.parent).toEqual({ person_id: (of('person')[0] as { id: string }).id });
    expect(of('person')[0].dob).toBe('1980-02-03');
    expect(of('webhook')).toHaveLength(1);
    // A document: its record without the bearer download link.
    expect(of('document')).toHaveLength(1);
    expect(of('document')[0]).not.toHaveProperty('download_url');
    expect(of('document')[0]).toMatchObject({ filename: 'a.pdf', status: 'pending_upload' });
    // Parents before children.
    const first = (o: string) => lines.findIndex((l) => l.object === o);
    expect(first('business')).toBeLessThan(first('person'));
    expect(first('person')).toBeLessThan(first('deal'));
    expect(first('deal')).toBeLessThan(first('note'));
  });

  it('holds nothing of another location and no secret, credential or bearer link', async () => {
    const text = (await exportText()).body as string;
    expect(text).not.toContain(otherBiz);
    expect(text).not.toContain('Other Location Secret Bakery');
    expect(text).not.toContain(other.locationId);
    expect(text).not.toContain(webhookSecret);
    for (const key of [...Object.values(t.keys), ...Object.values(other.keys)]) expect(text).not.toContain(key.slice(9));
    expect(text).not.toMatch(/"(secret|password|password_hash|key_hash|token_hash|download_url|portal_url|api_credentials)"/);
    expect(text).not.toMatch(/whsec_|svc_live_|svc_at_/);
    const theirs = (await exportText(other.auth())).body as string;
    expect(theirs).toContain(otherBiz);
    for (const id of businesses) expect(theirs).not.toContain(id);
  });

  it('reads one snapshot on PostgreSQL: a deal created while the export streams is in none of its lines', async () => {
    const user = await h.knex('users').where({ location_id: t.locationId, role: 'admin' }).first('id');
    const scope = { locationId: t.locationId, role: 'admin' as const, userId: user.id, scopes: [], locationIsTest: true };
    const ctx = { params: {}, query: {}, body: undefined, auth: { ...scope, credentialId: 'k', credentialType: 'api_key' }, scope, deps: h.deps, req: {} } as unknown as HandlerContext<'getLocationExport'>;
    const reply = await getLocationExport(ctx);
    const it = reply.stream[Symbol.asyncIterator]();
    let text = '';
    // Read until the first businesses (the snapshot's first read has happened), then write.
    while (!text.includes('"object":"business"')) text += (await it.next()).value;
    h.clock.advance(SEC);
    const late = await h.api.post('/v1/deals').set(t.auth()).send({ business_id: businesses[2] });
    expect(late.status).toBe(201);
    for (let r = await it.next(); !r.done; r = await it.next()) text += r.value;
    expect(text.trimEnd().split('\n').pop()).toContain('"object":"export_end"');
    // PostgreSQL: one snapshot. The embedded engine reads page by page (documented): the deal is read.
    if (ENGINE === 'pg') expect(text).not.toContain(late.body.data.id);
    else expect(text).toContain(late.body.data.id);
    await h.knex('deals').where({ id: late.body.data.id }).delete();
  });

  it('admin only, with every read scope; errors in the envelope', async () => {
    for (const role of ['manager', 'user'] as const) {
      const res = await h.api.get('/v1/exports/location').set(t.auth(role));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('role_not_allowed');
    }
    const narrow = await t.key({ role: 'admin', scopes: ['businesses:read', 'people:read', 'deals:read', 'documents:read', 'lenders:read', 'offers:read', 'advances:read'] });
    const res = await h.api.get('/v1/exports/location').set({ Authorization: `Bearer ${narrow.key}` });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'missing_scope', param: 'webhooks:manage' });
    const full = await t.key({ role: 'admin', scopes: ['businesses:read', 'people:read', 'deals:read', 'documents:read', 'lenders:read', 'offers:read', 'advances:read', 'webhooks:manage'] });
    expect((await exportText({ Authorization: `Bearer ${full.key}` }, 'application/x-ndjson')).status).toBe(200);
    expect((await h.api.get('/v1/exports/location').query({ since: 'x' }).set(t.auth())).status).toBe(400);
  });
});
