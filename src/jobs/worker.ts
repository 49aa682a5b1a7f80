import type { Knex } from 'knex';
import type { Deps } from '../deps';
import { HEARTBEAT_EVERY_MS, removeHeartbeat, writeHeartbeat } from './heartbeat';
import { MAINTENANCE_EVERY_MS, purgeExpired, runSweeps } from './maintenance';
import { claimJobs, exhaustedJob, finishJob, releaseJobs, liveWorkers, newWorkerId, releaseAllLeases, WORKER_SESSION_PREFIX, type JobRow } from './queue';
import { PermanentJobError, registeredJobs, registeredPollSources, type PollSource, type PollSourceSpec } from './registry';

// The worker: one loop that runs the due jobs of the queue and the due items of every poll source
// (registry.ts: registered by the features at start; today webhook deliveries, claimed before the
// jobs, and funder-API polls, after them), with at most `concurrency` pieces of work in flight. It
// imports no feature. Every "is it due" question is asked
// of the injected clock (deps.clock); only the idle wait between polls is real time, and tests do
// not use it: they call `drain()`.
//
// `npm start` runs it inside the API process; `npm run worker` runs it alone (src/worker.ts);
// START_WORKER=false keeps it out of an API process.


export interface WorkerOptions {
  /** Deliveries and jobs in flight at once. */
  concurrency?: number;
  /** Idle wait between polls when nothing was due (real time). */
  pollMs?: number;
  /** Every slot busy: poll again once this many are free (default a quarter of `concurrency`). */
  refillAt?: number;
  /** Only this process may use the embedded database: leases left by an earlier run are released at start. */
  ownsDatabase?: boolean;
}

export class Worker {
  readonly id = newWorkerId();
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly refillAt: number;
  /** This worker's use of each registered poll source, opened at its first poll. */
  private sources?: { spec: PollSourceSpec; source: PollSource }[];
  private inFlight = new Set<Promise<unknown>>();
  /** Jobs in flight per queue with its own concurrency. */
  private perQueue = new Map<string, number>();
  private lastMaintenance?: number;
  /** When this worker last wrote its heartbeat (injected clock), and when it started. */
  private lastBeat?: number;
  private startedAt?: Date;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private session?: { conn: unknown; release: () => Promise<void> };

  constructor(
    private readonly deps: Deps,
    private readonly opts: WorkerOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? 32;
    this.pollMs = opts.pollMs ?? 200;
    this.refillAt = Math.max(1, Math.min(this.concurrency, opts.refillAt ?? Math.floor(this.concurrency / 4)));
  }

  /**
   * Opens the worker's presence session (PostgreSQL: a connection named `svc-worker:<id>` held for
   * the worker's life; its end tells other workers this one's leases are void) or, for the owner of
   * an embedded database, releases every lease a killed earlier run left behind.
   */
  async open(): Promise<void> {
    const knex = this.deps.db.knex;
    if (this.deps.db.engine === 'pg') {
      const client = knex.client as Knex.Client & { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
      const conn = (await client.acquireConnection()) as { query(sql: string): Promise<unknown> };
      await conn.query(`SET application_name = '${WORKER_SESSION_PREFIX}${this.id}'`); // id is [a-z0-9_] only
      this.session = {
        conn,
        release: async () => {
          await conn.query('RESET application_name').catch(() => undefined);
          await client.releaseConnection(conn);
        },
      };
    } else if (this.opts.ownsDatabase) {
      await releaseAllLeases(knex, 'webhook_deliveries');
      await releaseAllLeases(knex, 'jobs');
      await releaseAllLeases(knex, 'api_submissions');
    }
  }

  /** Starts polling in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    await this.open();
    await this.beat(); // seen from the start: /readyz and the banner need not wait for the first poll
    this.running = true;
    this.loop = this.run();
  }

  /** Stops polling and waits for the work in flight to be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    for (const { source } of this.sources ?? []) await source.settle?.();
    // A clean stop: no longer seen (a killed worker's row simply grows old).
    if (this.lastBeat !== undefined) await removeHeartbeat(this.deps.db.knex, this.id).catch(() => undefined);
    this.lastBeat = undefined;
    await this.session?.release();
    this.session = undefined;
  }

  /** Writes this worker's heartbeat when the last one is HEARTBEAT_EVERY_MS old on the injected clock. */
  private async beat(): Promise<void> {
    const now = this.deps.clock.now();
    if (this.lastBeat !== undefined && now.getTime() - this.lastBeat < HEARTBEAT_EVERY_MS) return;
    this.startedAt ??= now;
    this.lastBeat = now.getTime();
    await writeHeartbeat(this.deps.db.knex, this.id, now, this.startedAt);
  }

  /** Until nothing is due on the clock: fan out, attempt, run jobs, waiting for everything started. */
  async drain(maxRounds = 10_000): Promise<number> {
    if (!this.session && this.deps.db.engine === 'pg') await this.open();
    let total = 0;
    for (let i = 0; i < maxRounds; i++) {
      const started = await this.fill();
      await Promise.allSettled([...this.inFlight]);
      total += started;
      if (started === 0) return total;
    }
    return total;
  }

  /** Releases the presence session opened by `drain` (tests). */
  async close(): Promise<void> {
    await this.stop();
  }

  private async run(): Promise<void> {
    let first = true;
    while (this.running) {
      let started = 0;
      try {
        started = await this.fill();
      } catch (err) {
        this.deps.logger.error({ err }, 'worker poll failed');
      }
      if (first) {
        first = false;
        this.deps.logger.debug({ worker: this.id, started }, 'worker first poll done');
      }
      if (!this.running) break;
      if (started === 0 || this.inFlight.size >= this.concurrency) {
        // Idle, or every slot busy: wait for `refillAt` free slots (track() wakes us) or the poll interval.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, started === 0 ? this.pollMs : 50);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  /** One poll: retention (hourly), fan out new events, then claim as much due work as there are free slots. */
  private async fill(): Promise<number> {
    const deps = this.deps;
    const knex = deps.db.knex;
    const at = deps.clock.now().getTime();
    await this.beat();
    if (this.lastMaintenance === undefined || at - this.lastMaintenance >= MAINTENANCE_EVERY_MS) {
      this.lastMaintenance = at;
      await purgeExpired(knex, deps.clock.now());
      await runSweeps(deps);
    }
    this.sources ??= registeredPollSources().map((spec) => ({ spec, source: spec.open(deps) }));
    for (const { source } of this.sources) await source.prepare?.();
    let free = this.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const now = deps.clock.now();
    const checkLiveness = deps.db.engine === 'pg';
    const live = checkLiveness ? await liveWorkers(knex, deps.db.engine) : null;
    if (live && !live.includes(this.id)) {
      // Our presence session is gone (the connection broke, PostgreSQL restarted): other workers now
      // treat our leases as void, so claim nothing until we are visible again.
      deps.logger.warn({ worker: this.id }, 'worker presence session lost: reopening it');
      await this.session?.release().catch(() => undefined);
      this.session = undefined;
      await this.open();
      return 0;
    }
    let started = 0;
    const claimFrom = async (beforeJobs: boolean) => {
      for (const { spec, source } of this.sources!) {
        if (spec.beforeJobs !== beforeJobs || free <= 0) continue;
        const tasks = await source.claim({ now, limit: free, workerId: this.id, checkLiveness });
        for (const task of tasks) this.track(task());
        free -= tasks.length;
        started += tasks.length;
      }
    };
    await claimFrom(true);
    const jobHandlers = registeredJobs();
    // One claim for every queue, but none from a queue at its own concurrency; what a claim took past
    // that is handed back at once (never held to wait: its lease would run out).
    const queues = [...jobHandlers].filter(([q, h]) => !h.concurrency || (this.perQueue.get(q) ?? 0) < h.concurrency).map(([q]) => q);
    const claimed = await claimJobs(knex, { queues, now, limit: free, workerId: this.id, checkLiveness });
    const jobs: JobRow[] = [];
    const surplus: JobRow[] = [];
    const taking = new Map<string, number>();
    for (const j of claimed) {
      const cap = jobHandlers.get(j.queue)?.concurrency;
      if (cap) {
        const n = (this.perQueue.get(j.queue) ?? 0) + (taking.get(j.queue) ?? 0);
        if (n >= cap) {
          surplus.push(j);
          continue;
        }
        taking.set(j.queue, (taking.get(j.queue) ?? 0) + 1);
      }
      jobs.push(j);
    }
    if (surplus.length) await releaseJobs(knex, surplus);
    free -= jobs.length;
    for (const j of jobs) this.track(this.runJob(j));
    started += jobs.length;
    await claimFrom(false);
    return started;
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      if (this.concurrency - this.inFlight.size >= this.refillAt) this.wake?.();
    });
  }

  private async runJob(job: JobRow): Promise<void> {
    const counted = !!registeredJobs().get(job.queue)?.concurrency;
    if (counted) this.perQueue.set(job.queue, (this.perQueue.get(job.queue) ?? 0) + 1);
    try {
      await this.runJobOnce(job);
    } finally {
      if (counted) this.perQueue.set(job.queue, (this.perQueue.get(job.queue) ?? 1) - 1);
    }
  }

  private async runJobOnce(job: JobRow): Promise<void> {
    const deps = this.deps;
    const handler = registeredJobs().get(job.queue);
    try {
      if (!handler) throw new PermanentJobError(`no handler for queue ${job.queue}`);
      if (exhaustedJob(job)) {
        // Every attempt was claimed and none came back: the work kills its process. Not run again.
        await handler.exhausted?.(deps, job.payload, job);
        throw new PermanentJobError(`abandoned: ${job.attempts} attempts started and none finished (the process running it stopped)`);
      }
      await handler.run(deps, job.payload, job);
      await finishJob(deps.db.knex, job, deps.clock.now(), { ok: true });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      try {
        const r = await finishJob(deps.db.knex, job, deps.clock.now(), { ok: false, error: message.slice(0, 500), backoffMs: handler?.backoffMs, final: err instanceof PermanentJobError });
        deps.logger.warn({ job_id: job.id, queue: job.queue, attempts: job.attempts + 1, status: r.status }, 'job attempt failed');
      } catch (e) {
        deps.logger.error({ err: e, job_id: job.id }, 'job outcome could not be recorded');
      }
    }
  }
}
