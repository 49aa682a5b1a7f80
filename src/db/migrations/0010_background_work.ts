import type { Knex } from 'knex';

// Background work (src/jobs/): the job queue, webhook delivery leases and attempts, secret rotation,
// the outbox's dispatch mark, and the mail path (a location's mailbox and every outgoing message).
//
// A claimable row (a job or a delivery) carries a lease: `locked_by` (the worker), `lease_id` (this
// claim) and `locked_until`. A worker records an outcome only while its lease_id is still on the row,
// so a claim that expired and was taken over can never be recorded twice.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.text('id').primary();
    t.text('queue').notNullable();
    t.jsonb('payload').notNullable();
    t.text('status').notNullable().defaultTo('queued'); // queued | succeeded | dead
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable();
    t.timestamp('run_at', { useTz: true }).notNullable();
    t.text('locked_by').nullable();
    t.text('lease_id').nullable();
    t.timestamp('locked_until', { useTz: true }).nullable();
    t.text('last_error').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
  });
  await knex.raw(`ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('queued','succeeded','dead'))`);
  await knex.raw(`CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'queued'`);

  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.integer('total_attempts').notNullable().defaultTo(0); // across rounds (retries and recoveries reset `attempts`)
    t.text('locked_by').nullable();
    t.text('lease_id').nullable();
    t.timestamp('locked_until', { useTz: true }).nullable();
  });
  await knex.raw(`UPDATE webhook_deliveries SET total_attempts = attempts`);

  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('delivery_id').notNullable().references('webhook_deliveries.id');
    t.integer('attempt_number').notNullable();
    t.integer('response_status').nullable();
    t.text('response_body').nullable(); // first 2 KB
    t.text('error').nullable();
    t.text('error_code').nullable();
    t.integer('duration_ms').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable(); // when the request was sent
    t.unique(['delivery_id', 'attempt_number']);
    t.index(['delivery_id', 'created_at', 'id']);
  });

  // Secret rotation: earlier secrets that still sign until their expiry, [{ sealed, expires_at }].
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.jsonb('previous_secrets').notNullable().defaultTo('[]');
  });

  // The outbox's dispatch mark: set when the event has become its deliveries. Events written before
  // this release are history, not news: they are marked dispatched and never delivered.
  await knex.schema.alterTable('events', (t) => {
    t.timestamp('dispatched_at', { useTz: true }).nullable();
  });
  await knex.raw(`UPDATE events SET dispatched_at = created_at`);
  await knex.raw(`CREATE INDEX events_undispatched ON events (created_at, id) WHERE dispatched_at IS NULL`);
  await knex.raw(`CREATE INDEX events_location_keyset ON events (location_id, created_at, id)`);

  // A location's mailbox: the SMTP server its mail leaves through. The URL is stored without its
  // password; the password is sealed (SecretBox) like every other secret at rest.
  await knex.schema.createTable('mailboxes', (t) => {
    t.text('location_id').primary().references('locations.id');
    t.text('smtp_url').notNullable();
    t.text('password_sealed').nullable();
    t.text('from_address').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  // Every outgoing message and its fate: queued -> sent, or failed (a retry is scheduled) -> dead;
  // `no_mailbox` when the location has none configured (nothing to send through).
  await knex.schema.createTable('outgoing_emails', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('kind').notNullable();
    t.jsonb('to_addresses').notNullable();
    t.text('subject').notNullable();
    t.text('text_body').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.text('message_id').nullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['location_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE outgoing_emails ADD CONSTRAINT outgoing_emails_status_check CHECK (status IN ('queued','sent','failed','dead','no_mailbox'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('outgoing_emails');
  await knex.schema.dropTableIfExists('mailboxes');
  await knex.raw('DROP INDEX IF EXISTS events_location_keyset');
  await knex.raw('DROP INDEX IF EXISTS events_undispatched');
  await knex.schema.alterTable('events', (t) => t.dropColumn('dispatched_at'));
  await knex.schema.alterTable('webhook_subscriptions', (t) => t.dropColumn('previous_secrets'));
  await knex.schema.dropTableIfExists('webhook_delivery_attempts');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('total_attempts');
    t.dropColumn('locked_by');
    t.dropColumn('lease_id');
    t.dropColumn('locked_until');
  });
  await knex.schema.dropTableIfExists('jobs');
}
