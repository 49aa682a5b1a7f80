import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';

// The one mechanism for background work: rows in PostgreSQL (either engine), claimed with
// `FOR UPDATE SKIP LOCKED` under a lease, so several worker processes never take the same row at
// once, and a crash mid-work never loses it (the row stays due and is claimed again).
//
// Two kinds of rows use it: `jobs` (generic work: mail, and later submissions, polling, analysis) and
// `webhook_deliveries` (the highest-volume work: a delivery already is a row with its own schedule
// and history, so it is claimed directly instead of through a second row per attempt).
//
// A lease is `locked_by` (the worker), `lease_id` (this claim) and `locked_until`. A claimed row is
// free again when its lease ran out on the injected clock, or at once when its worker is gone: on
// PostgreSQL each worker holds a session named `svc-worker:<id>` for its whole life, so a worker
// killed mid-attempt is noticed by the next claim (pg_stat_activity, read in the claim statement)
// without waiting for the lease.
// Outcomes are written only `WHERE lease_id = <the claim's>`: a claim that was taken over can never
// be recorded twice.

export type Db = Knex | Knex.Transaction;

/** Long enough for any one piece of work (a webhook attempt is at most 10 seconds). */
export const LEASE_MS = 60_000;
export const WORKER_SESSION_PREFIX = 'svc-worker:';

export function newWorkerId(): string {
  return `wrk_${randomBytes(8).toString('hex')}`;
}

export function newLeaseId(): string {
  return randomBytes(12).toString('base64url');
}

/** Ids of the workers whose session is open (a worker checks its own presence); null when the engine cannot tell (PGlite). */
export async function liveWorkers(db: Db, engine: 'pg' | 'pglite'): Promise<string[] | null> {
  if (engine !== 'pg') return null;
  const rows = (await db.raw(`SELECT application_name FROM pg_stat_activity WHERE application_name LIKE ?`, [`${WORKER_SESSION_PREFIX}%`])).rows as { application_name: string }[];
  return rows.map((r) => r.application_name.slice(WORKER_SESSION_PREFIX.length));
}

export interface ClaimOptions {
  table: 'jobs' | 'webhook_deliveries' | 'api_submissions';
  /** SQL condition (with `?` bindings) for rows that are due, besides the lease. */
  due: string;
  dueBindings: unknown[];
  orderBy: string;
  limit: number;
  now: Date;
  workerId: string;
  leaseMs?: number;
  /**
   * PostgreSQL: a lease whose worker has no open session is free at once. Asked inside the claim
   * statement itself, so a worker whose session opened a moment ago is never taken for dead. Only
   * workers' leases (`wrk_...`) are judged so: a lease a request holds (check-status) lasts until it
   * runs out.
   */
  checkLiveness: boolean;
  /** SQL assignments made with the claim besides the lease (no bindings). */
  alsoSet?: string;
}

/** Claims up to `limit` due rows under one new lease and returns them (all columns). */
export async function claimRows<T>(db: Db, o: ClaimOptions): Promise<T[]> {
  if (o.limit <= 0) return [];
  const leaseId = newLeaseId();
  const until = new Date(o.now.getTime() + (o.leaseMs ?? LEASE_MS));
  const free = o.checkLiveness
    ? `(locked_until IS NULL OR locked_until <= ? OR (locked_by LIKE 'wrk\\_%' AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = ? || locked_by)))`
    : `(locked_until IS NULL OR locked_until <= ?)`;
  const freeBindings = o.checkLiveness ? [o.now, WORKER_SESSION_PREFIX] : [o.now];
  const sql = `UPDATE ${o.table} SET locked_by = ?, lease_id = ?, locked_until = ?${o.alsoSet ? `, ${o.alsoSet}` : ''}
    WHERE id IN (SELECT id FROM ${o.table} WHERE ${o.due} AND ${free} ORDER BY ${o.orderBy} LIMIT ? FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  const res = await db.raw(sql, [o.workerId, leaseId, until, ...o.dueBindings, ...freeBindings, o.limit] as Knex.RawBinding[]);
  return res.rows as T[];
}

/** Every lease in the table is released: only for the process that owns an embedded database, at start. */
export async function releaseAllLeases(db: Db, table: ClaimOptions['table']): Promise<number> {
  return db(table).whereNotNull('locked_by').update({ locked_by: null, lease_id: null, locked_until: null });
}

// ------------------------------------------------------------------------------------------- jobs

export interface JobRow {
  id: string;
  queue: string;
  payload: unknown;
  status: 'queued' | 'succeeded' | 'dead';
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_by: string | null;
  lease_id: string | null;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** Default retry delays after failed attempts 1, 2, 3...; the last one repeats. */
export const DEFAULT_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];

/**
 * Queues a job in the caller's transaction (or connection): it exists only if the caller's work
 * commits. On PGlite pass the transaction you are in, never the outer knex (one connection).
 */
export async function enqueueJob(
  db: Db,
  clock: Clock,
  job: { queue: string; payload: unknown; runAt?: Date; maxAttempts?: number },
): Promise<string> {
  const now = clock.now();
  const id = newId('job', now.getTime());
  await db('jobs').insert({
    id,
    queue: job.queue,
    payload: JSON.stringify(job.payload),
    status: 'queued',
    attempts: 0,
    max_attempts: job.maxAttempts ?? 5,
    run_at: job.runAt ?? now,
    created_at: now,
    updated_at: now,
  });
  return id;
}

/**
 * Claims due jobs. A claim counts as an attempt when it is taken (`attempts` + 1 in the claim
 * statement), not only when its outcome is recorded: a job whose run kills its process (out of
 * memory, a crash in native code) is never recorded, and would otherwise be claimed again for ever.
 * The rows returned carry `attempts` as before this claim (what `finishJob` and handlers expect); a
 * row whose claims already reached `max_attempts` is returned too, for the worker to end it
 * (`exhaustedJob`).
 */
export async function claimJobs(db: Db, o: { queues: string[]; now: Date; limit: number; workerId: string; checkLiveness: boolean; leaseMs?: number }): Promise<JobRow[]> {
  if (!o.queues.length) return [];
  const rows = await claimRows<JobRow>(db, {
    table: 'jobs',
    due: `status = 'queued' AND run_at <= ? AND queue = ANY(?::text[])`,
    dueBindings: [o.now, o.queues],
    orderBy: 'run_at',
    limit: o.limit,
    now: o.now,
    workerId: o.workerId,
    checkLiveness: o.checkLiveness,
    leaseMs: o.leaseMs,
    alsoSet: 'attempts = attempts + 1',
  });
  return rows.map((r) => ({ ...r, attempts: r.attempts - 1 }));
}

/** Hands claimed jobs back untouched (not an attempt): due again at once for any worker. */
export async function releaseJobs(db: Db, jobs: JobRow[]): Promise<void> {
  for (const j of jobs) {
    await db('jobs').where({ id: j.id, lease_id: j.lease_id }).update({ locked_by: null, lease_id: null, locked_until: null, attempts: j.attempts });
  }
}

/** A claimed job whose earlier claims (`max_attempts` of them) all ended without an outcome: it is not run again. */
export function exhaustedJob(job: Pick<JobRow, 'attempts' | 'max_attempts'>): boolean {
  return job.attempts >= job.max_attempts;
}

/** Records a finished attempt of a claimed job; false when the lease was lost (someone else owns it now). */
export async function finishJob(
  db: Db,
  job: JobRow,
  now: Date,
  outcome: { ok: true } | { ok: false; error: string; backoffMs?: number[]; final?: boolean },
): Promise<{ recorded: boolean; status: JobRow['status'] }> {
  const attempts = job.attempts + 1;
  let patch: Partial<JobRow>;
  if (outcome.ok) {
    patch = { status: 'succeeded', attempts, finished_at: now, last_error: null };
  } else if (outcome.final || attempts >= job.max_attempts) {
    patch = { status: 'dead', attempts, finished_at: now, last_error: outcome.error };
  } else {
    const backoff = outcome.backoffMs ?? DEFAULT_BACKOFF_MS;
    const delay = backoff[Math.min(attempts - 1, backoff.length - 1)];
    patch = { status: 'queued', attempts, run_at: new Date(now.getTime() + delay), last_error: outcome.error };
  }
  const n = await db('jobs')
    .where({ id: job.id, lease_id: job.lease_id })
    .update({ ...patch, locked_by: null, lease_id: null, locked_until: null, updated_at: now });
  return { recorded: n === 1, status: patch.status! };
}
