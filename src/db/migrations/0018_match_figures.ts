import type { Knex } from 'knex';

// Lender matching reads the deal's analysed bank statements (issue 27): a submission records the
// figures its match snapshot was computed from, and their sources (`Submission.match_figures`).
// Null on submissions created before.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('submissions', (t) => {
    t.jsonb('match_figures').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('submissions', (t) => {
    t.dropColumn('match_figures');
  });
}
