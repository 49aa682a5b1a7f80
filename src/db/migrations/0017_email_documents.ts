import type { Knex } from 'knex';

// Files attached to inbound emails become documents (issue 27, item 2).
// - documents.received_from_*: for `source = 'email'`, the sender (From address and name) and the
//   inbound email (our id and its Message-ID) that carried the file; null for other sources.
// - documents (location_id, deal_id, sha256): a file already on the deal is found by its hash and
//   reused, never stored twice (checked under the deal's row lock, not a unique index: two API
//   uploads of the same bytes were allowed before and stay allowed).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.text('received_from_address').nullable();
    t.text('received_from_name').nullable();
    t.text('inbound_email_id').nullable();
    t.text('inbound_message_id').nullable();
    t.index(['location_id', 'deal_id', 'sha256'], 'documents_deal_sha256');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.dropIndex(['location_id', 'deal_id', 'sha256'], 'documents_deal_sha256');
    t.dropColumn('received_from_address');
    t.dropColumn('received_from_name');
    t.dropColumn('inbound_email_id');
    t.dropColumn('inbound_message_id');
  });
}
