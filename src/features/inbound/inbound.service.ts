import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { systemScope, type Scope } from '../../http/types';
import { randomBase62, sha256Hex } from '../../lib/crypto';

type S = components['schemas'];

// Lender replies. A raw message (from the HTTP inbound endpoint or the SMTP listener) is parsed,
// stored whole, matched to one of its location's submissions, classified, and, when both worked,
// applied: the submission's response recorded and the offers found logged (`email_classifier`), in
// one transaction with the stored record. What cannot be matched or read waits for a person
// (status unmatched / unclassified) and is never dropped.
//
// The work is split by what it does, beside this file (which keeps the names importers use):
//   inbound-parse.ts    the raw message parsed and cleaned
//   inbound-match.ts    matched to a submission (reply address, thread, trace code) or a merchant thread
//   inbound-apply.ts    read by the classifier and applied to its submission
//   inbound-receive.ts  stored, matched, applied and its files filed, in one transaction
//   inbound-review.ts   the review queue: list, get, assign, dismiss
//   inbound-rows.ts     the stored row and its API shape

export { INBOUND_MAX_BYTES, INBOUND_TEXT_MAX, parseInbound, type ParsedInbound } from './inbound-parse';
export type { InboundEmail } from './inbound-rows';
export { receiveInboundEmail } from './inbound-receive';
export { assignInboundEmail, dismissInboundEmail, getInboundEmail, listInboundEmails } from './inbound-review';

const SECRET_PREFIX = 'svc_inbound_';
export const INBOUND_SECRET_PATTERN = /^svc_inbound_[0-9A-Za-z]{32}$/;

export { systemScope };

// ---------------------------------------------------------------- the secret

export async function rotateInboundSecret(deps: Deps, scope: Scope): Promise<S['InboundEmailSecret']> {
  const secret = `${SECRET_PREFIX}${randomBase62(32)}`;
  const now = deps.clock.now();
  await deps.db.knex('inbound_secrets')
    .insert({ location_id: scope.locationId, secret_hash: sha256Hex(secret), created_at: now })
    .onConflict('location_id')
    .merge(['secret_hash', 'created_at']);
  return { secret, username: 'inbound', created_at: now.toISOString() };
}

/** The location whose current inbound secret this is, or null. */
export async function locationOfInboundSecret(db: Knex, secret: string): Promise<string | null> {
  if (!INBOUND_SECRET_PATTERN.test(secret)) return null;
  const row = (await db('inbound_secrets').where({ secret_hash: sha256Hex(secret) }).first('location_id')) as { location_id: string } | undefined;
  return row?.location_id ?? null;
}
