/**
 * Spec rules that Redocly's linter cannot express, checked on the parsed openapi.yaml.
 * Constants below are copied from the source (../shared/public-api-v1.md), not from the contract,
 * so a rule fails when the contract drifts from the source.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENTS } from '../../src/mail/attachments';
import { csvColumns } from '../../src/http/csv';
import { deref, loadSpec, operations, parametersOf, type Json, type OperationRef } from './helpers';

/** Authentication, item 7: the seventeen scopes. */
const SCOPES = [
  'businesses:read', 'businesses:write', 'people:read', 'people:write', 'deals:read', 'deals:write',
  'documents:read', 'documents:write', 'lenders:read', 'lenders:write', 'submissions:write',
  'offers:read', 'offers:write', 'advances:read', 'advances:write', 'portal:send', 'webhooks:manage',
];
const ROLES = ['admin', 'manager', 'user'];
/** Events: the sixteen event types of the source, and the two the specification allowed adding (issue 29). */
const EVENT_TYPES = [
  'deal.created', 'deal.stage_changed', 'deal.funded', 'deal.dead', 'submission.sent',
  'submission.responded', 'offer.received', 'offer.primary_changed', 'document.uploaded',
  'document.processed', 'statement.analyzed', 'advance.renewal_ready', 'advance.status_changed',
  'business.created', 'person.created', 'webhook.test',
  'offer.accepted', 'document_request.fulfilled',
];
const TAGS = [
  'Businesses', 'People', 'Deals', 'Pipeline', 'Tasks', 'Notes', 'Submissions', 'Lenders',
  'Lender matches', 'Offers', 'Advances', 'Documents', 'Merchant portal', 'Webhooks',
  // Beyond the source's 14: the event log (GET /v1/events), as Stripe offers, and lender replies
  // received by email (issue 10), and the location's export (issue 29).
  'Events', 'Inbound email', 'Exports',
];
/**
 * The location export reads every resource, so it needs every read scope at once (one requirement
 * naming them all, per scheme); the source leaves scopes of endpoints beyond its list to us.
 */
const EXPORT_SCOPES = ['businesses:read', 'people:read', 'deals:read', 'documents:read', 'lenders:read', 'offers:read', 'advances:read', 'webhooks:manage'];
/**
 * "Every endpoint may answer 401, 403, 404 and 429; write endpoints may answer 400", plus 500 and 503
 * (load shedding). 404 is "resource not found in this location": documented exactly where one can be
 * unknown (see the 404 rule below), not on operations that address nothing.
 */
const REQUIRED_STATUSES = ['400', '401', '403', '429', '500', '503'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const doc = loadSpec();
const all = operations(doc);
/**
 * Hooks: operations called by a machine with a location's shared secret instead of an API key (today
 * only receiveInboundEmail: an email provider posts a raw message). They have their own rules below.
 */
const isHook = (o: OperationRef) => JSON.stringify(o.op.security ?? []) === JSON.stringify([{ inboundSecret: [] }]);
const hooks = all.filter((o) => o.section === 'paths' && isHook(o));
const rest = all.filter((o) => o.section === 'paths' && !isHook(o));
const webhookOps = all.filter((o) => o.section === 'webhooks');
const isSuccess = (status: string) => /^2(\d\d|XX)$/i.test(status);
const headerNames = (response: Json) => Object.keys(deref(response).headers ?? {}).map((h) => h.toLowerCase());
const scopesOf = (ref: OperationRef): string[] =>
  [...new Set<string>((ref.op.security ?? []).flatMap((req: Json) => Object.values<string[]>(req).flat()))];

/** Collects `message` for every failing item, so one run lists every offender. */
function offenders<T>(items: T[], check: (item: T) => string | string[] | undefined | false): string[] {
  return items.flatMap((item) => {
    const result = check(item);
    return !result ? [] : Array.isArray(result) ? result : [result];
  });
}

describe('operations', () => {
  it('covers every path under /v1', () => {
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/v1/'))).toEqual([]);
    expect(rest.length).toBeGreaterThan(0);
  });

  it('have unique operationIds (REST and webhooks together)', () => {
    const ids = all.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('define exactly the 17 tags of the design (the 14 of the source, Events, Inbound email and Exports), each used by at least one REST operation', () => {
    const defined = (doc.tags ?? []).map((t: Json) => t.name);
    expect([...defined].sort()).toEqual([...TAGS].sort());
    const used = new Set(rest.flatMap((o) => o.op.tags ?? []));
    expect(TAGS.filter((t) => !used.has(t))).toEqual([]);
  });

  it('have exactly one tag, and it is defined', () => {
    const defined = new Set((doc.tags ?? []).map((t: Json) => t.name));
    expect(
      offenders(all, (o) =>
        !Array.isArray(o.op.tags) || o.op.tags.length !== 1 || !defined.has(o.op.tags[0])
          ? `${o.label}: tags ${JSON.stringify(o.op.tags)}`
          : undefined,
      ),
    ).toEqual([]);
  });

  it('have a summary and a description', () => {
    expect(
      offenders(all, (o) => [
        ...(typeof o.op.summary === 'string' && o.op.summary.trim() ? [] : [`${o.label}: no summary`]),
        ...(typeof o.op.description === 'string' && o.op.description.trim() ? [] : [`${o.label}: no description`]),
      ]),
    ).toEqual([]);
  });

  it('declare x-roles: a non-empty subset of admin, manager, user without repeats', () => {
    expect(
      offenders(all, (o) => {
        const roles = o.op['x-roles'];
        if (!Array.isArray(roles) || roles.length === 0) return `${o.label}: x-roles ${JSON.stringify(roles)}`;
        if (roles.some((r) => !ROLES.includes(r)) || new Set(roles).size !== roles.length)
          return `${o.label}: x-roles ${JSON.stringify(roles)}`;
      }),
    ).toEqual([]);
  });

  it('keep the role rules of the source (no advances, no lender writes, no withdraw for role user)', () => {
    const userForbidden = (o: OperationRef) => {
      const scopes = scopesOf(o);
      return (
        scopes.every((s) => s.startsWith('advances:')) ||
        scopes.every((s) => s === 'lenders:write') ||
        o.op.operationId === 'withdrawSubmission'
      );
    };
    expect(
      offenders(rest, (o) => userForbidden(o) && o.op['x-roles']?.includes('user') && `${o.label} admits role user`),
    ).toEqual([]);
  });
});

describe('hooks (an inbound secret instead of an API key)', () => {
  it('are exactly receiveInboundEmail: a raw message/rfc822 body, the Basic secret, no scopes', () => {
    expect(hooks.map((o) => o.op.operationId)).toEqual(['receiveInboundEmail']);
    for (const o of hooks) {
      expect(Object.keys(deref(o.op.requestBody).content)).toEqual(['message/rfc822']);
      expect(o.op.tags).toEqual(['Inbound email']);
    }
  });

  it('answer 200 for a message seen before, 201 for a new one, and the errors a provider can meet', () => {
    for (const o of hooks) {
      expect(Object.keys(o.op.responses).sort()).toEqual(['200', '201', '400', '401', '413', '415', '429', '500', '503']);
      for (const status of ['200', '201']) {
        const schema = deref(deref(o.op.responses[status]).content['application/json'].schema);
        expect(schema.required).toEqual(['data', 'meta']);
      }
    }
  });
});

describe('security', () => {
  it('declares the 17 scopes of the source on the oauth2 scheme, and an apiKey bearer scheme', () => {
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['apiKey', 'inboundSecret', 'oauth2']);
    expect(schemes.inboundSecret).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(schemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const flows = Object.values<Json>(schemes.oauth2.flows);
    expect(flows.length).toBeGreaterThan(0);
    for (const flow of flows) expect(Object.keys(flow.scopes).sort()).toEqual([...SCOPES].sort());
  });

  it('every operation requires exactly one scope per alternative, offered through both apiKey and oauth2', () => {
    expect(
      offenders(all.filter((o) => !isHook(o)), (o) => {
        const security = o.op.security;
        if (!Array.isArray(security) || security.length === 0) return `${o.label}: no security requirement`;
        const problems: string[] = [];
        const pairs = new Set<string>();
        for (const requirement of security) {
          const entries = Object.entries<string[]>(requirement);
          if (entries.length !== 1) {
            problems.push(`${o.label}: requirement ${JSON.stringify(requirement)} must name one scheme`);
            continue;
          }
          const [scheme, scopes] = entries[0];
          if (!['apiKey', 'oauth2'].includes(scheme)) problems.push(`${o.label}: unknown scheme ${scheme}`);
          if (o.op.operationId === 'getLocationExport') {
            if (JSON.stringify(scopes) !== JSON.stringify(EXPORT_SCOPES)) problems.push(`${o.label}: ${scheme} must require every read scope ${JSON.stringify(EXPORT_SCOPES)}`);
            else for (const sc of scopes) pairs.add(`${scheme} ${sc}`);
          } else if (!Array.isArray(scopes) || scopes.length !== 1 || !SCOPES.includes(scopes[0]))
            problems.push(`${o.label}: ${scheme} must require exactly one of the 17 scopes, got ${JSON.stringify(scopes)}`);
          else pairs.add(`${scheme} ${scopes[0]}`);
        }
        for (const scope of scopesOf(o))
          for (const scheme of ['apiKey', 'oauth2'])
            if (!pairs.has(`${scheme} ${scope}`)) problems.push(`${o.label}: scope ${scope} lacks the ${scheme} alternative`);
        if (new Set(security.map((r: Json) => JSON.stringify(r))).size !== security.length)
          problems.push(`${o.label}: repeated security requirements`);
        return problems;
      }),
    ).toEqual([]);
  });

  it('keeps the scopes the source names for specific endpoints', () => {
    const byId = new Map(all.map((o) => [o.op.operationId, scopesOf(o).sort()]));
    // "Needs scope deals:read" / "Scope submissions:write" / ... in the Endpoints section.
    expect(byId.get('listDealSubmissions')).toEqual(['deals:read']);
    expect(byId.get('createDealSubmissions')).toEqual(['submissions:write']);
    expect(byId.get('updateLenderApiConfig')).toEqual(['lenders:write']);
    expect(byId.get('updateBusiness')).toEqual(['businesses:write']);
    expect(byId.get('listPeople')).toEqual(['people:read']);
    expect(byId.get('createPersonAssociation')).toEqual(['people:write']);
    expect(byId.get('listAdvances')).toEqual(['advances:read']);
    // "PATCH /v1/tasks/{id} accepts either businesses:write or deals:write"; so does POST /v1/deals/{id}/tasks.
    expect(byId.get('updateTask')).toEqual(['businesses:write', 'deals:write']);
    expect(byId.get('createDealTask')).toEqual(['businesses:write', 'deals:write']);
    for (const id of ['createWebhook', 'listWebhooks', 'deleteWebhook', 'testWebhook']) expect(byId.get(id)).toEqual(['webhooks:manage']);
  });
});

describe('requests', () => {
  it('every POST lists the Idempotency-Key header parameter', () => {
    expect(
      offenders(
        rest.filter((o) => o.method === 'post'),
        (o) => !parametersOf(o).some((p) => p.in === 'header' && p.name === 'Idempotency-Key') && o.label,
      ),
    ).toEqual([]);
  });

  it('every request body has at least one named example with a summary', () => {
    expect(
      offenders(all, (o) => {
        if (!o.op.requestBody) return;
        const body = deref(o.op.requestBody);
        return Object.entries<Json>(body.content ?? {}).flatMap(([media, content]) => {
          const examples = Object.entries<Json>(content.examples ?? {});
          if (examples.length === 0) return [`${o.label} request ${media}: no named examples`];
          return examples
            .filter(([, ex]) => !deref(ex).summary || !('value' in deref(ex) || 'externalValue' in deref(ex)))
            .map(([name]) => `${o.label} request example ${name}: needs a summary and a value`);
        });
      }),
    ).toEqual([]);
  });

  it('path and query parameter examples match their own schema patterns', () => {
    expect(
      offenders(all, (o) =>
        parametersOf(o).flatMap((p) => {
          const schema = deref(p.schema ?? {});
          if (!schema.pattern) return [];
          if (p.in === 'path' && p.example === undefined && !p.examples) return [`${o.label} ${p.name}: no example`];
          const values = [p.example, ...Object.values<Json>(p.examples ?? {}).map((e) => deref(e).value)].filter(
            (v) => v !== undefined,
          );
          const re = new RegExp(schema.pattern, 'u');
          return values.filter((v) => !re.test(String(v))).map((v) => `${o.label} ${p.name}: ${v} !~ ${schema.pattern}`);
        }),
      ),
    ).toEqual([]);
  });

  it('every id anywhere in the examples has the id format of its prefix', () => {
    // Prefixes and patterns are taken from the path parameters (`^deal_[0-9A-HJKMNP-TV-Z]{26}$` ...);
    // every other prefixed id (`usr_`, `loc_` ...) must still be a 26-character Crockford ULID.
    const patterns = new Map<string, RegExp>();
    for (const o of rest)
      for (const p of parametersOf(o)) {
        const m = p.in === 'path' && /^\^([a-z]+)_/.exec(deref(p.schema ?? {}).pattern ?? '');
        if (m) patterns.set(m[1], new RegExp(deref(p.schema).pattern, 'u'));
      }
    expect(patterns.size).toBeGreaterThanOrEqual(10);
    const ulidLike = /^[a-z]{2,5}_[0-9A-Z]{10,}$/;
    const crockford = /^[a-z]{2,5}_[0-9A-HJKMNP-TV-Z]{26}$/;
    const bad = new Set<string>();
    const walk = (v: Json, where: string) => {
      if (typeof v === 'string') {
        if (!ulidLike.test(v)) return;
        const own = patterns.get(v.slice(0, v.indexOf('_')));
        if (!crockford.test(v) || (own && !own.test(v))) bad.add(`${where}: ${v}`);
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}/${i}`));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${where}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.webhooks, '#/webhooks');
    walk(doc.components, '#/components');
    expect([...bad]).toEqual([]);
  });
});

describe('responses', () => {
  it('every /v1 operation served by the JSON pipeline documents 413 and 415 (the body cap and the media-type check run before routing, on every method)', () => {
    // The hook (receiveInboundEmail) has its own raw-body pipeline and documents its own 413 and 415.
    expect(
      offenders(rest, (o) => {
        const r = o.op.responses ?? {};
        const missing = ['413', '415'].filter((s) => !(s in r));
        if (missing.length) return `${o.label}: missing ${missing.join(', ')}`;
        return (r['413'].$ref !== '#/components/responses/PayloadTooLarge' || r['415'].$ref !== '#/components/responses/UnsupportedMediaType') && `${o.label}: 413/415 are not the shared responses`;
      }),
    ).toEqual([]);
  });

  it('every /v1 operation served by the JSON pipeline documents 406 (content negotiation runs on every operation)', () => {
    expect(offenders(rest, (o) => (o.op.responses ?? {})['406']?.$ref !== '#/components/responses/NotAcceptable' && `${o.label}: no shared 406`)).toEqual([]);
  });

  it('every list operation offers text/csv beside JSON, listing its columns (read from the item schema) and showing them in its example', () => {
    expect(
      offenders(rest, (o) => {
        const content = deref(o.op.responses?.['200'])?.content ?? {};
        const isList = o.op.operationId.startsWith('list');
        if (!isList) return 'text/csv' in content && `${o.label}: text/csv on an operation that is not a list`;
        const csv = content['text/csv'];
        if (!csv) return `${o.label}: no text/csv`;
        if (Object.keys(content)[0] !== 'application/json') return `${o.label}: application/json must come first (the default)`;
        const columns = csvColumns(doc, o.key, o.method)!.map((c) => c.name);
        const listed = [...String(csv.schema?.description ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((c) => c !== 'Exports');
        const header = String(csv.example ?? '').split('\r\n')[0];
        if (JSON.stringify(listed) !== JSON.stringify(columns)) return `${o.label}: the listed columns are not the item schema's`;
        if (header !== columns.join(',')) return `${o.label}: the example's header is not the columns`;
        if (!deref(o.op.responses['200']).headers?.['Content-Disposition']) return `${o.label}: no Content-Disposition header`;
      }),
    ).toEqual([]);
  });

  it('404 is documented exactly where it is reachable: a path id, or an id in the request body, that can be unknown; a list filter id matches nothing instead', () => {
    const bodyIds = (o: OperationRef): string[] => {
      const names = (s: Json, seen = new Set<Json>()): string[] => {
        const x = deref(s);
        if (!x || typeof x !== 'object' || seen.has(x)) return [];
        seen.add(x);
        return [...Object.keys(x.properties ?? {}), ...['allOf', 'oneOf', 'anyOf'].flatMap((k) => (x[k] ?? []).flatMap((y: Json) => names(y, seen)))];
      };
      const schema = o.op.requestBody ? deref(o.op.requestBody).content?.['application/json']?.schema : undefined;
      // ghl_contact_id names a record in another system, never looked up here.
      return schema ? names(schema).filter((n) => /_ids?$/.test(n) && n !== 'ghl_contact_id') : [];
    };
    const reachable = (o: OperationRef) => parametersOf(o).some((p) => p.in === 'path') || bodyIds(o).length > 0;
    expect(
      offenders(rest, (o) => {
        const has = '404' in (o.op.responses ?? {});
        if (reachable(o) && !has) return `${o.label}: can answer 404 (${o.key.includes('{') ? 'path id' : bodyIds(o).join(', ')}) but does not document it`;
        if (!reachable(o) && has) return `${o.label}: documents a 404 it cannot return`;
      }),
    ).toEqual([]);
  });

  it("a submission's document_ids is bounded by the email's attachment limit (the validator enforces the contract's maxItems)", () => {
    const body = deref(doc.components.schemas.CreateDealSubmissionsRequest);
    expect(body.properties.document_ids.maxItems).toBe(MAX_ATTACHMENTS);
  });

  it('every /v1 operation lists 400, 401, 403, 429, 500 and 503', () => {
    expect(
      offenders(rest, (o) => {
        const missing = REQUIRED_STATUSES.filter((s) => !(s in (o.op.responses ?? {})));
        if (missing.length) return `${o.label}: missing ${missing.join(', ')}`;
        // Any request can be shed: the 503 is the shared `overloaded` answer with Retry-After.
        const shed = o.op.responses['503'] as { $ref?: string };
        return shed.$ref !== '#/components/responses/Overloaded' && `${o.label}: 503 is not the shared Overloaded response`;
      }),
    ).toEqual([]);
  });

  it('every /v1 operation has exactly one 2xx response', () => {
    expect(
      offenders(rest, (o) => {
        const ok = Object.keys(o.op.responses ?? {}).filter(isSuccess);
        return ok.length !== 1 && `${o.label}: 2xx responses ${ok.join(', ') || 'none'}`;
      }),
    ).toEqual([]);
  });

  it('every success response is the { data, meta } envelope with at least one named example', () => {
    expect(
      offenders(rest, (o) =>
        Object.entries<Json>(o.op.responses)
          .filter(([status]) => isSuccess(status))
          .flatMap(([status, r]) => {
            // The location export streams NDJSON: each line a { object, data } with named examples.
            const ndjson = o.op.operationId === 'getLocationExport' ? deref(r).content?.['application/x-ndjson'] : undefined;
            if (ndjson) {
              const lines = Object.entries<Json>(ndjson.examples ?? {});
              const schema = deref(ndjson.schema ?? {});
              return [
                ...(['object', 'data'].every((k) => schema.required?.includes(k)) ? [] : [`${o.label}: a line is not { object, data }`]),
                ...(lines.length ? [] : [`${o.label}: no named examples`]),
                ...lines.filter(([, ex]) => !deref(ex).summary || !('object' in (deref(ex).value ?? {})) || !('data' in (deref(ex).value ?? {}))).map(([n]) => `${o.label} example ${n}: not a summarised { object, data } line`),
              ];
            }
            const content = deref(r).content?.['application/json'];
            if (!content) return [`${o.label} ${status}: no application/json content`];
            const schema = deref(content.schema ?? {});
            const problems: string[] = [];
            if (!['data', 'meta'].every((k) => schema.required?.includes(k) && schema.properties?.[k]))
              problems.push(`${o.label} ${status}: schema is not the { data, meta } envelope`);
            const examples = Object.entries<Json>(content.examples ?? {});
            if (examples.length === 0) problems.push(`${o.label} ${status}: no named examples`);
            for (const [name, ex] of examples) {
              const value = deref(ex).value;
              if (!deref(ex).summary) problems.push(`${o.label} ${status} example ${name}: no summary`);
              if (!value || typeof value !== 'object' || !('data' in value) || !('meta' in value))
                problems.push(`${o.label} ${status} example ${name}: not a { data, meta } value`);
            }
            return problems;
          }),
      ),
    ).toEqual([]);
  });

  it('every success response declares X-Request-Id and the X-RateLimit-* headers; every POST success Idempotent-Replayed', () => {
    const wanted = ['X-Request-Id', ...RATE_LIMIT_HEADERS];
    expect(
      offenders(rest, (o) =>
        Object.entries<Json>(o.op.responses)
          .filter(([status]) => isSuccess(status))
          .flatMap(([status, r]) => {
            const have = headerNames(r);
            const need = o.method === 'post' ? [...wanted, 'Idempotent-Replayed'] : wanted;
            return need.filter((h) => !have.includes(h.toLowerCase())).map((h) => `${o.label} ${status}: no ${h}`);
          }),
      ),
    ).toEqual([]);
  });

  it('every response, error or not, declares X-Request-Id', () => {
    expect(
      offenders(rest, (o) =>
        Object.entries<Json>(o.op.responses)
          .filter(([, r]) => !headerNames(r).includes('x-request-id'))
          .map(([status]) => `${o.label} ${status}`),
      ),
    ).toEqual([]);
  });

  it('every error response is the ErrorEnvelope with named examples', () => {
    expect(
      offenders(rest, (o) =>
        Object.entries<Json>(o.op.responses)
          .filter(([status]) => !isSuccess(status))
          .flatMap(([status, r]) => {
            const content = deref(r).content?.['application/json'];
            if (content?.schema?.$ref !== '#/components/schemas/ErrorEnvelope')
              return [`${o.label} ${status}: not an ErrorEnvelope`];
            return Object.keys(content.examples ?? {}).length === 0 ? [`${o.label} ${status}: no named examples`] : [];
          }),
      ),
    ).toEqual([]);
  });

  it('429 declares Retry-After and the X-RateLimit-* headers', () => {
    expect(
      offenders(rest, (o) => {
        const have = headerNames(o.op.responses['429'] ?? {});
        return ['Retry-After', ...RATE_LIMIT_HEADERS]
          .filter((h) => !have.includes(h.toLowerCase()))
          .map((h) => `${o.label} 429: no ${h}`);
      }),
    ).toEqual([]);
  });
});

describe('webhooks', () => {
  it('lists all 18 event types (the source\'s 16, offer.accepted, document_request.fulfilled) in `webhooks`, and nothing else', () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('EventType enumerates the 18 event types', () => {
    expect([...deref(doc.components.schemas.EventType).enum].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('each event is a POST whose body fixes `type` to the event name, with examples of that type', () => {
    expect(
      offenders(Object.entries<Json>(doc.webhooks), ([name, item]) => {
        const post = item.post;
        if (!post || Object.keys(item).some((k) => k !== 'post')) return `${name}: must be a single POST`;
        const content = deref(post.requestBody).content?.['application/json'];
        const schema = deref(content?.schema ?? {});
        const problems: string[] = [];
        // The body's own properties, or (an event on the shared envelope) those of its allOf members, the event's last.
        const props = Object.assign({}, schema.properties ?? {}, ...(schema.allOf ?? []).map((member: Json) => deref(member).properties ?? {}));
        const type = deref(props.type ?? {});
        if (type.const !== name && !(type.enum?.length === 1 && type.enum[0] === name))
          problems.push(`${name}: body type is not fixed to "${name}"`);
        for (const [exName, ex] of Object.entries<Json>(content?.examples ?? {}))
          if (deref(ex).value?.type !== name) problems.push(`${name}: example ${exName} has type ${deref(ex).value?.type}`);
        return problems;
      }),
    ).toEqual([]);
    expect(webhookOps).toHaveLength(EVENT_TYPES.length);
  });

  it('snapshot schemas carry no form_data, ssn, dob, ghl_* or token fields (at any depth)', () => {
    const schemas: Record<string, Json> = doc.components.schemas;
    const snapshots = Object.keys(schemas).filter((n) => n.endsWith('Snapshot'));
    expect(snapshots.length).toBeGreaterThanOrEqual(7);
    const forbidden = (prop: string) =>
      prop === 'form_data' || prop === 'ssn' || prop === 'dob' || prop.startsWith('ghl_') || prop.includes('token');
    const bad: string[] = [];
    const visit = (schema: Json, where: string, seen: Set<string>) => {
      if (!schema || typeof schema !== 'object') return;
      if (typeof schema.$ref === 'string') {
        if (seen.has(schema.$ref)) return;
        seen.add(schema.$ref);
        return visit(deref(schema), schema.$ref, seen);
      }
      for (const [prop, sub] of Object.entries<Json>(schema.properties ?? {})) {
        if (forbidden(prop.toLowerCase())) bad.push(`${where}.${prop}`);
        visit(sub, `${where}.${prop}`, seen);
      }
      for (const key of ['items', 'additionalProperties', 'not'] as const) visit(schema[key], where, seen);
      for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const)
        for (const sub of schema[key] ?? []) visit(sub, where, seen);
    };
    for (const name of snapshots) visit(schemas[name], name, new Set([`#/components/schemas/${name}`]));
    expect(bad).toEqual([]);
  });
});
