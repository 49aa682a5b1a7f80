// The catalogue: every attack on one operation (body fields, framing, query, path, headers).
import { gzipSync } from 'node:zlib';
import { jsonBytes, RawBytes } from './json';
import { getIn, isFreeForm, validValue } from './spec';
import { type Attack, type AttackContext, baseReq, dotted, NUL, renderPath, type Req } from './model';
import { avoidFor, bodyFields, bodyObjects, fieldMutations, freeFormMutations, withValue } from './body';
import { pathMutations, queryMutations } from './params';

/** The deterministic catalogue for one operation. */
export function catalogue(ctx: AttackContext): Attack[] {
  const { spec, op, base } = ctx;
  const out: Attack[] = [];
  const b0 = baseReq(base);
  const withBody = (body: unknown): Req => ({ ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json' }, body: jsonBytes(body) });

  // ---- body fields
  if (op.body && base.body !== undefined) {
    const root = op.body.schema;
    for (const [i, f] of bodyFields(spec, root, base.body, ctx.idFor).entries()) {
      const target = dotted(f.path);
      for (const m of fieldMutations(spec, f.schema, f.valid, ctx.idFor, i)) {
        const body = withValue(ctx, root, base.body, f.path, m.value);
        out.push({ cls: m.cls, where: 'body', target, expect: m.expect, param: target, avoid: avoidFor(m.value), req: withBody(body) });
      }
      if (isFreeForm(f.schema)) {
        for (const m of freeFormMutations(f.schema)) {
          const body = withValue(ctx, root, base.body, f.path, m.value);
          out.push({ cls: m.cls, where: 'body', target, expect: m.expect, param: target, req: withBody(body) });
        }
      }
    }
    // Required fields missing; unknown keys; hostile keys in closed objects; empty objects with minProperties.
    for (const o of bodyObjects(spec, root)) {
      const prefix = o.path.length ? `${dotted(o.path)}.` : '';
      const present = o.path.length === 0 || getIn(base.body, o.path) !== undefined;
      if (present) {
        for (const k of o.schema.required ?? []) {
          const body = withValue(ctx, root, base.body, [...o.path, k], undefined, true);
          out.push({ cls: 'required: missing', where: 'body', target: `${prefix}${k}`, expect: 'reject', param: `${prefix}${k}`, req: withBody(body) });
        }
      }
      if (o.schema.additionalProperties === false) {
        const container = getIn(base.body, o.path) ?? validValue(spec, o.schema, ctx.idFor);
        const add = (extra: Record<string, unknown>) => (o.path.length ? withValue(ctx, root, base.body, o.path, { ...(container as object), ...extra }) : { ...(base.body as object), ...extra });
        out.push({ cls: 'unknown field', where: 'body', target: `${prefix}zz_unknown_field`, expect: 'reject', param: `${prefix}zz_unknown_field`, req: withBody(add({ zz_unknown_field: 1 })) });
        out.push({ cls: 'key: NUL', where: 'body', target: `${prefix}<key>`, expect: 'reject', req: withBody(add({ [`a${NUL}b`]: 1 })) });
        out.push({ cls: 'key: lone surrogate', where: 'body', target: `${prefix}<key>`, expect: 'reject', req: withBody(add({ '\ud800': 1 })) });
        if (o.schema.minProperties && o.path.length) {
          out.push({ cls: 'bound: minProperties', where: 'body', target: dotted(o.path), expect: 'reject', param: dotted(o.path), req: withBody(withValue(ctx, root, base.body, o.path, {})) });
        }
      }
    }
    // A string with bytes that are not UTF-8.
    const firstString = bodyFields(spec, root, base.body, ctx.idFor).find((f) => typeof getIn(base.body, f.path) === 'string' && f.path.length === 1);
    if (firstString) {
      const bad = withValue(ctx, root, base.body, firstString.path, new RawBytes(Buffer.from([0x22, 0x61, 0xff, 0xfe, 0x62, 0x22]), '"a\\xff\\xfeb"'));
      out.push({ cls: 'string: invalid UTF-8 bytes', where: 'body', target: dotted(firstString.path), expect: 'reject', req: withBody(bad) });
      const cesu = withValue(ctx, root, base.body, firstString.path, new RawBytes(Buffer.from([0x22, 0x61, 0xed, 0xa0, 0x80, 0x22]), '"a\\xed\\xa0\\x80" (UTF-8 encoded surrogate)'));
      out.push({ cls: 'string: invalid UTF-8 bytes', where: 'body', target: dotted(firstString.path), expect: 'reject', req: withBody(cesu) });
    }
  }

  // ---- whole-request attacks on the body
  if (op.body) {
    const valid = base.body ?? {};
    const json = (text: string | Buffer, extra: Record<string, string> = {}): Req => ({
      ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json', ...extra }, body: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
    });
    const gz = gzipSync(jsonBytes(valid));
    const corrupt = Buffer.from(gz);
    for (let i = 10; i < corrupt.length - 8; i += 3) corrupt[i] ^= 0x5a;
    out.push({ cls: 'request: corrupt gzip body', where: 'request', target: '(body)', expect: 'reject', req: json(corrupt, { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: corrupt gzip body', where: 'request', target: '(body)', expect: 'reject', req: json(gz.subarray(0, Math.max(12, gz.length >> 1)), { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: gzip bomb', where: 'request', target: '(body)', expect: 'reject', req: json(gzipBomb(), { 'Content-Encoding': 'gzip' }) });
    out.push({ cls: 'request: unsupported Content-Encoding', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes(valid), { 'Content-Encoding': 'compress' }) });
    out.push({ cls: 'request: body is a JSON array', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes([valid])) });
    out.push({ cls: 'request: body is a JSON string', where: 'request', target: '(body)', expect: 'reject', req: json('"x"') });
    out.push({ cls: 'request: body is a JSON number', where: 'request', target: '(body)', expect: 'reject', req: json('42') });
    out.push({ cls: 'request: body is JSON null', where: 'request', target: '(body)', expect: 'reject', req: json('null') });
    out.push({ cls: 'request: truncated JSON', where: 'request', target: '(body)', expect: 'reject', req: json(jsonBytes(valid).subarray(0, Math.max(1, jsonBytes(valid).length - 1))) });
    out.push({ cls: 'request: text/plain body', where: 'request', target: '(body)', expect: 'reject', req: { ...json(jsonBytes(valid)), headers: { ...b0.headers, 'Content-Type': 'text/plain' } } });
    const empty: Req = { ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json', 'Content-Length': '0' }, body: undefined };
    out.push({ cls: 'request: empty body', where: 'request', target: '(body)', expect: op.body.required ? 'reject' : 'survive', req: empty });
    const firstKey = valid && typeof valid === 'object' ? Object.keys(valid)[0] : undefined;
    if (firstKey !== undefined) {
      // The same key twice, the first time hostile: JSON.parse keeps the last (valid) one.
      const dup = Buffer.concat([Buffer.from(`{${JSON.stringify(firstKey)}:"a\\u0000b",`), jsonBytes(valid).subarray(1)]);
      out.push({ cls: 'request: duplicate keys', where: 'request', target: '(body)', expect: 'survive', req: json(dup) });
    }
  }

  // ---- query parameters
  for (const p of op.params.filter((x) => x.in === 'query')) {
    for (const q of queryMutations(p, ctx)) out.push({ cls: q.cls, where: 'query', target: p.name, expect: q.expect, param: p.name, semantic: q.semantic, req: { ...b0, query: q.query } });
  }
  if (op.params.some((x) => x.in === 'query') || op.method === 'get') {
    out.push({ cls: 'query: unknown parameter', where: 'query', target: 'zz_unknown', expect: 'reject', param: 'zz_unknown', req: { ...b0, query: 'zz_unknown=1' } });
  }

  // ---- path parameters
  for (const p of op.params.filter((x) => x.in === 'path')) {
    for (const m of pathMutations(p, base.pathParams[p.name])) {
      out.push({ cls: m.cls, where: 'path', target: p.name, expect: 'reject', param: p.name, allow404: true, req: { ...b0, path: renderPath(base.template, base.pathParams, { [p.name]: m.encoded }) } });
    }
  }

  // ---- headers
  for (const p of op.params.filter((x) => x.in === 'header')) {
    const s = p.schema;
    const vals: { cls: string; v: string }[] = [];
    if (typeof s.maxLength === 'number') vals.push({ cls: 'header: maxLength+1', v: 'k'.repeat(s.maxLength + 1) });
    if (s.pattern) {
      const re = new RegExp(s.pattern, 'u');
      for (const v of ['a b', 'caf\u00e9']) if (!re.test(v)) vals.push({ cls: 'header: pattern mismatch', v });
    }
    for (const { cls, v } of vals) out.push({ cls, where: 'header', target: p.name, expect: 'reject', param: p.name, req: { ...b0, headers: { ...b0.headers, [p.name]: v } } });
  }

  // ---- Accept (content negotiation): an Accept the operation cannot answer is 406 naming Accept,
  // before anything runs; each media type it declares (JSON, a list's text/csv, the export's NDJSON) is served.
  if (!op.rawBody && op.produces.length) {
    // None of these allows a media type any operation answers (q=2 is no quality value: ignored).
    const refused = ['application/xml', '*/*;q=0', 'text/csv;q=0, application/json;q=0, application/x-ndjson;q=0', `${'x'.repeat(3000)}/y`, 'text/html, image/*', 'application/json;q=2'];
    for (const v of refused) {
      const cls = v.length > 100 ? 'header: Accept very long and unanswerable' : `header: Accept ${v}`;
      out.push({ cls, where: 'header', target: 'Accept', expect: 'reject', param: 'Accept', avoid: v.length > 100 ? [v] : undefined, req: { ...b0, headers: { ...b0.headers, Accept: v } } });
    }
    if (!op.produces.includes('text/csv')) {
      out.push({ cls: 'header: Accept text/csv where not offered', where: 'header', target: 'Accept', expect: 'reject', param: 'Accept', req: { ...b0, headers: { ...b0.headers, Accept: 'text/csv' } } });
    }
    if (op.method === 'get') {
      for (const m of op.produces) out.push({ cls: `header: Accept ${m} (offered)`, where: 'header', target: 'Accept', expect: 'survive', req: { ...b0, headers: { ...b0.headers, Accept: m } } });
    }
  }
  return out;
}

let bomb: Buffer | undefined;
/** 20 MB of JSON whitespace around `{}`, gzipped to a few KB. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.concat([Buffer.from('{'), Buffer.alloc(20 * 1024 * 1024, 0x20), Buffer.from('}')]), { level: 9 });
  return bomb;
}
