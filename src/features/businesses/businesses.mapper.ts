import type { components } from '../../../generated/schema';
import { iso, isoRequired, type TimesAsText } from '../../lib/format';
import type { BusinessRow, BusinessStats } from './businesses.repository';

export type Business = components['schemas']['Business'];

/** Row -> wire shape, field by field (allow-list: nothing reaches the wire by accident). */
export function toBusiness(row: TimesAsText<BusinessRow>, stats: BusinessStats): Business {
  return {
    id: row.id,
    legal_name: row.legal_name,
    dba: row.dba,
    ein: row.ein,
    entity_type: row.entity_type,
    industry: row.industry,
    address: row.address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    phone: row.phone,
    email: row.email,
    business_start_date: row.business_start_date,
    status: row.status as Business['status'],
    tags: row.tags,
    custom_data: row.custom_data,
    primary_contact: stats.primary_contact
      ? { id: stats.primary_contact.id, name: `${stats.primary_contact.first_name} ${stats.primary_contact.last_name}`.trim(), email: stats.primary_contact.email, phone: stats.primary_contact.phone }
      : null,
    deal_count: stats.deal_count,
    lifetime_funded: stats.lifetime_funded,
    active_advances: stats.active_advances,
    outstanding_balance: stats.outstanding_balance,
    last_activity_at: iso(stats.last_activity_at),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The fixed subset sent in webhook payloads (never CRM ids or custom data). */
export function toBusinessSnapshot(row: BusinessRow): components['schemas']['BusinessSnapshot'] {
  return {
    id: row.id,
    legal_name: row.legal_name,
    dba: row.dba,
    status: row.status as Business['status'],
    industry: row.industry,
    state: row.state,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}
