import type { Knex } from 'knex';

// Webhook subscriptions and their deliveries. The signing secret is sealed (AES-256-GCM, SecretBox)
// because it must be recovered to sign; it is wiped when the subscription is deleted. A deleted
// subscription keeps its row (deleted_at) so its delivery history stays explainable to support.
// One delivery per (subscription, event): the delivery worker fans the outbox out idempotently.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('url').notNullable();
    t.jsonb('events').notNullable().defaultTo('[]'); // [] = every event type, including later ones
    t.text('description').nullable();
    t.text('secret_sealed').nullable(); // null only once deleted
    t.text('status').notNullable().defaultTo('active');
    t.text('disabled_reason').nullable();
    t.timestamp('failing_since', { useTz: true }).nullable();
    t.timestamp('last_success_at', { useTz: true }).nullable();
    t.timestamp('last_failure_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.index(['location_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_status_check CHECK (status IN ('active','disabled'))`);
  await knex.raw(`ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_secret_check CHECK (deleted_at IS NOT NULL OR secret_sealed IS NOT NULL)`);

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('subscription_id').notNullable().references('webhook_subscriptions.id');
    t.text('event_id').notNullable(); // not a foreign key: test events never enter the outbox
    t.text('event_type').notNullable();
    t.text('kind').notNullable().defaultTo('event'); // event | test (tests are never retried)
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
    t.integer('last_response_status').nullable();
    t.text('last_error').nullable();
    t.jsonb('payload').notNullable(); // the envelope as sent, for retries and replays
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['subscription_id', 'event_id']);
    t.index(['subscription_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending','succeeded','failed','dead'))`);
  await knex.raw(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (kind IN ('event','test'))`);
  await knex.raw(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_attempts_check CHECK (attempts BETWEEN 0 AND 6)`);
  // The worker's queue: deliveries with a retry due.
  await knex.raw(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending','failed')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
