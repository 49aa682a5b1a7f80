import type { Knex } from 'knex';

// Lenders: `updated_at` is null until the lender first changes (the contract's "null if never"),
// and the criteria carry their own replacement time (LenderCriteria.updated_at).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lenders', (t) => {
    t.timestamp('updated_at', { useTz: true }).nullable().alter();
    t.timestamp('criteria_updated_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('lenders').whereNull('updated_at').update({ updated_at: knex.ref('created_at') });
  await knex.schema.alterTable('lenders', (t) => {
    t.dropColumn('criteria_updated_at');
    t.timestamp('updated_at', { useTz: true }).notNullable().alter();
  });
}
