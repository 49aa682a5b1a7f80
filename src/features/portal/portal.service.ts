import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { invalid, notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { randomBase62, sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { queueEmail } from '../../mail';
import { registerEmailSentHook } from '../../mail/sent-hooks';
import { getVisibleDealOr404 } from '../notes/notes.service';
import { toDocumentRequest, toPortalLink, type DocumentRequest, type PortalLink } from './portal.mapper';
import {
  documentRequestsQuery, findPortalLink, insertDocumentRequest, insertPortalLink, linkedPerson, portalLinksQuery, primaryContact,
  updatePortalLinkRow, type DocumentRequestRow, type PortalLinkRow,
} from './portal.repository';

type S = components['schemas'];
type LinkBody = S['CreatePortalLinkRequest'];
type RequestBody = S['CreateDocumentRequestRequest'];
type LinkListQuery = NonNullable<operations['listPortalLinks']['parameters']['query']>;
type RequestListQuery = NonNullable<operations['listDocumentRequests']['parameters']['query']>;
type Deal = { id: string; business_id: string; business_name: string };

export const DEFAULT_LINK_HOURS = 72;
/** The magic link's secret: 32 base62 characters (about 190 bits). Only its SHA-256 is stored. */
const TOKEN_LENGTH = 32;
export const portalTokenHash = (token: string) => sha256Hex(`portal-link:${token}`);

const PURPOSE_TEXT: Record<PortalLinkRow['purpose'], { subject: string; ask: string }> = {
  documents: { subject: 'Documents requested for your funding application', ask: 'Please upload the requested documents here' },
  offers: { subject: 'Your funding offers are ready', ask: 'Review your offers and choose one here' },
  application: { subject: 'Complete your funding application', ask: 'Complete your application here' },
};

/** The recipient: `person_id` linked to the deal's business, or its primary contact; with an email when one is to be sent. */
async function recipient(db: Knex | Knex.Transaction, scope: Scope, deal: Deal, personId: string | undefined, needEmail: boolean) {
  const person = personId ? await linkedPerson(db, scope, deal.business_id, personId) : await primaryContact(db, scope, deal.business_id);
  if (!person) {
    throw personId
      ? invalid(`Person ${personId} is not linked to the deal's business`, 'person_id')
      : invalid("The deal's business has no primary contact; pass person_id", 'person_id');
  }
  if (needEmail && !person.email) throw invalid(`Person ${person.id} has no email address; add one, or create the link without sending it`, 'person_id');
  return person as { id: string; first_name: string; last_name: string; email: string | null };
}

/** A message that opens with a greeting of its own. */
const GREETING = /^\s*(hi|hello|hey|dear|good (morning|afternoon|evening))\b/i;

function renderLinkEmail(o: { purpose: PortalLinkRow['purpose']; firstName: string; businessName: string; locationName: string; url: string; expiresAt: Date; message?: string | null; items?: string[] }) {
  const t = PURPOSE_TEXT[o.purpose];
  // A broker's message usually greets the merchant itself ("Hi Maria, ..."): then it is the only greeting.
  const greets = !!o.message && GREETING.test(o.message);
  const lines = [
    ...(greets ? [] : [`Hi ${o.firstName},`, '']),
    ...(o.message ? [o.message, ''] : []),
    ...(o.items?.length ? ['Requested:', ...o.items.map((i) => `- ${i.replace(/_/g, ' ')}`), ''] : []),
    `${t.ask} (for ${o.businessName}):`,
    o.url,
    '',
    `The link is personal: do not forward it. It works until ${o.expiresAt.toUTCString()}.`,
    '',
    o.locationName,
  ];
  return { subject: `${t.subject} - ${o.businessName}`, text: lines.join('\n') };
}

/**
 * Creates a magic link in the caller's transaction and, when `send`, queues its email through the
 * location's mailbox. Returns the row and its URL (shown once).
 */
export async function issuePortalLink(
  trx: Knex.Transaction,
  deps: Deps,
  scope: Scope,
  deal: Deal,
  o: { purpose: PortalLinkRow['purpose']; personId?: string; expiresInHours: number; send: boolean; documentRequestId?: string; message?: string | null; items?: string[]; emailKind?: string },
): Promise<{ row: PortalLinkRow; url: string; emailId: string | null }> {
  const person = await recipient(trx, scope, deal, o.personId, o.send);
  const now = deps.clock.now();
  const token = randomBase62(TOKEN_LENGTH);
  const url = `${deps.publicBaseUrl}/p/${token}`;
  const row: PortalLinkRow = {
    id: newId('pl', now.getTime()), location_id: scope.locationId, deal_id: deal.id, business_id: deal.business_id, person_id: person.id,
    purpose: o.purpose, token_hash: portalTokenHash(token), sent_to: o.send ? person.email : null, document_request_id: o.documentRequestId ?? null,
    created_by_user_id: scope.userId, email_id: null, expires_at: new Date(now.getTime() + o.expiresInHours * 3600_000), revoked_at: null,
    last_used_at: null, created_at: now,
  };
  if (o.send) {
    const location = await trx('locations').where({ id: scope.locationId }).first('name');
    // The link goes into the email at send time from a sealed value: the stored message never holds it.
    const mail = renderLinkEmail({ purpose: o.purpose, firstName: person.first_name, businessName: deal.business_name, locationName: location?.name ?? '', url: '{{sealed:portal_url}}', expiresAt: row.expires_at, message: o.message, items: o.items });
    row.email_id = await queueEmail(trx, deps.clock, {
      locationId: scope.locationId, kind: o.emailKind ?? 'portal_link', to: [person.email!], subject: mail.subject, text: mail.text,
      sealedValues: deps.secrets.seal(JSON.stringify({ portal_url: url })),
    });
  }
  await insertPortalLink(trx, row);
  await recordActivity(trx, deps.clock, scope, {
    businessId: deal.business_id, dealId: deal.id, entityType: 'deal', entityId: deal.id, entityName: deal.business_name,
    action: 'portal.link_created', description: `Merchant portal link (${o.purpose}) created for ${person.first_name} ${person.last_name}${o.send ? ' and emailed' : ''}`,
    data: { portal_link_id: row.id, purpose: o.purpose, person_id: person.id, sent: o.send },
  });
  return { row, url, emailId: row.email_id };
}

export async function createPortalLink(deps: Deps, scope: Scope, dealId: string, body: LinkBody): Promise<PortalLink> {
  const deal = await getVisibleDealOr404(deps.db.knex, scope, dealId);
  return deps.db.knex.transaction(async (trx) => {
    const { row, url } = await issuePortalLink(trx, deps, scope, deal, {
      purpose: body.purpose, personId: body.person_id, expiresInHours: body.expires_in_hours ?? DEFAULT_LINK_HOURS, send: body.send ?? true,
    });
    return toPortalLink(row, url);
  });
}

export async function listPortalLinks(deps: Deps, scope: Scope, dealId: string, query: LinkListQuery) {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const q = portalLinksQuery(deps.db.knex, scope).where('portal_links.deal_id', dealId);
  const page = await paginate<PortalLinkRow>(q, { key: deps.cursorKey, list: `portal_links:${dealId}`, limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'portal_links.created_at', idColumn: 'portal_links.id' });
  return { data: page.rows.map((r) => toPortalLink(r)), meta: page.meta };
}

/** Revokes at once; a link already revoked or expired is returned unchanged. */
export async function revokePortalLink(deps: Deps, scope: Scope, id: string): Promise<PortalLink> {
  return deps.db.knex.transaction(async (trx) => {
    const row = await findPortalLink(trx, scope, id, { forUpdate: true });
    if (!row) throw notFound('portal link', id);
    const now = deps.clock.now();
    if (row.revoked_at || new Date(row.expires_at) <= now) return toPortalLink(row);
    await updatePortalLinkRow(trx, scope, id, { revoked_at: now });
    return toPortalLink({ ...row, revoked_at: now });
  });
}

export async function createDocumentRequest(deps: Deps, scope: Scope, dealId: string, body: RequestBody): Promise<DocumentRequest> {
  const deal = await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const items = body.items.map((i) => i.trim()).filter(Boolean);
  if (!items.length) throw invalid('items must name at least one document', 'items');
  return deps.db.knex.transaction(async (trx) => {
    const now = deps.clock.now();
    const id = newId('dreq', now.getTime());
    const send = body.send_email ?? true;
    const link = await issuePortalLink(trx, deps, scope, deal, {
      purpose: 'documents', personId: body.person_id, expiresInHours: DEFAULT_LINK_HOURS, send, documentRequestId: id,
      message: body.message ?? null, items, emailKind: 'document_request',
    });
    const row: DocumentRequestRow = {
      id, location_id: scope.locationId, deal_id: deal.id, person_id: link.row.person_id, items, message: body.message ?? null, status: 'open',
      portal_link_id: link.row.id, created_by_user_id: scope.userId, email_id: link.emailId, sent_at: null, fulfilled_at: null, created_at: now, updated_at: now,
    };
    await insertDocumentRequest(trx, row);
    await recordActivity(trx, deps.clock, scope, {
      businessId: deal.business_id, dealId: deal.id, entityType: 'deal', entityId: deal.id, entityName: deal.business_name,
      action: 'documents.requested', description: `Documents requested from the merchant: ${items.join(', ')}`,
      data: { document_request_id: id, items, person_id: row.person_id, sent: send },
    });
    return toDocumentRequest(row, link.url);
  });
}

export async function listDocumentRequests(deps: Deps, scope: Scope, dealId: string, query: RequestListQuery) {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const q = documentRequestsQuery(deps.db.knex, scope).where('document_requests.deal_id', dealId);
  if (query.status) q.where('document_requests.status', query.status);
  const page = await paginate<DocumentRequestRow>(q, {
    key: deps.cursorKey, list: `document_requests:${dealId}:${query.status ?? ''}`, limit: query.limit, cursor: query.cursor, filters: query,
    createdAtColumn: 'document_requests.created_at', idColumn: 'document_requests.id',
  });
  return { data: page.rows.map((r) => toDocumentRequest(r)), meta: page.meta };
}

/** The request's `sent_at` is when its email was accepted by the SMTP server, in the transaction that records it. */
export function registerPortalMail(): void {
  registerEmailSentHook('document_request', async (trx, _deps, email) => {
    await trx('document_requests').where({ location_id: email.location_id, email_id: email.id }).whereNull('sent_at').update({ sent_at: email.sent_at, updated_at: email.sent_at });
  });
}

