// Query and path parameter attacks, percent-encoded as sent.
import { type ParamInfo, typesOf } from './spec';
import type { AttackContext } from './model';
import { numberBoundsOk, patternMismatch } from './body';

/** Percent-encodes every byte of the string's UTF-8 except unreserved characters. */
export function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

interface QueryMut {
  cls: string;
  expect: 'reject' | 'survive';
  query: string;
  semantic?: boolean;
}

export function queryMutations(p: ParamInfo, ctx: AttackContext): QueryMut[] {
  const s = p.schema;
  const t = typesOf(s);
  const n = encodeURIComponent(p.name);
  const out: QueryMut[] = [];
  const one = (cls: string, raw: string, expect: 'reject' | 'survive' = 'reject') => out.push({ cls, expect, query: `${n}=${raw}`, semantic: cls.startsWith('cursor:') });
  if (t?.has('integer') || t?.has('number')) {
    const canonical = (v: string) => /^-?(0|[1-9][0-9]*)$/.test(v) && numberBoundsOk(s, Number(v)) && (!t.has('integer') || Number.isSafeInteger(Number(v)));
    const vals = ['1e309', 'Infinity', '-Infinity', 'NaN', '-1', '0', '2.5', 'abc', ''];
    if (typeof s.maximum === 'number') vals.push(String(s.maximum + 1));
    if (typeof s.minimum === 'number') vals.push(String(s.minimum - 1));
    vals.push('9007199254740993');
    for (const v of [...new Set(vals)]) one(`query: ${p.name}=${v === '' ? '(empty)' : v}`, encodeURIComponent(v), canonical(v) ? 'survive' : 'reject');
    out.push({ cls: `query: ${p.name} repeated`, expect: 'reject', query: `${n}=1&${n}=2` });
    out.push({ cls: `query: ${p.name} as object`, expect: 'reject', query: `${n}%5Ba%5D=1` });
  } else if (t?.has('boolean')) {
    for (const v of ['maybe', '1', 'TRUE', '']) one(`query: boolean ${v === '' ? '(empty)' : v}`, v);
    out.push({ cls: 'query: boolean repeated', expect: 'reject', query: `${n}=true&${n}=false` });
  } else {
    const enumVals: unknown[] | undefined = s.enum;
    const isCursor = p.name === 'cursor';
    if (enumVals) one('query: enum outsider', 'zzz_not_in_enum');
    if (s.pattern) {
      const bad = patternMismatch(s.pattern, p.example ?? ctx.idFor(s.pattern));
      if (bad !== undefined) one('query: pattern mismatch', pct(bad));
    }
    if (s.format === 'email') one('query: bad email', 'not-an-email');
    if (typeof s.maxLength === 'number') one('query: maxLength+1', 'x'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0) one('query: empty string', '');
    one('query: NUL', '%00');
    one('query: NUL', 'a%00b');
    one('query: lone surrogate (UTF-8 encoded)', 'a%ED%A0%80');
    one('query: invalid UTF-8', 'a%FF%FE');
    one('query: malformed percent-encoding', 'a%E0%A4%A');
    out.push({ cls: `query: ${isCursor ? 'cursor' : 'string'} repeated`, expect: 'reject', query: `${n}=a&${n}=b` });
    out.push({ cls: `query: ${isCursor ? 'cursor' : 'string'} as object`, expect: 'reject', query: `${n}%5B%24ne%5D=x` });
    if (isCursor) {
      one('cursor: random base64', pct(Buffer.from('{"l":"businesses","t":"2026-01-01T00:00:00.000Z","i":"biz_x"}').toString('base64url')));
      one('cursor: random base64', pct(`${Buffer.from('hello world').toString('base64url')}.${'0'.repeat(32)}`));
      one('cursor: random base64', 'a.b.c');
      const sig = (c: string) => {
        const i = c.lastIndexOf('.');
        const last = c[c.length - 1] === '0' ? '1' : '0';
        return i > 0 ? `${c.slice(0, -1)}${last}` : `${c}x`;
      };
      one('cursor: altered signature', pct(sig(ctx.cursors.own ?? ctx.cursors.other)));
      if (ctx.cursors.own) {
        // Payload altered, signature kept.
        const [payload, signature] = ctx.cursors.own.split('.');
        const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...body, i: `${String(body.i)}0` })).toString('base64url');
        one('cursor: altered payload', pct(`${forged}.${signature}`));
      }
      one('cursor: of another list', pct(ctx.cursors.other));
    }
  }
  return out;
}

interface PathMut {
  cls: string;
  encoded: string;
}
export function pathMutations(p: ParamInfo, valid: string): PathMut[] {
  const m = /^\^([a-z]+)_/.exec(p.schema.pattern ?? '');
  const prefix = m ? `${m[1]}_` : '';
  const rest = prefix && valid.startsWith(prefix) ? valid.slice(prefix.length) : valid;
  const out: PathMut[] = [];
  if (prefix) out.push({ cls: 'path: wrong prefix', encoded: pct(`zzz_${rest}`) });
  out.push({ cls: 'path: NUL', encoded: '%00' });
  out.push({ cls: 'path: NUL', encoded: `${pct(valid.slice(0, 5))}%00${pct(valid.slice(5))}` });
  out.push({ cls: 'path: dot segment', encoded: '..' });
  out.push({ cls: 'path: very long', encoded: pct(`${prefix}${'A'.repeat(5000)}`) });
  out.push({ cls: 'path: unicode', encoded: pct(`${prefix}\u00c5\u00c9\u00ce${rest.slice(3)}`) });
  out.push({ cls: 'path: unicode', encoded: pct(`${prefix}\u{1F600}${rest.slice(2)}`) });
  out.push({ cls: 'path: lone surrogate (UTF-8 encoded)', encoded: `${pct(prefix)}%ED%A0%80${pct(rest.slice(1))}` });
  out.push({ cls: 'path: malformed percent-encoding', encoded: `${pct(valid)}%zz` });
  out.push({ cls: 'path: malformed percent-encoding', encoded: `${pct(prefix)}%E0%A4%A` });
  out.push({ cls: 'path: lower case', encoded: pct(valid.toLowerCase()) });
  out.push({ cls: 'path: trailing space', encoded: `${pct(valid)}%20` });
  out.push({ cls: 'path: SQL-ish', encoded: pct(`${valid}' OR '1'='1`) });
  const re = p.schema.pattern ? new RegExp(p.schema.pattern, 'u') : undefined;
  const stillValid = (encoded: string) => {
    try {
      return re ? re.test(decodeURIComponent(encoded)) : false;
    } catch {
      return false; // not decodable: certainly not valid
    }
  };
  return out.filter((x) => x.encoded !== pct(valid) && !stillValid(x.encoded));
}
