import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Scope } from '../../http/types';

// The stored inbound email (`inbound_emails`) and its API shape (inbound.service.ts).

type S = components['schemas'];
export type InboundEmail = S['InboundEmail'];

export interface InboundRow {
  id: string;
  location_id: string;
  status: InboundEmail['status'];
  review_reason: InboundEmail['review_reason'];
  message_id: string | null;
  from_address: string;
  from_name: string | null;
  to_addresses: string[];
  subject: string;
  sent_at: Date | null;
  text_body: string;
  attachments: InboundEmail['attachments'];
  submission_id: string | null;
  deal_id: string | null;
  lender_id: string | null;
  matched_by: InboundEmail['matched_by'];
  classification: S['InboundEmailClassification'];
  offer_ids: string[];
  dismiss_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const COLUMNS = [
  'id', 'location_id', 'status', 'review_reason', 'message_id', 'from_address', 'from_name', 'to_addresses', 'subject', 'sent_at', 'text_body',
  'attachments', 'submission_id', 'deal_id', 'lender_id', 'matched_by', 'classification', 'offer_ids', 'dismiss_reason', 'created_at', 'updated_at',
];

export const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export function toInboundEmail(r: InboundRow): InboundEmail {
  return {
    id: r.id,
    status: r.status,
    review_reason: r.review_reason,
    message_id: r.message_id,
    from: { address: r.from_address, name: r.from_name },
    to: json(r.to_addresses),
    subject: r.subject,
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    text: r.text_body,
    // emails stored before 2026-11-27 have no `filing`
    attachments: json(r.attachments).map((a) => ({ ...a, filing: a.filing ?? null })),
    submission_id: r.submission_id,
    deal_id: r.deal_id,
    lender_id: r.lender_id,
    matched_by: r.matched_by,
    classification: json(r.classification),
    offer_ids: json(r.offer_ids),
    dismiss_reason: r.dismiss_reason,
    received_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export async function findInbound(db: Knex | Knex.Transaction, scope: Scope, id: string, forUpdate = false): Promise<InboundRow | undefined> {
  const q = db('inbound_emails').where({ id, location_id: scope.locationId }).first(COLUMNS);
  if (forUpdate) q.forUpdate();
  return (await q) as InboundRow | undefined;
}
