import type { Knex } from 'knex';

// Lender replies (issue 10): every email received for a location, kept whole, with what was read in
// it and what it changed; and each location's inbound secret (its hash), the credential of the raw
// inbound endpoint.
//
// `dedupe_key` is the Message-ID, or a hash of the bytes when there is none: an email provider that
// posts the same message again gets the stored record back and nothing happens twice.
// `raw` keeps the message as received (at most 25 MB), so a better classifier can read it again.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inbound_secrets', (t) => {
    t.text('location_id').primary().references('id').inTable('locations').onDelete('CASCADE');
    t.text('secret_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('inbound_emails', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('status').notNullable();
    t.text('review_reason').nullable();
    t.text('dedupe_key').notNullable();
    t.text('message_id').nullable();
    t.text('from_address').notNullable();
    t.text('from_name').nullable();
    t.jsonb('to_addresses').notNullable().defaultTo('[]');
    t.text('subject').notNullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.text('text_body').notNullable();
    t.jsonb('attachments').notNullable().defaultTo('[]');
    t.binary('raw').notNullable();
    t.text('submission_id').nullable().references('id').inTable('submissions').onDelete('SET NULL');
    t.text('deal_id').nullable();
    t.text('lender_id').nullable();
    t.text('matched_by').nullable();
    t.jsonb('classification').notNullable();
    t.jsonb('offer_ids').notNullable().defaultTo('[]');
    t.text('dismiss_reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['location_id', 'dedupe_key']);
    t.index(['location_id', 'created_at', 'id']);
    t.index(['location_id', 'status', 'created_at', 'id']);
  });
  // In-Reply-To / References name a submission email by its Message-ID.
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.index(['location_id', 'message_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.dropIndex(['location_id', 'message_id']);
  });
  await knex.schema.dropTable('inbound_emails');
  await knex.schema.dropTable('inbound_secrets');
}
