import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import type { Deps } from '../deps';
import { ApiError } from './errors';

export const RATE_LIMIT = 300;
export const RATE_WINDOW_SECONDS = 60;
/** Failed authentications one client address may make in any 60 seconds before it is refused. */
export const AUTH_FAILURE_LIMIT = 30;

/**
 * Requests are counted per second. A span of 60 seconds can touch 61 one-second buckets, so the
 * window sums 61: at most `limit` requests are accepted in ANY 60-second span (the price is that a
 * request may count up to one second longer than strictly needed).
 */
const BUCKETS = RATE_WINDOW_SECONDS + 1;

export interface Verdict {
  allowed: boolean;
  /** Accepted requests in the window, this one included when allowed. */
  used: number;
  /** Unix seconds when the oldest request counted now leaves the window (Remaining grows again). */
  reset: number;
  /** Seconds until a request would be accepted again (only when refused). */
  retryAfter: number;
}

let calls = 0;

/**
 * Counts one request for `subject` if fewer than `limit` were accepted in the sliding window ending
 * at `nowMs`. One statement on both engines, shared by every process through the database; refused
 * requests are not counted, so a client that backs off is served again as soon as the window allows.
 */
export async function take(knex: Knex, subject: string, nowMs: number, limit: number): Promise<Verdict> {
  const second = Math.floor(nowMs / 1000);
  const from = second - BUCKETS; // exclusive
  const { rows } = await knex.raw<{ rows: { prior: number | string; oldest: number | string | null; current: number | null }[] }>(
    `WITH prior AS (
       SELECT coalesce(sum(count), 0)::int AS s, min(second) AS oldest
         FROM rate_limit_buckets WHERE subject = ? AND second > ? AND second < ?
     ), up AS (
       INSERT INTO rate_limit_buckets (subject, second, count)
       SELECT ?, ?, 1 FROM prior WHERE prior.s < ?
       ON CONFLICT (subject, second) DO UPDATE SET count = rate_limit_buckets.count + 1
         WHERE rate_limit_buckets.count + (SELECT s FROM prior) < ?
       RETURNING count
     )
     SELECT (SELECT s FROM prior) AS prior, (SELECT oldest FROM prior) AS oldest, (SELECT count FROM up) AS current`,
    [subject, from, second, subject, second, limit, limit],
  );
  if (++calls % 1000 === 0) await knex('rate_limit_buckets').where('second', '<=', from).delete();
  const prior = Number(rows[0].prior);
  const oldest = rows[0].oldest === null ? second : Number(rows[0].oldest);
  if (rows[0].current !== null && rows[0].current !== undefined) {
    return { allowed: true, used: prior + Number(rows[0].current), reset: oldest + BUCKETS, retryAfter: 0 };
  }
  // Refused: find when enough of the oldest requests leave the window for one more to fit.
  const buckets = await knex('rate_limit_buckets').where('subject', subject).andWhere('second', '>', from).orderBy('second').select('second', 'count');
  const used = buckets.reduce((n, b) => n + Number(b.count), 0);
  let total = used;
  let freeAt = second + BUCKETS;
  for (const b of buckets) {
    total -= Number(b.count);
    if (total < limit) {
      freeAt = Number(b.second) + BUCKETS;
      break;
    }
  }
  return { allowed: false, used, reset: oldest + BUCKETS, retryAfter: Math.max(1, Math.ceil(freeAt - nowMs / 1000)) };
}

/**
 * At most 300 requests in any 60-second span per credential, with X-RateLimit-* headers on every
 * authenticated response and Retry-After on the 429.
 */
export function rateLimit(deps: Deps, limit = RATE_LIMIT): RequestHandler {
  return async (req, res, next) => {
    const auth = req.auth!;
    const verdict = await take(deps.db.knex, auth.credentialId, deps.clock.now().getTime(), limit);
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - verdict.used)));
    res.setHeader('X-RateLimit-Reset', String(verdict.reset));
    if (!verdict.allowed) {
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per ${RATE_WINDOW_SECONDS} seconds exceeded; retry after ${verdict.retryAfter} seconds`, undefined, {
        'Retry-After': String(verdict.retryAfter),
      });
    }
    next();
  };
}
