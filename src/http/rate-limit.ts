import type { RequestHandler } from 'express';
import type { Deps } from '../deps';
import { ApiError } from './errors';

export const RATE_LIMIT_PER_MINUTE = 300;

/**
 * Fixed one-minute windows per credential, counted in the database so every server process shares
 * one budget. One upsert per request; old windows are pruned now and then.
 */
export function rateLimit(deps: Deps, limit = RATE_LIMIT_PER_MINUTE): RequestHandler {
  return async (req, res, next) => {
    const auth = req.auth!;
    const nowSec = Math.floor(deps.clock.now().getTime() / 1000);
    const windowStart = nowSec - (nowSec % 60);
    const reset = windowStart + 60;
    const { rows } = await deps.db.knex.raw<{ rows: { count: number }[] }>(
      `INSERT INTO rate_limit_windows (credential_id, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (credential_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
       RETURNING count`,
      [auth.credentialId, windowStart],
    );
    const count = Number(rows[0].count);
    if (count === 1 && Math.random() < 0.05) {
      await deps.db.knex('rate_limit_windows').where('window_start', '<', windowStart - 3600).delete();
    }
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('X-RateLimit-Reset', String(reset));
    if (count > limit) {
      const retryAfter = Math.max(1, reset - nowSec);
      throw new ApiError(429, 'rate_limit_error', `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} seconds`, 'rate_limited', undefined, {
        'Retry-After': String(retryAfter),
      });
    }
    next();
  };
}
