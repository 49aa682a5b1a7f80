import type { Knex } from 'knex';

// Files attached to inbound emails become documents (issue 27, item 2).
// - documents.received_from_*: for `source = 'email'`, the sender (From address and name) and the
//   inbound email (our id and its Message-ID) that carried the file; null for other sources.
// - documents (location_id, deal_id, sha256): a file already on the deal is found by its hash and
//   reused, never stored twice (checked under the deal's row lock, not a unique index: two API
//   uploads of the same bytes were allowed before and stay allowed).
// - storage_intents: storage keys an inbound email may write its files under, committed before the
//   email's transaction and deleted in it. One left behind (the process died between the storage
//   write and the commit) names an object no document row names: the maintenance sweep deletes it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('storage_intents', (t) => {
    t.text('key').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['created_at']);
  });
  await knex.schema.alterTable('documents', (t) => {
    t.text('received_from_address').nullable();
    t.text('received_from_name').nullable();
    t.text('inbound_email_id').nullable();
    t.text('inbound_message_id').nullable();
    t.index(['location_id', 'deal_id', 'sha256'], 'documents_deal_sha256');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('storage_intents');
  await knex.schema.alterTable('documents', (t) => {
    t.dropIndex(['location_id', 'deal_id', 'sha256'], 'documents_deal_sha256');
    t.dropColumn('received_from_address');
    t.dropColumn('received_from_name');
    t.dropColumn('inbound_email_id');
    t.dropColumn('inbound_message_id');
  });
}
