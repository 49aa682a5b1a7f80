import type { components } from '../../../generated/schema';
import type { AddressPolicy } from '../../outbound/policy';
import type { OfferTerms } from '../offers/offers.service';

// One interface for every funder integration (the `funder_api_spec_id` of a lender): submit an
// application, fetch its status (with the funder's offers when it returns them). Each adapter
// classifies its own failures into the contract's error codes and returns them; an adapter never
// throws for anything the funder or the network does.
//
// Credentials reach an adapter only as `ctx.credentials()`, which unseals them on the call: nothing
// else in the server holds them in the clear, and no adapter puts them in a result (results are
// passed through `redactSecrets` before they are stored, in case a funder echoes one back).

export type FunderErrorCode = NonNullable<components['schemas']['ApiSubmission']['error_code']>;
export type InternalStatus = components['schemas']['ApiSubmission']['internal_status'];

/**
 * Where a funder's application stands, normalised. Each maps to the attempt's `internal_status`
 * and to the submission's `status` (ATTEMPT_STATE below).
 */
export type FunderState = 'received' | 'in_review' | 'needs_info' | 'approved' | 'declined' | 'funded' | 'expired';

export const FUNDER_STATES: readonly FunderState[] = ['received', 'in_review', 'needs_info', 'approved', 'declined', 'funded', 'expired'];

export const ATTEMPT_STATE: Record<FunderState, { internal: InternalStatus; submission: string; final: boolean }> = {
  received: { internal: 'sent', submission: 'sent', final: false },
  in_review: { internal: 'pending', submission: 'sent', final: false },
  needs_info: { internal: 'pending', submission: 'needs_info', final: false },
  approved: { internal: 'approved', submission: 'approved', final: false }, // polled on: funded may follow
  declined: { internal: 'declined', submission: 'declined', final: true },
  funded: { internal: 'funded', submission: 'funded', final: true },
  expired: { internal: 'expired', submission: 'expired', final: true },
};

/** Failures never retried automatically: they need a fix to the configuration or the deal first. */
export const PERMANENT_ERRORS: ReadonlySet<FunderErrorCode> = new Set(['auth_failed', 'validation', 'config']);

/** The deal as a funder sees it: flat keys (dotted for the owner), as `required_fields` names them. */
export interface FunderApplication {
  reference: string; // the submission id
  attempt_id: string;
  business_name: string;
  dba: string | null;
  ein: string | null;
  entity_type: string | null;
  industry: string | null;
  business_start_date: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  state_incorporated: string | null;
  requested_amount: number | null;
  annual_revenue: number | null;
  use_of_funds: string | null;
  product_type: string | null;
  desired_term_months: number | null;
  desired_frequency: string | null;
  'owner.first_name': string | null;
  'owner.last_name': string | null;
  'owner.email': string | null;
  'owner.phone': string | null;
  owners: { first_name: string; last_name: string; email: string | null; phone: string | null; ownership_percent: number | null }[];
}

export interface AdapterContext {
  /** Unseals the lender's credentials, by credential_spec key. Call only inside the adapter. */
  credentials(): Record<string, string>;
  environment: 'development' | 'production';
  /** The location's outbound address policy (./outbound/policy.ts). */
  policy: AddressPolicy;
  /** A test location: the mock funder works only there. */
  locationIsTest: boolean;
  /** The attempt id: sent as the funder's idempotency key, so a resent application is one application. */
  attemptId: string;
  /** 1 for the first attempt of the submission, increasing with each retry. */
  attemptNumber: number;
  /** How many status answers the funder has given for this attempt before this call. */
  pollCount: number;
  /** The application as submitted (the mock funder decides outcomes by it). */
  application: FunderApplication;
}

export interface FunderFailure {
  ok: false;
  error_code: FunderErrorCode;
  /** The funder's own message verbatim when it gave one, else a fixed sentence. */
  error_message: string;
  funder_status?: string | null;
}

export interface FunderAnswer {
  ok: true;
  /** The funder's application id (required on submit). */
  external_id?: string | null;
  funder_status: string | null;
  state: FunderState;
  deep_link_url?: string | null;
  /** A declined reason, a stip list, a note: the funder's words. */
  message?: string | null;
  requested_items?: string[];
  offers?: OfferTerms[];
}

export type FunderResult = FunderAnswer | FunderFailure;

export interface FunderAdapter {
  submit(ctx: AdapterContext): Promise<FunderResult>;
  status(ctx: AdapterContext, externalId: string): Promise<FunderResult>;
}

/**
 * The forms in which a funder may echo a secret it was sent: as is, JSON-escaped (quotes,
 * backslashes, control characters; `/` as `\/`; non-ASCII as `\uXXXX`), URL-encoded (upper- or
 * lower-case hex, `+` for a space) and base64 (standard and URL-safe, with or without padding).
 */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const jsonAscii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const url = encodeURIComponent(secret);
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const forms = [
    secret, json, json.replace(/\//g, '\\/'), jsonAscii, jsonAscii.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h.toUpperCase()}`),
    url, url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), url.replace(/%20/g, '+'),
    b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url'),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** Every secret credential value, in every form it may be echoed in, replaced by `****`. */
export function redactSecrets(text: string | null | undefined, secrets: string[]): string | null {
  if (text === null || text === undefined) return null;
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 3) continue;
    for (const form of secretForms(s)) if (form.length >= 3) out = out.split(form).join('****');
  }
  return out;
}

/** The fields of `required_fields` the application lacks. */
export function missingFields(app: FunderApplication, required: readonly string[]): string[] {
  return required.filter((f) => {
    const v = (app as unknown as Record<string, unknown>)[f];
    return v === null || v === undefined || v === '';
  });
}
