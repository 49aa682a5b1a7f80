import express, { type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { html } from '../html';
import { appContext } from './context';
import { csrfField, sendAppPage, when } from './layout';
import { APP_SESSION_IDLE_MS, appCookie, revokeSession, sessionCookieName } from './session';

// Your sessions: every live sign-in of this user in this location (browser, signed in, last seen),
// each revocable; revoking this one signs out here, "sign out everywhere else" keeps only this one.

interface SessionRow { id: string; user_agent: string | null; created_at: Date; last_seen_at: Date; expires_at: Date }

export function sessionsRouter(deps: Deps): Router {
  const router = express.Router();

  async function render(res: Response, notice?: string) {
    const ctx = appContext(res);
    const now = deps.clock.now();
    const rows = (await deps.db.knex('app_sessions').where({ user_id: ctx.user.id, location_id: ctx.location.id }).whereNull('revoked_at')
      .where('expires_at', '>', now).where('last_seen_at', '>', new Date(now.getTime() - APP_SESSION_IDLE_MS))
      .orderBy([{ column: 'last_seen_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .select('id', 'user_agent', 'created_at', 'last_seen_at', 'expires_at')) as SessionRow[];
    const body = html`<section aria-labelledby="sessions-heading"><h2 id="sessions-heading">Signed in as ${ctx.user.email}</h2>
      <table class="rows" id="sessions">
        <thead><tr><th scope="col">Browser</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Action</th></tr></thead>
        <tbody>${rows.map((s) => html`<tr data-session-id="${s.id}">
          <td data-label="Browser">${s.user_agent ?? 'Unknown browser'}${s.id === ctx.sessionId ? html` <span class="badge">this browser</span>` : ''}</td>
          <td data-label="Signed in">${when(s.created_at)}</td>
          <td data-label="Last seen">${when(s.last_seen_at)}</td>
          <td data-label="Action"><form method="post" action="/app/settings/sessions/${s.id}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="secondary" aria-label="Sign out session from ${when(s.created_at)}">Sign out</button></form></td>
        </tr>`)}</tbody>
      </table>
      ${rows.length > 1 ? html`<form method="post" action="/app/settings/sessions/others/revoke">${csrfField(ctx)}<button type="submit" class="secondary" id="revoke-others">Sign out everywhere else</button></form>` : ''}
    </section>`;
    sendAppPage(res, ctx, { title: 'Your sessions', active: 'sessions', body, notice });
  }

  router.get('/', async (req, res) => {
    await render(res, req.query.done === 'revoked' ? 'Signed out.' : undefined);
  });

  router.post('/others/revoke', async (_req, res) => {
    const ctx = appContext(res);
    await deps.db.knex('app_sessions').where({ user_id: ctx.user.id }).whereNot({ id: ctx.sessionId }).whereNull('revoked_at').update({ revoked_at: deps.clock.now() });
    res.redirect(303, '/app/settings/sessions?done=revoked');
  });

  router.post('/:id/revoke', async (req, res) => {
    const ctx = appContext(res);
    const id = String(req.params.id);
    // Only this user's own sessions: another's id changes nothing.
    const row = await deps.db.knex('app_sessions').where({ id, user_id: ctx.user.id }).first('id');
    if (row) await revokeSession(deps.db.knex, row.id, deps.clock.now());
    if (row && id === ctx.sessionId) {
      res.status(303).set('Set-Cookie', appCookie(deps.publicBaseUrl, sessionCookieName(deps.publicBaseUrl), '', 0)).location('/app/sign-in?ended=signed_out').end();
      return;
    }
    res.redirect(303, '/app/settings/sessions?done=revoked');
  });

  return router;
}
