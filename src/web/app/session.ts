import type { Request } from 'express';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import type { Role } from '../../http/spec';
import { hmacHex, randomBase62, sha256Hex } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import { registerMaintenance } from '../../jobs/maintenance';
import { cookieOf } from '../../oauth/browser';
import { scopesForRole } from '../oauth/scopes';
import type { AppContext } from './context';

// The app's sessions. Signing in (./sign-in.routes.ts) creates one: a random cookie value whose
// SHA-256 alone is stored (app_sessions, migration 0019). Every /app request looks the session up
// with its user and location, on the injected clock: revoked, idle past APP_SESSION_IDLE_MS or older
// than APP_SESSION_MAX_MS, and it is over; a deactivated user's session is revoked on that request.
// The cookie is HttpOnly and SameSite=Lax, `__Host-` and Secure on HTTPS (plain HTTP is loopback
// development only). The CSRF token of the session's forms is an HMAC of the session's id.

/** A session unused this long ends. */
export const APP_SESSION_IDLE_MS = 30 * 60_000;
/** A session ends this long after sign-in, used or not. */
export const APP_SESSION_MAX_MS = 12 * 3600_000;
/** last_seen_at is written at most this often per session. */
const TOUCH_MS = 60_000;

const VALUE = /^[0-9A-Za-z]{43}$/;
const secure = (base: string) => base.startsWith('https:');

export const sessionCookieName = (base: string) => (secure(base) ? '__Host-app_session' : 'app_session');
export const signInCookieName = (base: string) => (secure(base) ? '__Host-app_sign_in' : 'app_sign_in');

/** `name=value` with the app's attributes (Path=/ as `__Host-` requires); maxAge 0 deletes it. */
export function appCookie(base: string, name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure(base) ? '; Secure' : ''}`;
}

/** A well-formed cookie value of this name, if the browser sent one. */
export function cookieValue(req: Request, name: string): string | undefined {
  const v = cookieOf(req, name);
  return v && VALUE.test(v) ? v : undefined;
}

export const newCookieValue = () => randomBase62(43);
const tokenHash = (value: string) => sha256Hex(`app-session:${value}`);
export const csrfOfSession = (deps: Pick<Deps, 'portalKey'>, sessionId: string) => hmacHex(deps.portalKey, `app-csrf:${sessionId}`);

/** Starts a session for this user in their location; answers the cookie to set. */
export async function createSession(deps: Deps, input: { userId: string; locationId: string; userAgent?: string }): Promise<{ id: string; cookie: string }> {
  const now = deps.clock.now();
  const value = newCookieValue();
  const id = newId('ses', now.getTime());
  await deps.db.knex('app_sessions').insert({
    id, token_hash: tokenHash(value), user_id: input.userId, location_id: input.locationId,
    user_agent: input.userAgent ? input.userAgent.slice(0, 200) : null,
    created_at: now, last_seen_at: now, expires_at: new Date(now.getTime() + APP_SESSION_MAX_MS),
  });
  return { id, cookie: appCookie(deps.publicBaseUrl, sessionCookieName(deps.publicBaseUrl), value, APP_SESSION_MAX_MS / 1000) };
}

export type SessionEnd = 'none' | 'expired' | 'revoked' | 'deactivated';

interface SessionRow {
  id: string;
  user_id: string;
  location_id: string;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  user_location_id: string;
  location_name: string;
  is_test: boolean;
}

/** The signed-in context of this request, or why there is none (and the session is then over for good). */
export async function loadSession(deps: Deps, req: Request): Promise<{ ctx: Omit<AppContext, 'nav'> } | { end: SessionEnd }> {
  const value = cookieValue(req, sessionCookieName(deps.publicBaseUrl));
  if (!value) return { end: 'none' };
  const knex = deps.db.knex;
  const row = (await knex('app_sessions as s').join('users as u', 'u.id', 's.user_id').join('locations as l', 'l.id', 's.location_id')
    .where('s.token_hash', tokenHash(value))
    .first('s.id', 's.user_id', 's.location_id', 's.last_seen_at', 's.expires_at', 's.revoked_at', 'u.name', 'u.email', 'u.role', 'u.active',
      'u.location_id as user_location_id', 'l.name as location_name', 'l.is_test')) as SessionRow | undefined;
  if (!row) return { end: 'none' };
  if (row.revoked_at) return { end: 'revoked' };
  const now = deps.clock.now();
  if (new Date(row.expires_at) <= now || new Date(row.last_seen_at).getTime() + APP_SESSION_IDLE_MS <= now.getTime()) {
    await revokeSession(knex, row.id, now);
    return { end: 'expired' };
  }
  if (!row.active || row.user_location_id !== row.location_id) {
    await revokeSession(knex, row.id, now);
    return { end: 'deactivated' };
  }
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_MS) {
    await knex('app_sessions').where({ id: row.id }).whereNull('revoked_at').update({ last_seen_at: now });
  }
  const role = row.role;
  return {
    ctx: {
      user: { id: row.user_id, name: row.name, email: row.email, role },
      location: { id: row.location_id, name: row.location_name, isTest: !!row.is_test },
      scope: { locationId: row.location_id, role, userId: row.user_id, scopes: [...scopesForRole(role)].sort(), locationIsTest: !!row.is_test },
      csrf: csrfOfSession(deps, row.id),
      sessionId: row.id,
    },
  };
}

export async function revokeSession(knex: Knex, id: string, at: Date): Promise<number> {
  return knex('app_sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: at });
}

/** Ends every session of a user (deactivation). */
export async function revokeUserSessions(knex: Knex, userId: string, at: Date): Promise<number> {
  return knex('app_sessions').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: at });
}

const SWEEP_BATCH = 1000;
/** Rows a delete removed (the embedded engine answers a result object when it removed none). */
const deleted = (r: unknown): number => (typeof r === 'number' ? r : Number((r as { rowCount?: number } | null)?.rowCount ?? 0));
/** Ended sessions are kept this long (the sessions page and an investigation may want them), then deleted. */
export const ENDED_SESSION_RETENTION_MS = 30 * 24 * 3600_000;

/**
 * Deletes, in bounded batches, sign-ins a day after they expired and sessions 30 days after they
 * ended (revoked or past their absolute expiry). Run hourly by the worker.
 */
export async function sweepApp(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const knex = deps.db.knex;
  const now = deps.clock.now().getTime();
  let total = deleted(await knex('app_sign_ins').whereIn('id', knex('app_sign_ins').where('expires_at', '<', new Date(now - 24 * 3600_000)).limit(SWEEP_BATCH).select('id')).del());
  const before = new Date(now - ENDED_SESSION_RETENTION_MS);
  total += deleted(await knex('app_sessions').whereIn('id', knex('app_sessions')
    .where((q) => q.where('expires_at', '<', before).orWhere('revoked_at', '<', before)).limit(SWEEP_BATCH).select('id')).del());
  return total;
}

export function registerAppMaintenance(): void {
  registerMaintenance('app.expired', (deps) => sweepApp(deps));
}
