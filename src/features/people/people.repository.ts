import type { Knex } from 'knex';
import type { Scope } from '../../http/types';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.

export type Db = Knex | Knex.Transaction;

export interface PersonRow {
  id: string;
  location_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  dob: string | null;
  ssn_encrypted: string | null;
  ssn_last4: string | null;
  credit_score: string | null;
  ghl_contact_id: string | null;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export type AssociationRole = 'owner' | 'co-owner' | 'bookkeeper' | 'other';

export interface LinkRow {
  id: string;
  location_id: string;
  business_id: string;
  person_id: string;
  role: AssociationRole;
  ownership_percent: number | null;
  active: boolean;
  is_primary_contact: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A link with its business's name and status (the Association wire shape's sources). */
export type LinkWithBusiness = LinkRow & { legal_name: string; dba: string | null; business_status: string };

/** A person with the fields of its link to one business. */
export type LinkedPersonRow = PersonRow & Pick<LinkRow, 'role' | 'ownership_percent' | 'active' | 'is_primary_contact'>;

export function peopleQuery(db: Db, scope: Scope): Knex.QueryBuilder {
  return db('people').where('people.location_id', scope.locationId).select('people.*');
}

export async function findPerson(db: Db, scope: Scope, id: string): Promise<PersonRow | undefined> {
  return peopleQuery(db, scope).where('people.id', id).first();
}

export async function insertPerson(db: Db, row: PersonRow & { created_by_user_id: string | null }): Promise<void> {
  await db('people').insert(row);
}

export async function updatePersonRow(db: Db, scope: Scope, id: string, patch: Partial<PersonRow>): Promise<void> {
  await db('people').where({ id, location_id: scope.locationId }).update(patch);
}

/**
 * A stored phone normalised in SQL exactly as `normalizePhone` does: digits only; with a leading
 * "+" kept as is; otherwise a leading 00 dropped and ten digits prefixed with 1.
 */
const digits = `regexp_replace(people.phone, '[^0-9]', '', 'g')`;
const noIntl = `regexp_replace(${digits}, '^00', '')`;
const storedPhoneNormalised = `(case when btrim(people.phone) like '+%' then ${digits} when length(${noIntl}) = 10 then '1' || ${noIntl} else ${noIntl} end)`;

export function wherePhone(q: Knex.QueryBuilder, normalised: string): void {
  q.where((w) => w.where('people.phone', normalised).orWhereRaw(`${storedPhoneNormalised} = ?`, [normalised]));
}

export function whereLinkedTo(q: Knex.QueryBuilder, scope: Scope, businessId: string): void {
  q.whereExists((sub) =>
    sub.select('bp.id').from('business_people as bp')
      .whereRaw('bp.person_id = people.id')
      .where('bp.location_id', scope.locationId)
      .where('bp.business_id', businessId)
      .where('bp.active', true),
  );
}

export function whereSearch(q: Knex.QueryBuilder, search: string): void {
  const term = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const d = search.replace(/\D/g, '');
  q.where((w) => {
    w.whereILike('people.first_name', term)
      .orWhereILike('people.last_name', term)
      .orWhereILike('people.email', term)
      .orWhereRaw(`(people.first_name || ' ' || people.last_name) ilike ?`, [term]);
    if (d.length >= 4) w.orWhere('people.phone', 'like', `%${d}%`);
  });
}

// --- links between people and businesses -------------------------------------------------------

export async function findLink(db: Db, scope: Scope, businessId: string, personId: string): Promise<LinkRow | undefined> {
  return db('business_people').where({ location_id: scope.locationId, business_id: businessId, person_id: personId }).first();
}

export async function insertLink(db: Db, row: LinkRow): Promise<void> {
  await db('business_people').insert(row);
}

export async function updateLink(db: Db, scope: Scope, id: string, patch: Partial<LinkRow>): Promise<void> {
  await db('business_people').where({ id, location_id: scope.locationId }).update(patch);
}

/** Locks the business row: links to one business are decided one at a time (ownership, primary contact). */
export async function lockBusiness(db: Db, scope: Scope, businessId: string): Promise<void> {
  await db('businesses').where({ id: businessId, location_id: scope.locationId }).forUpdate().first('id');
}

/** Sum, in hundredths of a percent, of the active owner and co-owner shares of the business, except one person's. */
export async function ownershipHundredths(db: Db, scope: Scope, businessId: string, exceptPersonId: string): Promise<number> {
  const rows: { ownership_percent: number | null }[] = await db('business_people')
    .where({ location_id: scope.locationId, business_id: businessId, active: true })
    .whereIn('role', ['owner', 'co-owner'])
    .whereNot('person_id', exceptPersonId)
    .select('ownership_percent');
  return rows.reduce((s, r) => s + Math.round(Number(r.ownership_percent ?? 0) * 100), 0);
}

export async function hasPrimaryContact(db: Db, scope: Scope, businessId: string): Promise<boolean> {
  return !!(await db('business_people').where({ location_id: scope.locationId, business_id: businessId, is_primary_contact: true }).first('id'));
}

export function personLinksQuery(db: Db, scope: Scope, personId: string): Knex.QueryBuilder {
  return db('business_people as bp')
    .join('businesses as b', 'b.id', 'bp.business_id')
    .where('bp.location_id', scope.locationId)
    .where('bp.person_id', personId)
    .select('bp.*', 'b.legal_name', 'b.dba', 'b.status as business_status');
}

export async function findLinkWithBusiness(db: Db, scope: Scope, businessId: string, personId: string): Promise<LinkWithBusiness | undefined> {
  return personLinksQuery(db, scope, personId).where('bp.business_id', businessId).first();
}

/** Everyone linked to the business: the primary contact first, then by ownership share (highest first). */
export async function businessPeopleRows(db: Db, scope: Scope, businessId: string): Promise<LinkedPersonRow[]> {
  return db('business_people as bp')
    .join('people', 'people.id', 'bp.person_id')
    .where('bp.location_id', scope.locationId)
    .where('bp.business_id', businessId)
    .select('people.*', 'bp.role', 'bp.ownership_percent', 'bp.active', 'bp.is_primary_contact')
    .orderBy([
      { column: 'bp.is_primary_contact', order: 'desc' },
      { column: 'bp.ownership_percent', order: 'desc', nulls: 'last' },
      { column: 'bp.created_at', order: 'asc' },
      { column: 'bp.id', order: 'asc' },
    ]);
}
