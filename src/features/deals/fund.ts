import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { conflict, invalid, notFound } from '../../http/errors';
import type { Scope } from '../../http/types';
import { dateOnly } from '../../lib/format';
import { newId } from '../../lib/ids';
import type { Advance } from '../advances/advances.mapper';
import { insertAdvance, locationThreshold, notifyRenewalReadyOnce, withContext as advancesWithContext, type AdvanceRow } from '../advances/advances.service';
import { offerPrimaryChanged } from '../offers/offers.events';
import { findOffer, markSubmissionFunded, setPrimaryOfferRow, updateOfferRow, type OfferRow } from '../offers/offers.service';
import { firstStageOfPhase } from '../pipeline/pipeline.service';
import { toDealSnapshot, toStageRef, usd } from './deals.mapper';
import { applyStageMove, contextOf, dealActivity, getDealOr404 } from './deals.service';

type FundBody = components['schemas']['FundDealRequest'];

// Funding a deal: its accepted offer selected (and primary), the offer's submission funded, the
// advance copied from the offer, the deal in the funded phase, all in one transaction. Apart from
// deals.service.ts because it writes offers and advances: offers.service imports deals.service, so
// this file sits above both and no circle forms.

/** The first business day (Monday to Friday) after a UTC date. */
export function nextBusinessDay(d: Date): string {
  let t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
  while (t.getUTCDay() === 0 || t.getUTCDay() === 6) t = new Date(t.getTime() + 86_400_000);
  return dateOnly(t);
}

export async function fundDeal(deps: Deps, scope: Scope, id: string, body: FundBody): Promise<Advance> {
  return deps.db.knex.transaction(async (trx) => {
    const deal = await getDealOr404(trx, scope, id, { forUpdate: true });
    // Locked: a concurrent updateOffer must not change the terms the advance copies.
    const offer = await findOffer(trx, scope, body.offer_id, { forUpdate: true });
    if (!offer) throw notFound('offer', body.offer_id, 'offer_id');
    if (deal.status !== 'open') throw conflict(`The deal is already ${deal.status}`, 'invalid_state_transition');
    if (offer.deal_id !== deal.id) throw conflict('offer_id is an offer of another deal', 'invalid_state_transition', 'offer_id');
    if (offer.status !== 'accepted') throw conflict(`Only an accepted offer can fund the deal (this one is ${offer.status})`, 'invalid_state_transition', 'offer_id');
    const now = deps.clock.now();
    const fundedAt = body.funded_at ? new Date(body.funded_at) : now;
    if (fundedAt.getTime() > now.getTime()) throw invalid('funded_at cannot be in the future', 'funded_at');
    const firstPaymentDate = body.first_payment_date ?? nextBusinessDay(fundedAt);
    if (firstPaymentDate < dateOnly(fundedAt)) throw invalid('first_payment_date cannot be before the funding date', 'first_payment_date');
    const fundedStage = await firstStageOfPhase(trx, scope, ['funded']);
    if (!fundedStage) throw conflict('The pipeline has no funded-phase stage', 'invalid_state_transition');

    // 1. the offer is selected, and becomes primary if it was not.
    const previousPrimary = deal.primary_offer_id;
    const becamePrimary = !offer.is_primary;
    if (becamePrimary) await setPrimaryOfferRow(trx, scope, deal.id, offer.id, now);
    await updateOfferRow(trx, scope, offer.id, { is_selected: true, updated_at: now });
    const selected: OfferRow = { ...offer, is_selected: true, is_primary: true, updated_at: now };
    // 2. its submission (if any) is funded.
    if (offer.submission_id) await markSubmissionFunded(trx, scope, offer.submission_id, now);
    // 3. the advance, copied from the offer.
    const advance: AdvanceRow = {
      id: newId('adv', now.getTime()),
      location_id: scope.locationId,
      deal_id: deal.id,
      business_id: deal.business_id,
      lender_id: offer.lender_id,
      offer_id: offer.id,
      status: 'on-track',
      funded_amount: offer.amount,
      factor_rate: offer.factor_rate,
      term: offer.term,
      payment_frequency: offer.payment_frequency,
      payment_amount: offer.payment_amount,
      payback_amount: offer.payback_amount,
      paid_amount: 0,
      payments_made: 0,
      position: body.position ?? offer.position,
      renewal_threshold_override: null,
      renewal_ready_notified_at: null,
      funded_at: fundedAt,
      first_payment_date: firstPaymentDate,
      actual_payoff_date: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await insertAdvance(trx, advance);
    } catch (e) {
      // One advance per deal (unique deal_id): a concurrent funding won.
      if ((e as { code?: string }).code === '23505') throw conflict('The deal already has an advance', 'invalid_state_transition');
      throw e;
    }
    // 4. the deal enters the funded phase.
    const { row } = await applyStageMove(trx, deps.clock, scope, { ...deal, primary_offer_id: offer.id }, fundedStage, {
      trigger: 'api', event: null, reason: null, activity: false,
      extra: { status: 'funded', closed_at: now, manually_closed: true, primary_offer_id: offer.id },
    });
    const ctx = await contextOf(trx, scope, row);
    if (becamePrimary) await offerPrimaryChanged(trx, deps.clock, scope, selected, previousPrimary);
    const lender = ctx.primary_offer?.lender_name ?? 'the lender';
    await recordActivity(trx, deps.clock, scope, {
      ...dealActivity(ctx, row),
      action: 'deal.funded',
      description: `Deal funded with ${lender} for ${usd(advance.funded_amount)}`,
      data: { stage: { id: fundedStage.id, label: fundedStage.label }, advance_id: advance.id, funded_amount: advance.funded_amount },
    });
    await recordEvent(trx, deps.clock, scope.locationId, 'deal.funded', { deal_id: row.id, stage: toStageRef(fundedStage), reason: null, changed_at: now.toISOString(), deal: toDealSnapshot(row, ctx) });
    // A location default of 0% makes a new advance renewal ready at once.
    await notifyRenewalReadyOnce(trx, deps.clock, scope, advance, await locationThreshold(trx, scope));
    return (await advancesWithContext(trx, scope, [advance]))[0];
  });
}

