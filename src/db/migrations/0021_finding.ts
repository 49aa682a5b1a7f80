import type { Knex } from 'knex';

// Finding things (issue 29): deal search, time filters on lists, submissions and offers across deals.
//
// Deal search reads three columns of the deal kept by triggers, so one indexed condition per kind of
// term finds a deal whatever wrote it (API, portal, CLI import, seed):
// - search_text: business legal name, DBA and email, the deal owner's "first last" and email, one per
//   line; trigram GIN index (pg_trgm, on PostgreSQL and PGlite alike) for `ILIKE '%term%'`.
// - search_phones: the digits of the business phone and of the owner's phone; trigram GIN index.
// - search_ein4: the last four digits of the business EIN; btree with the location.
// A deal's columns are filled before it is written (owner or business changed); a business's change of
// the fields searched rewrites its deals' columns in the same transaction.
//
// Lists across deals are keyset-paginated per location: submissions on (created_at, id), offers on
// (received_at, id) as the per-deal list orders them, each also per status and per lender so a
// filtered page starts at the cursor. `updated_after` on deals, submissions and offers has its own index.

const KEYSET: [name: string, table: string, columns: string][] = [
  ['submissions_location_keyset', 'submissions', 'location_id, created_at, id'],
  ['submissions_location_status_keyset', 'submissions', 'location_id, status, created_at, id'],
  ['submissions_location_lender_keyset', 'submissions', 'location_id, lender_id, created_at, id'],
  ['submissions_location_response_keyset', 'submissions', 'location_id, response_type, created_at, id'],
  ['submissions_location_updated', 'submissions', 'location_id, updated_at'],
  ['offers_location_keyset', 'offers', 'location_id, received_at, id'],
  ['offers_location_status_keyset', 'offers', 'location_id, status, received_at, id'],
  ['offers_location_lender_keyset', 'offers', 'location_id, lender_id, received_at, id'],
  ['offers_location_updated', 'offers', 'location_id, updated_at'],
  ['deals_location_updated', 'deals', 'location_id, updated_at'],
];

const DIGITS = (v: string) => `nullif(regexp_replace(coalesce(${v}, ''), '[^0-9]', '', 'g'), '')`;

export async function up(knex: Knex): Promise<void> {
  // Trusted since PostgreSQL 13: the database owner may create it. PGlite loads it (src/db/engine.ts).
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.schema.alterTable('deals', (t) => {
    t.text('search_text').nullable();
    t.text('search_phones').nullable();
    t.text('search_ein4').nullable();
  });
  // (business row, deal owner) -> the three columns; one definition for both triggers and the backfill.
  await knex.raw(`
    CREATE FUNCTION deal_search_columns(b businesses, owner jsonb, OUT search_text text, OUT search_phones text, OUT search_ein4 text)
    LANGUAGE sql IMMUTABLE AS $$
      SELECT
        nullif(concat_ws(E'\\n', b.legal_name, b.dba, b.email,
          nullif(btrim(concat_ws(' ', owner->>'first_name', owner->>'last_name')), ''), owner->>'email'), ''),
        nullif(concat_ws(' ', ${DIGITS('b.phone')}, ${DIGITS("owner->>'phone'")}), ''),
        CASE WHEN length(${DIGITS('b.ein')}) >= 4 THEN right(${DIGITS('b.ein')}, 4) END
    $$`);
  await knex.raw(`
    CREATE FUNCTION deals_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT c.search_text, c.search_phones, c.search_ein4 INTO NEW.search_text, NEW.search_phones, NEW.search_ein4
        FROM businesses b, deal_search_columns(b, NEW.owner) c WHERE b.id = NEW.business_id;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER deals_search_fill BEFORE INSERT OR UPDATE OF owner, business_id ON deals
    FOR EACH ROW EXECUTE FUNCTION deals_search_fill()`);
  await knex.raw(`
    CREATE FUNCTION businesses_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE deals d SET (search_text, search_phones, search_ein4) =
        (SELECT c.search_text, c.search_phones, c.search_ein4 FROM deal_search_columns(NEW, d.owner) c)
        WHERE d.business_id = NEW.id;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER businesses_search_refresh AFTER UPDATE OF legal_name, dba, email, phone, ein ON businesses
    FOR EACH ROW WHEN (OLD.legal_name IS DISTINCT FROM NEW.legal_name OR OLD.dba IS DISTINCT FROM NEW.dba
      OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone OR OLD.ein IS DISTINCT FROM NEW.ein)
    EXECUTE FUNCTION businesses_search_refresh()`);
  await knex.raw(`
    UPDATE deals d SET (search_text, search_phones, search_ein4) =
      (SELECT c.search_text, c.search_phones, c.search_ein4 FROM businesses b, deal_search_columns(b, d.owner) c WHERE b.id = d.business_id)`);
  await knex.raw('CREATE INDEX deals_search_text_trgm ON deals USING gin (search_text gin_trgm_ops)');
  await knex.raw('CREATE INDEX deals_search_phones_trgm ON deals USING gin (search_phones gin_trgm_ops)');
  await knex.raw('CREATE INDEX deals_location_ein4 ON deals (location_id, search_ein4) WHERE search_ein4 IS NOT NULL');
  for (const [name, table, columns] of KEYSET) await knex.raw(`CREATE INDEX ${name} ON ${table} (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of KEYSET) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  await knex.raw('DROP TRIGGER IF EXISTS businesses_search_refresh ON businesses');
  await knex.raw('DROP TRIGGER IF EXISTS deals_search_fill ON deals');
  await knex.raw('DROP FUNCTION IF EXISTS businesses_search_refresh()');
  await knex.raw('DROP FUNCTION IF EXISTS deals_search_fill()');
  await knex.raw('DROP FUNCTION IF EXISTS deal_search_columns(businesses, jsonb)');
  await knex.schema.alterTable('deals', (t) => {
    t.dropColumn('search_text');
    t.dropColumn('search_phones');
    t.dropColumn('search_ein4');
  });
  // pg_trgm stays: other objects may use it, and dropping an extension is the operator's call.
}
