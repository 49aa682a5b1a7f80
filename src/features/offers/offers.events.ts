import type { Knex } from 'knex';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import type { Scope } from '../../http/types';
import type { Clock } from '../../lib/clock';
import type { Logger } from 'pino';
import { businessNameOfDeal, offerAcceptedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { usd } from '../deals/deals.mapper';
import { toOfferSnapshot } from './offers.mapper';
import { dealOfOffer, findLender, type OfferRow } from './offers.repository';

// Shared by setOfferPrimary and fundDeal (which makes the funded offer primary): kept apart from
// offers.service so that deals.service can use it without an import cycle.

/** offer.primary_changed: the activity line and the event, in the caller's transaction. */
export async function offerPrimaryChanged(trx: Knex.Transaction, clock: Clock, scope: Scope, offer: OfferRow, previousPrimaryOfferId: string | null): Promise<void> {
  const lender = (await findLender(trx, scope, offer.lender_id))?.name ?? '';
  const deal = await dealOfOffer(trx, scope, offer.deal_id);
  await recordActivity(trx, clock, scope, {
    businessId: deal.business_id, dealId: offer.deal_id, entityType: 'offer', entityId: offer.id, entityName: lender,
    action: 'offer.primary_changed', description: `${lender}'s offer of ${usd(offer.amount)} is now the primary offer`,
    data: { deal_id: offer.deal_id, previous_primary_offer_id: previousPrimaryOfferId },
  });
  await recordEvent(trx, clock, scope.locationId, 'offer.primary_changed', {
    offer_id: offer.id, deal_id: offer.deal_id, lender_id: offer.lender_id, previous_primary_offer_id: previousPrimaryOfferId, offer: toOfferSnapshot(offer),
  });
}

/**
 * offer.accepted: an offer became `accepted` (the merchant's choice in the portal, or a broker's
 * PATCH status accepted), in the caller's transaction: the activity line, the event, and the
 * notification of the deal's originator (not of the person who accepted it).
 */
export async function offerAccepted(trx: Knex.Transaction, ctx: { clock: Clock; logger?: Logger }, scope: Scope, offer: OfferRow, by: 'merchant' | 'broker'): Promise<void> {
  const lender = (await findLender(trx, scope, offer.lender_id))?.name ?? '';
  const deal = await dealOfOffer(trx, scope, offer.deal_id);
  const row: OfferRow = { ...offer, status: 'accepted' };
  await recordActivity(trx, ctx.clock, scope, {
    businessId: deal.business_id, dealId: offer.deal_id, entityType: 'offer', entityId: offer.id, entityName: lender,
    action: 'offer.accepted', description: `${lender}'s offer of ${usd(offer.amount)} was accepted by the ${by}`,
    data: { deal_id: offer.deal_id, accepted_by: by },
  });
  await recordEvent(trx, ctx.clock, scope.locationId, 'offer.accepted', {
    offer_id: offer.id, deal_id: offer.deal_id, lender_id: offer.lender_id, lender_name: lender, accepted_by: by, offer: toOfferSnapshot(row),
  });
  const message = offerAcceptedMessage({ business: await businessNameOfDeal(trx, scope.locationId, offer.deal_id), lender, by, offer: row });
  await notify(trx, ctx, { locationId: scope.locationId, kind: 'offer_accepted', dealId: offer.deal_id, actorUserId: scope.userId ?? null, ...message });
}
