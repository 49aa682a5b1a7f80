import type { Knex } from 'knex';

// OAuth 2.1 for AI assistants (issue 13): the authorization server's state. Every secret (client
// secret, sign-in code, authorization code, refresh token, access token) is stored only as a hash.
//
// oauth_clients: dynamically registered clients (RFC 7591); `metadata` is the registration as
// answered (redirect URIs, name, grant types, auth method).
// oauth_authorizations: one authorization in progress: the client's request (redirect URI, PKCE
// challenge, state, scopes, resource), then the user's sign-in (emailed one-time code) and consent.
// oauth_grants: what a user approved for a client (location, scopes, audience); revoking a grant
// ends every token minted under it.
// oauth_codes: authorization codes (one use; a replayed code revokes its grant's tokens).
// oauth_refresh_tokens: rotating refresh tokens (each used once; reuse of a rotated one revokes the grant).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_clients', (t) => {
    t.text('client_id').primary();
    t.text('client_secret_hash').nullable();
    t.jsonb('metadata').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('oauth_authorizations', (t) => {
    t.text('id').primary();
    t.text('client_id').notNullable().references('client_id').inTable('oauth_clients').onDelete('CASCADE');
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.text('state').nullable();
    t.jsonb('requested_scopes').notNullable();
    t.text('resource').notNullable();
    t.text('email').nullable();
    t.text('location_id').nullable();
    t.text('user_id').nullable();
    t.text('sign_in_code_hash').nullable();
    t.integer('sign_in_attempts').notNullable().defaultTo(0);
    t.timestamp('sign_in_expires_at', { useTz: true }).nullable();
    t.text('status').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.raw(`ALTER TABLE oauth_authorizations ADD CONSTRAINT oauth_authorizations_status_check CHECK (status IN ('signing_in','code_sent','consenting','approved','denied'))`);
  await knex.schema.createTable('oauth_grants', (t) => {
    t.text('id').primary();
    t.text('client_id').notNullable().references('client_id').inTable('oauth_clients').onDelete('CASCADE');
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users');
    t.jsonb('scopes').notNullable();
    t.text('audience').notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['user_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE oauth_grants ADD CONSTRAINT oauth_grants_audience_check CHECK (audience IN ('mcp','api'))`);
  await knex.schema.createTable('oauth_codes', (t) => {
    t.text('code_hash').primary();
    t.text('grant_id').notNullable().references('id').inTable('oauth_grants').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.text('resource').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('oauth_refresh_tokens', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('grant_id').notNullable().references('id').inTable('oauth_grants').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.alterTable('oauth_access_tokens', (t) => {
    t.text('grant_id').nullable();
    t.text('client_id').nullable();
    t.index(['grant_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_access_tokens', (t) => {
    t.dropIndex(['grant_id']);
    t.dropColumn('grant_id');
    t.dropColumn('client_id');
  });
  await knex.schema.dropTable('oauth_refresh_tokens');
  await knex.schema.dropTable('oauth_codes');
  await knex.schema.dropTable('oauth_grants');
  await knex.schema.dropTable('oauth_authorizations');
  await knex.schema.dropTable('oauth_clients');
}
