import type { Deps } from '../../deps';
import { registerPollSource, type PollSource } from '../../jobs/registry';
import { attemptDelivery, claimDueDeliveries, dispatchEvents, loadTargets, recordSuccesses, type ClaimedDelivery, type PendingSuccess, type Target } from './webhooks.dispatch';

/** Events fanned out per transaction. */
const DISPATCH_BATCH = 200;

/**
 * Webhook deliveries as the worker's poll source (claimed before the job queue): each poll first
 * fans new outbox events out into deliveries, then claims due deliveries for the free slots.
 */
export function registerWebhookDelivery(): void {
  registerPollSource({ name: 'webhook_deliveries', beforeJobs: true, open: deliverySource });
}

function deliverySource(deps: Deps): PollSource {
  /** Successful attempts waiting to be recorded; one flush at a time takes all of them (group commit). */
  let successes: { item: PendingSuccess; done: (status: 'succeeded' | null) => void; fail: (err: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;

  /**
   * Group commit of successful attempts: the first success is recorded at once; those finishing
   * while that transaction runs are recorded together by the next one (recordSuccesses). Under load
   * one transaction records tens of attempts and locks each subscription once, instead of one
   * transaction per attempt all queueing on their subscription's row. Resolves when recorded.
   */
  const recordSuccess = (item: PendingSuccess): Promise<'succeeded' | null> =>
    new Promise((done, fail) => {
      successes.push({ item, done, fail });
      flushing ??= (async () => {
        while (successes.length) {
          const batch = successes.splice(0, 500);
          try {
            const recorded = await recordSuccesses(deps, batch.map((b) => b.item));
            for (const b of batch) b.done(recorded.has(b.item.d.id) ? 'succeeded' : null);
          } catch {
            // One bad row must not send the whole group again: record them one by one.
            for (const b of batch) {
              try {
                b.done((await recordSuccesses(deps, [b.item])).has(b.item.d.id) ? 'succeeded' : null);
              } catch (err) {
                b.fail(err);
              }
            }
          }
        }
        flushing = undefined;
      })();
    });

  const deliver = async (d: ClaimedDelivery, targets?: Map<string, Target>): Promise<void> => {
    try {
      await attemptDelivery(deps, d, { targets, recordSuccess });
    } catch (err) {
      // Not recorded: the lease runs out and the delivery is attempted again (at least once).
      deps.logger.error({ err, delivery_id: d.id }, 'webhook delivery attempt could not be recorded');
    }
  };

  return {
    prepare: async () => {
      await dispatchEvents(deps, DISPATCH_BATCH);
    },
    claim: async (c) => {
      const knex = deps.db.knex;
      const deliveries = await claimDueDeliveries(knex, c);
      const targets = deliveries.length ? await loadTargets(knex, deliveries.map((d) => d.subscription_id)) : undefined;
      return deliveries.map((d) => () => deliver(d, targets));
    },
    settle: async () => {
      await flushing;
    },
  };
}
