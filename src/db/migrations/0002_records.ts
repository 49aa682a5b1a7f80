import type { Knex } from 'knex';

// The deal platform's records. Every tenant table has location_id NOT NULL; money is numeric(14,2)
// (computed in integer cents), percentages numeric(5,2), calendar dates `date`.
const ts = (t: Knex.CreateTableBuilder) => {
  t.timestamp('created_at', { useTz: true }).notNullable();
  t.timestamp('updated_at', { useTz: true }).notNullable();
};
const money = (t: Knex.CreateTableBuilder, name: string) => t.decimal(name, 14, 2);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('businesses', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('legal_name').notNullable();
    for (const c of ['dba', 'ein', 'entity_type', 'industry', 'address', 'city', 'state', 'zip', 'phone', 'email']) t.text(c).nullable();
    t.date('business_start_date').nullable();
    t.text('status').notNullable().defaultTo('active');
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.jsonb('custom_data').notNullable().defaultTo('{}');
    t.text('created_by_user_id').nullable();
    ts(t);
    t.index(['location_id', 'created_at']);
  });
  await knex.raw(`CREATE UNIQUE INDEX businesses_location_ein ON businesses (location_id, ein) WHERE ein IS NOT NULL`);

  await knex.schema.createTable('people', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    t.text('email').nullable();
    t.text('phone').nullable(); // E.164 digits, no "+"
    for (const c of ['address', 'city', 'state', 'zip', 'credit_score', 'ghl_contact_id']) t.text(c).nullable();
    t.date('dob').nullable();
    t.text('ssn_encrypted').nullable(); // AES-256-GCM
    t.text('ssn_last4').nullable();
    t.text('status').notNullable().defaultTo('active');
    t.text('created_by_user_id').nullable();
    ts(t);
    t.index(['location_id', 'created_at']);
    t.index(['location_id', 'phone']);
  });
  await knex.raw(`CREATE INDEX people_location_email ON people (location_id, lower(email))`);

  await knex.schema.createTable('business_people', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('business_id').notNullable().references('businesses.id');
    t.text('person_id').notNullable().references('people.id');
    t.text('role').notNullable().defaultTo('owner');
    t.decimal('ownership_percent', 5, 2).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('is_primary_contact').notNullable().defaultTo(false);
    ts(t);
    t.unique(['business_id', 'person_id']);
    t.index(['person_id']);
  });

  await knex.schema.createTable('lenders', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('name').notNullable();
    t.text('submission_email').nullable();
    t.jsonb('cc_emails').notNullable().defaultTo('[]');
    for (const c of ['contact_name', 'contact_phone', 'website', 'notes', 'tier', 'funder_api_spec_id', 'api_environment', 'api_credentials_encrypted', 'api_last_error']) t.text(c).nullable();
    t.text('submission_method').notNullable().defaultTo('email');
    t.boolean('active').notNullable().defaultTo(true);
    t.jsonb('criteria').notNullable().defaultTo('{}');
    t.timestamp('api_last_verified_at', { useTz: true }).nullable();
    ts(t);
    t.index(['location_id', 'created_at']);
  });

  await knex.schema.createTable('deals', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('business_id').notNullable().references('businesses.id');
    money(t, 'requested_amount').nullable();
    money(t, 'annual_revenue').nullable();
    t.text('use_of_funds').nullable();
    t.text('product_type').notNullable().defaultTo('mca');
    t.integer('desired_term_months').nullable();
    for (const c of ['desired_frequency', 'paper_grade', 'paper_grade_source', 'source', 'lead_source', 'state_incorporated', 'closed_reason', 'ghl_contact_id', 'ghl_opportunity_id', 'renewal_of_deal_id', 'renewal_of_advance_id']) t.text(c).nullable();
    t.jsonb('risk_flags').notNullable().defaultTo('{}');
    t.jsonb('form_data').notNullable().defaultTo('{}');
    t.jsonb('owner').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('open');
    t.text('stage_id').notNullable().references('pipeline_stages.id');
    t.timestamp('stage_entered_at', { useTz: true }).notNullable();
    t.text('primary_offer_id').nullable();
    t.text('originator_id').nullable().references('users.id');
    t.text('closer_id').nullable().references('users.id');
    t.text('created_by_user_id').nullable().references('users.id');
    t.boolean('manually_closed').notNullable().defaultTo(false);
    t.timestamp('closed_at', { useTz: true }).nullable();
    ts(t);
    t.index(['location_id', 'created_at']);
    t.index(['business_id', 'created_at']);
  });

  await knex.schema.createTable('submissions', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('deal_id').notNullable().references('deals.id');
    t.text('lender_id').notNullable().references('lenders.id');
    t.text('status').notNullable();
    t.text('submission_method').notNullable();
    for (const c of ['response_type', 'response_notes', 'decline_reason', 'decline_category', 'submitted_by_id']) t.text(c).nullable();
    t.jsonb('requested_items').notNullable().defaultTo('[]');
    t.decimal('match_score', 5, 2).nullable();
    t.boolean('match_eligible').nullable();
    t.timestamp('submitted_at', { useTz: true }).nullable();
    t.timestamp('responded_at', { useTz: true }).nullable();
    t.text('trace_code').nullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).nullable();
    t.unique(['deal_id', 'lender_id']);
    t.index(['deal_id', 'created_at']);
  });

  await knex.schema.createTable('offers', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('deal_id').notNullable().references('deals.id');
    t.text('lender_id').notNullable().references('lenders.id');
    t.text('submission_id').nullable().references('submissions.id');
    money(t, 'amount').notNullable();
    t.decimal('factor_rate', 6, 4).notNullable();
    t.integer('term').notNullable();
    t.text('term_unit').notNullable();
    money(t, 'payment_amount').notNullable();
    t.text('payment_frequency').notNullable();
    money(t, 'payback_amount').notNullable();
    t.integer('position').notNullable().defaultTo(1);
    t.text('status').notNullable();
    t.boolean('is_primary').notNullable().defaultTo(false);
    t.boolean('is_selected').notNullable().defaultTo(false);
    t.text('source').notNullable();
    t.text('notes').nullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.text('created_by_user_id').nullable();
    ts(t);
    t.index(['deal_id', 'created_at']);
  });
  // At most one primary offer per deal, whatever the concurrency.
  await knex.raw(`CREATE UNIQUE INDEX offers_one_primary ON offers (deal_id) WHERE is_primary`);

  await knex.schema.createTable('advances', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('deal_id').notNullable().references('deals.id').unique();
    t.text('business_id').notNullable().references('businesses.id');
    t.text('lender_id').notNullable().references('lenders.id');
    t.text('offer_id').nullable().references('offers.id');
    t.text('status').notNullable().defaultTo('on-track');
    money(t, 'funded_amount').notNullable();
    t.decimal('factor_rate', 6, 4).notNullable();
    t.integer('term').notNullable();
    t.text('payment_frequency').notNullable();
    money(t, 'payment_amount').notNullable();
    money(t, 'payback_amount').notNullable();
    money(t, 'paid_amount').notNullable().defaultTo(0);
    t.integer('payments_made').notNullable().defaultTo(0);
    t.integer('position').notNullable().defaultTo(1);
    t.decimal('renewal_threshold_override', 5, 2).nullable();
    t.timestamp('renewal_ready_notified_at', { useTz: true }).nullable();
    t.timestamp('funded_at', { useTz: true }).notNullable();
    t.date('first_payment_date').notNullable();
    t.date('actual_payoff_date').nullable();
    ts(t);
    t.index(['location_id', 'created_at']);
    t.index(['business_id']);
  });

  await knex.schema.createTable('notes', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('entity_type').notNullable();
    t.text('entity_id').notNullable();
    t.text('body').notNullable();
    t.boolean('pinned').notNullable().defaultTo(false);
    t.text('author_user_id').nullable();
    ts(t);
    t.index(['entity_id', 'created_at']);
  });

  await knex.schema.createTable('tasks', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('entity_type').notNullable();
    t.text('entity_id').notNullable();
    t.text('title').notNullable();
    t.date('due_date').nullable();
    t.text('assignee_user_id').nullable().references('users.id');
    t.boolean('completed').notNullable().defaultTo(false);
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.text('created_by_user_id').nullable();
    ts(t);
    t.index(['entity_id', 'created_at']);
  });

  // One history per business: deal events, notes, tasks, CRM messages; written in the change's transaction.
  await knex.schema.createTable('activities', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('locations.id');
    t.text('business_id').nullable();
    t.text('deal_id').nullable();
    t.text('entity_type').notNullable();
    t.text('entity_id').notNullable();
    t.text('entity_name').notNullable();
    t.text('action').notNullable();
    t.text('description').notNullable();
    t.text('actor_user_id').nullable();
    t.text('actor_name').nullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['business_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['activities', 'tasks', 'notes', 'advances', 'offers', 'submissions', 'deals', 'lenders', 'business_people', 'people', 'businesses']) {
    await knex.schema.dropTableIfExists(table);
  }
}
