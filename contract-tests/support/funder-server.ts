import http from 'node:http';
import type { Socket } from 'node:net';
import type { HttpIntegration } from '../../src/features/lenders/funder-specs';

/**
 * A real HTTP JSON funder on 127.0.0.1 (port 0), for the generic HTTP adapter
 * (src/features/funders/http.adapter.ts): `POST /applications` takes an application and answers its
 * id; `GET /applications/{id}` answers where it stands. Unscripted, an application lives a normal
 * life: Received on submit, then one step per status request: Under Review, Approved with offers,
 * Approved again (the same offers), Funded (and Funded from then on).
 *
 * Every request is recorded (method, path, headers, raw and parsed body). A test scripts the next
 * answers of one application (by its `reference`, the submission id; status requests are matched by
 * the external id the funder gave that reference) or of any application (`'*'`): a status and a JSON
 * body, a raw non-JSON body, a delay before answering, or a destroyed socket (a reset). Scripted
 * answers are used in order, each once; after them the normal life cycle answers again.
 */

export interface FunderRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The JSON body, null when there was none or it was not JSON. */
  body: any;
  kind: 'submit' | 'status' | 'other';
  /** The application's reference (submission id): from the body on submit, from the external id on status. */
  reference: string | null;
  externalId: string | null;
}

export interface ScriptedAnswer {
  /** Default 200. */
  status?: number;
  /** A JSON body (serialised). */
  json?: unknown;
  /** A raw body, sent as is (text/plain unless `contentType`). */
  raw?: string;
  contentType?: string;
  /** Real milliseconds to wait before answering (beyond the integration's timeout_ms: a timeout). */
  delayMs?: number;
  /** Destroy the socket instead of answering (the client sees a reset). */
  destroy?: boolean;
}

/** An answer, or one made from the request (a funder echoing what it was sent). */
export type Script = ScriptedAnswer | ((req: FunderRequest) => ScriptedAnswer);

export const FUNDER_STATUSES = {
  received: 'Received',
  in_review: 'Under Review',
  needs_info: 'Docs Needed',
  approved: 'Approved',
  declined: 'Declined',
  funded: 'Funded',
  expired: 'Offer Expired',
} as const;

/** The offers an approved application carries (the funder's own field names): two of three identical. */
export const FUNDER_OFFERS = [
  { advance_amount: 50000, factor: 1.32, term: { length: 120, unit: 'DAYS' }, remit: { frequency: 'Daily', amount: 550 }, note: 'Standard' },
  { advance_amount: 50000, factor: 1.32, term: { length: 120, unit: 'DAYS' }, remit: { frequency: 'Daily', amount: 550 }, note: 'Standard' },
  { advance_amount: 40000, factor: 1.28, term: { length: 26, unit: 'Weeks' }, remit: { frequency: 'Weekly', amount: 1969.23 }, note: 'Weekly option' },
];

/** The status each status request answers, in order; the last repeats. */
const LIFE: (keyof typeof FUNDER_STATUSES)[] = ['in_review', 'approved', 'approved', 'funded'];

interface Application {
  id: string;
  reference: string | null;
  polls: number;
}

export interface LoopbackFunder {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  requests: FunderRequest[];
  /** Requests about one application (its reference), in arrival order. */
  requestsFor(reference: string): FunderRequest[];
  /** Queue answers to the next submits of `reference` (a submission id) or of any application ('*'). */
  onSubmit(reference: string, ...answers: Script[]): void;
  /** Queue answers to the next status requests of `reference` or of any application ('*'). */
  onStatus(reference: string, ...answers: Script[]): void;
  /** The funder's application id for a reference, once submitted. */
  externalIdOf(reference: string): string | undefined;
  /** Forgets requests and scripts (applications keep living). */
  reset(): void;
  close(): Promise<void>;
}

export async function startFunder(): Promise<LoopbackFunder> {
  const requests: FunderRequest[] = [];
  const apps = new Map<string, Application>(); // by external id
  const byRef = new Map<string, string>(); // reference -> external id
  const scripts = { submit: new Map<string, Script[]>(), status: new Map<string, Script[]>() };
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let n = 0;

  const take = (kind: 'submit' | 'status', reference: string | null): Script | undefined => {
    for (const key of [reference, '*']) {
      if (!key) continue;
      const queue = scripts[kind].get(key);
      if (queue?.length) return queue.shift();
    }
    return undefined;
  };

  const send = (res: http.ServerResponse, a: ScriptedAnswer) => {
    if (a.destroy) {
      res.socket?.destroy();
      return;
    }
    const status = a.status ?? 200;
    if (a.raw !== undefined) {
      res.writeHead(status, { 'Content-Type': a.contentType ?? 'text/plain' });
      res.end(a.raw);
    } else if (a.json !== undefined) {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(a.json));
    } else {
      res.writeHead(status);
      res.end();
    }
  };

  const answer = (res: http.ServerResponse, a: ScriptedAnswer) => {
    if (!a.delayMs) return send(res, a);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.socket || res.socket.destroyed) return; // the client gave up
      send(res, a);
    }, a.delayMs);
    timers.add(timer);
  };

  const portal = (id: string) => `https://portal.loopback-funder.example/applications/${id}`;
  const statusBody = (app: Application, state: keyof typeof FUNDER_STATUSES) => ({
    data: {
      application: { id: app.id, reference: app.reference },
      status: FUNDER_STATUSES[state],
      portal_url: portal(app.id),
      note: state === 'approved' ? 'Approved: see offers' : state === 'funded' ? 'Funds sent' : null,
      offers: state === 'approved' || state === 'funded' ? FUNDER_OFFERS : [],
    },
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const path = req.url ?? '/';
      const statusMatch = /^\/v1\/applications\/([^/?]+)$/.exec(path);
      const kind: FunderRequest['kind'] = req.method === 'POST' && path === '/v1/applications' ? 'submit' : req.method === 'GET' && statusMatch ? 'status' : 'other';
      const externalId = statusMatch ? decodeURIComponent(statusMatch[1]) : null;
      const reference = kind === 'submit' ? (typeof body?.reference === 'string' ? body.reference : null) : externalId ? (apps.get(externalId)?.reference ?? null) : null;
      const got: FunderRequest = { method: req.method ?? '', path, headers: req.headers, raw, body, kind, reference, externalId };
      requests.push(got);

      if (kind === 'other') return send(res, { status: 404, json: { error: { message: `No route ${req.method} ${path}` } } });
      const scripted = take(kind, reference);
      if (scripted) return answer(res, typeof scripted === 'function' ? scripted(got) : scripted);

      if (kind === 'submit') {
        // One application per reference: a resend of the same reference gets the same id.
        let id = reference ? byRef.get(reference) : undefined;
        if (!id) {
          id = `LF-${String(++n).padStart(5, '0')}`;
          apps.set(id, { id, reference, polls: 0 });
          if (reference) byRef.set(reference, id);
        }
        return send(res, { status: 201, json: { data: { application: { id, reference }, status: FUNDER_STATUSES.received, portal_url: portal(id) } } });
      }
      const app = apps.get(externalId!);
      if (!app) return send(res, { status: 404, json: { error: { message: `Unknown application ${externalId}` } } });
      const state = LIFE[Math.min(app.polls, LIFE.length - 1)];
      app.polls += 1;
      return send(res, { status: 200, json: statusBody(app, state) });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    base: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsFor: (reference) => requests.filter((r) => r.reference === reference),
    onSubmit: (reference, ...answers) => scripts.submit.set(reference, [...(scripts.submit.get(reference) ?? []), ...answers]),
    onStatus: (reference, ...answers) => scripts.status.set(reference, [...(scripts.status.get(reference) ?? []), ...answers]),
    externalIdOf: (reference) => byRef.get(reference),
    reset() {
      requests.length = 0;
      scripts.submit.clear();
      scripts.status.clear();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback port nothing listens on (bound, then released): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * The HTTP integration (the argument of `registerHttpIntegration`) of a loopback funder at `base`:
 * two secret credentials sent as headers, the funder's status strings mapped, its offers read with
 * its own field names. `timeout_ms` is small so a slow answer times out fast. Not test-only, so a
 * non-test location can select it (and then has its loopback address refused by the policy).
 */
export function funderIntegration(base: string, opts: { id?: string; timeoutMs?: number; requiredFields?: string[] } = {}): HttpIntegration {
  const url = `${base}/v1`;
  return {
    id: opts.id ?? 'loopback_funder',
    display_name: 'Loopback Funder (contract tests)',
    tier: 'B',
    capabilities: { polls: true, returns_offers: true, uploads_docs: false, sandbox: true, max_owners: 2 },
    credential_spec: [
      { key: 'api_key', label: 'API key', secret: true, hint: 'Starts with key_' },
      { key: 'partner_code', label: 'Partner code', secret: true, hint: 'Six digits' },
    ],
    required_fields: opts.requiredFields ?? ['business_name', 'requested_amount'],
    testOnly: false,
    http: {
      base_url: { production: url, development: url },
      headers: { Authorization: 'Bearer {{api_key}}', 'X-Partner-Code': '{{partner_code}}' },
      timeout_ms: opts.timeoutMs ?? 300,
      submit: {
        path: '/applications',
        body: {
          reference: '$reference',
          merchant: { legal_name: '$business_name', ein: '$ein', state: '$state' },
          funding: { amount: '$requested_amount', purpose: '$use_of_funds' },
          owners: '$owners',
          channel: 'iso-api',
        },
        external_id: 'data.application.id',
        status: 'data.status',
        deep_link_url: 'data.portal_url',
      },
      status: {
        path: '/applications/{{external_id}}',
        status: 'data.status',
        deep_link_url: 'data.portal_url',
        message: 'data.note',
        requested_items: 'data.stips',
        offers: 'data.offers',
      },
      status_map: {
        [FUNDER_STATUSES.received]: 'received',
        [FUNDER_STATUSES.in_review]: 'in_review',
        [FUNDER_STATUSES.needs_info]: 'needs_info',
        [FUNDER_STATUSES.approved]: 'approved',
        [FUNDER_STATUSES.declined]: 'declined',
        [FUNDER_STATUSES.funded]: 'funded',
        [FUNDER_STATUSES.expired]: 'expired',
      },
      offer_fields: {
        amount: 'advance_amount',
        factor_rate: 'factor',
        term: 'term.length',
        term_unit: 'term.unit',
        payment_frequency: 'remit.frequency',
        payment_amount: 'remit.amount',
        notes: 'note',
      },
    },
  };
}
