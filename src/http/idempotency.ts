import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Deps } from '../deps';
import { sha256Hex } from '../lib/crypto';
import { ApiError, loggableError } from './errors';
import { lifeOf } from './lifecycle';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A request holding a key renews its lock every LOCK_MS / 3 while it runs; a lock not renewed for
 * LOCK_MS belongs to a request that died with its process, and the key is taken over.
 */
export const LOCK_MS = 10 * 1000;
/** Seconds a client is told to wait (Retry-After) when its key is held by a running request. */
const IN_USE_RETRY_AFTER = '1';

/**
 * Which answers are remembered for the key: those of an operation that ran against the current
 * state (2xx, and a 409 state conflict). Other 4xx answers change nothing (the transaction rolled
 * back), so the key is released and the corrected request can be sent again with it; 5xx likewise.
 */
/** Handed to the route (res.locals.idempotent) when this request owns its Idempotency-Key. */
export interface IdempotentRun {
  /** Remembers the answer inside the operation's transaction. */
  remember(trx: Knex.Transaction, status: number, body: unknown): Promise<void>;
  /** The operation never ran (its client left first): the key is released, so a retry runs it. */
  abandon(): Promise<void>;
}

export const remembered = (status: number): boolean => (status >= 200 && status < 300) || status === 409;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Idempotency-Key on POST, scoped to the credential, kept 24 hours. Runs after authentication,
 * validation and access, so requests refused there are never stored; see `remembered` for the rest.
 */
export function idempotency(deps: Deps): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('Idempotency-Key');
    if (req.method !== 'POST' || !key) return next();
    const auth = req.auth!;
    const knex = deps.db.knex;
    const now = deps.clock.now();
    const requestHash = sha256Hex(`${req.method} ${req.originalUrl}\n${canonical(req.body)}`);
    const id = { credential_id: auth.credentialId, key };
    const inUse = () =>
      new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly', 'Idempotency-Key', { 'Retry-After': IN_USE_RETRY_AFTER });

    const claim = async (): Promise<boolean> => {
      const inserted = await knex('idempotency_keys')
        .insert({ ...id, request_hash: requestHash, state: 'in_progress', created_at: now, locked_until: new Date(now.getTime() + LOCK_MS) })
        .onConflict(['credential_id', 'key'])
        .ignore()
        .returning('key');
      return inserted.length === 1;
    };

    if (!(await claim())) {
      const row = await knex('idempotency_keys').where(id).first();
      const expired = !row || new Date(row.created_at).getTime() + IDEMPOTENCY_TTL_MS <= now.getTime();
      const abandoned = row && row.state === 'in_progress' && new Date(row.locked_until) <= now;
      if (expired || abandoned) {
        // Delete exactly the row we judged (another process may be taking it over at the same time).
        await knex('idempotency_keys').where({ ...id, state: row?.state ?? 'in_progress', locked_until: row?.locked_until ?? now }).delete();
        if (!(await claim())) throw inUse();
      } else if (row.state === 'in_progress') {
        throw inUse();
      } else if (row.request_hash !== requestHash) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key', 'Idempotency-Key');
      } else {
        res.setHeader('Idempotent-Replayed', 'true');
        // Stored sealed: a first response may carry a secret shown once (a webhook signing secret).
        const stored = row.response_body as { sealed: string };
        res.status(row.response_status).json(JSON.parse(deps.secrets.open(stored.sealed)));
        return;
      }
    }

    // We own the key: keep the lock alive while we run, then remember the answer or release the key.
    // Renewals run on separate connections and may commit out of order: the lock only ever moves
    // forward, or a late renewal could hand the key of a running request to a retry.
    const stopRenewing = deps.clock.every(LOCK_MS / 3, () => {
      knex('idempotency_keys')
        .where({ ...id, state: 'in_progress' })
        .update({ locked_until: knex.raw('greatest(locked_until, ?)', [new Date(deps.clock.now().getTime() + LOCK_MS)]) })
        .catch((err: unknown) => req.log.warn({ err: loggableError(err) }, 'could not renew idempotency lock'));
    });
    // Renewed until the request is over: when its client leaves mid-operation the operation still runs
    // to its end, and a retry must keep getting 409 (not take the key over) until it has.
    lifeOf(res).onDone(stopRenewing);
    const record = (status: number, body: unknown) => ({ state: 'done', response_status: status, response_body: JSON.stringify({ sealed: deps.secrets.seal(JSON.stringify(body)) }) });
    let storedWithOperation = false;
    // The route runs the operation in one transaction with this: the answer is remembered atomically
    // with what the operation wrote, so no crash can leave one without the other.
    const run: IdempotentRun = {
      remember: async (trx, status, body) => {
        await trx('idempotency_keys').where(id).update(record(status, body));
        storedWithOperation = true;
      },
      abandon: async () => {
        stopRenewing();
        await knex('idempotency_keys')
          .where({ ...id, state: 'in_progress' })
          .delete()
          .catch((err: unknown) => req.log.warn({ err: loggableError(err) }, 'could not release idempotency key'));
      },
    };
    res.locals.idempotent = run;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      stopRenewing();
      const send = () => {
        try {
          json(body);
        } catch (err) {
          next(err); // e.g. response validation in tests
        }
      };
      if (storedWithOperation) {
        send();
        return res;
      }
      // The operation failed (its transaction rolled back): remember a 409, release the key otherwise.
      const status = res.statusCode;
      const stored = remembered(status) ? knex('idempotency_keys').where(id).update(record(status, body)) : knex('idempotency_keys').where(id).delete();
      stored.then(send, (err: unknown) => {
        req.log.error({ err: loggableError(err) }, 'could not store idempotent response');
        send();
      });
      return res;
    };
    next();
  };
}
