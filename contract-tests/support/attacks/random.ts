// fast-check: random hostile values for body fields, impossible dates, a stable seed per operation.
import fc from 'fast-check';
import { jsonBytes, RawJson } from './json';
import { isFreeForm, type Schema, type Spec, typesOf } from './spec';
import { type Attack, type AttackContext, baseReq, dotted, NUL, renderPath } from './model';
import { avoidFor, bodyFields, deepText, type Mut, withValue } from './body';
import { pct } from './params';

const hostileChar = fc.constantFrom(NUL, '\ud800', '\udbff', '\udc00', '\udfff');
/** Printable text with at least one NUL or lone surrogate somewhere. */
export const hostileString = fc
  .tuple(fc.string({ maxLength: 12 }), hostileChar, fc.string({ maxLength: 12 }))
  .map(([a, h, b]) => `${a}${h}${b}`);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
/** `YYYY-MM-DD` strings that name no calendar day. */
export const impossibleDate = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })), fc.integer({ min: 1, max: 28 })),
  fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 99 })).filter(([y, m, d]) => d === 0 || d > daysIn(y, m)),
  fc.tuple(fc.constant(0), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })),
).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
/** RFC 3339 shaped date-times with an impossible date, hour, minute, second or offset. */
export const impossibleDateTime = fc.oneof(
  fc.tuple(impossibleDate, fc.constant('10:00:00Z')).map(([d, t]) => `${d}T${t}`),
  fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `2026-06-15T${pad(h, 2)}:${pad(m, 2)}:00Z`),
  fc.integer({ min: 60, max: 99 }).map((m) => `2026-06-15T10:${pad(m, 2)}:00Z`),
  fc.integer({ min: 60, max: 99 }).map((s) => `2026-06-15T10:00:${pad(s, 2)}Z`),
  fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 24, max: 99 })).map(([sg, h]) => `2026-06-15T10:00:00${sg}${pad(h, 2)}:00`),
);

/** A random invalid value for one field, or undefined when fast-check has nothing for its schema. */
function randomFieldValue(spec: Spec, s: Schema): fc.Arbitrary<Mut> | undefined {
  const t = typesOf(s);
  if (!t) return undefined;
  const arbs: fc.Arbitrary<Mut>[] = [];
  if (t.has('string')) {
    arbs.push(hostileString.map((v) => ({ cls: /\u0000/.test(v) ? 'string: NUL' : 'string: lone surrogate', value: v, expect: 'reject' as const })));
    if (s.format === 'date') arbs.push(impossibleDate.map((v) => ({ cls: 'date: impossible calendar date', value: v, expect: 'reject' as const })));
    if (s.format === 'date-time') arbs.push(impossibleDateTime.map((v) => ({ cls: 'date-time: impossible', value: v, expect: 'reject' as const })));
    if (Array.isArray(s.enum)) arbs.push(fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !s.enum.includes(v)).map((v) => ({ cls: 'enum: outsider', value: v, expect: 'reject' as const })));
    if (typeof s.maxLength === 'number') arbs.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 64 }).map((n) => ({ cls: 'bound: maxLength+1', value: 'y'.repeat(n), expect: 'reject' as const })));
  }
  if (t.has('number') || t.has('integer')) {
    const intOnly = t.has('integer') && !t.has('number');
    if (typeof s.maximum === 'number') arbs.push(fc.double({ min: s.maximum + 1, max: 1e300, noNaN: true, noDefaultInfinity: true }).map((v) => ({ cls: 'bound: maximum+1', value: intOnly ? Math.floor(v) : v, expect: 'reject' as const })));
    const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
    if (lo !== undefined) arbs.push(fc.double({ min: -1e300, max: lo - 1, noNaN: true, noDefaultInfinity: true }).map((v) => ({ cls: 'bound: minimum-1', value: intOnly ? Math.ceil(v) : v, expect: 'reject' as const })));
    const min = typeof s.minimum === 'number' ? s.minimum : -1e6;
    const max = typeof s.maximum === 'number' ? s.maximum : 1e6;
    if (intOnly && max - min >= 1) {
      arbs.push(fc.double({ min, max, noNaN: true, noDefaultInfinity: true, noInteger: true }).map((v) => ({ cls: 'integer: fraction', value: v, expect: 'reject' as const })));
    }
    arbs.push(fc.constantFrom('1e309', '-1e309', '1E400', '-9e999').map((v) => ({ cls: 'number: non-finite (1e309)', value: new RawJson(v), expect: 'reject' as const })));
  }
  if (t.has('boolean')) arbs.push(fc.constantFrom<unknown>('true', 'false', 1, 0, 'yes').map((v) => ({ cls: `type: ${typeof v} for boolean`, value: v, expect: 'reject' as const })));
  if (t.has('object') && isFreeForm(s)) {
    arbs.push(fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }).map((v) => ({ cls: Object.keys(v).some((k) => k.includes(NUL)) ? 'key: NUL' : 'key: lone surrogate', value: v, expect: 'reject' as const })));
    const maxDepth = typeof s['x-max-depth'] === 'number' ? s['x-max-depth'] : 64;
    arbs.push(fc.integer({ min: maxDepth + 1, max: maxDepth + 200 }).map((d) => ({ cls: 'object: deep', value: new RawJson(deepText(d), `<object nested ${d} levels>`), expect: 'reject' as const })));
  }
  if (!t.has('null')) arbs.push(fc.constant({ cls: 'type: null where not nullable', value: null, expect: 'reject' as const }));
  return arbs.length ? fc.oneof(...arbs) : undefined;
}

/** fast-check arbitrary of random attacks on one operation (fields, query, path, cursor). */
export function randomAttacks(ctx: AttackContext): fc.Arbitrary<Attack> | undefined {
  const { spec, op, base } = ctx;
  const b0 = baseReq(base);
  const arbs: fc.Arbitrary<Attack>[] = [];
  if (op.body && base.body !== undefined) {
    const root = op.body.schema;
    for (const f of bodyFields(spec, root, base.body, ctx.idFor)) {
      const arb = randomFieldValue(spec, f.schema);
      if (!arb) continue;
      const target = dotted(f.path);
      arbs.push(
        arb.map((m) => ({
          cls: m.cls, where: 'body' as const, target, expect: m.expect, param: target, random: true, avoid: avoidFor(m.value),
          req: { ...b0, headers: { ...b0.headers, 'Content-Type': 'application/json' }, body: jsonBytes(withValue(ctx, root, base.body, f.path, m.value)) },
        })),
      );
    }
  }
  for (const p of op.params.filter((x) => x.in === 'query')) {
    const t = typesOf(p.schema);
    const arb: fc.Arbitrary<{ cls: string; raw: string }> =
      t?.has('integer') || t?.has('number')
        ? fc.oneof(
            fc.integer({ min: (p.schema.maximum ?? 1e6) + 1, max: Number.MAX_SAFE_INTEGER }).map((v) => ({ cls: `query: ${p.name} above maximum`, raw: String(v) })),
            fc.integer({ min: Number.MIN_SAFE_INTEGER, max: (p.schema.minimum ?? -1e6) - 1 }).map((v) => ({ cls: `query: ${p.name} below minimum`, raw: String(v) })),
            fc.double({ min: p.schema.minimum ?? 0, max: p.schema.maximum ?? 1e6, noNaN: true, noInteger: true }).map((v) => ({ cls: `query: ${p.name} fraction`, raw: String(v) })),
          )
        : t?.has('boolean')
          ? fc.string({ minLength: 1, maxLength: 8 }).filter((v) => v !== 'true' && v !== 'false').map((v) => ({ cls: 'query: boolean garbage', raw: pct(v) }))
          : p.name === 'cursor'
            ? fc.oneof(
                fc.base64String({ minLength: 4, maxLength: 120 }).map((v) => ({ cls: 'cursor: random base64', raw: pct(v) })),
                fc.tuple(fc.base64String({ minLength: 4, maxLength: 80 }), fc.stringMatching(/^[0-9a-f]{32}$/)).map(([a, b]) => ({ cls: 'cursor: random base64', raw: pct(`${a.replace(/=+$/, '')}.${b}`) })),
              )
            : fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom('%00', '%ED%A0%80', '%ED%B0%80', '%FF', '%C0%80'), fc.string({ maxLength: 10 })).map(([a, h, b]) => ({
                cls: h === '%00' ? 'query: NUL' : h.startsWith('%ED') ? 'query: lone surrogate (UTF-8 encoded)' : 'query: invalid UTF-8', raw: `${pct(a)}${h}${pct(b)}`,
              }));
    arbs.push(arb.map(({ cls, raw }) => ({ cls, where: 'query' as const, target: p.name, expect: 'reject' as const, param: p.name, random: true, semantic: cls.startsWith('cursor:'), req: { ...b0, query: `${encodeURIComponent(p.name)}=${raw}` } })));
  }
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const re = p.schema.pattern ? new RegExp(p.schema.pattern, 'u') : undefined;
    arbs.push(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })
        .filter((v) => (re ? !re.test(v) : false) && v !== '.' && !/[/\\?#]/.test(v))
        .map((v) => ({ cls: 'path: random garbage', where: 'path' as const, target: p.name, expect: 'reject' as const, param: p.name, allow404: true, random: true, req: { ...b0, path: renderPath(base.template, base.pathParams, { [p.name]: pct(v) }) } })),
    );
  }
  return arbs.length ? fc.oneof(...arbs) : undefined;
}

/** FNV-1a, to give each operation its own stable seed derived from the run's seed. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
