import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordEvent } from '../../events/outbox';
import { invalid, notFound } from '../../http/errors';
import { wireTimes } from '../../db/wire-time';
import { paginate } from '../../http/pagination';
import type { WireTimes } from '../../lib/format';
import type { Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { normalizePhone, phoneParam } from '../../lib/phone';
import { visibleBusinesses } from '../../db/visible';
import { toAssociation, toBusinessPerson, toPerson, toPersonSnapshot, type Association, type BusinessPerson, type Person } from './people.mapper';
import {
  businessPeopleRows, findLink, findLinkWithBusiness, findPerson, hasPrimaryContact, insertLink, insertPerson, lockBusiness, ownershipHundredths,
  peopleQuery, personLinksQuery, updateLink, updatePersonRow, wherePhone, whereLinkedTo, whereSearch,
  type AssociationRole, type Db, type LinkRow, type LinkWithBusiness, type PersonRow,
} from './people.repository';

type CreateBody = components['schemas']['CreatePersonRequest'];
type UpdateBody = components['schemas']['UpdatePersonRequest'];
type LinkBody = components['schemas']['CreatePersonAssociationRequest'];
type ListQuery = NonNullable<operations['listPeople']['parameters']['query']>;
type LinksQuery = NonNullable<operations['listPersonAssociations']['parameters']['query']>;


/** The SSN sealed (AES-256-GCM) and its last four digits; null clears both. */
function sealSsn(deps: Deps, ssn: string | null): Pick<PersonRow, 'ssn_encrypted' | 'ssn_last4'> {
  if (ssn == null) return { ssn_encrypted: null, ssn_last4: null };
  const d = ssn.replace(/\D/g, '');
  if (d.length !== 9) throw invalid('ssn must be 9 digits, with or without dashes', 'ssn');
  return { ssn_encrypted: deps.secrets.seal(d), ssn_last4: d.slice(-4) };
}

async function getPersonOr404(db: Db, scope: Scope, id: string): Promise<PersonRow> {
  const row = await findPerson(db, scope, id);
  if (!row) throw notFound('person', id);
  return row;
}

async function businessOr404(db: Db, scope: Scope, id: string): Promise<{ id: string }> {
  const row = (await visibleBusinesses(db, scope).where('businesses.id', id).first('businesses.id')) as { id: string } | undefined;
  if (!row) throw notFound('business', id, 'business_id');
  return row;
}

const OWNER_ROLES: AssociationRole[] = ['owner', 'co-owner'];

/**
 * Links a person to a business, or updates the existing link (role, ownership, reactivated).
 * The owners' shares may not exceed 100% together; the first person linked becomes the primary
 * contact. Runs in the caller's transaction, with the business row locked.
 */
async function linkPerson(trx: Db, deps: Deps, scope: Scope, personId: string, businessId: string, input: { role?: AssociationRole; ownership_percent?: number }): Promise<LinkRow> {
  await lockBusiness(trx, scope, businessId);
  const existing = await findLink(trx, scope, businessId, personId);
  const role = input.role ?? existing?.role ?? 'owner';
  const percent = input.ownership_percent !== undefined ? input.ownership_percent : existing?.ownership_percent == null ? null : Number(existing.ownership_percent);
  if (OWNER_ROLES.includes(role) && percent != null) {
    const others = await ownershipHundredths(trx, scope, businessId, personId);
    if (others + Math.round(percent * 100) > 10_000) {
      throw invalid(
        `The owners' shares of business ${businessId} would add up to ${(others + Math.round(percent * 100)) / 100}%, more than 100%; ${(10_000 - others) / 100}% is left`,
        'ownership_percent',
        'ownership_exceeded',
      );
    }
  }
  const now = deps.clock.now();
  const makePrimary = !(await hasPrimaryContact(trx, scope, businessId));
  if (existing) {
    const patch: Partial<LinkRow> = { role, ownership_percent: percent, active: true, updated_at: now };
    if (makePrimary) patch.is_primary_contact = true;
    await updateLink(trx, scope, existing.id, patch);
    return { ...existing, ...patch };
  }
  const row: LinkRow = {
    id: newId('asc', now.getTime()),
    location_id: scope.locationId,
    business_id: businessId,
    person_id: personId,
    role,
    ownership_percent: percent,
    active: true,
    is_primary_contact: makePrimary,
    created_at: now,
    updated_at: now,
  };
  await insertLink(trx, row);
  return row;
}

export async function createPerson(deps: Deps, scope: Scope, body: CreateBody): Promise<Person> {
  if (body.business_id === undefined && body.ownership_percent !== undefined) {
    throw invalid('ownership_percent describes the link to business_id; send business_id too', 'business_id');
  }
  const now = deps.clock.now();
  const row: PersonRow = {
    id: newId('per', now.getTime()),
    location_id: scope.locationId,
    first_name: body.first_name.trim(),
    last_name: body.last_name.trim(),
    email: body.email ?? null,
    phone: phoneParam(body.phone, 'phone'),
    address: body.address ?? null,
    city: body.city ?? null,
    state: body.state ?? null,
    zip: body.zip ?? null,
    dob: body.dob ?? null,
    ...sealSsn(deps, body.ssn ?? null),
    credit_score: body.credit_score ?? null,
    ghl_contact_id: body.ghl_contact_id ?? null,
    status: 'active',
    created_at: now,
    updated_at: now,
  };
  return deps.db.knex.transaction(async (trx) => {
    if (body.business_id) await businessOr404(trx, scope, body.business_id);
    await insertPerson(trx, { ...row, created_by_user_id: scope.userId });
    if (body.business_id) await linkPerson(trx, deps, scope, row.id, body.business_id, { role: body.role, ownership_percent: body.ownership_percent });
    await recordEvent(trx, deps.clock, scope.locationId, 'person.created', { person_id: row.id, business_id: body.business_id ?? null, person: toPersonSnapshot(row) });
    return toPerson(row, scope);
  });
}

export async function getPerson(deps: Deps, scope: Scope, id: string): Promise<Person> {
  return toPerson(await getPersonOr404(deps.db.knex, scope, id), scope);
}

export async function updatePerson(deps: Deps, scope: Scope, id: string, body: UpdateBody): Promise<Person> {
  return deps.db.knex.transaction(async (trx) => {
    const existing = await getPersonOr404(trx, scope, id);
    const patch: Partial<PersonRow> = {};
    // Only sent fields change; null clears an optional field.
    for (const k of ['email', 'address', 'city', 'state', 'zip', 'dob', 'credit_score', 'ghl_contact_id'] as const) {
      if (body[k] !== undefined) patch[k] = body[k];
    }
    if (body.first_name !== undefined) patch.first_name = body.first_name.trim();
    if (body.last_name !== undefined) patch.last_name = body.last_name.trim();
    if (body.phone !== undefined) patch.phone = phoneParam(body.phone, 'phone');
    if (body.ssn !== undefined) Object.assign(patch, sealSsn(deps, body.ssn));
    patch.updated_at = deps.clock.now();
    await updatePersonRow(trx, scope, id, patch);
    return toPerson({ ...existing, ...patch }, scope);
  });
}

export async function listPeople(deps: Deps, scope: Scope, query: ListQuery) {
  const q = peopleQuery(deps.db.knex, scope);
  if (query.phone !== undefined) {
    const n = normalizePhone(query.phone);
    if (!n) throw invalid('phone must hold a phone number (8 to 15 digits)', 'phone');
    wherePhone(q, n);
  }
  if (query.email !== undefined) q.whereRaw('lower(people.email) = ?', [query.email.toLowerCase()]);
  // A filter, not an address: an unknown or another location's business matches no one (as on
  // listDeals and listAdvances), and says nothing about whether it exists elsewhere.
  if (query.business_id !== undefined) whereLinkedTo(q, scope, query.business_id);
  if (query.search !== undefined) whereSearch(q, query.search);
  // Timestamps as wire text straight from the driver (src/db/wire-time.ts): no Date per value.
  const page = await paginate<WireTimes<PersonRow>>(wireTimes(q), { key: deps.cursorKey, list: 'people', limit: query.limit, cursor: query.cursor, filters: query, createdAtColumn: 'people.created_at', idColumn: 'people.id' });
  return { data: page.rows.map((r) => toPerson(r, scope)), meta: page.meta };
}

export async function createPersonAssociation(deps: Deps, scope: Scope, personId: string, body: LinkBody): Promise<Association> {
  return deps.db.knex.transaction(async (trx) => {
    await getPersonOr404(trx, scope, personId);
    await businessOr404(trx, scope, body.business_id);
    await linkPerson(trx, deps, scope, personId, body.business_id, { role: body.role, ownership_percent: body.ownership_percent });
    return toAssociation((await findLinkWithBusiness(trx, scope, body.business_id, personId))!);
  });
}

export async function listPersonAssociations(deps: Deps, scope: Scope, personId: string, query: LinksQuery) {
  await getPersonOr404(deps.db.knex, scope, personId);
  const page = await paginate<LinkWithBusiness>(personLinksQuery(deps.db.knex, scope, personId), {
    key: deps.cursorKey, list: `associations:${personId}`, limit: query.limit, cursor: query.cursor, createdAtColumn: 'bp.created_at', idColumn: 'bp.id',
  });
  return { data: page.rows.map(toAssociation), meta: page.meta };
}

/** `include=people` of a business: every linked person with the link's fields. */
export async function listBusinessPeople(db: Db, scope: Scope, businessId: string): Promise<BusinessPerson[]> {
  return (await businessPeopleRows(db, scope, businessId)).map((r) => toBusinessPerson(r, scope));
}
