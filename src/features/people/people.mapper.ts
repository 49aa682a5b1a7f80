import type { components } from '../../../generated/schema';
import type { Scope } from '../../http/types';
import { isoRequired, type TimesAsText } from '../../lib/format';
import type { LinkedPersonRow, LinkWithBusiness, PersonRow } from './people.repository';

export type Person = components['schemas']['Person'];
export type BusinessPerson = components['schemas']['BusinessPerson'];
export type Association = components['schemas']['Association'];

/** Row -> wire shape, field by field. `dob` only for admin and manager; the SSN never, only its mask. */
export function toPerson(row: TimesAsText<PersonRow>, scope: Pick<Scope, 'role'>): Person {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    dob: scope.role === 'admin' || scope.role === 'manager' ? row.dob : null,
    ssn_masked: row.ssn_last4 ? `***-**-${row.ssn_last4}` : null,
    credit_score: row.credit_score,
    ghl_contact_id: row.ghl_contact_id,
    status: row.status,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

export function toBusinessPerson(row: LinkedPersonRow, scope: Pick<Scope, 'role'>): BusinessPerson {
  return {
    ...toPerson(row, scope),
    role: row.role,
    ownership_percent: row.ownership_percent == null ? null : Number(row.ownership_percent),
    active: row.active,
    is_primary_contact: row.is_primary_contact,
  };
}

export function toAssociation(row: LinkWithBusiness): Association {
  return {
    business_id: row.business_id,
    legal_name: row.legal_name,
    dba: row.dba,
    status: row.business_status as Association['status'],
    role: row.role,
    ownership_percent: row.ownership_percent == null ? null : Number(row.ownership_percent),
    active: row.active,
    is_primary_contact: row.is_primary_contact,
  };
}

/** The fixed subset sent in webhook payloads: no date of birth, SSN, credit score, address or CRM id. */
export function toPersonSnapshot(row: PersonRow): components['schemas']['PersonSnapshot'] {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    created_at: isoRequired(row.created_at),
  };
}
