
export type ReplyType = 'approved' | 'declined' | 'needs_info' | 'counter' | 'unclassified';
export type TermUnit = 'days' | 'weeks' | 'months';
export type PaymentFrequency = 'daily' | 'weekly' | 'bi-weekly' | 'monthly';

/**
 * Decline categories (slugs; the contract's `decline_category` is a free slug, these are ours):
 * negative_days, nsf, low_revenue, low_balance, industry, credit_score, time_in_business, stacking
 * (existing positions / holdback), restricted_state, default_history (defaults, judgments, liens,
 * bankruptcy), verification (fraud, altered or unverifiable statements), deal_size (amount outside the
 * lender's range), other (no reason given or none of these).
 */
export const DECLINE_CATEGORIES = [
  'negative_days', 'nsf', 'low_revenue', 'low_balance', 'industry', 'credit_score', 'time_in_business', 'stacking',
  'restricted_state', 'default_history', 'verification', 'deal_size', 'other',
] as const;
export type DeclineCategory = (typeof DECLINE_CATEGORIES)[number];

/** An offer found in a reply. Field names and enums follow the contract's Offer. */
export interface ExtractedOffer {
  amount: number;
  factor_rate: number | null;
  term: number | null;
  term_unit: TermUnit | null;
  payment_frequency: PaymentFrequency | null;
  payment_amount: number | null;
  /** Contract-required fields (`factor_rate`, `term`) that the reply did not state. */
  missing: string[];
  /**
   * Where the offer's own parts disagree (holdout11): the amount times the factor is not the payback the
   * reply states, the payments do not add up to it, or the term is not the number of payments stated.
   * Then one of its figures is not the lender's (the ask's amount paired with the offer's factor, a term
   * from another sentence): such an offer is never applied without a person.
   */
  conflict?: string;
  /**
   * Set when the rules took this offer from the text of an attached PDF (an offer letter, a term sheet), not from the
   * reply's own words: the statistical reader, which reads the words only, may then not contradict it (readReply).
   */
  from_attachment?: true;
}

/**
 * Why a reading goes to a person rather than being applied: `conflicting_cues` (a decline and an
 * offer, or an approval and a decline, that no rule of the trade settles), `low_confidence` (the
 * winning class barely won), `tentative_terms` (terms before the final sign-off, "up to", a floated
 * amount without pricing, an offer on a condition about the deal's merit not yet met), `approval_withdrawn` (an approval pulled back), `multiple_deals` (one
 * reply answering several files). `incomplete_offer` is decided when the offers are logged
 * (reply-outcome.ts), not here; `readers_disagree` (the rules decided, the statistical model
 * confidently reads another type) when the two readers are set side by side (reply-model.ts).
 */
export const CLASSIFIER_REVIEW_REASONS = ['conflicting_cues', 'low_confidence', 'tentative_terms', 'approval_withdrawn', 'multiple_deals', 'readers_disagree'] as const;
export type ClassifierReviewReason = (typeof CLASSIFIER_REVIEW_REASONS)[number];

/**
 * What the inbound hook knows about the submission a reply answers: the deal's requested amount
 * (what an offer is compared with: less money is a counter), the requested term when the
 * submission gives one, the product asked for, and the business name (which of several deals a
 * reply is about). Every field is optional: without context, counters are read from words only.
 */
export interface ReplyContext {
  requested_amount?: number | null;
  requested_term?: { term: number; unit: TermUnit } | null;
  /** The payment schedule the deal asks for (the deal's `desired_frequency`), when it gives one. */
  requested_frequency?: PaymentFrequency | null;
  product_type?: string | null;
  business_name?: string | null;
  /** The submission's trace code (`SVC-XXXX-XXXX`): a reply naming another code answers another submission. */
  trace_code?: string | null;
  /**
   * Who we are to the lender (rfix): our names (the location's) and the ISO numbers our own submission email gave. A reply
   * naming a submitting ISO by another number may be written to another ISO (a person checks); ours is no doubt.
   */
  iso?: { names?: string[]; numbers?: string[] } | null;
}

export interface Classification {
  type: ReplyType;
  /** How clear the winning reading is, 0-1; its evidence is `reasons`. */
  confidence: number;
  /** Set when a person should decide (see CLASSIFIER_REVIEW_REASONS); absent or null otherwise. */
  review_reason?: ClassifierReviewReason | null;
  decline_category?: DeclineCategory;
  decline_reason?: string;
  requested_items: string[];
  offers: ExtractedOffer[];
  reasons: string[];
}

/** The contract's `response_type` for a class; null for `unclassified` (kept for review, not recorded). */
export function toResponseType(type: ReplyType): 'approved' | 'declined' | 'counter' | 'more_info' | null {
  if (type === 'needs_info') return 'more_info';
  if (type === 'unclassified') return null;
  return type;
}
