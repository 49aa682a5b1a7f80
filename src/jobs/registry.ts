import type { Deps } from '../deps';
import type { JobRow } from './queue';

// What the worker runs, registered by the features that own the work (src/background.ts calls
// each feature's register function once per process): the worker itself knows no feature.
//  - job handlers: one per queue of the `jobs` table (mail, submissions, statement analysis...);
//  - poll sources: work a feature keeps in its own table and claims under the worker's lease
//    (webhook deliveries, funder-API polls), asked for as many items as the worker has free slots.

/** A job's work. Throw to fail the attempt (retried on the job's backoff); throw PermanentJobError to end it. */
export type JobHandler = (deps: Deps, payload: unknown, job: JobRow) => Promise<void>;

export class PermanentJobError extends Error {}

export interface JobHandlerOptions {
  backoffMs?: number[];
  /** At most this many jobs of the queue in flight in one worker, whatever its `concurrency` (heavy work). */
  concurrency?: number;
  /**
   * Runs instead of the handler when every attempt of the job was started and none ended (each run
   * killed its process): records the job's failure where its subject lives. The job then ends dead.
   */
  exhausted?: (deps: Deps, payload: unknown, job: JobRow) => Promise<void>;
}

export type RegisteredJob = { run: JobHandler } & JobHandlerOptions;

const jobHandlers = new Map<string, RegisteredJob>();

/** Registers the handler of a queue (once per queue; registering again replaces it). */
export function registerJobHandler(queue: string, run: JobHandler, opts: JobHandlerOptions = {}): void {
  jobHandlers.set(queue, { run, ...opts });
}

/** The registered queues and their handlers (the worker's view). */
export function registeredJobs(): ReadonlyMap<string, RegisteredJob> {
  return jobHandlers;
}

export interface ClaimRequest {
  now: Date;
  /** Free slots: claim at most this many. */
  limit: number;
  workerId: string;
  checkLiveness: boolean;
}

/** One worker's use of a poll source (opened once per worker: it may keep state, such as a group commit). */
export interface PollSource {
  /** Runs at the start of every poll, before anything is claimed (e.g. events fanned out into deliveries). */
  prepare?(): Promise<void>;
  /** Claims at most `limit` due items under this worker's lease: one task each, run in the worker's slots. */
  claim(c: ClaimRequest): Promise<Array<() => Promise<void>>>;
  /** Waits for what the source is still recording (called when the worker stops, after its tasks ended). */
  settle?(): Promise<void>;
}

export interface PollSourceSpec {
  name: string;
  /** Claimed before the job queue takes the free slots (true), or after it. */
  beforeJobs: boolean;
  open(deps: Deps): PollSource;
}

const pollSources = new Map<string, PollSourceSpec>();

/** Registers work the worker claims from a feature's own table each poll (once per name; again replaces it). */
export function registerPollSource(spec: PollSourceSpec): void {
  pollSources.set(spec.name, spec);
}

export function registeredPollSources(): PollSourceSpec[] {
  return [...pollSources.values()];
}
