import { expect } from 'vitest';
import type { Worker } from '../../src/jobs/worker';
import type { Harness } from './harness';
import type { SmtpSink } from './smtp-sink';

// Signing in to the app (/app) as a browser would, through supertest against the harness's app:
// the sign-in page's cookie and CSRF token, the email form, the code (read from the real SMTP sink
// after the worker sent it, or, for an email whose every account is in a test location and no sink
// given, from the page), the location chooser when the email has several accounts. Answers a
// session whose requests carry its cookie and, for posts, the same-origin Origin and its `_csrf`.

export type AppResponse = { status: number; text: string; headers: Record<string, string | string[] | undefined>; location: string | undefined };

export interface AppSession {
  cookie: string;
  csrf: string;
  get(path: string): Promise<AppResponse>;
  /** A form post; `origin: null` sends none, `csrf: null` sends no token (or a given one). */
  post(path: string, form?: Record<string, string | string[]>, opts?: { origin?: string | null; referer?: string; csrf?: string | null }): Promise<AppResponse>;
}

const hidden = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(text)?.[1] ?? '';
const cookiesOf = (headers: Record<string, unknown>): string[] => ([] as string[]).concat((headers['set-cookie'] as string[] | undefined) ?? []);

/** The form body as a browser encodes it. */
export function formBody(form: Record<string, string | string[]>): string {
  return new URLSearchParams(Object.entries(form).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]]))).toString();
}

/** A browser's requests to the app: its cookies kept, the origin of the harness's public address. */
export function appBrowser(h: Harness, initialCookies: Record<string, string> = {}) {
  const jar = new Map<string, string>(Object.entries(initialCookies));
  const origin = new URL(h.deps.publicBaseUrl).origin;
  const keep = (headers: Record<string, unknown>) => {
    for (const line of cookiesOf(headers)) {
      const [pair, ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
      else jar.set(name, pair.slice(i + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const done = (res: { status: number; text: string; headers: Record<string, string | string[] | undefined> }): AppResponse => {
    keep(res.headers);
    return { status: res.status, text: res.text, headers: res.headers, location: res.headers.location as string | undefined };
  };
  return {
    jar,
    cookie,
    async get(path: string): Promise<AppResponse> {
      const req = h.api.get(path);
      if (jar.size) req.set('Cookie', cookie());
      return done(await req);
    },
    async post(path: string, form: Record<string, string | string[]> = {}, opts: { origin?: string | null; referer?: string } = {}): Promise<AppResponse> {
      const req = h.api.post(path).type('form');
      if (jar.size) req.set('Cookie', cookie());
      if (opts.origin !== null) req.set('Origin', opts.origin ?? origin);
      if (opts.referer) req.set('Referer', opts.referer);
      return done(await req.send(formBody(form)));
    },
  };
}

/**
 * Signs in as `email`. With `sink` and `worker`, the code is the one the worker delivered to the
 * sink; otherwise the one a test location shows on the page. `location` picks the account when the
 * email has several (by location id).
 */
export async function signInApp(h: Harness, o: { email: string; sink?: SmtpSink; worker?: Worker; location?: string }): Promise<AppSession> {
  const b = appBrowser(h);
  const start = await b.get('/app/sign-in');
  expect(start.status).toBe(200);
  const signInCsrf = hidden(start.text, '_csrf');
  const before = o.sink?.inbox.length ?? 0;
  const sent = await b.post('/app/sign-in', { _csrf: signInCsrf, email: o.email });
  expect(sent.status, sent.text).toBe(200);
  const signIn = hidden(sent.text, 'sign_in');
  let code: string | undefined;
  if (o.sink && o.worker) {
    await o.worker.drain();
    const mail = o.sink.inbox.slice(before).find((m) => m.rcpt.includes(o.email.toLowerCase()));
    expect(mail, 'the sign-in code was emailed').toBeDefined();
    code = /\b(\d{6})\b/.exec(mail!.mail.text ?? '')?.[1];
  } else {
    code = /your code is <strong>(\d{6})<\/strong>/.exec(sent.text)?.[1];
  }
  expect(code, 'a sign-in code').toMatch(/^\d{6}$/);
  let verified = await b.post('/app/verify', { _csrf: signInCsrf, sign_in: signIn, code: code! });
  if (verified.status === 200 && verified.text.includes('action="/app/choose"')) {
    const options = [...verified.text.matchAll(/name="account" value="([^"]+)"/g)].map((m) => m[1]);
    const users = await h.knex('users').whereIn('id', options).select('id', 'location_id');
    const chosen = o.location ? users.find((u: { location_id: string }) => u.location_id === o.location)?.id : options[0];
    expect(chosen, 'the location to sign in to is offered').toBeDefined();
    verified = await b.post('/app/choose', { _csrf: signInCsrf, sign_in: signIn, account: chosen });
  }
  expect(verified.status, verified.text).toBe(303);
  expect(verified.location).toBe('/app');
  const home = await b.get('/app');
  expect(home.status).toBe(303);
  const page = await b.get(home.location!);
  expect(page.status, page.text).toBe(200);
  const csrf = hidden(page.text, '_csrf');
  expect(csrf).toMatch(/^[0-9a-f]{64}$/);
  return {
    cookie: b.cookie(),
    csrf,
    get: (path) => b.get(path),
    post: (path, form = {}, opts = {}) => b.post(path, { ...(opts.csrf === null ? {} : { _csrf: opts.csrf ?? csrf }), ...form }, opts),
  };
}
