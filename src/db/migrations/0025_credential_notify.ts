import type { Knex } from 'knex';

// Issue 31: authentication answers from a per-process cache of credentials (src/http/credential-cache.ts).
// Every change to a row of these tables tells every process through NOTIFY svc_credentials (sent at
// commit), and each process drops its cache on it; a key's last_used_at (written once a minute per
// key) alone does not. Any column, not only those authentication reads: a process that wrote one
// waits for its own commit's notification before it uses its cache again (CredentialWatch).
const TABLES = ['api_keys', 'oauth_access_tokens', 'users', 'locations'];
const IGNORED: Record<string, string[]> = { api_keys: ['last_used_at'] };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION svc_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('svc_credentials', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const table of TABLES) {
    const ignored = (IGNORED[table] ?? []).map((c) => ` - '${c}'`).join('');
    const changed = `(to_jsonb(OLD)${ignored}) IS DISTINCT FROM (to_jsonb(NEW)${ignored})`;
    await knex.raw(`CREATE TRIGGER svc_credentials_update AFTER UPDATE ON ${table} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION svc_credentials_changed()`);
    await knex.raw(`CREATE TRIGGER svc_credentials_delete AFTER DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION svc_credentials_changed()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`DROP TRIGGER IF EXISTS svc_credentials_update ON ${table}`);
    await knex.raw(`DROP TRIGGER IF EXISTS svc_credentials_delete ON ${table}`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS svc_credentials_changed()');
}
