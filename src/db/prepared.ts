import type { Knex } from 'knex';

/**
 * A fixed statement the request pipeline runs on every request (the credential lookup with its
 * rate-limit count, the Idempotency-Key claim), prepared once per connection on PostgreSQL: the
 * server keeps its parse and plan under a name instead of planning it again each time (for these
 * CTEs, planning cost more than running). One name per distinct text, so a name never meets a second
 * text on a connection; the texts are constants of this code, so the names are few. The embedded
 * engine runs it as it is.
 */
const names = new Map<string, string>();

export function prepared<T>(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw<T> {
  const query = knex.raw<T>(sql, bindings as Knex.RawBinding[]);
  if (knex.client.config.client !== 'pg') return query;
  let name = names.get(sql);
  if (!name) names.set(sql, (name = `svc_${names.size}`));
  return query.options({ name });
}
