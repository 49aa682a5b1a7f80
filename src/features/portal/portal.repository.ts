import type { Knex } from 'knex';
import type { Scope } from '../../http/types';
import { visibleDeals } from '../../db/visible';

// SQL only here. Every function takes the caller's scope first, except the lookup of a link by
// its token's hash, which is how the merchant portal learns the scope.

export type Db = Knex | Knex.Transaction;

export interface PortalLinkRow {
  id: string;
  location_id: string;
  deal_id: string;
  business_id: string;
  person_id: string;
  purpose: 'documents' | 'offers' | 'application';
  token_hash: string;
  sent_to: string | null;
  document_request_id: string | null;
  created_by_user_id: string | null;
  email_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

export interface DocumentRequestRow {
  id: string;
  location_id: string;
  deal_id: string;
  person_id: string;
  items: string[];
  message: string | null;
  status: 'open' | 'fulfilled' | 'cancelled';
  portal_link_id: string;
  created_by_user_id: string | null;
  email_id: string | null;
  sent_at: Date | null;
  fulfilled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function portalLinksQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  const q = db('portal_links').where('portal_links.location_id', scope.locationId).select('portal_links.*');
  if (scope.role === 'user') q.whereIn('portal_links.deal_id', visibleDeals(db, scope).select('deals.id'));
  return q;
}

export async function findPortalLink(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<PortalLinkRow | undefined> {
  const q = portalLinksQuery(db, scope).where('portal_links.id', id);
  if (opts.forUpdate) q.forUpdate();
  return q.first();
}

export async function findLinkByTokenHash(db: Db, tokenHash: string): Promise<PortalLinkRow | undefined> {
  return db<PortalLinkRow>('portal_links').where({ token_hash: tokenHash }).first();
}

export async function findLinkById(db: Db, id: string): Promise<PortalLinkRow | undefined> {
  return db<PortalLinkRow>('portal_links').where({ id }).first();
}

export async function insertPortalLink(db: Db, row: PortalLinkRow): Promise<void> {
  await db('portal_links').insert(row);
}

export async function updatePortalLinkRow(db: Db, scope: Scope, id: string, patch: Partial<PortalLinkRow>): Promise<void> {
  await db('portal_links').where({ id, location_id: scope.locationId }).update(patch);
}

export function documentRequestsQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  const q = db('document_requests').where('document_requests.location_id', scope.locationId).select('document_requests.*');
  if (scope.role === 'user') q.whereIn('document_requests.deal_id', visibleDeals(db, scope).select('deals.id'));
  return q;
}

export async function insertDocumentRequest(db: Db, row: DocumentRequestRow): Promise<void> {
  await db('document_requests').insert({ ...row, items: JSON.stringify(row.items) });
}

/** The person, if linked to the business. */
export async function linkedPerson(db: Db, scope: Scope, businessId: string, personId: string) {
  return db('business_people as bp')
    .join('people', 'people.id', 'bp.person_id')
    .where({ 'bp.location_id': scope.locationId, 'bp.business_id': businessId, 'bp.person_id': personId })
    .first('people.id', 'people.first_name', 'people.last_name', 'people.email', 'bp.active');
}

export async function primaryContact(db: Db, scope: Scope, businessId: string) {
  return db('business_people as bp')
    .join('people', 'people.id', 'bp.person_id')
    .where({ 'bp.location_id': scope.locationId, 'bp.business_id': businessId, 'bp.is_primary_contact': true })
    .first('people.id', 'people.first_name', 'people.last_name', 'people.email', 'bp.active');
}
