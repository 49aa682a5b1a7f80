import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import type { Scope } from '../../http/types';
import type { Db } from '../../jobs/queue';
import type { LenderTarget, SubmissionRow } from './submissions.repository';

// The channels that send a submission to its lender: `email` (submissions.email.ts) and `api`, a
// funder's API (src/features/funders/attempts.ts). The state machine (submissions.service.ts) knows
// them only through this registry: each channel registers itself at start (src/background.ts) and
// imports the state machine to report back (queued -> sent, the lender's answer), never the reverse.

export type SubmissionMethod = SubmissionRow['submission_method'];

export interface ChannelBatch {
  scope: Scope;
  dealId: string;
  body: components['schemas']['CreateDealSubmissionsRequest'];
  /** The new `queued` submissions of this channel's lenders, inserted in `trx`. */
  items: { row: Omit<SubmissionRow, 'lender_name'>; lender: LenderTarget }[];
}

export interface SubmissionChannel {
  /** Starts sending each new queued submission, in the creating transaction (its email queued, its attempt and job created). */
  send(trx: Knex.Transaction, deps: Deps, batch: ChannelBatch): Promise<void>;
  /**
   * The submission was withdrawn (`broker`: the withdraw operation; `lender`: an answer of type
   * withdrawn): nothing unsent reaches the lender and, when the broker withdrew, nothing more is asked.
   */
  withdrawn?(trx: Knex.Transaction, scope: Scope, submissionId: string, now: Date, by: 'broker' | 'lender'): Promise<void>;
  /** What the channel adds to submissions read (the funder API: its latest attempt as `api`). */
  describe?<T extends SubmissionRow>(db: Db, clock: { now(): Date }, rows: T[]): Promise<T[]>;
}

const channels = new Map<SubmissionMethod, SubmissionChannel>();

export function registerSubmissionChannel(method: SubmissionMethod, channel: SubmissionChannel): void {
  channels.set(method, channel);
}

export function channelOf(method: SubmissionMethod): SubmissionChannel {
  const c = channels.get(method);
  if (!c) throw new Error(`No submission channel registered for ${method} (src/background.ts registers them at start)`);
  return c;
}

/** Every registered channel (withdrawal reaches all of them: only the one that sent acts). */
export function allChannels(): SubmissionChannel[] {
  return [...channels.values()];
}

/** The rows as read, with what their channels add (each method present asked once). */
export async function describeSubmissions<T extends SubmissionRow>(db: Db, clock: { now(): Date }, rows: T[]): Promise<T[]> {
  let out = rows;
  for (const method of new Set(rows.map((r) => r.submission_method))) {
    const describe = channelOf(method).describe;
    if (describe) out = await describe(db, clock, out);
  }
  return out;
}
