import express, { type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { AccountError, createUser, ROLES, setUserActive, setUserRole } from '../../features/accounts/accounts.service';
import { recordActivity } from '../../events/activity';
import type { Role } from '../../http/spec';
import { html, type Safe } from '../html';
import { appContext, type AppContext } from './context';
import { csrfField, sendAppPage, when } from './layout';
import { revokeUserSessions } from './session';
import { claimForm, FormAlreadySent, onceField } from './once';

// Team: the location's users with their roles. Admins add users, change roles, deactivate and
// reactivate (the CLI's functions, recorded in the location's activity); managers see the team
// read-only (the specification's roles). An admin cannot demote or deactivate themselves, so a
// location always keeps an admin. Deactivating a user ends their app sessions at once (and their
// keys and assistants' tokens stop working on their next request, as on /v1).

export const canManageTeam = (ctx: AppContext) => ctx.user.role === 'admin';

interface UserRow { id: string; name: string; email: string; role: Role; active: boolean; created_at: Date }

export function teamRouter(deps: Deps): Router {
  const router = express.Router();

  async function render(res: Response, extra: { status?: number; error?: string; notice?: string; form?: Record<string, unknown> } = {}) {
    const ctx = appContext(res);
    const users = (await deps.db.knex('users').where({ location_id: ctx.location.id })
      .orderBy([{ column: 'active', order: 'desc' }, { column: 'name', order: 'asc' }, { column: 'id', order: 'asc' }])
      .select('id', 'name', 'email', 'role', 'active', 'created_at')) as UserRow[];
    const body = html`
      ${canManageTeam(ctx) ? addForm(ctx, extra.form) : html`<p class="muted" id="read-only">You see the team read-only: only an admin can change it.</p>`}
      <section aria-labelledby="team-heading"><h2 id="team-heading">People in ${ctx.location.name}</h2>${userTable(ctx, users)}</section>`;
    sendAppPage(res, ctx, { title: 'Team', active: 'team', body, error: extra.error, notice: extra.notice }, extra.status ?? 200);
  }

  const DONE: Record<string, string> = { added: 'The user was added. They sign in with their email.', role: 'The role was changed.', deactivated: 'The user was deactivated and signed out.', reactivated: 'The user was reactivated.' };
  router.get('/', async (req, res) => {
    await render(res, { notice: DONE[String(req.query.done ?? '')] });
  });

  /** The acting admin and the target user of this location, or a page saying why not. */
  async function target(res: Response, id: string): Promise<{ ctx: AppContext; user: UserRow } | undefined> {
    const ctx = appContext(res);
    if (!canManageTeam(ctx)) return void (await render(res, { status: 403, error: 'Only an admin can change the team.' }));
    const user = (await deps.db.knex('users').where({ id, location_id: ctx.location.id }).first('id', 'name', 'email', 'role', 'active', 'created_at')) as UserRow | undefined;
    if (!user) return void (await render(res, { status: 404, error: 'There is no such user in this location.' }));
    return { ctx, user };
  }
  const log = (ctx: AppContext, user: Pick<UserRow, 'id' | 'name'>, action: string, description: string, data?: Record<string, unknown>) =>
    (trx: Parameters<typeof recordActivity>[0]) => recordActivity(trx, deps.clock, ctx.scope, { businessId: null, entityType: 'user', entityId: user.id, entityName: user.name, action, description, data });

  router.post('/', async (req, res) => {
    const ctx = appContext(res);
    if (!canManageTeam(ctx)) return void (await render(res, { status: 403, error: 'Only an admin can add users.' }));
    const form = (req.body ?? {}) as Record<string, unknown>;
    const role = String(form.role ?? '') as Role;
    try {
      const created = await deps.db.knex.transaction(async (trx) => {
        await claimForm(trx, deps.clock, ctx, form._form, 'user.create');
        const u = await createUser(trx, deps.clock, { locationId: ctx.location.id, name: String(form.name ?? '').slice(0, 200), email: String(form.email ?? '').trim().slice(0, 320), role });
        await log(ctx, u, 'user.created', `${u.name} added as ${u.role}`, { role: u.role })(trx);
        return u;
      });
      req.log?.info({ user: created.id, by: ctx.user.id }, 'app: user created');
    } catch (err) {
      if (err instanceof AccountError) return void (await render(res, { status: 400, error: err.message, form }));
      if (err instanceof FormAlreadySent) return void (await render(res, { status: 409, error: 'This form was already sent: the user is in the list below.' }));
      throw err;
    }
    res.redirect(303, `${req.baseUrl}?done=added`);
  });

  router.post('/:id/role', async (req, res) => {
    const t = await target(res, String(req.params.id));
    if (!t) return;
    const role = String(req.body?.role ?? '') as Role;
    if (!ROLES.includes(role)) return void (await render(res, { status: 400, error: `Choose one of ${ROLES.join(', ')}.` }));
    if (t.user.id === t.ctx.user.id) return void (await render(res, { status: 400, error: 'You cannot change your own role: ask another admin.' }));
    if (role !== t.user.role) {
      await deps.db.knex.transaction(async (trx) => {
        await setUserRole(trx, deps.clock, t.user.id, role);
        await log(t.ctx, t.user, 'user.role_changed', `${t.user.name}: role ${t.user.role} → ${role}`, { from: t.user.role, to: role })(trx);
      });
    }
    res.redirect(303, `${req.baseUrl}?done=role`);
  });

  for (const [path, active] of [['deactivate', false], ['reactivate', true]] as const) {
    router.post(`/:id/${path}`, async (req, res) => {
      const t = await target(res, String(req.params.id));
      if (!t) return;
      if (t.user.id === t.ctx.user.id) return void (await render(res, { status: 400, error: 'You cannot deactivate yourself: ask another admin.' }));
      if (t.user.active !== active) {
        await deps.db.knex.transaction(async (trx) => {
          await setUserActive(trx, deps.clock, t.user.id, active);
          if (!active) await revokeUserSessions(trx, t.user.id, deps.clock.now());
          await log(t.ctx, t.user, active ? 'user.reactivated' : 'user.deactivated', `${t.user.name} ${active ? 'reactivated' : 'deactivated'}`)(trx);
        });
        req.log?.info({ user: t.user.id, by: t.ctx.user.id, active }, 'app: user active changed');
      }
      res.redirect(303, `${req.baseUrl}?done=${active ? 'reactivated' : 'deactivated'}`);
    });
  }

  return router;
}

function addForm(ctx: AppContext, form: Record<string, unknown> = {}): Safe {
  return html`<section aria-labelledby="add-heading">
    <h2 id="add-heading">Add a user</h2>
    <form method="post" action="/app/settings/team" class="stack">
      ${csrfField(ctx)}${onceField()}
      <label for="user-name">Name</label><input id="user-name" name="name" type="text" maxlength="200" required value="${String(form.name ?? '')}">
      <label for="user-email">Email</label><input id="user-email" name="email" type="email" maxlength="320" required value="${String(form.email ?? '')}">
      <label for="user-role">Role</label>
      <select id="user-role" name="role">${ROLES.map((r) => html`<option value="${r}"${r === (form.role ?? 'user') ? html` selected` : ''}>${r}</option>`)}</select>
      <button type="submit">Add user</button>
    </form>
  </section>`;
}

function userTable(ctx: AppContext, users: UserRow[]): Safe {
  const admin = canManageTeam(ctx);
  return html`<table class="rows" id="team">
    <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Added</th>${admin ? html`<th scope="col">Actions</th>` : ''}</tr></thead>
    <tbody>${users.map((u) => {
      const self = u.id === ctx.user.id;
      return html`<tr data-user-id="${u.id}">
        <td data-label="Name">${u.name}${self ? html` <span class="badge">you</span>` : ''}</td>
        <td data-label="Email">${u.email}</td>
        <td data-label="Role">${admin && !self
          ? html`<form method="post" action="/app/settings/team/${u.id}/role" class="inline">${csrfField(ctx)}<label class="choice"><span class="muted">Role of ${u.name}</span>
              <select name="role">${ROLES.map((r) => html`<option value="${r}"${r === u.role ? html` selected` : ''}>${r}</option>`)}</select></label><button type="submit" class="secondary">Change</button></form>`
          : u.role}</td>
        <td data-label="Status">${u.active ? html`<span class="badge">active</span>` : html`<span class="badge off">deactivated</span>`}</td>
        <td data-label="Added">${when(u.created_at)}</td>
        ${admin ? html`<td data-label="Actions">${self ? '' : u.active
          ? html`<form method="post" action="/app/settings/team/${u.id}/deactivate" class="inline" data-confirm="Deactivate ${u.name}? They are signed out and their keys stop working.">${csrfField(ctx)}<button type="submit" class="danger" aria-label="Deactivate ${u.name}">Deactivate</button></form>`
          : html`<form method="post" action="/app/settings/team/${u.id}/reactivate" class="inline">${csrfField(ctx)}<button type="submit" class="secondary" aria-label="Reactivate ${u.name}">Reactivate</button></form>`}</td>` : ''}
      </tr>`;
    })}</tbody>
  </table>`;
}
