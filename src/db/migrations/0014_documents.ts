import type { Knex } from 'knex';

// Documents, statement analysis, document requests and merchant portal links (issue 12).
//
// documents: one row per file on a deal. `storage_key` names the bytes in the storage back end
// (local folder or S3); `declared_size` is what the uploader promised and the upload URL enforces;
// `size_bytes` and `sha256` are what actually arrived, recorded at finalize. A bank statement's
// figures (or its failure) are kept on its row (`statement`, `failure_code`, `failure_reason`).
//
// statement_batches: one row per analysis of a deal's statements. Finalizing a bank statement
// starts a batch of every bank statement of the deal; the latest batch is the deal's analysis, and
// it completes (statement.analyzed) when each of its documents is processed or failed. A batch that
// a newer one replaces while still running is `superseded` and never announced.
//
// portal_links: magic links into the merchant portal. Only the SHA-256 of the token is stored.
// document_requests: what was asked of the merchant, with the documents link made for it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('portal_links', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('deal_id').notNullable();
    t.text('business_id').notNullable();
    t.text('person_id').notNullable();
    t.text('purpose').notNullable();
    t.text('token_hash').notNullable().unique();
    t.text('sent_to').nullable();
    t.text('document_request_id').nullable();
    t.text('created_by_user_id').nullable();
    t.text('email_id').nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['location_id', 'deal_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE portal_links ADD CONSTRAINT portal_links_purpose_check CHECK (purpose IN ('documents','offers','application'))`);

  await knex.schema.createTable('document_requests', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('deal_id').notNullable();
    t.text('person_id').notNullable();
    t.jsonb('items').notNullable();
    t.text('message').nullable();
    t.text('status').notNullable();
    t.text('portal_link_id').notNullable();
    t.text('created_by_user_id').nullable();
    t.text('email_id').nullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('fulfilled_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['location_id', 'deal_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE document_requests ADD CONSTRAINT document_requests_status_check CHECK (status IN ('open','fulfilled','cancelled'))`);

  await knex.schema.createTable('documents', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('deal_id').notNullable();
    t.text('business_id').notNullable();
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    t.bigInteger('declared_size').notNullable();
    t.bigInteger('size_bytes').nullable();
    t.text('category').notNullable();
    t.text('status').notNullable();
    t.text('source').notNullable();
    t.text('sha256').nullable();
    t.text('storage_key').notNullable();
    t.text('portal_link_id').nullable();
    t.text('document_request_id').nullable();
    t.text('created_by_user_id').nullable();
    t.jsonb('statement').nullable();
    t.text('failure_code').nullable();
    t.text('failure_reason').nullable();
    t.integer('pages').nullable();
    t.timestamp('upload_expires_at', { useTz: true }).notNullable();
    t.timestamp('uploaded_at', { useTz: true }).nullable();
    t.timestamp('processed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['location_id', 'deal_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE documents ADD CONSTRAINT documents_status_check CHECK (status IN ('pending_upload','uploaded','processing','processed','failed'))`);
  await knex.raw(`ALTER TABLE documents ADD CONSTRAINT documents_source_check CHECK (source IN ('api','app','merchant_portal','email'))`);
  await knex.raw(`ALTER TABLE documents ADD CONSTRAINT documents_category_check CHECK (category IN ('bank_statement','application','id','voided_check','tax_return','contract','other'))`);
  // The sweep of abandoned uploads reads this.
  await knex.raw(`CREATE INDEX documents_pending_upload ON documents (created_at) WHERE status = 'pending_upload'`);

  await knex.schema.createTable('statement_batches', (t) => {
    t.text('id').primary();
    t.text('location_id').notNullable().references('id').inTable('locations').onDelete('CASCADE');
    t.text('deal_id').notNullable();
    t.jsonb('document_ids').notNullable();
    t.text('status').notNullable();
    t.integer('statements_parsed').nullable();
    t.jsonb('summary').nullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['location_id', 'deal_id', 'created_at']);
  });
  // Values an email must carry but the database must not keep readable (a magic link): sealed with
  // the secret key, put into the text at send time, cleared once the email is sent or given up.
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.text('sealed_values').nullable();
  });
  // The documents a submission's email package attaches (POST /v1/deals/{id}/submissions `document_ids`).
  await knex.schema.alterTable('submissions', (t) => {
    t.jsonb('document_ids').notNullable().defaultTo('[]');
  });
  await knex.raw(`ALTER TABLE statement_batches ADD CONSTRAINT statement_batches_status_check CHECK (status IN ('processing','completed','superseded'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.dropColumn('sealed_values');
  });
  await knex.schema.alterTable('submissions', (t) => {
    t.dropColumn('document_ids');
  });
  await knex.schema.dropTable('statement_batches');
  await knex.schema.dropTable('documents');
  await knex.schema.dropTable('document_requests');
  await knex.schema.dropTable('portal_links');
}
