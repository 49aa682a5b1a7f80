/** Time comes from here, never from `new Date()` or timers in rules, so schedules and windows are testable. */
export interface Clock {
  now(): Date;
  /** Runs `fn` every `ms` of this clock's time until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/**
 * A clock tests move by hand; `every` callbacks fire as `advance` passes their times. A jump longer
 * than MAX_CATCH_UP periods of a timer fires it only for its last MAX_CATCH_UP periods, as a real
 * interval skips the ticks an event loop was too busy for: advancing 20 days past a 100 ms timer
 * would otherwise call it 17 million times and hold the test's server for seconds.
 */
const MAX_CATCH_UP = 1000;

export class ManualClock implements Clock {
  private t: number;
  private timers = new Set<{ ms: number; next: number; fn: () => void }>();
  constructor(start: Date | string = '2026-11-23T12:00:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers].filter((x) => x.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      const pending = Math.floor((end - due.next) / due.ms) + 1;
      if (pending > MAX_CATCH_UP) due.next += (pending - MAX_CATCH_UP) * due.ms;
      this.t = Math.max(this.t, due.next);
      due.next += due.ms;
      due.fn();
    }
    this.t = end;
  }
  every(ms: number, fn: () => void): () => void {
    const timer = { ms, next: this.t + ms, fn };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }
}
