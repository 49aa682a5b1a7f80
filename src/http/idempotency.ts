import type { RequestHandler } from 'express';
import type { Deps } from '../deps';
import { sha256Hex } from '../lib/crypto';
import { ApiError, conflict } from './errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "in progress" after this long is taken to have died with its process. */
const LOCK_MS = 60 * 1000;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Idempotency-Key on POST, scoped to the credential, kept 24 hours. Runs after authentication,
 * validation and access, so rejected requests are never stored; 5xx answers are not stored either.
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
        await knex('idempotency_keys').where(id).delete();
        if (!(await claim())) throw conflict('A request with this Idempotency-Key is still in progress; retry shortly', 'idempotency_key_in_use', 'Idempotency-Key');
      } else if (row.state === 'in_progress') {
        throw conflict('A request with this Idempotency-Key is still in progress; retry shortly', 'idempotency_key_in_use', 'Idempotency-Key');
      } else if (row.request_hash !== requestHash) {
        throw new ApiError(400, 'validation_error', 'This Idempotency-Key was used with a different request; use a new key', 'idempotency_key_reused', 'Idempotency-Key');
      } else {
        res.setHeader('Idempotent-Replayed', 'true');
        // Stored sealed: a first response may carry a secret shown once (a webhook signing secret).
        const stored = row.response_body as { sealed: string };
        res.status(row.response_status).json(JSON.parse(deps.secrets.open(stored.sealed)));
        return;
      }
    }

    // We own the key: remember what we answer (or release the key on a 5xx / crash-free failure).
    const json = res.json.bind(res);
    let stored: Promise<unknown> | undefined;
    res.json = (body: unknown) => {
      const status = res.statusCode;
      stored =
        status >= 500
          ? knex('idempotency_keys').where(id).delete()
          : knex('idempotency_keys').where(id).update({ state: 'done', response_status: status, response_body: JSON.stringify({ sealed: deps.secrets.seal(JSON.stringify(body)) }) });
      const send = () => {
        try {
          json(body);
        } catch (err) {
          next(err); // e.g. response validation in tests
        }
      };
      stored.then(send, (err) => {
        req.log.error({ err }, 'could not store idempotent response');
        send();
      });
      return res;
    };
    next();
  };
}
