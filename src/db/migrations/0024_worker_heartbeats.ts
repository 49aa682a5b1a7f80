import type { Knex } from 'knex';

// Operators told what to do next (issue 30): every worker writes a heartbeat here (on the injected
// clock, every 30 s while it runs; its row is removed when it stops cleanly), so /readyz and the
// start banner can say that no worker has been seen for 2 minutes (email and webhooks then stay queued).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('worker_heartbeats', (t) => {
    t.text('worker_id').primary();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('worker_heartbeats');
}
