import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { notFound } from '../../http/errors';
import { paginate } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { findVisibleDeal, type Db } from '../activity/activity.service';
import { getBusinessOr404 } from '../businesses/businesses.service';
import { toNote, type Note } from './notes.mapper';
import { findNote, insertNote, notesQuery, type NoteRow, type NoteWithAuthor } from './notes.repository';

type CreateBody = components['schemas']['CreateBusinessNoteRequest'];
type ListQuery = NonNullable<operations['listBusinessNotes']['parameters']['query']>;

/** The deal, if the caller may see it (role `user`: only deals it created); else 404. */
export async function getVisibleDealOr404(db: Db, scope: Scope, id: string) {
  const deal = await findVisibleDeal(db, scope, id);
  if (!deal) throw notFound('deal', id);
  return deal;
}

const preview = (body: string) => (body.length > 80 ? `${body.slice(0, 77)}...` : body);

async function addNote(deps: Deps, scope: Scope, parent: { type: 'business' | 'deal'; id: string; businessId: string; businessName: string }, body: CreateBody): Promise<Note> {
  const now = deps.clock.now();
  return deps.db.knex.transaction(async (trx) => {
    const row: NoteRow = {
      id: newId('note', now.getTime()),
      location_id: scope.locationId,
      entity_type: parent.type,
      entity_id: parent.id,
      body: body.body,
      pinned: body.pinned ?? false,
      author_user_id: scope.userId,
      created_at: now,
      updated_at: now,
    };
    await insertNote(trx, row);
    await recordActivity(trx, deps.clock, scope, {
      businessId: parent.businessId,
      dealId: parent.type === 'deal' ? parent.id : null,
      entityType: 'note', entityId: row.id, entityName: parent.businessName,
      action: 'note.created',
      description: `Note added to the ${parent.type}: ${preview(body.body)}`,
      data: { parent_type: parent.type, parent_id: parent.id },
    });
    return toNote((await findNote(trx, scope, row.id))!);
  });
}

async function listNotes(deps: Deps, scope: Scope, type: 'business' | 'deal', id: string, query: ListQuery) {
  const q = notesQuery(deps.db.knex, scope, type, id);
  if (query.pinned !== undefined) q.where('notes.pinned', String(query.pinned) === 'true');
  const page = await paginate<NoteWithAuthor>(q, {
    key: deps.cursorKey, list: `notes:${id}`, limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'notes.created_at', idColumn: 'notes.id',
  });
  return { data: page.rows.map(toNote), meta: page.meta };
}

export async function createBusinessNote(deps: Deps, scope: Scope, businessId: string, body: CreateBody): Promise<Note> {
  const business = await getBusinessOr404(deps.db.knex, scope, businessId);
  return addNote(deps, scope, { type: 'business', id: business.id, businessId: business.id, businessName: business.legal_name }, body);
}

export async function listBusinessNotes(deps: Deps, scope: Scope, businessId: string, query: ListQuery) {
  await getBusinessOr404(deps.db.knex, scope, businessId);
  return listNotes(deps, scope, 'business', businessId, query);
}

export async function createDealNote(deps: Deps, scope: Scope, dealId: string, body: CreateBody): Promise<Note> {
  const deal = await getVisibleDealOr404(deps.db.knex, scope, dealId);
  return addNote(deps, scope, { type: 'deal', id: deal.id, businessId: deal.business_id, businessName: deal.business_name }, body);
}

export async function listDealNotes(deps: Deps, scope: Scope, dealId: string, query: ListQuery) {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  return listNotes(deps, scope, 'deal', dealId, query);
}
