import type { Knex } from 'knex';

// OAuth sign-in hardening (audit findings H1, H2, M8 and the lows):
// - oauth_authorizations.browser_hash: SHA-256 of the browser cookie set when the authorization
//   started; every sign-in, account and consent page and form needs that cookie (H2).
// - oauth_authorizations.sign_in_shown: the sign-in code was shown on the page (every account of the
//   email is in a test location), so the sign-in proved nothing about the mailbox and only
//   test-location accounts may be chosen (H1).
// - oauth_sign_in_guards: wrong sign-in codes per email (hashed) in a lockout window, counted
//   atomically across authorizations (M8).
// - oauth_clients.last_used_at: when an authorization last started for the client; a client without
//   grants unused for 30 days is swept.
// - oauth_grants.redirect_uri: where the approving user's browser went; /authorize redirects its
//   errors only to a redirect URI a user has approved.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_authorizations', (t) => {
    t.text('browser_hash').nullable();
    t.boolean('sign_in_shown').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('oauth_sign_in_guards', (t) => {
    t.text('subject').primary();
    t.integer('failures').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
  });
  await knex.schema.alterTable('oauth_clients', (t) => {
    t.timestamp('last_used_at', { useTz: true }).nullable();
  });
  await knex.schema.alterTable('oauth_grants', (t) => {
    t.text('redirect_uri').nullable();
    t.index(['client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_grants', (t) => {
    t.dropIndex(['client_id']);
    t.dropColumn('redirect_uri');
  });
  await knex.schema.alterTable('oauth_clients', (t) => {
    t.dropColumn('last_used_at');
  });
  await knex.schema.dropTable('oauth_sign_in_guards');
  await knex.schema.alterTable('oauth_authorizations', (t) => {
    t.dropColumn('browser_hash');
    t.dropColumn('sign_in_shown');
  });
}
