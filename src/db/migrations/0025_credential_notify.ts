import type { Knex } from 'knex';

// Issue 31: authentication answers from a per-process cache of credentials (src/http/credential-cache.ts).
// Every change to what authentication reads tells every process through NOTIFY svc_credentials (sent
// at commit), and each process drops its cache on it. Only the columns authentication reads count:
// a key's last_used_at (written once a minute per key) does not flush anything.
const WATCHED: Record<string, string[]> = {
  api_keys: ['key_hash', 'location_id', 'role', 'scopes', 'user_id', 'expires_at', 'revoked_at'],
  oauth_access_tokens: ['token_hash', 'audience', 'location_id', 'scopes', 'user_id', 'expires_at', 'revoked_at'],
  users: ['active', 'role', 'location_id'],
  locations: ['is_test'],
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION svc_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('svc_credentials', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const [table, columns] of Object.entries(WATCHED)) {
    const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
    await knex.raw(`CREATE TRIGGER svc_credentials_update AFTER UPDATE ON ${table} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION svc_credentials_changed()`);
    await knex.raw(`CREATE TRIGGER svc_credentials_delete AFTER DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION svc_credentials_changed()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(WATCHED)) {
    await knex.raw(`DROP TRIGGER IF EXISTS svc_credentials_update ON ${table}`);
    await knex.raw(`DROP TRIGGER IF EXISTS svc_credentials_delete ON ${table}`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS svc_credentials_changed()');
}
