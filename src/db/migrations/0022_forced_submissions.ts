import type { Knex } from 'knex';

// Submitting where money is at stake (issue 29): a submission created with `force: true` over a
// refusal (deal funded or dead, or the lender's hard gates failed) says so (`Submission.forced`).
// False on submissions created before.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('submissions', (t) => {
    t.boolean('forced').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('submissions', (t) => {
    t.dropColumn('forced');
  });
}
