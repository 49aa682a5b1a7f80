import type { Knex } from 'knex';

// Rate limits on a sliding window: one row per subject (a credential, or a client address for failed
// authentication) and second, so "requests in the last 60 seconds" is one indexed range sum.
// rate_limit_windows (fixed minutes) stays until no running process of the previous release uses it
// (expand/contract); a later migration drops it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_buckets', (t) => {
    t.text('subject').notNullable();
    t.bigInteger('second').notNullable();
    t.integer('count').notNullable();
    t.primary(['subject', 'second']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_buckets');
}
