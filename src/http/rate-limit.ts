import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import { ApiError } from './errors';
import { prepared } from '../db/prepared';

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

export interface Subject {
  /**
   * SQL selecting at most one row with `id` (the subject counted) and `usable` (whether to count
   * it); any other columns are returned with the verdict. This lets authentication and the rate
   * limit share one round trip: the credential lookup is the subject.
   */
  sql: string;
  bindings: Knex.Value[];
}

/** Counts one request for a fixed subject (a client address, a credential id). */
export const plainSubject = (id: string): Subject => ({ sql: 'SELECT ?::text AS id, true AS usable', bindings: [id] });

/**
 * Counts one request for the subject if it is usable and fewer than `limit` were accepted in the
 * sliding window ending at `nowMs`. One statement on both engines, shared by every process through
 * the database; refused requests are not counted, so a client that backs off is served again as
 * soon as the window allows. Returns null when the subject query found no row.
 */
export async function takeFor<Row extends object>(knex: Knex, subject: Subject, nowMs: number, limit: number): Promise<{ row: Row; verdict: Verdict | null } | null> {
  const second = Math.floor(nowMs / 1000);
  const from = second - BUCKETS; // exclusive
  const sql = `WITH c AS (${subject.sql}),
     prior AS (
       SELECT coalesce(sum(b.count), 0)::int AS s, min(b.second) AS oldest
         FROM rate_limit_buckets b WHERE b.subject = (SELECT id FROM c WHERE usable) AND b.second > ? AND b.second < ?
     ), up AS (
       INSERT INTO rate_limit_buckets (subject, second, count)
       SELECT c.id, ?, 1 FROM c, prior WHERE c.usable AND prior.s < ?
       ON CONFLICT (subject, second) DO UPDATE SET count = rate_limit_buckets.count + 1
         WHERE rate_limit_buckets.count + (SELECT s FROM prior) < ?
       RETURNING count
     )
     SELECT c.*, (SELECT s FROM prior) AS rl_prior, (SELECT oldest FROM prior) AS rl_oldest, (SELECT count FROM up) AS rl_current FROM c`;
  const { rows } = await prepared<{ rows: (Row & { rl_prior: number | string; rl_oldest: number | string | null; rl_current: number | null; usable: boolean; id: string })[] }>(
    knex, sql, [...subject.bindings, from, second, second, limit, limit]);
  if (++calls % 1000 === 0) await knex('rate_limit_buckets').where('second', '<=', from).delete();
  const r = rows[0];
  if (!r) return null;
  const { rl_prior, rl_oldest, rl_current, ...row } = r;
  if (!r.usable) return { row: row as unknown as Row, verdict: null };
  const prior = Number(rl_prior);
  const oldest = rl_oldest === null ? second : Number(rl_oldest);
  if (rl_current !== null && rl_current !== undefined) {
    return { row: row as unknown as Row, verdict: { allowed: true, used: prior + Number(rl_current), reset: oldest + BUCKETS, retryAfter: 0 } };
  }
  // Refused: find when enough of the oldest requests leave the window for one more to fit.
  const buckets = await knex('rate_limit_buckets').where('subject', r.id).andWhere('second', '>', from).orderBy('second').select('second', 'count');
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
  return { row: row as unknown as Row, verdict: { allowed: false, used, reset: oldest + BUCKETS, retryAfter: Math.max(1, Math.ceil(freeAt - nowMs / 1000)) } };
}

/** `takeFor` a fixed subject. */
export async function take(knex: Knex, subject: string, nowMs: number, limit: number): Promise<Verdict> {
  return (await takeFor(knex, plainSubject(subject), nowMs, limit))!.verdict!;
}

/**
 * At most 300 requests in any 60-second span per credential, with X-RateLimit-* headers on every
 * authenticated response and Retry-After on the 429. The count itself was taken in authentication's
 * round trip (req.rateLimit); this step only answers it.
 */
export function rateLimit(limit = RATE_LIMIT): RequestHandler {
  return (req, res, next) => {
    const verdict = req.rateLimit!;
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
