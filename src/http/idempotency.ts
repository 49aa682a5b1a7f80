import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Deps } from '../deps';
import { sha256Hex } from '../lib/crypto';
import { ApiError, loggableError } from './errors';
import { prepared } from '../db/prepared';
import { holdFinalWrite, sendTogether } from '../db/together';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request waits for a key held by another request's open transaction before answering
 * `409 idempotency_key_in_use`. A holder that commits within it is replayed instead; one that
 * rolls back hands the key over. (PostgreSQL's lock_timeout, set for the claim statement only.)
 */
export const CLAIM_WAIT_MS = 500;
/**
 * A key's lock is its claim row, uncommitted in the operation's transaction: PostgreSQL holds it
 * exactly as long as the operation runs and drops it when the transaction ends, the process dies or
 * its connection is lost. `locked_until` is still written (claim time + LOCK_MS) and read only for a
 * committed `in_progress` row, which this release never writes: one left by a release that claimed
 * keys in a transaction of their own is taken over once its lock has run out.
 */
export const LOCK_MS = 10 * 1000;
/** Seconds a client is told to wait (Retry-After) when its key is held by a running request. */
const IN_USE_RETRY_AFTER = '1';

/**
 * Which answers are remembered for the key: those of an operation that ran against the current
 * state (2xx, and a 409 state conflict). Other 4xx answers change nothing (the transaction rolled
 * back), so the key is released and the corrected request can be sent again with it; 5xx likewise.
 */
export const remembered = (status: number): boolean => (status >= 200 && status < 300) || status === 409;

export interface Reply {
  status: number;
  body: unknown;
}

/** Handed to the route (res.locals.idempotent) when a POST carries an Idempotency-Key. */
export interface IdempotentRun {
  /**
   * Runs the operation on `db` (a transaction that has claimed the key) and commits it with the
   * remembered answer: one transaction, one commit. A key already answered returns the stored
   * answer (`replayed`) without running anything; a key in use or reused throws.
   */
  run(operation: (db: Knex) => Promise<Reply>): Promise<Reply & { replayed?: true }>;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

interface KeyRow {
  request_hash: string;
  state: 'in_progress' | 'done';
  response_status: number | null;
  response_body: { sealed: string } | string | null;
  created_at: Date | string;
  locked_until: Date | string;
}

/**
 * The claim, one statement: lock_timeout set to CLAIM_WAIT_MS for the INSERT alone (set before its
 * row is inserted, put back once the insert has run: `n` must be complete before the outer row is
 * formed), and, when the key was not claimed, the row that holds it as this statement sees it.
 */
const CLAIM_SQL = `
WITH prior AS MATERIALIZED (
  SELECT v, set_config('lock_timeout', ?, true) AS w FROM (SELECT current_setting('lock_timeout') AS v OFFSET 0) s
), ins AS (
  INSERT INTO idempotency_keys (credential_id, key, request_hash, state, created_at, locked_until)
  SELECT ?, ?, ?, 'in_progress', ?, ? FROM prior
  ON CONFLICT (credential_id, key) DO NOTHING
  RETURNING 1
), n AS MATERIALIZED (SELECT count(*)::int AS claimed FROM ins)
SELECT n.claimed, set_config('lock_timeout', prior.v, true) AS restored,
       k.request_hash, k.state, k.response_status, k.response_body, k.created_at, k.locked_until
  FROM n CROSS JOIN prior
  LEFT JOIN idempotency_keys k ON n.claimed = 0 AND k.credential_id = ? AND k.key = ?`;

/** The answer remembered for a claimed key, in the claim's transaction. */
const RECORD_SQL = `UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE credential_id = ? AND key = ?`;

/** SQLSTATE 55P03: the claim waited CLAIM_WAIT_MS for a key another open transaction holds. */
const isLockTimeout = (err: unknown) => (err as { code?: string }).code === '55P03';

/**
 * Idempotency-Key on POST, scoped to the credential, kept 24 hours. Runs after authentication,
 * validation and access, so requests refused there are never stored; see `remembered` for the rest.
 * The key is claimed inside the operation's transaction (see IdempotentRun.run), so a request that
 * never commits leaves no claim behind.
 */
export function idempotency(deps: Deps): RequestHandler {
  return (req, res, next) => {
    const key = req.get('Idempotency-Key');
    if (req.method !== 'POST' || !key) return next();
    const auth = req.auth!;
    const knex = deps.db.knex;
    const requestHash = sha256Hex(`${req.method} ${req.originalUrl}\n${canonical(req.body)}`);
    const id = { credential_id: auth.credentialId, key };
    const inUse = () =>
      new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly', 'Idempotency-Key', { 'Retry-After': IN_USE_RETRY_AFTER });
    const sealed = (body: unknown) => JSON.stringify({ sealed: deps.secrets.seal(JSON.stringify(body)) });
    const record = (status: number, body: unknown) => ({ state: 'done', response_status: status, response_body: sealed(body) });
    // Set when the operation ran on a claimed key and threw: its transaction rolled back (the claim
    // with it), and the error's answer, once rendered, is remembered if it is a state conflict.
    let failedOwned = false;

    const run: IdempotentRun['run'] = async (operation) => {
      for (;;) {
        const now = deps.clock.now();
        const trx = await knex.transaction();
        let row: KeyRow | undefined;
        let claimed = false;
        try {
          const { rows } = await prepared<{ rows: (KeyRow & { claimed: number })[] }>(trx, CLAIM_SQL, [
            `${CLAIM_WAIT_MS}ms`, id.credential_id, key, requestHash, now, new Date(now.getTime() + LOCK_MS), id.credential_id, key,
          ]);
          claimed = rows[0].claimed === 1;
          if (!claimed) {
            // Held by a transaction that committed while this claim waited: not in the statement's snapshot.
            row = rows[0].state ? rows[0] : await trx('idempotency_keys').where(id).first();
            await trx.rollback();
          }
        } catch (err) {
          await trx.rollback();
          if (isLockTimeout(err)) throw inUse();
          throw err;
        }
        if (!claimed) {
          if (!row) continue; // released in between (its holder rolled back): claim again
          const expired = new Date(row.created_at).getTime() + IDEMPOTENCY_TTL_MS <= now.getTime();
          const abandoned = row.state === 'in_progress' && new Date(row.locked_until) <= now;
          if (expired || abandoned) {
            // Delete exactly the row judged (another request may be taking it over too), then claim again.
            await knex('idempotency_keys').where({ ...id, state: row.state, created_at: row.created_at, locked_until: row.locked_until }).delete();
            continue;
          }
          if (row.state === 'in_progress') throw inUse();
          if (row.request_hash !== requestHash) {
            throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key', 'Idempotency-Key');
          }
          // Stored sealed: a first response may carry a secret shown once (a webhook signing secret).
          const stored = (typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body) as { sealed: string };
          return { status: row.response_status!, body: JSON.parse(deps.secrets.open(stored.sealed)), replayed: true };
        }
        // The key is ours until this transaction ends: run the operation in it and commit the answer with it.
        let reply: Reply;
        // The operation's final write (writeTogether's `final`), held to go out with the answer: one statement.
        const held = holdFinalWrite(trx);
        try {
          reply = await operation(trx as unknown as Knex);
          if (remembered(reply.status)) {
            const answer = [reply.status, sealed(reply.body), id.credential_id, key];
            await (held.writes ? sendTogether(trx, held, { sql: RECORD_SQL, bindings: answer }) : prepared(trx, RECORD_SQL, answer));
          } else {
            // An answer not remembered (the operation returned it rather than threw): its writes stand, the key is released.
            if (held.writes) await sendTogether(trx, held);
            await trx('idempotency_keys').where(id).delete();
          }
        } catch (err) {
          await trx.rollback().catch(() => undefined);
          failedOwned = true;
          throw err;
        }
        await trx.commit();
        return reply;
      }
    };
    res.locals.idempotent = { run } satisfies IdempotentRun;

    // The operation threw: everything it wrote, and the claim, rolled back. A state conflict (409) is
    // remembered now, in a statement of its own; should a retry have claimed the key in between, the
    // retry's answer is the one kept (ON CONFLICT DO NOTHING) and this one is sent all the same.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const send = () => {
        try {
          json(body);
        } catch (err) {
          next(err); // e.g. response validation in tests
        }
      };
      if (!failedOwned || !remembered(res.statusCode)) {
        send();
        return res;
      }
      const now = deps.clock.now();
      knex('idempotency_keys')
        .insert({ ...id, request_hash: requestHash, created_at: now, locked_until: now, ...record(res.statusCode, body) })
        .onConflict(['credential_id', 'key'])
        .ignore()
        .then(send, (err: unknown) => {
          req.log.error({ err: loggableError(err) }, 'could not store idempotent response');
          send();
        });
      return res;
    };
    next();
  };
}
