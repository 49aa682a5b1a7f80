import type { Db } from '../../jobs/queue';
import { usd } from '../deals/deals.mapper';

// What each notification says: built from what a broker already sees on the deal (the business's
// legal name, the lender, amounts, ids, the lender's own words about the answer), never a person's
// SSN, date of birth, contact details, a token or a portal link.

/** The deal's business name, as the broker sees it in the deal list. */
export async function businessNameOfDeal(db: Db, locationId: string, dealId: string): Promise<string> {
  const row = (await db('deals as d').join('businesses as b', 'b.id', 'd.business_id').where({ 'd.id': dealId, 'd.location_id': locationId }).first('b.legal_name')) as { legal_name: string } | undefined;
  return row?.legal_name ?? dealId;
}

const offerLine = (o: { amount: number; factor_rate: number; term: number; term_unit?: string | null }) =>
  `Offer: ${usd(Number(o.amount))} at a factor of ${o.factor_rate} over ${o.term} ${o.term_unit ?? 'days'}`;

export function lenderAnsweredMessage(a: {
  business: string; lender: string; responseType: 'approved' | 'counter' | 'declined' | 'more_info'; submissionId: string; traceCode: string | null;
  declineCategory?: string | null; declineReason?: string | null; requestedItems?: string[]; offers?: { amount: number; factor_rate: number; term: number; term_unit?: string | null }[];
}): { title: string; lines: string[] } {
  const verb = { approved: 'approved', counter: 'made a counter-offer on', declined: 'declined', more_info: 'needs more information on' }[a.responseType];
  const lines = [`Submission: ${a.submissionId}${a.traceCode ? ` (reference ${a.traceCode})` : ''}`];
  if (a.responseType === 'declined') {
    if (a.declineCategory) lines.push(`Reason: ${a.declineCategory.replace(/_/g, ' ')}`);
    if (a.declineReason) lines.push(`The lender said: ${a.declineReason.slice(0, 300)}`);
  }
  if (a.responseType === 'more_info' && a.requestedItems?.length) lines.push(`Asked for: ${a.requestedItems.join('; ').slice(0, 500)}`);
  for (const o of a.offers ?? []) lines.push(offerLine(o));
  return { title: `${a.lender} ${verb} ${a.business}`, lines };
}

export function documentsReceivedMessage(a: { business: string; requestId: string; items: string[]; files: number }): { title: string; lines: string[] } {
  return {
    title: `${a.business} sent the documents you asked for`,
    lines: [`Document request: ${a.requestId}`, `Asked for: ${a.items.join('; ').slice(0, 500)}`, `Files received: ${a.files}`],
  };
}

export function offerAcceptedMessage(a: { business: string; lender: string; by: 'merchant' | 'broker'; offer: { id: string; amount: number; factor_rate: number; term: number; term_unit: string } }): { title: string; lines: string[] } {
  return {
    title: a.by === 'merchant' ? `${a.business} chose ${a.lender}'s offer` : `${a.lender}'s offer to ${a.business} was accepted`,
    lines: [`Offer: ${a.offer.id}`, offerLine(a.offer), a.by === 'merchant' ? 'Chosen by the merchant in the portal; it is now the primary offer.' : 'Accepted by a member of your team.'],
  };
}

export function submissionFailedMessage(a: { business: string; lender: string; submissionId: string; how: 'email' | 'api'; reason: string }): { title: string; lines: string[] } {
  return {
    title: `Your submission of ${a.business} to ${a.lender} could not be sent`,
    lines: [
      `Submission: ${a.submissionId}`,
      `Why: ${a.reason.slice(0, 300)}`,
      a.how === 'email'
        ? 'The email was tried several times and given up. Check the mailbox settings in the app, then submit again.'
        : "The lender's system refused it for good. Check the lender's API settings, then retry (POST /v1/submissions/{id}/retry).",
    ],
  };
}

export function webhookDeliveryFailedMessage(a: { url: string; subscriptionId: string; deliveryId: string; eventType: string; eventId: string; error: string | null }): { title: string; lines: string[] } {
  return {
    title: `A webhook delivery failed for good: ${a.eventType}`.slice(0, 200),
    lines: [
      `Endpoint: ${a.url}`,
      `Event: ${a.eventType} (${a.eventId})`,
      `Delivery: ${a.deliveryId}, after every retry`,
      `Last error: ${(a.error ?? 'unknown').slice(0, 300)}`,
      `Send it again: POST /v1/webhooks/${a.subscriptionId}/deliveries/${a.deliveryId}/retry, or from the Webhooks page of the app.`,
    ],
  };
}
