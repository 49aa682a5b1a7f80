import type { Knex } from 'knex';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import type { Scope } from '../../http/types';
import type { Clock } from '../../lib/clock';
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
