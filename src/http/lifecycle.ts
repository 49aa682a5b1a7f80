import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { newId } from '../lib/ids';

const SANE = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Paths that carry a bearer value, as the route template their log line writes instead: the portal's
 * magic link (`/p/<token>`) opens a merchant's session to whoever reads it. Matched the way Express
 * routes them (case-insensitive, any trailing part). Query strings are never logged (`req.path`
 * has none), so the signatures and expiries of the signed /files/ URLs stay out as well.
 */
const SECRET_PATHS: Array<[RegExp, string]> = [[/^\/p\/[^/]*/i, '/p/:token']];

/** The path as the access log writes it: never a bearer value. */
export function loggedPath(path: string): string {
  for (const [re, template] of SECRET_PATHS) if (re.test(path)) return path.replace(re, template);
  return path;
}

/**
 * How a request ended, in its one log line:
 * - `completed`: answered (any status, errors included);
 * - `shed`: answered `503 overloaded` at admission (queue full, or waited past its budget);
 * - `dropped`: the client left before the operation started, so it never ran;
 * - `completed_after_disconnect`: the client left while the operation ran; it ran to its end (a
 *   write commits whole with its idempotency record, or not at all) and nobody got the answer.
 */
export type Outcome = 'completed' | 'shed' | 'dropped' | 'completed_after_disconnect';

/**
 * One request's life: whether its client is still there, whether its operation is running, and the
 * one log line written when it is over. "Over" is the later of: the response is sent (or the client
 * left), and the operation (if it started) has returned. Whatever a request holds (an admission
 * slot, an idempotency lock) is released by `onDone`, so it is held exactly as long as the work runs.
 */
export class RequestLife {
  clientGone = false;
  running = false;
  outcome?: Outcome;
  reason?: string;
  private over = false;
  private readonly done: Array<() => void> = [];
  private readonly gone: Array<() => void> = [];
  constructor(private readonly writeLog: (life: RequestLife, status: number | undefined) => void) {}

  get isOver(): boolean {
    return this.over;
  }
  /** Runs once when the request is over (at once if it is). */
  onDone(fn: () => void): void {
    if (this.over) fn();
    else this.done.push(fn);
  }
  /** Runs once if the client leaves before the answer is sent. */
  onGone(fn: () => void): void {
    if (this.clientGone) fn();
    else this.gone.push(fn);
  }
  /** Ends the request: logs it once and releases what it holds. */
  end(status: number | undefined): void {
    if (this.over) return;
    this.over = true;
    this.writeLog(this, status);
    for (const fn of this.done.splice(0)) fn();
  }
  /** The client closed the connection before the answer was sent. */
  markGone(): void {
    if (this.clientGone) return;
    this.clientGone = true;
    for (const fn of this.gone.splice(0)) fn();
  }
  /**
   * Runs the operation unless its client has already left (then it is dropped: nothing runs).
   * If the client leaves while it runs, the request ends when the operation returns, logged
   * `completed_after_disconnect` with the status the operation produced.
   */
  async run<T extends { status: number }>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.clientGone || this.over) {
      lifecycleCounts.droppedBeforeRun++;
      return undefined;
    }
    this.running = true;
    let status = 500;
    try {
      const reply = await work();
      status = reply.status;
      return reply;
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      throw err;
    } finally {
      this.running = false;
      if (this.clientGone) {
        this.outcome = 'completed_after_disconnect';
        this.end(status);
      }
    }
  }
}

/** Operations this process did not start because their client had already left (tests read it). */
export const lifecycleCounts = { droppedBeforeRun: 0 };

export function lifeOf(res: Response): RequestLife {
  return res.locals.life as RequestLife;
}

/**
 * First in the pipeline: the request id (a sane incoming `X-Request-Id`, else a new one, on the
 * response and on every log line), and the request's life, which writes exactly one access-log line
 * per request, including those shed, dropped or abandoned by their client.
 */
/**
 * The access line's fields. None is a path the logger redacts (logger.ts REDACT_PATHS) and every
 * value is a number or a short text, so redaction leaves the line as it is: it is written by a child
 * of the logger without redaction (the one log call every request makes; redaction's walk of the
 * paths costs ~15 us a line, several times the rest of the call). lifecycle.test.ts holds both.
 */
export const ACCESS_LINE_FIELDS = ['request_id', 'method', 'path', 'status', 'ms', 'credential', 'outcome', 'reason'] as const;
type AccessLine = Partial<Record<(typeof ACCESS_LINE_FIELDS)[number], string | number>>;

export function requestLifecycle(logger: Logger): RequestHandler {
  const access = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const incoming = req.get('X-Request-Id');
    const id = incoming && SANE.test(incoming) ? incoming : newId('req');
    req.requestId = id;
    res.setHeader('X-Request-Id', id);
    req.log = logger.child({ request_id: id });
    const started = process.hrtime.bigint();
    const method = req.method; // before HEAD is served as GET
    const life = new RequestLife((l, status) => {
      // As req.log would write it: its binding (request_id) first.
      const line: AccessLine = {
        request_id: id, method, path: loggedPath(req.path), status, ms: Number(process.hrtime.bigint() - started) / 1e6, credential: req.auth?.credentialId,
        outcome: l.outcome ?? 'completed', ...(l.reason ? { reason: l.reason } : {}),
      };
      access.info(line, 'request');
    });
    res.locals.life = life;
    res.once('close', () => {
      if (res.writableFinished) return life.end(res.statusCode);
      life.markGone();
      // Not running: whatever it was waiting for (a slot, a middleware) stops at the next check.
      if (!life.running) {
        life.outcome ??= 'dropped';
        life.reason ??= 'client_gone';
        life.end(undefined);
      }
    });
    next();
  };
}
