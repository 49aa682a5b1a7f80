import type { Request, RequestHandler } from 'express';
import type { Clock } from '../lib/clock';
import { isInternalCall } from './auth';
import { ApiError } from './errors';
import { lifeOf, type RequestLife } from './lifecycle';

export interface OverloadOptions {
  /** Requests this process works on at once (OVERLOAD_MAX_CONCURRENT). */
  maxConcurrent: number;
  /** Requests that may wait for a turn (OVERLOAD_MAX_QUEUE); one more is answered 503 at once. */
  maxQueue: number;
  /** How long a request may wait for its turn (OVERLOAD_QUEUE_MS) before it is answered 503. */
  queueTimeoutMs: number;
  /** `Retry-After` on the 503, in seconds. */
  retryAfterSeconds: number;
}

interface Waiter {
  life: RequestLife;
  since: number;
  next: (err?: unknown) => void;
}

/**
 * Paths not counted here: the local storage routes stream bytes for minutes (a slow upload would hold
 * an API slot), so they have their own bounds (STORAGE_MAX_CONCURRENT_UPLOADS/_DOWNLOADS, src/storage/routes.ts).
 */
const UNBOUNDED = /^\/files\//;

/**
 * Admission control: a bound on the requests one process works on at once, with a short queue in
 * front. A request beyond the queue, or one that waited longer than its budget, is answered
 * `503 overloaded` with `Retry-After` at once: before its body is read, before authentication,
 * before any write. A queued request whose client leaves gives its place up and never runs.
 * Probes (/healthz, /readyz) are routed before this and never shed; /readyz reports `overloaded`
 * while `saturated()` so a load balancer steers new connections elsewhere. A tool call of /mcp
 * re-entering the pipeline runs on the slot of the /mcp request that made it (one POST's tool calls
 * run one after another, so a JSON-RPC batch never holds more than that one slot's share).
 *
 * The budget is measured on the injected clock and checked when a slot frees and every 100 ms.
 */
export class Admission {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  private readonly stopSweep: () => void;
  /** Totals since start (for /readyz and the operator). */
  readonly counts = { admitted: 0, queued: 0, shed: 0, dropped: 0 };

  constructor(readonly opts: OverloadOptions, private readonly clock: Clock) {
    this.stopSweep = clock.every(100, () => this.sweep());
  }

  /** Every slot is taken or somebody is waiting: a new request would wait or be shed. */
  saturated(): boolean {
    return this.waiting.length > 0 || this.inFlight >= this.opts.maxConcurrent;
  }

  stats(): { in_flight: number; queued: number; max_concurrent: number; max_queue: number } {
    return { in_flight: this.inFlight, queued: this.waiting.length, max_concurrent: this.opts.maxConcurrent, max_queue: this.opts.maxQueue };
  }

  close(): void {
    this.stopSweep();
  }

  private overloaded(): ApiError {
    const s = this.opts.retryAfterSeconds;
    return new ApiError(
      'overloaded',
      `The server is at capacity and did not process this request; retry after ${s} second${s === 1 ? '' : 's'}, backing off exponentially with jitter`,
      undefined,
      { 'Retry-After': String(s) },
    );
  }

  private admit(life: RequestLife): void {
    this.inFlight++;
    this.counts.admitted++;
    life.onDone(() => {
      this.inFlight--;
      this.pump();
    });
  }

  private shed(w: Pick<Waiter, 'life' | 'next'>, reason: 'queue_full' | 'queue_timeout'): void {
    this.counts.shed++;
    w.life.outcome = 'shed';
    w.life.reason = reason;
    w.next(this.overloaded());
  }

  /** Hands free slots to the oldest waiters still there; those past their budget are answered 503. */
  private pump(): void {
    const now = this.clock.now().getTime();
    while (this.waiting.length && this.inFlight < this.opts.maxConcurrent) {
      const w = this.waiting.shift()!;
      if (now - w.since > this.opts.queueTimeoutMs) {
        this.shed(w, 'queue_timeout');
        continue;
      }
      this.admit(w.life);
      w.next();
    }
  }

  /** Waiters past their budget are answered now, not when a slot frees (which may take long). */
  sweep(): void {
    const now = this.clock.now().getTime();
    while (this.waiting.length && now - this.waiting[0].since > this.opts.queueTimeoutMs) {
      this.shed(this.waiting.shift()!, 'queue_timeout');
    }
  }

  middleware(): RequestHandler {
    return (req: Request, res, next) => {
      if (UNBOUNDED.test(req.path) || isInternalCall(req)) return next();
      const life = lifeOf(res);
      if (this.inFlight < this.opts.maxConcurrent && this.waiting.length === 0) {
        this.admit(life);
        return next();
      }
      if (this.waiting.length >= this.opts.maxQueue) return this.shed({ life, next }, 'queue_full');
      const w: Waiter = { life, since: this.clock.now().getTime(), next };
      this.waiting.push(w);
      this.counts.queued++;
      life.onGone(() => {
        const i = this.waiting.indexOf(w);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          this.counts.dropped++;
        }
      });
    };
  }
}
