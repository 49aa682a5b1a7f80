import type { Knex } from 'knex';
import type { Clock } from '../../lib/clock';
import { randomBase62, sha256Hex } from '../../lib/crypto';
import { html, type Safe } from '../html';
import type { AppContext } from './context';

// A create form is acted on once: each rendering carries a random `_form` value, and the action
// claims it in the API's own idempotency table (scoped to the session, as a key scopes it to its
// credential), in the action's transaction. A second send of the same form (a double click, a
// reload that posts again) changes nothing and says so; the full key of a key form is never shown again.

const FORM = /^[0-9A-Za-z]{24}$/;

export class FormAlreadySent extends Error {}

/** The hidden field of a create form. */
export function onceField(): Safe {
  return html`<input type="hidden" name="_form" value="${randomBase62(24)}">`;
}

/** Claims this form for this session (throws FormAlreadySent if it was sent before). A form without the field is not deduplicated. */
export async function claimForm(trx: Knex, clock: Clock, ctx: AppContext, form: unknown, action: string): Promise<void> {
  const value = typeof form === 'string' && FORM.test(form) ? form : undefined;
  if (!value) return;
  const now = clock.now();
  const inserted = await trx('idempotency_keys')
    .insert({ credential_id: `app:${ctx.sessionId}`, key: `form:${value}`, request_hash: sha256Hex(action), state: 'done', response_status: 201, response_body: JSON.stringify({}), created_at: now, locked_until: now })
    .onConflict(['credential_id', 'key']).ignore().returning('key');
  if (inserted.length !== 1) throw new FormAlreadySent();
}
