import type { Knex } from 'knex';

/**
 * Runs several INSERT/UPDATE/DELETE builders as ONE statement (the later ones as data-modifying
 * CTEs of the first): one round trip, and atomic on its own, so no transaction is needed for them.
 * The writes see the same snapshot, not each other's rows, and foreign keys are checked at the end
 * of the statement; none may read what another writes. Used where a change and its outbox event and
 * activity line are written together (e.g. createBusiness).
 */
export async function writeTogether(db: Knex | Knex.Transaction, writes: Knex.QueryBuilder[]): Promise<void> {
  if (writes.length === 1) {
    await writes[0];
    return;
  }
  const [first, ...rest] = writes.map((w) => w.toSQL());
  const sql = `WITH ${rest.map((w, i) => `w${i} AS (${w.sql})`).join(', ')} ${first.sql}`;
  await db.raw(sql, [...rest.flatMap((w) => w.bindings), ...first.bindings] as Knex.RawBinding[]);
}
