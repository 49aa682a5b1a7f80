/**
 * Compile-time tests of the typed client (src/client.ts). Never run, only type-checked: by
 * `npx tsc --noEmit -p .` (tsconfig.json covers contract-tests/) and by client-types.test.ts,
 * which type-checks this file alone with contract-tests/spec/tsconfig.client-types.json.
 *
 * Each `// @ts-expect-error` marks a request the contract forbids. If the client ever accepts one
 * (types regenerated loosely, openapi-fetch upgraded, a field made optional by mistake), the
 * directive becomes unused and tsc fails with TS2578.
 *
 * Known limit: openapi-fetch infers the request init, so an unknown extra field in a JSON body is
 * not a compile error (unknown query parameters are); the server rejects it with 400.
 */
import { createClient, type Submission, type SubmissionStatus, type WebhookEvent } from '../../src/client';

const api = createClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'svc_test_4eC39HqLyjWDarjtT1zdp7dcSVCxY7Qm' });
const dealId = 'deal_01JD1B4D6F8H0K2M4P6R8T0V2X';
const lenderId = 'lnd_01JCZ9A1B2C3D4E5F6G7H8J9K0';

/** The well-formed versions of the calls below: these must compile. */
export async function accepted(): Promise<SubmissionStatus | undefined> {
  const list = await api.GET('/v1/deals/{dealId}/submissions', {
    params: { path: { dealId }, query: { status: 'approved', limit: 25 } },
  });
  // Fields with a default in the contract (document_ids, send) may be left out.
  await api.POST('/v1/deals/{dealId}/submissions', {
    params: { path: { dealId }, header: { 'Idempotency-Key': '7f3c9d2e-5b1a-4c8e-9f0d-2a6b8c4e1f37' } },
    body: { lender_ids: [lenderId] },
  });
  await api.POST('/v1/deals/{dealId}/submissions', {
    params: { path: { dealId } },
    body: { lender_ids: [lenderId], document_ids: [], send: false, subject_override: 'New file' },
  });
  // Lists across deals (issue 29): filters and time bounds are typed like any query.
  await api.GET('/v1/submissions', { params: { query: { status: 'approved', lender_id: lenderId, response_type: 'none', created_after: '2026-11-01T00:00:00Z' } } });
  await api.GET('/v1/offers', { params: { query: { status: 'pending', updated_after: '2026-11-20T00:00:00Z', limit: 50 } } });
  await api.GET('/v1/deals', { params: { query: { search: 'sunrise', created_before: '2026-12-01T00:00:00Z' } } });
  if (list.error) throw new Error(`${list.error.error.type}: ${list.error.error.message} (${list.error.error.request_id})`);
  const first: Submission | undefined = list.data.data[0];
  return first?.status;
}

export async function rejected(): Promise<void> {
  // 1. A path that is not in the contract (deal, singular).
  // @ts-expect-error -- no such path
  await api.GET('/v1/deal/{dealId}/submissions', { params: { path: { dealId } } });

  // 2. A method the path does not have.
  // @ts-expect-error -- DELETE is not an operation of this path
  await api.DELETE('/v1/deals/{dealId}/submissions', { params: { path: { dealId } } });

  // 3. An enum value outside the ten submission statuses.
  await api.GET('/v1/deals/{dealId}/submissions', {
    params: {
      path: { dealId },
      query: {
        // @ts-expect-error -- 'accepted' is not a SubmissionStatus
        status: 'accepted',
      },
    },
  });

  // 4. A required body field left out: lender_ids.
  await api.POST('/v1/deals/{dealId}/submissions', {
    params: { path: { dealId } },
    // @ts-expect-error -- lender_ids is required
    body: { document_ids: [], send: true },
  });

  // 5. A required path parameter left out.
  await api.GET('/v1/deals/{dealId}/submissions', {
    // @ts-expect-error -- path.dealId is required
    params: { path: {} },
  });

  // 6. A body field of the wrong type (one lender id instead of an array).
  await api.POST('/v1/deals/{dealId}/submissions', {
    params: { path: { dealId } },
    body: {
      // @ts-expect-error -- lender_ids is an array of strings
      lender_ids: lenderId,
    },
  });

  // 7b. An enum value outside the response types of the submissions across deals.
  await api.GET('/v1/submissions', {
    params: {
      query: {
        // @ts-expect-error -- 'pending' is not a response_type filter
        response_type: 'pending',
      },
    },
  });

  // 7c. A filter the list does not have: portal links have no updated_at.
  await api.GET('/v1/deals/{id}/portal-links', {
    params: {
      path: { id: dealId },
      query: {
        // @ts-expect-error -- updated_after is not a parameter of listPortalLinks
        updated_after: '2026-11-20T00:00:00Z',
      },
    },
  });

  // 7. A query parameter of the wrong type.
  await api.GET('/v1/advances', {
    params: {
      query: {
        // @ts-expect-error -- renewal_ready is a boolean
        renewal_ready: 'yes',
      },
    },
  });
}

/** Responses are typed too: data and error are discriminated, enums are closed. */
export async function responses(): Promise<void> {
  const { data, error } = await api.GET('/v1/deals/{dealId}/submissions', { params: { path: { dealId } } });
  if (error) {
    // @ts-expect-error -- 'missing' is not an error type
    if (error.error.type === 'missing') return;
    return;
  }
  // @ts-expect-error -- 'accepted' is not a SubmissionStatus
  if (data.data[0]?.status === 'accepted') return;
  // @ts-expect-error -- list meta has no total count
  void data.meta.total;
}

/** Webhook events narrow on `type`. */
export function onEvent(event: WebhookEvent): string | undefined {
  if (event.type === 'submission.responded') return event.data.submission.id;
  // @ts-expect-error -- 'deal.updated' is not an event type
  if (event.type === 'deal.updated') return undefined;
  return undefined;
}
