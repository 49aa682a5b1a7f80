import type { Knex } from 'knex';

// The parts of an outgoing message beyond a plain text body (issue 10, submission emails): an HTML
// alternative, Cc, a Reply-To, and attachments.
//
// Attachments are not stored as bytes. Each is `{ filename, content_type, source: { kind, ref } }`
// and its bytes are produced at send time by the attachment source registered for `kind`
// (src/mail/attachments.ts), given `ref`: a retry sends the bytes the (deterministic) source makes
// again, and the table does not grow by the size of every package ever sent.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.text('html_body').nullable();
    t.jsonb('cc_addresses').notNullable().defaultTo('[]');
    t.text('reply_to').nullable();
    t.jsonb('attachments').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outgoing_emails', (t) => {
    t.dropColumn('attachments');
    t.dropColumn('reply_to');
    t.dropColumn('cc_addresses');
    t.dropColumn('html_body');
  });
}
