// Verdicts: what an answer owes each attack (never a 5xx, the error envelope, nothing hostile echoed).
import { describeBody } from './json';
import { type Attack, NUL, type Req } from './model';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  text: string;
  json?: any;
}

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Every string (keys included) of a parsed JSON value. */
function stringsIn(v: unknown, acc: string[] = []): string[] {
  if (typeof v === 'string') acc.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, acc));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) acc.push(k), stringsIn(x, acc);
  return acc;
}

/** What is wrong with the answer to an attack (empty: fine). */
export function judge(a: Attack, res: Res, opts: { pending: boolean; errorTypes: string[] }): string[] {
  const problems: string[] = [];
  const s = res.status;
  const err = res.json && typeof res.json === 'object' ? res.json.error : undefined;
  if (s === 501 && opts.pending && err?.code === 'not_implemented') {
    if (a.expect === 'reject' && !a.semantic) problems.push('501 not_implemented for invalid input (validation must answer 400 first)');
    return problems;
  }
  if (s >= 500) problems.push(`${s}${err?.code ? ` ${err.code}` : ''}`);
  else if (s >= 200 && s < 300) {
    if (a.expect === 'reject') problems.push(`${s} accepted`);
    return problems;
  } else if (s < 400) {
    problems.push(`unexpected status ${s}`);
    return problems;
  }
  // An error: the envelope, the param, no echo of hostile bytes.
  const env = res.json;
  const keys = env && typeof env === 'object' && !Array.isArray(env) ? Object.keys(env) : [];
  if (!err || typeof err !== 'object' || keys.length !== 1) problems.push(`no error envelope: ${res.text.slice(0, 120)}`);
  else {
    const extra = Object.keys(err).filter((k) => !['type', 'message', 'code', 'param', 'request_id'].includes(k));
    if (!opts.errorTypes.includes(err.type)) problems.push(`envelope: type ${JSON.stringify(err.type)} not in the contract's enum`);
    if (typeof err.message !== 'string' || !err.message) problems.push('envelope: message missing');
    if (typeof err.request_id !== 'string' || !err.request_id) problems.push('envelope: request_id missing');
    if (err.code !== undefined && typeof err.code !== 'string') problems.push('envelope: code not a string');
    if (err.param !== undefined && typeof err.param !== 'string') problems.push('envelope: param not a string');
    if (extra.length) problems.push(`envelope: unexpected keys ${extra.join(',')}`);
    if (s < 500 && a.expect === 'reject' && a.param !== undefined && !(a.allow404 && s === 404)) {
      const p = err.param;
      const ok = typeof p === 'string' && (p === a.param || p.startsWith(`${a.param}.`) || a.param.startsWith(`${p}.`) && /^\d+$/.test(a.param.slice(p.length + 1).split('.')[0]));
      if (!ok && s !== 400 && s !== 413 && s !== 415) problems.push(`${s} ${err.code ?? err.type}: the invalid value passed validation (expected 400 naming ${a.param})`);
      else if (!ok) problems.push(p === undefined ? `param missing (expected ${a.param})` : `param ${JSON.stringify(p)} (expected ${a.param})`);
    }
  }
  if (res.raw.includes(0)) problems.push('echo: raw NUL byte in the response');
  const strings = res.json !== undefined ? stringsIn(res.json) : [res.text];
  if (strings.some((x) => x.includes(NUL))) problems.push('echo: NUL in the response');
  if (strings.some((x) => LONE_SURROGATE.test(x))) problems.push('echo: lone surrogate in the response');
  if (strings.some((x) => x.includes('\ufffd'))) problems.push('echo: U+FFFD (a mangled hostile value) in the response');
  for (const v of a.avoid ?? []) if (res.text.includes(v)) problems.push('echo: the long hostile value is echoed');
  return problems;
}

export function describeReq(r: Req): string {
  const q = r.query ? `?${r.query}` : '';
  const path = `${r.path}${q}`;
  const shownPath = path.length > 200 ? `${path.slice(0, 200)}...(${path.length} chars)` : path;
  const hdrs = Object.entries(r.headers)
    .filter(([k]) => !['authorization', 'x-request-id', 'content-type'].includes(k.toLowerCase()) || (k.toLowerCase() === 'content-type' && r.headers[k] !== 'application/json'))
    .map(([k, v]) => ` -H '${k}: ${v.length > 60 ? `${v.slice(0, 60)}...(${v.length})` : v}'`)
    .join('');
  return `${r.method.toUpperCase()} ${shownPath}${hdrs}${r.body !== undefined ? ` body=${describeBody(r.body)}` : ''}`;
}
