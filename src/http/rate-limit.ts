import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import { ApiError } from './errors';
import { prepared } from '../db/prepared';
import type { Clock } from '../lib/clock';

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

/** A process sends its counts to the shared table and reads the others' at least this often (injected clock) ... */
export const EXCHANGE_EVERY_MS = 250;
/** ... or after this many requests counted here, whichever comes first. */
export const EXCHANGE_EVERY_REQUESTS = 100;

interface Counts {
  /** Per second: what the shared table held at the last exchange (this process's sent counts included). */
  known: Map<number, number>;
  /** Per second: counted here and being sent now. */
  sending: Map<number, number>;
  /** Per second: counted here since. */
  pending: Map<number, number>;
  /** The first sight's read of the shared table. */
  loading?: Promise<void>;
  lastSeen: number;
}

const add = (m: Map<number, number>, second: number, n: number) => m.set(second, (m.get(second) ?? 0) + n);

/**
 * The per-credential rate limit without a database write per request. Each process counts its
 * credentials' requests in memory, per second as the table does, and exchanges them with the shared
 * `rate_limit_buckets` table every EXCHANGE_EVERY_MS or EXCHANGE_EVERY_REQUESTS requests (whichever
 * first): one statement adds its counts and reads back every process's. A verdict uses what the table
 * held at the last exchange plus what was counted here since, so one process alone is exact, and
 * processes together see each other within one exchange. A credential first seen here is read from
 * the table before its first verdict, and one within EXCHANGE_EVERY_REQUESTS / 2 of its limit
 * exchanges before every verdict: near the limit it is as exact as a round trip per request, the
 * others' counts not yet sent (at most one exchange's worth per process) aside.
 */
export class LocalRateLimiter {
  private subjects = new Map<string, Counts>();
  private counted = 0;
  private lastExchange = 0;
  /** The second of the last successful exchange: buckets older than it (less a margin) are final. */
  private lastReadSecond = -Infinity;
  private exchanging?: Promise<void>;
  private exchanges = 0;
  private readonly stopTimer: () => void;
  private closed = false;

  constructor(private readonly knex: Knex, private readonly clock: Clock) {
    this.lastExchange = clock.now().getTime();
    this.stopTimer = clock.every(EXCHANGE_EVERY_MS, () => {
      if (this.counted > 0) void this.exchange().catch(() => {});
    });
  }

  private sum(c: Counts, from: number, upTo: number): { used: number; oldest: number | null; seconds: number[] } {
    const per = new Map<number, number>();
    for (const m of [c.known, c.sending, c.pending]) for (const [s, n] of m) if (s > from && s <= upTo) add(per, s, n);
    let used = 0;
    let oldest: number | null = null;
    for (const [s, n] of per) {
      if (n <= 0) continue;
      used += n;
      if (s < upTo && (oldest === null || s < oldest)) oldest = s;
    }
    return { used, oldest, seconds: [...per.keys()].sort((a, b) => a - b).filter((s) => (per.get(s) ?? 0) > 0) };
  }

  /** Counts one request of `subject` if fewer than `limit` were accepted in the window ending at `nowMs`. */
  async take(subject: string, nowMs: number, limit: number): Promise<Verdict> {
    const second = Math.floor(nowMs / 1000);
    const from = second - BUCKETS; // exclusive
    let c = this.subjects.get(subject);
    if (!c) {
      c = { known: new Map(), sending: new Map(), pending: new Map(), lastSeen: nowMs };
      this.subjects.set(subject, c);
      c.loading = this.load(subject, c, from).finally(() => (c!.loading = undefined));
    }
    c.lastSeen = nowMs;
    if (c.loading) await c.loading;
    let w = this.sum(c, from, second);
    if (w.used >= limit - EXCHANGE_EVERY_REQUESTS / 2) {
      await this.exchange(true);
      w = this.sum(c, from, second);
    } else if (this.counted >= EXCHANGE_EVERY_REQUESTS || nowMs - this.lastExchange >= EXCHANGE_EVERY_MS) {
      void this.exchange().catch(() => {});
    }
    if (w.used < limit) {
      add(c.pending, second, 1);
      this.counted++;
      return { allowed: true, used: w.used + 1, reset: (w.oldest ?? second) + BUCKETS, retryAfter: 0 };
    }
    // Refused (not counted): when enough of the oldest requests leave the window for one more to fit.
    const per = (s: number) => (c!.known.get(s) ?? 0) + (c!.sending.get(s) ?? 0) + (c!.pending.get(s) ?? 0);
    let total = w.used;
    let freeAt = second + BUCKETS;
    for (const s of w.seconds) {
      total -= per(s);
      if (total < limit) {
        freeAt = s + BUCKETS;
        break;
      }
    }
    return { allowed: false, used: w.used, reset: (w.oldest ?? second) + BUCKETS, retryAfter: Math.max(1, Math.ceil(freeAt - nowMs / 1000)) };
  }

  private async load(subject: string, c: Counts, from: number): Promise<void> {
    const rows = await this.knex('rate_limit_buckets').where('subject', subject).andWhere('second', '>', from).select('second', 'count');
    for (const r of rows) add(c.known, Number(r.second), Number(r.count));
  }

  /**
   * Sends what was counted here and reads back every process's counts of the credentials in use here.
   * One at a time; `fresh` waits for one that starts after the call.
   */
  exchange(fresh = false): Promise<void> {
    if (this.exchanging) {
      const current = this.exchanging;
      if (!fresh) return current;
      return current.catch(() => {}).then(() => this.exchange(true));
    }
    const run = this.exchangeNow().finally(() => (this.exchanging = undefined));
    this.exchanging = run;
    return run;
  }

  private async exchangeNow(): Promise<void> {
    const nowMs = this.clock.now().getTime();
    this.lastExchange = nowMs;
    const nowSecond = Math.floor(nowMs / 1000);
    const from = nowSecond - BUCKETS;
    // Only recent buckets are read back: an older one no longer changes (every process sends its
    // counts within EXCHANGE_EVERY_MS), and what was read of it before is kept. Reading every
    // bucket of every credential in use (up to 61 rows each) at every exchange cost more than it saved.
    const since = Math.max(from, Math.min(this.lastReadSecond, nowSecond) - 2);
    const sent: { subject: string; second: number; count: number }[] = [];
    const reading: string[] = [];
    for (const [subject, c] of this.subjects) {
      if (c.loading) continue; // its first read is under way
      for (const [second, count] of c.pending) {
        sent.push({ subject, second, count });
        add(c.sending, second, count);
      }
      c.pending.clear();
      if (c.sending.size === 0 && nowMs - c.lastSeen > BUCKETS * 1000) {
        this.subjects.delete(subject); // idle for a whole window: forgotten
        continue;
      }
      reading.push(subject);
    }
    this.counted = 0;
    try {
      const { rows } = await prepared<{ rows: { subject: string; second: number | string; count: number | string }[] }>(this.knex,
        `WITH sent AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS s(subject text, second bigint, count int)),
         up AS (
           INSERT INTO rate_limit_buckets (subject, second, count) SELECT subject, second, count FROM sent
           ON CONFLICT (subject, second) DO UPDATE SET count = rate_limit_buckets.count + excluded.count
         )
         SELECT subject, second, count FROM rate_limit_buckets
          WHERE subject IN (SELECT jsonb_array_elements_text(?::jsonb)) AND second > ?`,
        [JSON.stringify(sent), JSON.stringify(reading), since]);
      // The read saw the table before this statement's own additions: they are added back here
      // (to the older buckets kept from before too, which the read did not cover).
      const fresh = new Map<string, Map<number, number>>();
      for (const subject of reading) {
        const kept = new Map<number, number>();
        for (const [second, count] of this.subjects.get(subject)?.known ?? []) if (second > from && second <= since) kept.set(second, count);
        fresh.set(subject, kept);
      }
      for (const r of rows) add(fresh.get(r.subject)!, Number(r.second), Number(r.count));
      for (const s of sent) if (fresh.has(s.subject)) add(fresh.get(s.subject)!, s.second, s.count);
      for (const [subject, known] of fresh) {
        const c = this.subjects.get(subject);
        if (!c) continue;
        c.known = known;
        c.sending.clear();
      }
      this.lastReadSecond = nowSecond;
      if (++this.exchanges % 400 === 0) await this.knex('rate_limit_buckets').where('second', '<=', from).delete();
    } catch (err) {
      // Not sent: counted again at the next exchange.
      for (const s of sent) {
        const c = this.subjects.get(s.subject);
        if (!c) continue;
        add(c.pending, s.second, s.count);
        this.counted += s.count;
      }
      for (const c of this.subjects.values()) c.sending.clear();
      throw err;
    }
  }

  /** Stops the timer and sends what is left. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTimer();
    await this.exchange(true).catch(() => {});
  }
}

const limiters = new WeakMap<Knex, LocalRateLimiter>();

/** The process's limiter for `db` (one per database, shared by /v1 and /mcp). */
export function localRateLimiter(db: { knex: Knex; beforeClose?: (() => Promise<void>)[] }, clock: Clock): LocalRateLimiter {
  let l = limiters.get(db.knex);
  if (!l) {
    const limiter = new LocalRateLimiter(db.knex, clock);
    limiters.set(db.knex, limiter);
    (db.beforeClose ??= []).push(() => limiter.close());
    l = limiter;
  }
  return l;
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
