import { guardedRequest, type OutboundResponse } from '../../outbound/http';
import type { OfferTerms } from '../offers/offers.service';
import { FUNDER_STATES, type AdapterContext, type FunderAdapter, type FunderErrorCode, type FunderResult, type FunderState } from './adapter';

// The generic HTTP JSON adapter: a real funder is configured by its base URLs, paths and field
// mappings (an integration definition: built in, or from the operator's FUNDER_INTEGRATIONS_FILE),
// not by code. Every request goes through the guarded HTTP client under the location's address
// policy (no private or loopback address outside test locations; no redirects; bounded time and
// size), exactly like webhook deliveries.
//
// Mapping language, kept small on purpose:
//   - request bodies are JSON templates: a string value "$field" is replaced by that application
//     field (numbers stay numbers, `$owners` is an array); "$credentials.key" by a credential;
//     every other value is sent as written;
//   - header values and paths interpolate "{{key}}" (credentials in headers, `{{external_id}}`
//     in status paths, URL-encoded);
//   - answers are read by dot paths ("data.application.id").
//
// Failures are classified here: 401/403 auth_failed; 400/409/422 validation (with the funder's field
// errors in the message); 408/429/5xx and any other answer funder_error, as is a 2xx that is not
// JSON or lacks the application id; a timeout timeout; refused, reset, DNS and TLS failures network;
// an address the location's policy refuses config (the integration cannot be reached from here).

export interface HttpIntegrationMapping {
  /** Dot path of the funder's status string. */
  status: string;
  deep_link_url?: string;
  message?: string;
  requested_items?: string;
  /** Dot path of an array of offers, read with `offer_fields`. */
  offers?: string;
}

export interface HttpIntegrationDefinition {
  base_url: { production: string; development?: string };
  /** Sent on every request; values interpolate {{credential_key}}. */
  headers?: Record<string, string>;
  /** Default 10000, at most 30000. */
  timeout_ms?: number;
  submit: { method?: 'POST' | 'PUT'; path: string; body: unknown; external_id: string } & Partial<HttpIntegrationMapping>;
  status: { method?: 'GET' | 'POST'; path: string } & HttpIntegrationMapping;
  /** Funder status string (compared without case) -> normalised state; unknown strings count as in_review. */
  status_map: Record<string, FunderState>;
  offer_fields?: Partial<Record<'amount' | 'factor_rate' | 'term' | 'term_unit' | 'payment_frequency' | 'payment_amount' | 'position' | 'notes' | 'expires_at', string>>;
}

const MAX_RESPONSE_BYTES = 256 * 1024;
const MAX_MESSAGE = 1000;

/** A definition's problems (empty when it is usable), for the operator at start. */
export function definitionProblems(d: HttpIntegrationDefinition, credentialKeys: string[]): string[] {
  const problems: string[] = [];
  const checkUrl = (u: unknown, name: string) => {
    if (u === undefined) return;
    try {
      const url = new URL(String(u));
      if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push(`${name} must be an http(s) URL`);
    } catch {
      problems.push(`${name} is not a URL`);
    }
  };
  if (!d.base_url || typeof d.base_url !== 'object') problems.push('base_url.production is required');
  else {
    if (!d.base_url.production) problems.push('base_url.production is required');
    checkUrl(d.base_url.production, 'base_url.production');
    checkUrl(d.base_url.development, 'base_url.development');
  }
  if (!d.submit?.path || !d.submit.external_id) problems.push('submit.path and submit.external_id are required');
  if (!d.status?.path || !d.status.status) problems.push('status.path and status.status are required');
  if (d.timeout_ms !== undefined && !(Number.isInteger(d.timeout_ms) && d.timeout_ms >= 100 && d.timeout_ms <= 30_000)) problems.push('timeout_ms must be an integer from 100 to 30000');
  for (const [k, v] of Object.entries(d.status_map ?? {})) if (!FUNDER_STATES.includes(v)) problems.push(`status_map.${k} must be one of ${FUNDER_STATES.join(', ')}`);
  const used = [...JSON.stringify(d.headers ?? {}).matchAll(/\{\{([a-z0-9_]+)\}\}/gi), ...JSON.stringify(d.submit?.body ?? null).matchAll(/\$credentials\.([a-z0-9_]+)/gi)].map((m) => m[1]);
  for (const k of used) if (!credentialKeys.includes(k)) problems.push(`credential '${k}' is used but not in credential_spec`);
  return problems;
}

/** Reads a dot path ("a.b.0.c"). */
export function pick(value: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  let v: unknown = value;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : null);

function render(template: unknown, app: Record<string, unknown>, creds: Record<string, string>): unknown {
  if (typeof template === 'string') {
    if (template.startsWith('$credentials.')) return creds[template.slice(13)] ?? null;
    if (template.startsWith('$') && template.length > 1) return app[template.slice(1)] ?? null;
    return template;
  }
  if (Array.isArray(template)) return template.map((t) => render(t, app, creds));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, render(v, app, creds)]));
  return template;
}

const interpolate = (text: string, values: Record<string, string>, encode = false) =>
  text.replace(/\{\{([a-z0-9_]+)\}\}/gi, (_, k: string) => (encode ? encodeURIComponent(values[k] ?? '') : (values[k] ?? '')));

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The funder's message from an error body: message, error.message, error, detail or title; plus field errors. */
export function funderMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const text = str(pick(body, 'message')) ?? str(pick(body, 'error.message')) ?? str(pick(body, 'error')) ?? str(pick(body, 'detail')) ?? str(pick(body, 'title'));
  const raw = pick(body, 'errors') ?? pick(body, 'error.errors') ?? pick(body, 'field_errors');
  const fields: string[] = [];
  if (Array.isArray(raw)) {
    for (const e of raw.slice(0, 20)) {
      if (typeof e === 'string') fields.push(e);
      else if (e && typeof e === 'object') {
        const f = str(pick(e, 'field')) ?? str(pick(e, 'param')) ?? str(pick(e, 'path'));
        const m = str(pick(e, 'message')) ?? str(pick(e, 'msg')) ?? '';
        fields.push(f ? `${f}: ${m}` : m);
      }
    }
  } else if (raw && typeof raw === 'object') {
    for (const [f, m] of Object.entries(raw).slice(0, 20)) fields.push(`${f}: ${Array.isArray(m) ? m.join(', ') : String(m)}`);
  }
  const all = [text, fields.filter(Boolean).join('; ') || null].filter(Boolean).join(' - ');
  return all ? all.slice(0, MAX_MESSAGE) : null;
}

function failureOf(res: OutboundResponse, timeoutMs: number): { code: FunderErrorCode; message: string } {
  const err = res.error!;
  let code: FunderErrorCode;
  if (err.code === 'timeout') code = 'timeout';
  else if (err.code === 'blocked_address') code = 'config';
  else if (err.code !== 'http_error') code = 'network';
  else if (res.status === 401 || res.status === 403) code = 'auth_failed';
  else if (res.status === 400 || res.status === 409 || res.status === 422) code = 'validation';
  else code = 'funder_error';
  let message = err.code === 'timeout' ? `The funder did not answer within ${timeoutMs} ms` : err.message;
  if (err.code === 'http_error' && res.body?.length) {
    try {
      const told = funderMessage(JSON.parse(res.body.toString('utf8')));
      if (told) message = `HTTP ${res.status}: ${told}`;
    } catch {
      // not JSON: the fixed sentence says what happened
    }
  }
  return { code, message: message.slice(0, MAX_MESSAGE) };
}

function stateOf(def: HttpIntegrationDefinition, status: string | null): FunderState {
  if (!status) return 'in_review';
  const wanted = status.trim().toLowerCase();
  const hit = Object.entries(def.status_map).find(([k]) => k.trim().toLowerCase() === wanted);
  return hit ? hit[1] : 'in_review';
}

function offersOf(def: HttpIntegrationDefinition, body: unknown, path: string | undefined): OfferTerms[] | undefined {
  const list = pick(body, path);
  if (!Array.isArray(list)) return undefined;
  const f = { amount: 'amount', factor_rate: 'factor_rate', term: 'term', term_unit: 'term_unit', payment_frequency: 'payment_frequency', payment_amount: 'payment_amount', position: 'position', notes: 'notes', expires_at: 'expires_at', ...def.offer_fields };
  return list.slice(0, 20).map((o) => {
    const terms: Record<string, unknown> = { amount: Number(pick(o, f.amount)), factor_rate: Number(pick(o, f.factor_rate)), term: Number(pick(o, f.term)) };
    for (const k of ['term_unit', 'payment_frequency', 'notes', 'expires_at'] as const) {
      const v = pick(o, f[k]);
      if (typeof v === 'string' && v) terms[k] = k === 'term_unit' || k === 'payment_frequency' ? v.toLowerCase() : v;
    }
    for (const k of ['payment_amount', 'position'] as const) {
      const v = pick(o, f[k]);
      if (v !== undefined && v !== null && v !== '') terms[k] = Number(v);
    }
    return terms as unknown as OfferTerms;
  });
}

function answerOf(def: HttpIntegrationDefinition, body: unknown, m: Partial<HttpIntegrationMapping>, externalId: string | null): FunderResult {
  const funderStatus = str(pick(body, m.status));
  const items = pick(body, m.requested_items);
  const link = str(pick(body, m.deep_link_url));
  return {
    ok: true,
    external_id: externalId,
    funder_status: funderStatus,
    state: stateOf(def, funderStatus),
    deep_link_url: link && /^https?:\/\//i.test(link) ? link.slice(0, 2000) : null,
    message: str(pick(body, m.message))?.slice(0, MAX_MESSAGE) ?? null,
    requested_items: Array.isArray(items) ? items.map(String).slice(0, 50) : undefined,
    offers: offersOf(def, body, m.offers),
  };
}

export function httpJsonAdapter(def: HttpIntegrationDefinition): FunderAdapter {
  const timeoutMs = def.timeout_ms ?? 10_000;

  async function call(ctx: AdapterContext, method: string, path: string, body: unknown, idempotencyKey?: string): Promise<{ ok: true; json: unknown } | { ok: false; failure: FunderResult }> {
    const creds = ctx.credentials();
    const base = ctx.environment === 'development' && def.base_url.development ? def.base_url.development : def.base_url.production;
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'svc-funder-client/1' };
    // The application's send carries the attempt id, so a funder that honours keys never gets one attempt twice.
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    for (const [k, v] of Object.entries(def.headers ?? {})) headers[k] = interpolate(v, creds);
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await guardedRequest({ url: joinUrl(base, path), policy: ctx.policy, method: method as 'GET', headers, body: payload, timeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES });
    if (!res.ok) {
      const f = failureOf(res, timeoutMs);
      return { ok: false, failure: { ok: false, error_code: f.code, error_message: f.message } };
    }
    if (res.truncated) return { ok: false, failure: { ok: false, error_code: 'funder_error', error_message: `The funder's answer was larger than ${MAX_RESPONSE_BYTES / 1024} KB` } };
    try {
      const json = JSON.parse(res.body?.toString('utf8') || 'null') as unknown;
      if (!json || typeof json !== 'object') throw new Error('not an object');
      return { ok: true, json };
    } catch {
      return { ok: false, failure: { ok: false, error_code: 'funder_error', error_message: `The funder answered HTTP ${res.status} with malformed JSON` } };
    }
  }

  return {
    async submit(ctx) {
      const app = ctx.application as unknown as Record<string, unknown>;
      const r = await call(ctx, def.submit.method ?? 'POST', def.submit.path, render(def.submit.body, app, ctx.credentials()), ctx.attemptId);
      if (!r.ok) return r.failure;
      const externalId = str(pick(r.json, def.submit.external_id));
      if (!externalId) return { ok: false, error_code: 'funder_error', error_message: `The funder's answer has no application id at '${def.submit.external_id}'` };
      const answer = answerOf(def, r.json, def.submit, externalId.slice(0, 200));
      // A submit answer without a status means the funder has it: received.
      if (answer.ok && !answer.funder_status) answer.state = 'received';
      return answer;
    },
    async status(ctx, externalId) {
      const path = interpolate(def.status.path, { external_id: externalId }, true);
      const r = await call(ctx, def.status.method ?? 'GET', path, def.status.method === 'POST' ? { external_id: externalId } : undefined);
      if (!r.ok) return r.failure;
      return answerOf(def, r.json, def.status, externalId);
    },
  };
}
