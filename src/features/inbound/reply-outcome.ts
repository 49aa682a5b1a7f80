// What the inbound hook does with a reading: apply it (record the response and log its offers) or
// keep the email for a person, with the reason. Pure: inbound.service.ts applies what it returns,
// and the corpus report (contract-tests/fixtures/replies/evaluate.ts) scores the same function, so
// the figures measure what the hook does, not only what the classifier read.
import type { components } from '../../../generated/schema';
import { paymentCount } from '../offers/offers.service';
import { PRICING_NOT_READ, toResponseType, type Classification as Reading, type ClassifierReviewReason } from './classifier';

type S = components['schemas'];
type Classification = S['InboundEmailClassification'];
type ResponseBody = S['RecordSubmissionResponseRequest'];
export type LoggableOffer = NonNullable<ResponseBody['offers']>[number];
export type ReplyReviewReason = 'not_classified' | 'auto_reply' | 'incomplete_offer' | ClassifierReviewReason;

export type ReplyOutcome = { apply: true; body: ResponseBody } | { apply: false; review_reason: ReplyReviewReason; why: string };

/** A reading in the contract's shape (InboundEmailClassification), as the email stores it. */
export function contractClassification(c: Reading): Classification {
  return {
    type: c.type,
    confidence: Math.round(c.confidence * 100) / 100,
    response_type: toResponseType(c.type),
    decline_category: c.decline_category ?? null,
    decline_reason: c.decline_reason ?? null,
    requested_items: c.requested_items,
    offers: c.offers.map((o) => ({
      amount: o.amount, factor_rate: o.factor_rate, term: o.term, term_unit: o.term_unit, payment_frequency: o.payment_frequency,
      payment_amount: o.payment_amount, missing: o.missing as ('factor_rate' | 'term')[],
    })),
    reasons: c.reasons,
    ...(c.review_reason ? { review_reason: c.review_reason } : {}),
  };
}

/** PostgreSQL text cannot hold NUL, and lone surrogates are not Unicode. */
const clean = (s: string) => s.replace(/\u0000/g, '\uFFFD').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** The payments a term makes when the lender states no schedule: 6 months are 6 monthly payments. */
const UNIT_FREQUENCY = { days: 'daily', weeks: 'weekly', months: 'monthly' } as const;

/**
 * Every complete offer, ready to log: amount, factor (as read, or payback / amount) and term in its
 * own unit. Payment amount and frequency are sent only when the lender stated them; when the stated
 * frequency cannot divide the stated term without a payment amount (months paid daily), the offer
 * is logged on the term's own schedule and the email keeps what the lender wrote. `incomplete`
 * lists the offers that cannot be completed (no factor or payback, no term, out of bounds).
 */
export function loggableOffers(c: Pick<Classification, 'offers'>): { offers: LoggableOffer[]; incomplete: string[] } {
  const offers: LoggableOffer[] = [];
  const incomplete: string[] = [];
  for (const o of c.offers) {
    const label = `$${o.amount}`;
    if (o.factor_rate === null || o.term === null) {
      incomplete.push(`${label}: no ${[o.factor_rate === null ? 'factor or payback' : null, o.term === null ? 'term' : null].filter(Boolean).join(' and ')}`);
      continue;
    }
    if (!(o.amount > 0 && o.amount <= 100_000_000 && o.factor_rate >= 1 && o.factor_rate <= 5 && Number.isInteger(o.term) && o.term >= 1 && o.term <= 1000)) {
      incomplete.push(`${label}: terms outside the contract's bounds`);
      continue;
    }
    const unit = o.term_unit ?? 'days';
    const payment = o.payment_amount !== null && o.payment_amount > 0 && o.payment_amount <= 100_000_000 ? o.payment_amount : null;
    const stated = o.payment_frequency;
    const frequency = payment !== null ? (stated ?? UNIT_FREQUENCY[unit]) : stated && paymentCount(o.term, unit, stated) !== null ? stated : UNIT_FREQUENCY[unit];
    offers.push({
      amount: o.amount,
      factor_rate: Math.round(o.factor_rate * 10000) / 10000,
      term: o.term,
      term_unit: unit,
      payment_frequency: frequency,
      ...(payment !== null ? { payment_amount: payment } : {}),
    });
    if (offers.length === 10) break;
  }
  return { offers, incomplete };
}

/**
 * Apply or review. Unclassified → review (`auto_reply` or `not_classified`); a reading the classifier
 * doubts → review with its reason; an approval or counter with an offer that cannot be completed →
 * review `incomplete_offer` (never applied without it); otherwise the response to record, with every
 * offer logged.
 */
export function replyOutcome(c: Classification, opts: { from: string; own: string; autoReply: boolean }): ReplyOutcome {
  if (!c.response_type) return { apply: false, review_reason: opts.autoReply ? 'auto_reply' : 'not_classified', why: 'nothing to record' };
  if (c.review_reason) return { apply: false, review_reason: c.review_reason, why: 'the classifier doubts its reading' };
  const excerpt = clean(opts.own).replace(/\s+/g, ' ').trim();
  const body: ResponseBody = { response_type: c.response_type, response_notes: `From ${opts.from}: ${excerpt}`.slice(0, 2000) };
  if (c.response_type === 'declined') {
    if (c.decline_reason) body.decline_reason = clean(c.decline_reason).slice(0, 1000);
    if (c.decline_category) body.decline_category = c.decline_category;
  }
  if (c.response_type === 'more_info' && c.requested_items.length) body.requested_items = c.requested_items.slice(0, 50).map((i) => clean(i).slice(0, 500));
  if (c.response_type === 'approved' || c.response_type === 'counter') {
    const { offers, incomplete } = loggableOffers(c);
    if (incomplete.length) return { apply: false, review_reason: 'incomplete_offer', why: incomplete.join('; ') };
    // (holdout22) pricing the reader saw but could not make an offer of: never applied without it
    const unread = offers.length ? undefined : c.reasons.find((r) => r.startsWith(PRICING_NOT_READ));
    if (unread) return { apply: false, review_reason: 'incomplete_offer', why: unread };
    if (offers.length) body.offers = offers;
  }
  return { apply: true, body };
}
