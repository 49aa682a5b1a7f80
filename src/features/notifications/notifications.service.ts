import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { ApiError, forbidden } from '../../http/errors';
import type { Scope } from '../../http/types';
import { enqueueJob, type Db } from '../../jobs/queue';
import { registerMaintenance } from '../../jobs/maintenance';
import { registerJobHandler } from '../../jobs/registry';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { queueEmail } from '../../mail/mail.outbox';

// Email notifications to the people of a location (issue 29): what happened on a deal (a lender
// answered, the merchant completed a document request or picked an offer, a submission failed for
// good) or to a webhook delivery (failed for good).
//
// 1. The change that causes one calls `notify` inside its own transaction: one `notification.fanout`
//    job row, written in a savepoint whose failure is logged and swallowed, so a notification never
//    fails nor delays the change (and exists only if the change commits).
// 2. The job (the worker, after the commit) picks the people: the deal's originator and the admins
//    who asked for every deal (`all_deals`), or the admins for a webhook delivery; never the person
//    who made the change, never anyone of another location, never a deactivated user. Per person and
//    kind its mode: `immediate` queues one email through the mail outbox (the location's mailbox,
//    its retries and address policy), `daily_digest` keeps a row for the digest, `off` nothing. One
//    row per (cause, person), inserted ON CONFLICT DO NOTHING: a retried job tells no one twice.
// 3. The digest: an hourly sweep of the worker (injected clock) sends each person's collected rows
//    in one email once the oldest is 24 hours old.
// What an email says is decided when the change happens (title and lines built by the caller from
// what a broker already sees: business, lender, amounts, ids), never SSNs, dates of birth, tokens
// or portal links; it links to the app's settings page and names the deal id.

type S = components['schemas'];
export type NotificationKind = keyof S['NotificationKinds'];
export type NotificationMode = S['NotificationMode'];
export type NotificationSettings = S['NotificationSettings'];

export const NOTIFICATION_KINDS: NotificationKind[] = ['lender_answered', 'document_request_fulfilled', 'offer_accepted', 'submission_failed', 'webhook_delivery_failed'];
export const DEFAULT_MODES: Record<NotificationKind, NotificationMode> = {
  lender_answered: 'immediate',
  document_request_fulfilled: 'immediate',
  offer_accepted: 'immediate',
  submission_failed: 'immediate',
  webhook_delivery_failed: 'daily_digest',
};
/** Kinds about no deal: told to the location's admins only. */
const ADMIN_KINDS: NotificationKind[] = ['webhook_delivery_failed'];

export const NOTIFY_QUEUE = 'notification.fanout';
export const DIGEST_AFTER_MS = 24 * 3600_000;
export const NOTIFICATION_EMAIL_KIND = 'notification';
export const DIGEST_EMAIL_KIND = 'notification_digest';
const MAX_DIGEST_ITEMS = 200;

/** What happened, as the email will say it. */
export interface NotificationCause {
  locationId: string;
  kind: NotificationKind;
  /** The deal it is about (its originator is told); null for webhook deliveries. */
  dealId: string | null;
  /** The person who made the change (not told about their own act); null for the merchant, a lender, the system. */
  actorUserId: string | null;
  /** One line, the email's subject. */
  title: string;
  /** The body's lines (no personal data beyond what a broker sees). */
  lines: string[];
}

interface QueuedCause extends NotificationCause {
  sourceKey: string;
  /** When it happened (the digest's 24 hours count from here, not from the fan-out). */
  at: string;
}

/**
 * Queues the fan-out of a notification in the caller's transaction, in a savepoint: whatever goes
 * wrong here is logged (kind and location only) and the caller's change goes on.
 */
export async function notify(trx: Knex.Transaction, ctx: { clock: Clock; logger?: Logger }, cause: NotificationCause): Promise<void> {
  const payload: QueuedCause = { ...cause, title: cause.title.replace(/[\r\n]+/g, ' ').slice(0, 200), sourceKey: newId('ntc', ctx.clock.now().getTime()), at: ctx.clock.now().toISOString() };
  try {
    await trx.transaction((sp) => enqueueJob(sp, ctx.clock, { queue: NOTIFY_QUEUE, payload, maxAttempts: 5 }));
  } catch (err) {
    ctx.logger?.warn({ kind: cause.kind, location_id: cause.locationId, err: err instanceof Error ? err.message : String(err) }, 'notification could not be queued');
  }
}

interface SettingsRow {
  user_id: string;
  all_deals: boolean;
  modes: Partial<Record<NotificationKind, NotificationMode>> | string;
  updated_at: Date | null;
}

const modesOf = (row: SettingsRow | undefined): Record<NotificationKind, NotificationMode> => {
  const stored = row ? (typeof row.modes === 'string' ? JSON.parse(row.modes) : row.modes) : {};
  return { ...DEFAULT_MODES, ...stored };
};

interface Recipient {
  id: string;
  email: string;
  mode: NotificationMode;
}

/** The people of the cause's location to tell, each with their mode for its kind (never `off` ones). */
export async function recipientsOf(db: Db, cause: NotificationCause): Promise<Recipient[]> {
  const users = (await db('users').where({ location_id: cause.locationId, active: true }).orderBy('id').select('id', 'email', 'role')) as { id: string; email: string; role: string }[];
  if (!users.length) return [];
  const settings = new Map(
    ((await db('notification_settings').where({ location_id: cause.locationId }).whereIn('user_id', users.map((u) => u.id)).select('*')) as SettingsRow[]).map((r) => [r.user_id, r]),
  );
  let originator: string | null = null;
  if (cause.dealId) {
    const deal = (await db('deals').where({ id: cause.dealId, location_id: cause.locationId }).first('created_by_user_id')) as { created_by_user_id: string | null } | undefined;
    if (!deal) return [];
    originator = deal.created_by_user_id;
  }
  const out: Recipient[] = [];
  for (const u of users) {
    if (u.id === cause.actorUserId) continue;
    const s = settings.get(u.id);
    const concerned = ADMIN_KINDS.includes(cause.kind) ? u.role === 'admin' : u.id === originator || (u.role === 'admin' && !!s?.all_deals);
    if (!concerned) continue;
    const mode = modesOf(s)[cause.kind];
    if (mode !== 'off') out.push({ id: u.id, email: u.email, mode });
  }
  return out;
}

function footer(deps: Deps, dealIds: string[]): string[] {
  const base = deps.publicBaseUrl.replace(/\/$/, '');
  return [
    '',
    ...(dealIds.length ? [`Deal${dealIds.length > 1 ? 's' : ''}: ${dealIds.join(', ')} (GET /v1/deals/{id})`] : []),
    `Open the app: ${base}/app`,
    `Choose which emails you get, and when: ${base}/app/settings/notifications`,
  ];
}

/** The `notification.fanout` job: the people to tell, their rows and immediate emails, in one transaction. */
export async function fanOut(deps: Deps, payload: unknown): Promise<void> {
  const cause = payload as QueuedCause;
  await deps.db.knex.transaction(async (trx) => {
    const now = deps.clock.now();
    const at = cause.at ? new Date(cause.at) : now;
    for (const r of await recipientsOf(trx, cause)) {
      const id = newId('ntf', now.getTime());
      const inserted = await trx('notifications')
        .insert({
          id, location_id: cause.locationId, user_id: r.id, kind: cause.kind, source_key: cause.sourceKey, deal_id: cause.dealId,
          title: cause.title, body: cause.lines.join('\n'), status: r.mode === 'immediate' ? 'emailed' : 'pending_digest', created_at: at,
        })
        .onConflict(['source_key', 'user_id'])
        .ignore()
        .returning('id');
      if (!inserted.length || r.mode !== 'immediate') continue;
      const emailId = await queueEmail(trx, deps.clock, {
        locationId: cause.locationId,
        kind: NOTIFICATION_EMAIL_KIND,
        to: [r.email],
        subject: cause.title,
        text: [cause.title, '', ...cause.lines, ...footer(deps, cause.dealId ? [cause.dealId] : [])].join('\n'),
      });
      await trx('notifications').where({ id }).update({ email_id: emailId, sent_at: now });
    }
  });
}

/**
 * Sends every digest that is due: a person's collected rows in one email once the oldest is
 * DIGEST_AFTER_MS old (each row claimed FOR UPDATE SKIP LOCKED, so two workers never send one twice).
 * Returns how many digests were queued.
 */
export async function sendDueDigests(deps: Deps): Promise<number> {
  const knex = deps.db.knex;
  const cutoff = new Date(deps.clock.now().getTime() - DIGEST_AFTER_MS);
  const due = (await knex('notifications')
    .where({ status: 'pending_digest' })
    .groupBy('user_id', 'location_id')
    .havingRaw('MIN(created_at) <= ?', [cutoff])
    .select('user_id', 'location_id')) as { user_id: string; location_id: string }[];
  let sent = 0;
  for (const { user_id, location_id } of due) {
    sent += await knex.transaction(async (trx) => {
      const rows = (await trx('notifications')
        .where({ status: 'pending_digest', user_id, location_id })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(MAX_DIGEST_ITEMS)
        .forUpdate()
        .skipLocked()
        .select('id', 'kind', 'title', 'body', 'deal_id', 'created_at')) as { id: string; kind: string; title: string; body: string; deal_id: string | null; created_at: Date }[];
      if (!rows.length) return 0;
      const now = deps.clock.now();
      const user = (await trx('users').where({ id: user_id, location_id, active: true }).first('email')) as { email: string } | undefined;
      let emailId: string | null = null;
      if (user) {
        const subject = `Your daily summary: ${rows.length} update${rows.length === 1 ? '' : 's'}`;
        const items = rows.flatMap((r) => [`- ${r.title} (${new Date(r.created_at).toISOString().slice(0, 16).replace('T', ' ')} UTC)`, ...r.body.split('\n').filter(Boolean).map((l) => `  ${l}`)]);
        const dealIds = [...new Set(rows.map((r) => r.deal_id).filter((d): d is string => !!d))];
        emailId = await queueEmail(trx, deps.clock, { locationId: location_id, kind: DIGEST_EMAIL_KIND, to: [user.email], subject, text: [subject, '', ...items, ...footer(deps, dealIds)].join('\n') });
      }
      // A deactivated person's rows end without an email.
      await trx('notifications').whereIn('id', rows.map((r) => r.id)).update({ status: 'digested', email_id: emailId, sent_at: now });
      return emailId ? 1 : 0;
    });
  }
  return sent;
}

export function registerNotificationJobs(): void {
  registerJobHandler(NOTIFY_QUEUE, (deps, payload) => fanOut(deps, payload));
  registerMaintenance('notifications.digest', sendDueDigests);
}

// ------------------------------------------------------------------------- settings (API and app)

/** The person whose settings these are: only a credential that acts for a user has them. */
function userOf(scope: Scope): string {
  if (!scope.userId) {
    throw new ApiError(
      'user_required',
      'This credential acts for no user: notification settings belong to a person. Use an OAuth token or an API key created for a user, or the app at /app/settings/notifications',
    );
  }
  return scope.userId;
}

export async function readSettings(db: Db, locationId: string, userId: string): Promise<NotificationSettings> {
  const user = (await db('users').where({ id: userId, location_id: locationId }).first('id', 'email', 'role')) as { id: string; email: string; role: NotificationSettings['role'] } | undefined;
  if (!user) throw new ApiError('user_required', 'This credential acts for no user of this location');
  const row = (await db('notification_settings').where({ user_id: userId, location_id: locationId }).first()) as SettingsRow | undefined;
  return {
    user_id: user.id,
    email: user.email,
    role: user.role,
    all_deals: user.role === 'admin' && !!row?.all_deals,
    notifications: modesOf(row),
    updated_at: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
  };
}

export type SettingsChange = S['UpdateNotificationSettingsRequest'];

/** Changes one person's settings (the API's PATCH and the app's form alike); `all_deals` is for admins. */
export async function changeSettings(db: Db, clock: Clock, locationId: string, userId: string, change: SettingsChange): Promise<NotificationSettings> {
  return db.transaction(async (trx) => {
    const current = await readSettings(trx, locationId, userId);
    if (change.all_deals !== undefined && change.all_deals && current.role !== 'admin') {
      throw forbidden('Only admins may be told about every deal (all_deals)', 'role_not_allowed', 'all_deals');
    }
    const modes = { ...current.notifications, ...(change.notifications ?? {}) };
    const allDeals = change.all_deals ?? current.all_deals;
    const now = clock.now();
    await trx('notification_settings')
      .insert({ user_id: userId, location_id: locationId, all_deals: allDeals, modes: JSON.stringify(modes), updated_at: now })
      .onConflict('user_id')
      .merge(['all_deals', 'modes', 'updated_at']);
    return readSettings(trx, locationId, userId);
  });
}

export async function getNotificationSettings(deps: Deps, scope: Scope): Promise<NotificationSettings> {
  return readSettings(deps.db.knex, scope.locationId, userOf(scope));
}

export async function updateNotificationSettings(deps: Deps, scope: Scope, body: SettingsChange): Promise<NotificationSettings> {
  return changeSettings(deps.db.knex, deps.clock, scope.locationId, userOf(scope), body);
}
