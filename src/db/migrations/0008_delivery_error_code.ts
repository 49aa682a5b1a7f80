import type { Knex } from 'knex';

// The stable category of a delivery's last failure (openapi.yaml: DeliveryErrorCode), next to the
// human sentence in last_error. Null when the last attempt succeeded or none was made; rows written
// before this migration keep null.
const CODES = ['timeout', 'connection_refused', 'connection_error', 'tls_error', 'dns_error', 'blocked_address', 'http_error'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.text('last_error_code').nullable();
  });
  // DDL takes no bind parameters; the list is a constant of this file.
  const list = CODES.map((c) => `'${c}'`).join(',');
  await knex.raw(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_last_error_code_check CHECK (last_error_code IS NULL OR last_error_code IN (${list}))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_last_error_code_check');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('last_error_code');
  });
}
