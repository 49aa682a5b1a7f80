import type { Knex } from 'knex';

/**
 * A fixed statement run on many requests (the credential lookup with its rate-limit count, the
 * Idempotency-Key claim and answer, an idempotent create's one write-and-answer statement, the one
 * statement reading a deal with its context), prepared once per connection on PostgreSQL: the
 * server keeps its parse and plan under a name instead of planning it again each time (for these
 * CTEs, planning cost more than running). One name per distinct text, so a name never meets a second
 * text on a connection; the texts are constants of this code, so the names are few. The embedded
 * engine runs it as it is.
 */
const names = new Map<string, string>();
/**
 * At most this many names: past it a new text runs unnamed (a guard, should a caller ever pass texts
 * that vary; each name costs every connection that meets it a parsed statement on the server).
 */
export const MAX_NAMED = 64;

export function prepared<T>(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw<T> {
  const query = knex.raw<T>(sql, bindings as Knex.RawBinding[]);
  if (knex.client.config.client !== 'pg') return query;
  let name = names.get(sql);
  if (!name) {
    if (names.size >= MAX_NAMED) return query;
    names.set(sql, (name = `svc_${names.size}`));
  }
  return query.options({ name });
}
