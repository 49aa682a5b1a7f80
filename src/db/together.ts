import type { Knex } from 'knex';
import { prepared } from './prepared';

/** Options of `writeTogether`. */
export interface TogetherOptions {
  /**
   * The operation's last database work: nothing it does after this reads or writes. Inside an
   * Idempotency-Key run (see `holdFinalWrite`) the statement is then held back and sent with the
   * remembered answer as one statement, at the end of the run, instead of on its own.
   */
  final?: boolean;
  /** What an error of the writes means to the caller (e.g. a unique violation to a 409); applied where a held write fails. */
  mapError?: (err: unknown) => unknown;
}

/** A final write held back on a transaction, for its owner to send (see `sendTogether`). */
export interface Held {
  writes?: Knex.QueryBuilder[];
  mapError?: (err: unknown) => unknown;
}

const holders = new WeakMap<object, Held>();

/**
 * Called by the Idempotency-Key run on the transaction it hands the operation: a `final` write on
 * exactly that transaction is held here (not on a nested one: a service's own transaction inside it is
 * a savepoint, and its writes go out as they come).
 */
export function holdFinalWrite(trx: object): Held {
  const held: Held = {};
  holders.set(trx, held);
  return held;
}

/** The writes as one statement: the later ones (and `tail`, if given, last) as data-modifying CTEs of the first, or `tail` as the statement with every write a CTE. */
function together(writes: Knex.QueryBuilder[], tail?: { sql: string; bindings: readonly Knex.RawBinding[] }): { sql: string; bindings: Knex.RawBinding[] } {
  const compiled = writes.map((w) => w.toSQL());
  const [main, ...ctes] = tail ? [tail, ...compiled] : compiled;
  if (!ctes.length) return { sql: main.sql, bindings: [...main.bindings] as Knex.RawBinding[] };
  return {
    sql: `WITH ${ctes.map((w, i) => `w${i} AS (${w.sql})`).join(', ')} ${main.sql}`,
    bindings: [...ctes.flatMap((w) => w.bindings), ...main.bindings] as Knex.RawBinding[],
  };
}

/**
 * Sends held writes (and `tail`, e.g. the remembered answer of an Idempotency-Key) as ONE statement;
 * an error is what the writer's `mapError` makes of it.
 */
export async function sendTogether(db: Knex | Knex.Transaction, held: Held, tail?: { sql: string; bindings: readonly Knex.RawBinding[] }): Promise<void> {
  const writes = held.writes!;
  held.writes = undefined;
  const { sql, bindings } = together(writes, tail);
  try {
    // The text is fixed by the code that built the writes (values are bindings): prepared once per
    // connection, never named over the embedded engine's operator socket (prepared() checks the mark).
    await prepared(db as Knex, sql, bindings);
  } catch (err) {
    throw held.mapError ? held.mapError(err) : err;
  }
}

/**
 * Runs several INSERT/UPDATE/DELETE builders as ONE statement (the later ones as data-modifying
 * CTEs of the first): one round trip, and atomic on its own, so no transaction is needed for them.
 * The writes see the same snapshot, not each other's rows, and foreign keys are checked at the end
 * of the statement; none may read what another writes. Used where a change and its outbox event and
 * activity line are written together (e.g. createBusiness). A `final` write in an Idempotency-Key run
 * is held and goes out with the remembered answer (see TogetherOptions); its caller maps errors with
 * `mapError` in both cases.
 */
export async function writeTogether(db: Knex | Knex.Transaction, writes: Knex.QueryBuilder[], opts: TogetherOptions = {}): Promise<void> {
  const held = opts.final ? holders.get(db) : undefined;
  if (held) {
    if (held.writes) await sendTogether(db, held); // a second final write: the first goes out first
    held.writes = writes;
    held.mapError = opts.mapError;
    return;
  }
  const { sql, bindings } = together(writes);
  await db.raw(sql, bindings);
}
