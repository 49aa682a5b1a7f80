import type { Knex } from 'knex';

/**
 * A fixed statement run on many requests (the credential lookup with its rate-limit count, the
 * Idempotency-Key claim and answer, an idempotent create's one write-and-answer statement, the one
 * statement reading a deal with its context), prepared once per connection on PostgreSQL: the
 * server keeps its parse and plan under a name instead of planning it again each time (for these
 * CTEs, planning cost more than running). One name per distinct text, so a name never meets a second
 * text on a connection; the texts are constants of this code, so the names are few. The embedded
 * engine runs it as it is, and so does a `pg` connection to it through a running server's operator
 * socket (see `neverNameStatements`).
 */
const names = new Map<string, string>();
/** Never given twice in this process, even after `forgetNamedTexts` (a test's). */
let nextName = 0;
/**
 * At most this many names: past it a new text runs unnamed (a guard, should a caller ever pass texts
 * that vary; each name costs every connection that meets it a parsed statement on the server).
 */
const MAX_NAMED = 64;

/** The configs of the knex instances that must never name a statement (shared by their transactions). */
const unnamed = new WeakSet<object>();

/**
 * Marks `knex` (and every transaction on it) as one whose statements are never named. For a `pg`
 * connection to the embedded engine through a running server's operator socket (engine.ts
 * `connectToServer`): every such connection, of every process (the seed, the CLI, a worker), is
 * the ONE PGlite session, where a name one process gave lives on for the next, which knows nothing
 * of it ("prepared statement svc_0 already exists", or a name meeting another text).
 */
export function neverNameStatements(knex: Knex): Knex {
  unnamed.add(knex.client.config);
  return knex;
}

/** Whether `prepared()` names statements on `knex` (PostgreSQL's own connections only). */
function namesStatements(knex: Knex): boolean {
  // A transaction's client shares its knex's config object (knex's makeTxClient).
  return knex.client.config.client === 'pg' && !unnamed.has(knex.client.config);
}

export function prepared<T>(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw<T> {
  const query = knex.raw<T>(sql, bindings as Knex.RawBinding[]);
  if (!namesStatements(knex)) return query;
  let name = names.get(sql);
  if (!name) {
    if (names.size >= MAX_NAMED) return query;
    names.set(sql, (name = `svc_${nextName++}`));
  }
  return query.options({ name });
}

/**
 * FOR TESTS ONLY (contract-tests/api/prepared.test.ts), in one place: no code under src/ uses it
 * (contract-tests/spec/test-only-exports.test.ts keeps it so). The process's name map is shared by
 * every test file of a worker, so a test reads it and forgets its own texts through this.
 */
export const preparedForTests = {
  /** At most this many texts get a name. */
  MAX_NAMED,
  /** How many texts have a name in this process. */
  namedTextCount: (): number => names.size,
  /** Forgets the names of `texts` (a test's own), so the texts of files after it are still named; their names are never given again. */
  forgetNamedTexts(texts: Iterable<string>): void {
    for (const text of texts) names.delete(text);
  },
} as const;
