import express, { type Request, type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { AccountError, createApiKey, listApiKeys, revokeApiKey, ROLES, type CreatedKey } from '../../features/accounts/accounts.service';
import { recordActivity } from '../../events/activity';
import type { Role } from '../../http/spec';
import { html, type Safe } from '../html';
import { scopesForRole } from '../oauth/scopes';
import { appContext, type AppContext } from './context';
import { csrfField, sendAppPage, when } from './layout';
import { claimForm, FormAlreadySent, onceField } from './once';

// Settings › Developers › API keys. Admins create keys (a role up to their own, scopes the contract's
// `x-roles` give that role, an optional expiry) and revoke them; managers see the list only (the
// specification's roles: no settings changes). Creating and revoking go through the CLI's own
// functions (src/features/accounts/accounts.service.ts) and are recorded in the location's activity
// with the acting user, in the same transaction. The full key is in the answer to the create form
// only (no redirect, no URL, Cache-Control: no-store); afterwards only its prefix and last four.

const RANK: Record<Role, number> = { user: 1, manager: 2, admin: 3 };
export const rolesUpTo = (role: Role): Role[] => ROLES.filter((r) => RANK[r] <= RANK[role]);
/** Admins manage keys; managers and users may not (the specification's roles). */
export const canManageKeys = (ctx: AppContext) => ctx.user.role === 'admin';

type Listed = Awaited<ReturnType<typeof listApiKeys>>[number];

export function apiKeysRouter(deps: Deps): Router {
  const router = express.Router();

  async function render(res: Response, extra: { status?: number; created?: CreatedKey; error?: string; notice?: string; form?: Record<string, unknown> } = {}) {
    const ctx = appContext(res);
    const keys = await listApiKeys(deps.db.knex, ctx.location.id);
    const names = new Map<string, string>(
      (await deps.db.knex('users').where({ location_id: ctx.location.id }).select('id', 'name')).map((u: { id: string; name: string }) => [u.id, u.name]),
    );
    const body = html`
      ${extra.created ? shownOnce(extra.created) : ''}
      ${canManageKeys(ctx) ? createForm(ctx, extra.form) : html`<p class="muted" id="read-only">Only an admin can create or revoke API keys.</p>`}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of ${ctx.location.name}</h2>
        ${keys.length ? keyTable(ctx, keys, names, deps.clock.now()) : html`<p class="muted">No keys yet.</p>`}
      </section>`;
    sendAppPage(res, ctx, { title: 'API keys', active: 'api-keys', body, error: extra.error, notice: extra.notice }, extra.status ?? 200);
  }

  router.get('/', async (req, res) => {
    await render(res, { notice: req.query.done === 'revoked' ? 'The key is revoked: requests with it now get 401.' : undefined });
  });

  router.post('/', async (req: Request, res) => {
    const ctx = appContext(res);
    if (!canManageKeys(ctx)) return void (await render(res, { status: 403, error: 'Only an admin can create API keys.' }));
    const form = (req.body ?? {}) as Record<string, unknown>;
    const name = String(form.name ?? '').trim();
    const role = String(form.role ?? '') as Role;
    const scopes = ([] as unknown[]).concat(form.scope ?? []).map(String);
    const expires = String(form.expires_on ?? '').trim();
    const fail = (error: string) => render(res, { status: 400, error, form });
    if (!name || name.length > 100) return void (await fail('Give the key a name (up to 100 characters).'));
    if (!rolesUpTo(ctx.user.role).includes(role)) return void (await fail(`Choose a role up to your own (${ctx.user.role}).`));
    const allowed = scopesForRole(role);
    const outside = scopes.filter((s) => !allowed.has(s));
    if (outside.length) return void (await fail(`Not available to the ${role} role: ${outside.join(', ')}.`));
    // A key with no scopes would have every scope: the form always names them.
    if (!scopes.length) return void (await fail('Tick at least one scope.'));
    if (expires && !/^\d{4}-\d{2}-\d{2}$/.test(expires)) return void (await fail('Enter the expiry as a date (YYYY-MM-DD).'));
    let created: CreatedKey;
    try {
      created = await deps.db.knex.transaction(async (trx) => {
        await claimForm(trx, deps.clock, ctx, form._form, 'api_key.create');
        const key = await createApiKey(trx, deps.clock, { locationId: ctx.location.id, name, role, userId: ctx.user.id, scopes, expiresAt: expires || null });
        await recordActivity(trx, deps.clock, ctx.scope, {
          businessId: null, entityType: 'api_key', entityId: key.id, entityName: key.name, action: 'api_key.created',
          description: `API key "${key.name}" created (${key.role}, ${key.prefix}…${key.last4})`, data: { role: key.role, scopes: key.scopes, expires_at: key.expires_at },
        });
        return key;
      });
    } catch (err) {
      if (err instanceof AccountError) return void (await fail(err.message));
      if (err instanceof FormAlreadySent) {
        return void (await render(res, { status: 409, error: 'This form was already sent: its key is in the list below (the full key was shown once, on the first answer).' }));
      }
      throw err;
    }
    req.log?.info({ api_key: created.id, by: ctx.user.id }, 'app: api key created');
    await render(res, { status: 201, created });
  });

  router.post('/:id/revoke', async (req, res) => {
    const ctx = appContext(res);
    if (!canManageKeys(ctx)) return void (await render(res, { status: 403, error: 'Only an admin can revoke API keys.' }));
    const id = String(req.params.id);
    const key = await deps.db.knex('api_keys').where({ id, location_id: ctx.location.id }).first('id', 'name', 'prefix', 'last4', 'revoked_at');
    if (!key) return void (await render(res, { status: 404, error: 'There is no such key in this location.' }));
    if (!key.revoked_at) {
      await deps.db.knex.transaction(async (trx) => {
        await revokeApiKey(trx, deps.clock, key.id);
        await recordActivity(trx, deps.clock, ctx.scope, {
          businessId: null, entityType: 'api_key', entityId: key.id, entityName: key.name, action: 'api_key.revoked',
          description: `API key "${key.name}" revoked (${key.prefix}…${key.last4})`,
        });
      });
      req.log?.info({ api_key: key.id, by: ctx.user.id }, 'app: api key revoked');
    }
    res.redirect(303, `${req.baseUrl}?done=revoked`);
  });

  return router;
}

function shownOnce(key: CreatedKey): Safe {
  return html`<section class="card" aria-labelledby="new-key-heading" id="new-key">
    <h2 id="new-key-heading">Your new key: ${key.name} <span class="badge ${key.mode === 'TEST' ? 'test' : 'live'}">${key.mode}</span></h2>
    <p>Copy it now. This is the only time it is shown; afterwards only <code>${key.prefix}…${key.last4}</code> is.</p>
    <code class="secret" id="new-key-value">${key.key}</code>
    <button type="button" data-copy="new-key-value" data-status="copy-status" id="copy-key">Copy the key</button>
    <p role="status" aria-live="polite" id="copy-status" class="muted"></p>
    <p class="muted">Use it as <code>Authorization: Bearer &lt;key&gt;</code> on <code>/v1</code>. Role ${key.role}; scopes ${key.scopes.join(', ')}${key.expires_at ? `; expires ${when(key.expires_at)}` : ''}.</p>
  </section>`;
}

function createForm(ctx: AppContext, form: Record<string, unknown> = {}): Safe {
  const roles = rolesUpTo(ctx.user.role);
  const chosenRole = roles.includes(form.role as Role) ? (form.role as Role) : roles.includes('manager') ? 'manager' : roles[0];
  const ticked = new Set(([] as unknown[]).concat(form.scope ?? []).map(String));
  const offered = [...scopesForRole(ctx.user.role)].sort();
  return html`<section aria-labelledby="create-heading">
    <h2 id="create-heading">Create a key</h2>
    <form method="post" action="/app/settings/api-keys" class="create-key">
      ${csrfField(ctx)}${onceField()}
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" maxlength="100" required value="${String(form.name ?? '')}" aria-describedby="key-name-hint">
      <p class="muted" id="key-name-hint">Say what will use it, such as "CRM sync".</p>
      <label for="key-role">Role</label>
      <select id="key-role" name="role">${roles.map((r) => html`<option value="${r}"${r === chosenRole ? html` selected` : ''}>${r}</option>`)}</select>
      <fieldset>
        <legend>Scopes</legend>
        <p class="muted">Only scopes the chosen role can use are accepted.</p>
        <div class="scopes">${offered.map((s) => html`<label class="choice"><input type="checkbox" name="scope" value="${s}"${!ticked.size || ticked.has(s) ? html` checked` : ''}> ${s}</label>`)}</div>
      </fieldset>
      <label for="key-expires">Expires on (optional, midnight UTC)</label>
      <input id="key-expires" name="expires_on" type="date" value="${String(form.expires_on ?? '')}">
      <p class="muted">The key acts for you: it stops working if your account is deactivated.</p>
      <button type="submit">Create key</button>
    </form>
  </section>`;
}

function keyTable(ctx: AppContext, keys: Listed[], names: Map<string, string>, now: Date): Safe {
  const admin = canManageKeys(ctx);
  return html`<table class="rows" id="keys">
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th>${admin ? html`<th scope="col">Action</th>` : ''}</tr></thead>
    <tbody>${keys.map((k) => {
      const scopes = (typeof k.scopes === 'string' ? JSON.parse(k.scopes) : k.scopes) as string[];
      const status = k.revoked_at ? html`<span class="badge off">revoked ${when(k.revoked_at)}</span>`
        : k.expires_at && new Date(k.expires_at) <= now ? html`<span class="badge off">expired</span>`
          : html`<span class="badge">active</span>${k.expires_at ? html` <span class="muted">until ${when(k.expires_at)}</span>` : ''}`;
      return html`<tr data-key-id="${k.id}">
        <td data-label="Name">${k.name}<br><span class="muted">${scopes.length ? scopes.join(', ') : 'every scope'}</span></td>
        <td data-label="Key"><code>${k.prefix}…${k.last4}</code> <span class="badge ${k.mode === 'TEST' ? 'test' : 'live'}">${k.mode}</span>${k.legacy_prefix ? html`<br><span class="muted">issued before svc_test_ keys; still works, replace it when convenient</span>` : ''}</td>
        <td data-label="Role">${k.role}</td>
        <td data-label="Created">${when(k.created_at)}${k.user_id ? html`<br><span class="muted">by ${names.get(k.user_id) ?? k.user_id}</span>` : ''}</td>
        <td data-label="Last used">${k.last_used_at ? when(k.last_used_at) : 'never'}</td>
        <td data-label="Status">${status}</td>
        ${admin ? html`<td data-label="Action">${k.revoked_at ? '' : html`<form method="post" action="/app/settings/api-keys/${k.id}/revoke" class="inline" data-confirm="Revoke ${k.name}? Requests with it will get 401 at once.">${csrfField(ctx)}<button type="submit" class="danger" aria-label="Revoke ${k.name}">Revoke</button></form>`}</td>` : ''}
      </tr>`;
    })}</tbody>
  </table>`;
}
