import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { documentsReceivedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { offerAccepted } from '../offers/offers.events';
import { ApiError, conflict, notFound } from '../../http/errors';
import { systemScope, type Scope } from '../../http/types';
import { updateBusiness } from '../businesses/businesses.service';
import { createUploadSlot, finalizeUpload, getDocumentOr404 } from '../documents/documents.service';
import { toDocument } from '../documents/documents.mapper';
import { getOfferOr404, listDealOffers, setOfferPrimary } from '../offers/offers.service';
import { updatePerson } from '../people/people.service';
import { findLinkByTokenHash, findLinkById, type DocumentRequestRow, type PortalLinkRow } from './portal.repository';
import { portalTokenHash } from './portal.service';

// What the merchant does in the portal, always as the link allows: its location, its deal, its
// person and its purpose. Each action runs through the same services as the API, so the same rules,
// events and history lines apply; the actor is the merchant (no user), recorded in the history.

type CreateUpload = components['schemas']['CreateDealDocumentUploadRequest'];

/** The merchant acts as the system in the link's location (no user); the link bounds what it may touch. */
export const portalScope = (link: Pick<PortalLinkRow, 'location_id'>): Scope => systemScope(link.location_id);

export type LinkState = 'valid' | 'expired' | 'revoked' | 'unknown';

export function linkState(link: PortalLinkRow | undefined, now: Date): LinkState {
  if (!link) return 'unknown';
  if (link.revoked_at) return 'revoked';
  if (new Date(link.expires_at) <= now) return 'expired';
  return 'valid';
}

export const linkOfToken = (db: Knex, token: string) => findLinkByTokenHash(db, portalTokenHash(token));
export const linkOfId = (db: Knex, id: string) => findLinkById(db, id);

/** `last_used_at` follows use, written at most once a minute per link. */
export async function touchLink(deps: Deps, link: PortalLinkRow): Promise<void> {
  const now = deps.clock.now();
  if (link.last_used_at && now.getTime() - new Date(link.last_used_at).getTime() < 60_000) return;
  await deps.db.knex('portal_links').where({ id: link.id }).update({ last_used_at: now });
}

export interface PortalContext {
  link: PortalLinkRow;
  deal: { id: string; business_id: string; business_name: string; status: string; primary_offer_id: string | null };
  location: { name: string };
  person: { id: string; first_name: string; last_name: string };
  request: DocumentRequestRow | null;
}

export async function portalContext(deps: Deps, link: PortalLinkRow): Promise<PortalContext> {
  const db = deps.db.knex;
  const deal = await db('deals').join('businesses', 'businesses.id', 'deals.business_id')
    .where({ 'deals.id': link.deal_id, 'deals.location_id': link.location_id })
    .first('deals.id', 'deals.business_id', 'businesses.legal_name as business_name', 'deals.status', 'deals.primary_offer_id');
  if (!deal) throw notFound('deal', link.deal_id);
  const location = await db('locations').where({ id: link.location_id }).first('name');
  const person = await db('people').where({ id: link.person_id, location_id: link.location_id }).first('id', 'first_name', 'last_name');
  const request = link.document_request_id
    ? ((await db('document_requests').where({ id: link.document_request_id, location_id: link.location_id }).first()) ?? null)
    : null;
  return { link, deal, location: { name: location?.name ?? '' }, person: person ?? { id: link.person_id, first_name: '', last_name: '' }, request };
}

export async function portalDocuments(deps: Deps, link: PortalLinkRow) {
  const rows = await deps.db.knex('documents').where({ location_id: link.location_id, deal_id: link.deal_id, portal_link_id: link.id })
    .whereNot('status', 'pending_upload').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(100);
  return rows.map((r) => toDocument(r));
}

export async function portalOffers(deps: Deps, link: PortalLinkRow) {
  const page = await listDealOffers(deps, portalScope(link), link.deal_id, { limit: 100 } as never);
  return page.data.filter((o) => !['declined', 'expired', 'withdrawn'].includes(o.status));
}

/** A presigned upload for the merchant: the document is created on the link's deal with source merchant_portal. */
export async function startMerchantUpload(deps: Deps, ctx: PortalContext, body: CreateUpload) {
  if (ctx.link.purpose !== 'documents') throw new ApiError('role_not_allowed', 'This link does not allow uploads');
  return createUploadSlot(deps, deps.db.knex, portalScope(ctx.link), ctx.deal, body, {
    source: 'merchant_portal', portalLinkId: ctx.link.id, documentRequestId: ctx.link.document_request_id,
  });
}

export async function finishMerchantUpload(deps: Deps, ctx: PortalContext, documentId: string) {
  const scope = portalScope(ctx.link);
  const doc = await getDocumentOr404(deps.db.knex, scope, documentId);
  // Only the uploads started through this very link.
  if (doc.portal_link_id !== ctx.link.id) throw notFound('document', documentId);
  return toDocument(await finalizeUpload(deps, scope, documentId));
}

/** The merchant has uploaded what was asked: the request becomes fulfilled. */
export async function fulfillRequest(deps: Deps, ctx: PortalContext): Promise<void> {
  const request = ctx.request;
  if (!request || request.status !== 'open') return;
  const scope = portalScope(ctx.link);
  await deps.db.knex.transaction(async (trx) => {
    const now = deps.clock.now();
    const uploaded = await trx('documents').where({ location_id: ctx.link.location_id, portal_link_id: ctx.link.id }).whereNot('status', 'pending_upload').first('id');
    if (!uploaded) throw new ApiError('invalid_state_transition', 'Upload at least one document first');
    const n = await trx('document_requests').where({ id: request.id, location_id: ctx.link.location_id, status: 'open' }).update({ status: 'fulfilled', fulfilled_at: now, updated_at: now });
    if (!n) return;
    const ids = (await trx('documents').where({ location_id: ctx.link.location_id, portal_link_id: ctx.link.id }).whereNot('status', 'pending_upload').select('id')).map((r) => r.id as string);
    await recordActivity(trx, deps.clock, scope, {
      businessId: ctx.deal.business_id, dealId: ctx.deal.id, entityType: 'deal', entityId: ctx.deal.id, entityName: ctx.deal.business_name,
      action: 'documents.request_fulfilled', description: `The merchant submitted the requested documents (${ids.length} file${ids.length === 1 ? '' : 's'})`,
      data: { document_request_id: request.id, document_ids: ids },
    });
    const fulfilled = { ...request, status: 'fulfilled' as const, fulfilled_at: now, updated_at: now };
    await recordEvent(trx, deps.clock, ctx.link.location_id, 'document_request.fulfilled', {
      document_request_id: request.id, deal_id: ctx.deal.id, document_ids: ids, document_request: toDocumentRequestSnapshot(fulfilled),
    });
    const items = jsonList(request.items);
    await notify(trx, deps, {
      locationId: ctx.link.location_id, kind: 'document_request_fulfilled', dealId: ctx.deal.id, actorUserId: null,
      ...documentsReceivedMessage({ business: ctx.deal.business_name, requestId: request.id, items, files: ids.length }),
    });
  });
}

const jsonList = (v: unknown): string[] => (typeof v === 'string' ? JSON.parse(v) : (v as string[]) ?? []);
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** The request as webhooks carry it: ids, what was asked, status and times (no message, address or link). */
export function toDocumentRequestSnapshot(r: DocumentRequestRow): components['schemas']['DocumentRequestSnapshot'] {
  return {
    id: r.id, deal_id: r.deal_id, person_id: r.person_id, items: jsonList(r.items), status: r.status,
    sent_at: iso(r.sent_at), fulfilled_at: iso(r.fulfilled_at), created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!,
  };
}

/**
 * The merchant chooses an offer: it becomes the deal's primary offer (offer.primary_changed, as
 * with POST /v1/offers/{id}/set-primary) and is marked accepted.
 */
export async function chooseOffer(deps: Deps, ctx: PortalContext, offerId: string): Promise<void> {
  if (ctx.link.purpose !== 'offers') throw new ApiError('role_not_allowed', 'This link does not allow choosing offers');
  const scope = portalScope(ctx.link);
  await deps.db.knex.transaction(async (trx) => {
    const d: Deps = { ...deps, db: { ...deps.db, knex: trx as unknown as Knex } };
    const offer = await getOfferOr404(trx, scope, offerId);
    if (offer.deal_id !== ctx.link.deal_id) throw notFound('offer', offerId);
    if (offer.status !== 'pending' && offer.status !== 'accepted') throw conflict(`A ${offer.status} offer cannot be chosen`, 'invalid_state_transition');
    await setOfferPrimary(d, scope, offerId);
    const now = deps.clock.now();
    const accepted = await trx('offers').where({ id: offerId, location_id: scope.locationId, status: 'pending' }).update({ status: 'accepted', updated_at: now });
    // From pending only: choosing an offer that was already accepted accepts nothing new.
    if (accepted) await offerAccepted(trx, deps, scope, await getOfferOr404(trx, scope, offerId), 'merchant');
    await recordActivity(trx, deps.clock, scope, {
      businessId: ctx.deal.business_id, dealId: ctx.deal.id, entityType: 'offer', entityId: offerId, entityName: ctx.deal.business_name,
      action: 'portal.offer_chosen', description: 'The merchant chose this offer in the portal', data: { deal_id: ctx.deal.id, portal_link_id: ctx.link.id },
    });
  });
}

/** Application fields from the portal: the business and the link's person, through their services, in one transaction. */
export async function updateApplication(deps: Deps, ctx: PortalContext, business: Record<string, string | null>, owner: Record<string, string | null>): Promise<string[]> {
  if (ctx.link.purpose !== 'application') throw new ApiError('role_not_allowed', 'This link does not allow changing the application');
  const scope = portalScope(ctx.link);
  const fields = [...Object.keys(business).map((k) => `business.${k}`), ...Object.keys(owner).map((k) => `owner.${k}`)];
  if (!fields.length) return fields;
  await deps.db.knex.transaction(async (trx) => {
    const d: Deps = { ...deps, db: { ...deps.db, knex: trx as unknown as Knex } };
    if (Object.keys(business).length) await updateBusiness(d, scope, ctx.deal.business_id, business as never);
    if (Object.keys(owner).length) await updatePerson(d, scope, ctx.link.person_id, owner as never);
    await recordActivity(trx, deps.clock, scope, {
      businessId: ctx.deal.business_id, dealId: ctx.deal.id, entityType: 'business', entityId: ctx.deal.business_id, entityName: ctx.deal.business_name,
      action: 'portal.application_updated', description: `The merchant completed application fields in the portal (${fields.join(', ')})`,
      data: { deal_id: ctx.deal.id, portal_link_id: ctx.link.id, fields },
    });
  });
  return fields;
}

