import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { ApiError } from '../../../http/errors';
import { IDEMPOTENCY_TTL_MS, LOCK_MS } from '../../../http/idempotency';
import { sha256Hex } from '../../../lib/crypto';
import { html, type Safe } from '../../html';
import type { AppContext } from '../context';

// Idempotency for the app's forms, on the API's own table and terms (src/http/idempotency.ts): each
// form carries a fresh key (`once`); a form sent twice (a double click, a reload of the POST, a
// network retry) runs its action once and the second send is answered with the first answer. The
// record is scoped to the session (`app:<session id>`), kept 24 hours, sealed (an answer may carry a
// secret shown once), and written in the action's own transaction, so a crash leaves neither
// without the other. A failed action releases its key: the corrected form can be sent again.

export const ONCE_FIELD = 'once';
const KEY = /^[A-Za-z0-9_-]{16,64}$/;
/** A form's key is held this long by the request working on it (the API's lock, or a network action's longest wait). */
const FORM_LOCK_MS = Math.max(LOCK_MS, 30_000);

/** The hidden field every form of these pages carries: a new key each time the page is drawn. */
export function onceField(): Safe {
  return html`<input type="hidden" name="${ONCE_FIELD}" value="${randomBytes(18).toString('base64url')}">`;
}

export interface Once<T> {
  value: T;
  /** The answer of an earlier send of the same form. */
  replayed: boolean;
}

/**
 * Runs `action` once per form key: the deps it gets run in one transaction with the remembered
 * answer (the services' own transactions become savepoints, exactly as on /v1 with an
 * Idempotency-Key). Without a key (an old form) it simply runs.
 */
export async function once<T>(
  deps: Deps, ctx: AppContext, key: unknown, what: string, action: (d: Deps) => Promise<T>,
  opts: { network?: boolean } = {},
): Promise<Once<T>> {
  if (typeof key !== 'string' || !KEY.test(key)) return { value: await action(deps), replayed: false };
  const knex = deps.db.knex;
  const id = { credential_id: `app:${ctx.sessionId}`, key };
  const requestHash = sha256Hex(`app ${what}`);
  const now = deps.clock.now();
  const claim = async () =>
    (await knex('idempotency_keys')
      .insert({ ...id, request_hash: requestHash, state: 'in_progress', created_at: now, locked_until: new Date(now.getTime() + FORM_LOCK_MS) })
      .onConflict(['credential_id', 'key'])
      .ignore()
      .returning('key')).length === 1;

  if (!(await claim())) {
    const row = await knex('idempotency_keys').where(id).first();
    const expired = !row || new Date(row.created_at).getTime() + IDEMPOTENCY_TTL_MS <= now.getTime();
    const abandoned = row && row.state === 'in_progress' && new Date(row.locked_until) <= now;
    if (expired || abandoned) {
      await knex('idempotency_keys').where({ ...id, state: row?.state ?? 'in_progress', locked_until: row?.locked_until ?? now }).delete();
      if (!(await claim())) throw new ApiError('idempotency_key_in_use', 'This form is still being handled; wait a moment and reload the page');
    } else if (row.state === 'in_progress') {
      throw new ApiError('idempotency_key_in_use', 'This form is still being handled; wait a moment and reload the page');
    } else if (row.request_hash !== requestHash) {
      throw new ApiError('idempotency_key_reused', 'This form was already used for something else; reload the page and try again');
    } else {
      const stored = row.response_body as { sealed: string };
      return { value: JSON.parse(deps.secrets.open(stored.sealed)) as T, replayed: true };
    }
  }
  const remember = (db: Knex | Knex.Transaction, v: T) =>
    db('idempotency_keys').where(id).update({ state: 'done', response_status: 200, response_body: JSON.stringify({ sealed: deps.secrets.seal(JSON.stringify(v ?? null)) }) });
  try {
    if (opts.network) {
      // An action that waits on the network (a test event): no transaction held open meanwhile; it
      // records what it did itself, and its answer is remembered right after.
      const v = await action(deps);
      await remember(knex, v);
      return { value: v, replayed: false };
    }
    const value = await knex.transaction(async (trx) => {
      const v = await action({ ...deps, db: { ...deps.db, knex: trx as unknown as Knex } });
      await remember(trx, v);
      return v;
    });
    return { value, replayed: false };
  } catch (err) {
    await knex('idempotency_keys').where({ ...id, state: 'in_progress' }).delete().catch(() => undefined);
    throw err;
  }
}
