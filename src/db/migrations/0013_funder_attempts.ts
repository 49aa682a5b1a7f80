import type { Knex } from 'knex';

// Funder-API attempts (issue 11): one row per attempt to submit a submission through its lender's
// integration (the public ApiSubmission). The latest attempt of a submission is its `api`.
//
// An attempt is claimable like a job or a webhook delivery: `locked_by`, `lease_id`, `locked_until`.
// The poller claims attempts whose `next_poll_at` is due (FOR UPDATE SKIP LOCKED), and
// `POST /v1/submissions/{id}/check-status` takes the same lease for its one attempt, so no two
// workers, nor a worker and a request, ask the funder about the same attempt at once.
// `poll_count` counts the funder's answers to status requests (the mock funder's life cycle steps
// on it). `offer_keys` remembers the offers already logged from the funder's answers, so the same
// offer returned by every poll is logged once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_submissions', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('submission_id').notNullable().references('id').inTable('submissions').onDelete('CASCADE');
    t.text('deal_id').notNullable();
    t.text('lender_id').notNullable();
    t.text('funder_api_spec_id').notNullable();
    t.text('environment').notNullable();
    t.text('external_id').nullable();
    t.text('funder_status').nullable();
    t.text('internal_status').notNullable();
    t.text('deep_link_url').nullable();
    t.text('error_message').nullable();
    t.text('error_code').nullable();
    t.integer('attempt_number').notNullable();
    t.integer('poll_count').notNullable().defaultTo(0);
    t.jsonb('offer_keys').notNullable().defaultTo('[]');
    t.timestamp('submitted_at', { useTz: true }).nullable();
    t.timestamp('last_polled_at', { useTz: true }).nullable();
    t.timestamp('next_poll_at', { useTz: true }).nullable();
    t.text('locked_by').nullable();
    t.text('lease_id').nullable();
    t.timestamp('locked_until', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).nullable();
    t.unique(['submission_id', 'attempt_number']);
  });
  await knex.raw(`ALTER TABLE api_submissions ADD CONSTRAINT api_submissions_status_check
    CHECK (internal_status IN ('queued','sent','pending','approved','declined','funded','errored','expired','stale'))`);
  await knex.raw(`ALTER TABLE api_submissions ADD CONSTRAINT api_submissions_error_code_check
    CHECK (error_code IS NULL OR error_code IN ('auth_failed','validation','timeout','funder_error','network','config'))`);
  await knex.raw(`CREATE INDEX api_submissions_due ON api_submissions (next_poll_at) WHERE next_poll_at IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_submissions');
}
