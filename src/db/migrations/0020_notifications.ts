import type { Knex } from 'knex';

// Email notifications to a location's people (issue 29):
// - notification_settings: one row per user who changed theirs (no row = the defaults): the mode of
//   each kind (`modes`, kind -> immediate | daily_digest | off) and, for admins, `all_deals`.
// - notifications: what a user was told or is waiting to be told, one row per (cause, user): the
//   fan-out job inserts them `ON CONFLICT DO NOTHING` on `source_key`, so a retried job never tells
//   anyone twice. `emailed` carries the immediate email's id; `pending_digest` rows wait for the
//   user's digest and become `digested` with the digest email's id.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_settings', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.boolean('all_deals').notNullable().defaultTo(false);
    t.jsonb('modes').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('notifications', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('source_key').notNullable();
    t.text('deal_id').nullable();
    t.text('title').notNullable();
    t.text('body').notNullable();
    t.text('status').notNullable();
    t.text('email_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.unique(['source_key', 'user_id']);
    t.index(['status', 'user_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE notifications ADD CONSTRAINT notifications_status_check CHECK (status IN ('emailed','pending_digest','digested'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('notifications');
  await knex.schema.dropTableIfExists('notification_settings');
}
