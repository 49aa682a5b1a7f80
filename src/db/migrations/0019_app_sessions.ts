import type { Knex } from 'knex';

// The app's settings pages (issue 28): signing in with an emailed code, then a session.
// - app_sign_ins: one sign-in in progress, bound to the browser that started it (SHA-256 of an
//   HttpOnly cookie): the email, the code's hash, the tries taken (5 per sign-in, taken atomically),
//   whether the code was shown on the page (every account of the email is in a test location, so
//   only test-location accounts may be chosen), its expiry.
// - app_sessions: a signed-in browser for one user in one location. Only the SHA-256 of the cookie's
//   value is kept. It ends when revoked (sign out, revoked from the sessions page, the user
//   deactivated), when idle too long (last_seen_at) or at expires_at (absolute), on the injected clock.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_sign_ins', (t) => {
    t.text('id').primary();
    t.text('browser_hash').notNullable();
    t.text('email').notNullable();
    t.text('code_hash').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.boolean('shown').notNullable().defaultTo(false);
    t.text('status').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await knex.raw(`ALTER TABLE app_sign_ins ADD CONSTRAINT app_sign_ins_status_check CHECK (status IN ('code_sent','choosing','done'))`);
  await knex.schema.createTable('app_sessions', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('user_id').notNullable().references('id').inTable('users');
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('user_agent').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['user_id', 'created_at']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_sessions');
  await knex.schema.dropTableIfExists('app_sign_ins');
}
