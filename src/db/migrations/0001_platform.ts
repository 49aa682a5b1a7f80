import type { Knex } from 'knex';

// Tenancy, credentials and the request pipeline's own state (rate-limit windows, idempotency
// records), plus the event outbox and pipeline stages every location starts with.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_settings', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
  });
  await knex.schema.createTable('locations', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.boolean('is_test').notNullable().defaultTo(false);
    t.decimal('renewal_threshold', 5, 2).notNullable().defaultTo(50);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['location_id', 'email']);
  });
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin','manager','user'))`);
  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('name').notNullable();
    t.text('role').notNullable();
    t.jsonb('scopes').notNullable().defaultTo('[]');
    t.text('key_hash').notNullable().unique();
    t.text('prefix').notNullable();
    t.text('last4').notNullable();
    t.text('user_id').nullable().references('users.id');
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['location_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('admin','manager','user'))`);
  // OAuth access tokens minted by the authorization server for MCP clients (stored as hashes).
  await knex.schema.createTable('oauth_access_tokens', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('token_hash').notNullable().unique();
    t.jsonb('scopes').notNullable().defaultTo('[]');
    t.text('audience').notNullable(); // 'mcp' or 'api'
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.text('credential_id').notNullable();
    t.bigInteger('window_start').notNullable(); // unix seconds, start of the minute
    t.integer('count').notNullable();
    t.primary(['credential_id', 'window_start']);
  });
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('credential_id').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable(); // in_progress | done
    t.integer('response_status').nullable();
    t.jsonb('response_body').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.primary(['credential_id', 'key']);
    t.index(['created_at']);
  });
  await knex.schema.createTable('pipeline_stages', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('label').notNullable();
    t.text('phase').notNullable();
    t.integer('sort_order').notNullable();
    t.text('event').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['location_id', 'event']);
    t.index(['location_id', 'sort_order']);
  });
  // The outbox: every change the outside world must hear about, written in the change's transaction.
  await knex.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['location_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['events', 'pipeline_stages', 'idempotency_keys', 'rate_limit_windows', 'oauth_access_tokens', 'api_keys', 'users', 'locations', 'app_settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
