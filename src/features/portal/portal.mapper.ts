import type { components } from '../../../generated/schema';
import { iso, isoRequired } from '../../lib/format';
import type { DocumentRequestRow, PortalLinkRow } from './portal.repository';

type S = components['schemas'];
export type PortalLink = S['PortalLink'];
export type DocumentRequest = S['DocumentRequest'];

/** `url` only in the creation response (the caller passes it); every later read shows null. */
export function toPortalLink(row: PortalLinkRow, url: string | null = null): PortalLink {
  return {
    id: row.id,
    deal_id: row.deal_id,
    person_id: row.person_id,
    purpose: row.purpose,
    url,
    sent_to: row.sent_to,
    expires_at: isoRequired(row.expires_at),
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
    created_at: isoRequired(row.created_at),
  };
}

export function toDocumentRequest(row: DocumentRequestRow, portalUrl: string | null = null): DocumentRequest {
  return {
    id: row.id,
    deal_id: row.deal_id,
    person_id: row.person_id,
    items: typeof row.items === 'string' ? JSON.parse(row.items) : row.items,
    message: row.message,
    status: row.status,
    portal_url: portalUrl,
    sent_at: iso(row.sent_at),
    fulfilled_at: iso(row.fulfilled_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
