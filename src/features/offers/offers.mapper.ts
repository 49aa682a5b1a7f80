import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { OfferRow } from './offers.repository';

type S = components['schemas'];
export type Offer = S['Offer'];
export type OfferSnapshot = S['OfferSnapshot'];

/** The id of an offer status record: stable per status (`ost_accepted`...). */
export const offerStatusId = (status: string) => `ost_${status}`;

export function toOffer(row: OfferRow, lenderName: string): Offer {
  return {
    id: row.id,
    deal_id: row.deal_id,
    lender_id: row.lender_id,
    lender_name: lenderName,
    submission_id: row.submission_id,
    amount: row.amount,
    factor_rate: row.factor_rate,
    term: row.term,
    term_unit: row.term_unit as Offer['term_unit'],
    payment_amount: row.payment_amount,
    payment_frequency: row.payment_frequency as Offer['payment_frequency'],
    payback_amount: row.payback_amount,
    position: row.position,
    status: row.status,
    status_id: offerStatusId(row.status),
    is_primary: row.is_primary,
    is_selected: row.is_selected,
    source: row.source as Offer['source'],
    notes: row.notes,
    received_at: isoRequired(row.received_at),
    expires_at: iso(row.expires_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The webhook snapshot: `status_id`, never the slug, the lender name or the notes. */
export function toOfferSnapshot(row: OfferRow): OfferSnapshot {
  return {
    id: row.id,
    deal_id: row.deal_id,
    lender_id: row.lender_id,
    submission_id: row.submission_id,
    amount: row.amount,
    factor_rate: row.factor_rate,
    term: row.term,
    term_unit: row.term_unit,
    payment_amount: row.payment_amount,
    payment_frequency: row.payment_frequency,
    payback_amount: row.payback_amount,
    position: row.position,
    status_id: offerStatusId(row.status),
    is_primary: row.is_primary,
    is_selected: row.is_selected,
    source: row.source,
    received_at: isoRequired(row.received_at),
    expires_at: iso(row.expires_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
