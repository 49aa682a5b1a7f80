import type { Knex } from 'knex';

// Keyset pages are cut with `(created_at, id) < (?, ?)`: an index ending in (created_at, id) starts
// the scan at the cursor. Each list's (scope, created_at) index gains the id; the old ones go.
const KEYSET: [table: string, scope: string, oldIndex: string][] = [
  ['businesses', 'location_id', 'businesses_location_id_created_at_index'],
  ['people', 'location_id', 'people_location_id_created_at_index'],
  ['lenders', 'location_id', 'lenders_location_id_created_at_index'],
  ['deals', 'location_id', 'deals_location_id_created_at_index'],
  ['advances', 'location_id', 'advances_location_id_created_at_index'],
  ['notes', 'entity_id', 'notes_entity_id_created_at_index'],
  ['tasks', 'entity_id', 'tasks_entity_id_created_at_index'],
  ['activities', 'business_id', 'activities_business_id_created_at_index'],
  ['webhook_subscriptions', 'location_id', 'webhook_subscriptions_location_id_created_at_index'],
  ['webhook_deliveries', 'subscription_id', 'webhook_deliveries_subscription_id_created_at_index'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, scope, old] of KEYSET) {
    await knex.raw(`CREATE INDEX ${table}_${scope}_keyset ON ${table} (${scope}, created_at, id)`);
    await knex.raw(`DROP INDEX IF EXISTS ${old}`);
  }
  // Rate-limit counters need no durability: after a crash a credential at worst gets a fresh window.
  // Unlogged, a counted request writes no WAL and waits for no disk flush.
  await knex.raw('ALTER TABLE rate_limit_buckets SET UNLOGGED');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limit_buckets SET LOGGED');
  for (const [table, scope, old] of KEYSET) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${old} ON ${table} (${scope}, created_at)`);
    await knex.raw(`DROP INDEX IF EXISTS ${table}_${scope}_keyset`);
  }
}
