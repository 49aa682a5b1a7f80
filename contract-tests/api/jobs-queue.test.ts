import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJobs, enqueueJob, finishJob, LEASE_MS, newWorkerId } from '../../src/jobs/queue';
import { ENGINE, startHarness, type Harness } from '../support/harness';

// The job queue's lease guard on `jobs` rows (webhook deliveries have their own test in
// delivery.test.ts): an outcome is written only under the claim that is current, so a worker whose
// lease ran out and was taken over can neither finish nor fail the job it no longer owns.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const QUEUE = 'test.lease-guard';

describe(`job leases (${ENGINE})`, () => {
  it('an old claim cannot finish or fail a job that was claimed again after its lease ran out; the current claim can', async () => {
    const id = await enqueueJob(h.knex, h.clock, { queue: QUEUE, payload: { n: 1 } });
    const slow = newWorkerId();
    const [first] = await claimJobs(h.knex, { queues: [QUEUE], now: h.clock.now(), limit: 1, workerId: slow, checkLiveness: false });
    expect(first).toMatchObject({ id, locked_by: slow });
    // Still leased: nobody else gets it.
    const other = newWorkerId();
    expect(await claimJobs(h.knex, { queues: [QUEUE], now: h.clock.now(), limit: 1, workerId: other, checkLiveness: false })).toHaveLength(0);
    // The slow worker's lease runs out and another worker claims the job again.
    h.clock.advance(LEASE_MS + 1000);
    const [second] = await claimJobs(h.knex, { queues: [QUEUE], now: h.clock.now(), limit: 1, workerId: other, checkLiveness: false });
    expect(second).toMatchObject({ id, locked_by: other });
    expect(second.lease_id).not.toBe(first.lease_id);

    // The old claim reports success, then failure: neither is recorded.
    expect(await finishJob(h.knex, first, h.clock.now(), { ok: true })).toMatchObject({ recorded: false });
    expect(await finishJob(h.knex, first, h.clock.now(), { ok: false, error: 'late failure', final: true })).toMatchObject({ recorded: false });
    // Each claim counts as an attempt when it is taken (a claim whose process died still counts).
    const untouched = await h.knex('jobs').where({ id }).first();
    expect(untouched).toMatchObject({ status: 'queued', attempts: 2, locked_by: other, lease_id: second.lease_id, last_error: null, finished_at: null });

    // The current claim finishes it.
    h.clock.advance(1000);
    expect(await finishJob(h.knex, second, h.clock.now(), { ok: true })).toEqual({ recorded: true, status: 'succeeded' });
    const done = await h.knex('jobs').where({ id }).first();
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, locked_by: null, lease_id: null });
    expect(new Date(done.finished_at).toISOString()).toBe(h.clock.now().toISOString());
  });
});
