import type { AdapterContext, FunderAdapter, FunderResult } from './adapter';
import type { OfferTerms } from '../offers/offers.service';

// The mock funder: a test funder for test locations that never contacts anyone. Like a payment
// processor's test card numbers, the deal's requested amount chooses the outcome, so a partner can
// exercise every path through the API alone. The life cycle advances one step per status request
// (a poll or `POST /v1/submissions/{id}/check-status`), never by wall-clock time.
//
// Whole-dollar requested amount ending in (amount mod 1000):
//   001 declined            002 needs_info           003 approved, then funded
//   004 auth_failed         005 validation           006 timeout          007 funder_error
//   008 approved, then expired
//   anything else: approved with offers
// The four failures happen on attempt 1 only: `POST /v1/submissions/{id}/retry` (attempt 2) goes
// through, as it would once the cause was fixed.
// The documented table lives in openapi.yaml ("Submitting through funder APIs"); a test holds the
// two together.

export const MOCK_OUTCOMES = {
  1: 'declined',
  2: 'needs_info',
  3: 'funded',
  4: 'auth_failed',
  5: 'validation',
  6: 'timeout',
  7: 'funder_error',
  8: 'expired',
} as const;

export type MockOutcome = (typeof MOCK_OUTCOMES)[keyof typeof MOCK_OUTCOMES] | 'approved';

export function mockOutcome(requestedAmount: number | null): MockOutcome {
  const tail = Math.floor(requestedAmount ?? 0) % 1000;
  return (MOCK_OUTCOMES as Record<number, MockOutcome>)[tail] ?? 'approved';
}

const externalIdOf = (attemptId: string) => `MOCK-${attemptId.slice(-10)}`;
const link = (externalId: string) => `https://sandbox.mock-funder.example/applications/${externalId}`;

/** The mock's offers for an approval: two options, the first listed twice (the platform collapses it). */
export function mockOffers(requestedAmount: number | null): OfferTerms[] {
  const amount = Math.max(5000, Math.round(requestedAmount ?? 50000));
  const smaller = Math.round((amount * 0.8) / 100) * 100;
  const first: OfferTerms = { amount, factor_rate: 1.35, term: 180, term_unit: 'days', payment_frequency: 'daily' };
  return [first, { ...first }, { amount: smaller, factor_rate: 1.29, term: 26, term_unit: 'weeks', payment_frequency: 'weekly' }];
}

export const mockAdapter: FunderAdapter = {
  async submit(ctx: AdapterContext): Promise<FunderResult> {
    ctx.credentials(); // unsealed like any adapter's, and unused: the mock accepts any value
    if (!ctx.locationIsTest) return { ok: false, error_code: 'config', error_message: 'The mock funder works only in test locations' };
    const outcome = mockOutcome(ctx.application.requested_amount);
    if (ctx.attemptNumber === 1) {
      switch (outcome) {
        case 'auth_failed':
          return { ok: false, error_code: 'auth_failed', error_message: 'Mock funder: invalid API key' };
        case 'validation':
          return { ok: false, error_code: 'validation', error_message: 'Mock funder: ein: is required; business_start_date: must be a date' };
        case 'timeout':
          return { ok: false, error_code: 'timeout', error_message: 'Mock funder: timed out after 10 seconds' };
        case 'funder_error':
          return { ok: false, error_code: 'funder_error', error_message: 'Mock funder: HTTP 503 Service Unavailable' };
        default:
      }
    }
    const externalId = externalIdOf(ctx.attemptId);
    return { ok: true, external_id: externalId, funder_status: 'Received', state: 'received', deep_link_url: link(externalId) };
  },

  async status(ctx: AdapterContext, externalId: string): Promise<FunderResult> {
    ctx.credentials();
    if (!ctx.locationIsTest) return { ok: false, error_code: 'config', error_message: 'The mock funder works only in test locations' };
    const outcome = mockOutcome(ctx.application.requested_amount);
    const base = { ok: true as const, external_id: externalId, deep_link_url: link(externalId) };
    if (ctx.pollCount === 0) return { ...base, funder_status: 'In Review', state: 'in_review' };
    const offers = mockOffers(ctx.application.requested_amount);
    switch (outcome) {
      case 'declined':
        return { ...base, funder_status: 'Declined', state: 'declined', message: 'Time in business is below our 12 month minimum' };
      case 'needs_info':
        return { ...base, funder_status: 'Stips Requested', state: 'needs_info', message: 'Underwriting needs more documents', requested_items: ['Last 3 months of bank statements', 'Voided business check'] };
      case 'funded':
        return ctx.pollCount === 1
          ? { ...base, funder_status: 'Approved', state: 'approved', offers }
          : { ...base, funder_status: 'Funded', state: 'funded', offers: [offers[0]] };
      case 'expired':
        return ctx.pollCount === 1
          ? { ...base, funder_status: 'Approved', state: 'approved', offers }
          : { ...base, funder_status: 'Offer Expired', state: 'expired' };
      default:
        return { ...base, funder_status: 'Approved', state: 'approved', offers };
    }
  },
};
