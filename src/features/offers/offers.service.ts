import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { ApiError, conflict, forbidden, invalid, notFound } from '../../http/errors';
import type { Knex } from 'knex';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { paybackCents, toCents, toDollars } from '../../lib/money';
import { usd } from '../deals/deals.mapper';
import { getDealOr404, moveDealOnSystemEvent } from '../deals/deals.service';
import { offerAccepted, offerPrimaryChanged } from './offers.events';
import { toOffer, toOfferSnapshot, type Offer } from './offers.mapper';
import {
  dealOfOffer, dealOffersPageQuery, offersPageQuery, findLender, findOffer, findSubmission, fromPageRow, insertOffer, lenderNames, setPrimaryOfferRow, updateOfferRow, type Db, type OfferRow,
} from './offers.repository';

// What funding a deal (deals/fund.ts) reads and writes of offers; a feature never imports another's repository.
export { findOffer, markSubmissionFunded, setPrimaryOfferRow, updateOfferRow, type OfferRow } from './offers.repository';

type S = components['schemas'];
type CreateBody = S['CreateDealOfferRequest'];
type UpdateBody = S['UpdateOfferRequest'];
type ListQuery = NonNullable<operations['listDealOffers']['parameters']['query']>;
type AllQuery = NonNullable<operations['listOffers']['parameters']['query']>;

/**
 * Number of payments of an offer: `term` when the unit matches the frequency (days/daily,
 * weeks/weekly, months/monthly), `ceil(term / 2)` for weeks paid bi-weekly; null otherwise.
 */
export function paymentCount(term: number, termUnit: string, frequency: string): number | null {
  if ((termUnit === 'days' && frequency === 'daily') || (termUnit === 'weeks' && frequency === 'weekly') || (termUnit === 'months' && frequency === 'monthly')) return term;
  // An odd number of weeks paid bi-weekly still makes whole payments: the last one comes at the end.
  if (termUnit === 'weeks' && frequency === 'bi-weekly') return Math.ceil(term / 2);
  return null;
}

/** payback = amount x factor rounded to cents; payment derived from it when not given. */
export function priceOffer(input: { amount: number; factor_rate: number; term: number; term_unit: string; payment_frequency: string; payment_amount?: number | null }) {
  const amountCents = toCents(input.amount);
  const payback = paybackCents(amountCents, input.factor_rate);
  let payment: number;
  if (input.payment_amount != null) payment = toCents(input.payment_amount);
  else {
    const n = paymentCount(input.term, input.term_unit, input.payment_frequency);
    if (n === null) {
      throw invalid(
        `payment_amount is required when term_unit ${input.term_unit} does not match payment_frequency ${input.payment_frequency} (it cannot be derived)`,
        'payment_amount',
      );
    }
    payment = Math.round(payback / n);
  }
  return { amount: toDollars(amountCents), factor_rate: Math.round(input.factor_rate * 10000) / 10000, payback_amount: toDollars(payback), payment_amount: toDollars(payment) };
}

async function withLender(db: Db, scope: Scope, rows: OfferRow[]): Promise<Offer[]> {
  const names = await lenderNames(db, scope, rows.map((r) => r.lender_id));
  return rows.map((r) => toOffer(r, names.get(r.lender_id) ?? ''));
}

export async function getOfferOr404(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<OfferRow> {
  const row = await findOffer(db, scope, id, opts);
  if (!row) throw notFound('offer', id);
  return row;
}

/** Offer terms as `createDealOffer` takes them (lender and submission given separately). */
export type OfferTerms = Omit<CreateBody, 'lender_id' | 'submission_id'>;

/**
 * Logs one offer on a deal inside the caller's transaction: prices it, writes it, an activity line,
 * `offer.received` (with `source: email_classifier` when read from a lender's email) and the deal's
 * move into the offer_received stage. The caller has checked the deal, the lender and the submission.
 * A pricing error names `paramPrefix` + the field (`offers.0.payment_amount`).
 */
export async function logOffer(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  input: { deal: { id: string; business_id: string }; lender: { id: string; name: string }; submissionId: string | null; source: 'api' | 'email_classifier' | 'funder_api'; terms: OfferTerms; paramPrefix?: string },
): Promise<OfferRow> {
  const { deal, lender, terms } = input;
  const termUnit = terms.term_unit ?? 'days';
  const frequency = terms.payment_frequency ?? 'daily';
  let priced: ReturnType<typeof priceOffer>;
  try {
    priced = priceOffer({ amount: terms.amount, factor_rate: terms.factor_rate, term: terms.term, term_unit: termUnit, payment_frequency: frequency, payment_amount: terms.payment_amount });
  } catch (err) {
    if (err instanceof ApiError && input.paramPrefix) throw new ApiError(err.code, err.message, `${input.paramPrefix}${err.param ?? ''}`);
    throw err;
  }
  const now = deps.clock.now();
  const row: OfferRow = {
    id: newId('ofr', now.getTime()),
    location_id: scope.locationId,
    deal_id: deal.id,
    lender_id: lender.id,
    submission_id: input.submissionId,
    ...priced,
    term: terms.term,
    term_unit: termUnit,
    payment_frequency: frequency,
    position: terms.position ?? 1,
    status: terms.status ?? 'pending',
    is_primary: false,
    is_selected: false,
    source: input.source,
    notes: terms.notes ?? null,
    received_at: now,
    expires_at: terms.expires_at ? new Date(terms.expires_at) : null,
    created_by_user_id: scope.userId ?? null,
    created_at: now,
    updated_at: now,
  };
  await insertOffer(trx, row);
  await recordActivity(trx, deps.clock, scope, {
    businessId: deal.business_id, dealId: deal.id, entityType: 'offer', entityId: row.id, entityName: lender.name,
    action: 'offer.received', description: `${lender.name} offered ${usd(row.amount)} at ${row.factor_rate} over ${row.term} ${row.term_unit}`,
    data: { deal_id: deal.id, lender_id: lender.id, lender_name: lender.name, amount: row.amount, factor_rate: row.factor_rate, source: row.source },
  });
  await recordEvent(trx, deps.clock, scope.locationId, 'offer.received', {
    offer_id: row.id, deal_id: deal.id, lender_id: lender.id, lender_name: lender.name, offer: toOfferSnapshot(row),
    ...(input.source === 'email_classifier' ? { source: 'email_classifier' } : {}),
  });
  await moveDealOnSystemEvent(trx, deps.clock, scope, deal.id, 'offer_received');
  return row;
}

export async function createDealOffer(deps: Deps, scope: Scope, dealId: string, body: CreateBody): Promise<Offer> {
  const status = body.status ?? 'pending';
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getDealOr404(trx, scope, dealId, { forUpdate: true });
    if (scope.role === 'user' && status !== 'pending') throw forbidden('Role user may only log pending offers', 'role_not_allowed', 'status');
    const lender = await findLender(trx, scope, body.lender_id);
    if (!lender) throw notFound('lender', body.lender_id, 'lender_id');
    if (body.submission_id) {
      const sub = await findSubmission(trx, scope, body.submission_id);
      if (!sub) throw notFound('submission', body.submission_id, 'submission_id');
      if (sub.deal_id !== deal.id || sub.lender_id !== lender.id) throw invalid("submission_id must be this deal's submission to the same lender", 'submission_id');
    }
    if (deal.status === 'funded') throw conflict('Offers cannot be logged on a funded deal', 'invalid_state_transition');
    const row = await logOffer(trx, deps, scope, { deal, lender, submissionId: body.submission_id ?? null, source: 'api', terms: { ...body, status } });
    return toOffer(row, lender.name);
  });
}

export async function listDealOffers(deps: Deps, scope: Scope, dealId: string, query: ListQuery) {
  const db = deps.db.knex;
  await getDealOr404(db, scope, dealId);
  const q = dealOffersPageQuery(db, scope, dealId);
  if (query.status) q.where('offers.status', query.status);
  const page = await paginate<OfferRow & { record_created_at: Date }>(q, {
    key: deps.cursorKey, list: `offers:${dealId}`, limit: query.limit, cursor: query.cursor, filters: query,
    createdAtColumn: 'offers.received_at', idColumn: 'offers.id', createdFilterColumn: 'offers.created_at',
  });
  return { data: await withLender(db, scope, page.rows.map(fromPageRow)), meta: page.meta };
}

/** `GET /v1/offers`: every visible deal's offers (role user: its own deals), newest received first, filtered. */
export async function listOffers(deps: Deps, scope: Scope, query: AllQuery) {
  const db = deps.db.knex;
  const q = offersPageQuery(db, scope);
  if (query.status) q.where('offers.status', query.status);
  if (query.lender_id) q.where('offers.lender_id', query.lender_id);
  const page = await paginate<OfferRow & { record_created_at: Date }>(q, {
    key: deps.cursorKey, list: 'offers', limit: query.limit, cursor: query.cursor, filters: query,
    createdAtColumn: 'offers.received_at', idColumn: 'offers.id', createdFilterColumn: 'offers.created_at',
  });
  return { data: await withLender(db, scope, page.rows.map(fromPageRow)), meta: page.meta };
}

export async function getOffer(deps: Deps, scope: Scope, id: string): Promise<Offer> {
  const row = await getOfferOr404(deps.db.knex, scope, id);
  return (await withLender(deps.db.knex, scope, [row]))[0];
}

export async function updateOffer(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Offer> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getOfferOr404(trx, scope, id, { forUpdate: true });
    const deal = await dealOfOffer(trx, scope, existing.deal_id);
    if (existing.is_selected && deal.status === 'funded') throw conflict('The offer that funded the deal cannot change', 'invalid_state_transition');
    const now = deps.clock.now();
    const fields = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
    const terms = {
      amount: body.amount ?? existing.amount,
      factor_rate: body.factor_rate ?? existing.factor_rate,
      term: body.term ?? existing.term,
      term_unit: body.term_unit ?? existing.term_unit,
      payment_frequency: body.payment_frequency ?? existing.payment_frequency,
    };
    const termsChanged =
      toCents(terms.amount) !== toCents(existing.amount) || terms.factor_rate !== existing.factor_rate || terms.term !== existing.term ||
      terms.term_unit !== existing.term_unit || terms.payment_frequency !== existing.payment_frequency;
    const patch: Partial<OfferRow> = { updated_at: now };
    if (termsChanged || body.payment_amount !== undefined) {
      // payment_amount kept when only it is unchanged and the terms did not move; derived again otherwise.
      const priced = priceOffer({ ...terms, payment_amount: body.payment_amount ?? (termsChanged ? null : existing.payment_amount) });
      Object.assign(patch, priced, { term: terms.term, term_unit: terms.term_unit, payment_frequency: terms.payment_frequency });
    }
    if (body.position !== undefined) patch.position = body.position;
    if (body.status !== undefined) patch.status = body.status;
    if (body.expires_at !== undefined) patch.expires_at = body.expires_at === null ? null : new Date(body.expires_at);
    if (body.notes !== undefined) patch.notes = body.notes;
    await updateOfferRow(trx, scope, id, patch);
    const row: OfferRow = { ...existing, ...patch };
    const lender = (await findLender(trx, scope, row.lender_id))?.name ?? '';
    // No event for offer edits (the contract fires none); the history still gets a line (open action offer.updated).
    await recordActivity(trx, deps.clock, scope, {
      businessId: deal.business_id, dealId: row.deal_id, entityType: 'offer', entityId: row.id, entityName: lender,
      action: 'offer.updated', description: `${lender}'s offer updated (${fields.join(', ')})`, data: { deal_id: row.deal_id, fields },
    });
    // The broker accepting it: status accepted on an offer that was not (offer.accepted; the primary offer stays).
    if (body.status === 'accepted' && existing.status !== 'accepted') await offerAccepted(trx, deps, scope, row, 'broker');
    return toOffer(row, lender);
  });
}

export async function setOfferPrimary(deps: Deps, scope: Scope, id: string): Promise<{ data: Offer; meta: { previous_primary_offer_id: string | null } }> {
  return deps.db.knex.transaction(async (trx) => {
    const found = await getOfferOr404(trx, scope, id);
    const deal = await getDealOr404(trx, scope, found.deal_id, { forUpdate: true });
    // Read again under the deal's lock: a concurrent switch of the primary offer has finished by now.
    const offer = await getOfferOr404(trx, scope, id);
    const lender = (await findLender(trx, scope, offer.lender_id))?.name ?? '';
    if (offer.is_primary) return { data: toOffer(offer, lender), meta: { previous_primary_offer_id: offer.id } };
    if (['declined', 'expired', 'withdrawn'].includes(offer.status)) throw conflict(`A ${offer.status} offer cannot become primary`, 'invalid_state_transition');
    if (deal.status !== 'open') throw conflict(`The primary offer of a ${deal.status} deal cannot change`, 'invalid_state_transition');
    const now = deps.clock.now();
    const previous = deal.primary_offer_id;
    await setPrimaryOfferRow(trx, scope, deal.id, offer.id, now);
    const row: OfferRow = { ...offer, is_primary: true, updated_at: now };
    await offerPrimaryChanged(trx, deps.clock, scope, row, previous);
    return { data: toOffer(row, lender), meta: { previous_primary_offer_id: previous } };
  });
}
