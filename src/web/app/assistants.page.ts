import express, { type Response, type Router } from 'express';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { revokeGrant } from '../../oauth/provider';
import { html, type Safe } from '../html';
import { appContext, type AppContext } from './context';
import { csrfField, sendAppPage, when } from './layout';

// Connected assistants: the OAuth grants of this location (what a user approved for an assistant,
// src/oauth/provider.ts), by user and client. An admin sees and revokes every grant of the location;
// a manager or user sees and revokes their own. Revoking ends the grant and every token minted
// under it (revokeGrant): the assistant's next request gets 401.

interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  user_name: string;
  scopes: string[] | string;
  audience: string;
  created_at: Date;
  metadata: Record<string, unknown> | string;
  last_used_at: Date | null;
}

export const seesAllGrants = (ctx: AppContext) => ctx.user.role === 'admin';

export function assistantsRouter(deps: Deps): Router {
  const router = express.Router();

  const grantsOf = (ctx: AppContext) => {
    const q = deps.db.knex('oauth_grants as g').join('users as u', 'u.id', 'g.user_id').join('oauth_clients as c', 'c.client_id', 'g.client_id')
      .where('g.location_id', ctx.location.id).whereNull('g.revoked_at')
      .select('g.id', 'g.client_id', 'g.user_id', 'u.name as user_name', 'g.scopes', 'g.audience', 'g.created_at', 'c.metadata',
        deps.db.knex('oauth_access_tokens as t').whereRaw('t.grant_id = g.id').max('t.created_at').as('last_used_at'))
      .orderBy([{ column: 'u.name', order: 'asc' }, { column: 'g.created_at', order: 'desc' }]);
    if (!seesAllGrants(ctx)) q.where('g.user_id', ctx.user.id);
    return q as Promise<GrantRow[]>;
  };

  async function render(res: Response, extra: { status?: number; error?: string; notice?: string } = {}) {
    const ctx = appContext(res);
    const grants = await grantsOf(ctx);
    const body = html`<p class="muted">${seesAllGrants(ctx) ? 'Assistants any user of this location connected.' : 'Assistants you connected.'} An assistant acts as the user who approved it, with the scopes listed.</p>
      <section aria-labelledby="grants-heading"><h2 id="grants-heading">Connected</h2>${grants.length ? grantTable(ctx, grants) : html`<p class="muted" id="no-grants">No assistant is connected.</p>`}</section>`;
    sendAppPage(res, ctx, { title: 'Connected assistants', active: 'assistants', body, error: extra.error, notice: extra.notice }, extra.status ?? 200);
  }

  router.get('/', async (req, res) => {
    await render(res, { notice: req.query.done === 'revoked' ? 'Access was revoked: the assistant must be connected again to use your data.' : undefined });
  });

  router.post('/:id/revoke', async (req, res) => {
    const ctx = appContext(res);
    const q = deps.db.knex('oauth_grants as g').join('oauth_clients as c', 'c.client_id', 'g.client_id').join('users as u', 'u.id', 'g.user_id')
      .where({ 'g.id': String(req.params.id), 'g.location_id': ctx.location.id }).first('g.id', 'g.user_id', 'g.revoked_at', 'c.metadata', 'u.name as user_name');
    const grant = await q;
    // Another user's grant is not there for a non-admin (as another location's is for anyone).
    if (!grant || (!seesAllGrants(ctx) && grant.user_id !== ctx.user.id)) return void (await render(res, { status: 404, error: 'There is no such connection.' }));
    if (!grant.revoked_at) {
      const name = clientName(grant.metadata);
      await deps.db.knex.transaction(async (trx) => {
        await revokeGrant(trx, grant.id, deps.clock.now());
        await recordActivity(trx, deps.clock, ctx.scope, {
          businessId: null, entityType: 'oauth_grant', entityId: grant.id, entityName: name, action: 'oauth_grant.revoked',
          description: `Access of ${name} for ${grant.user_name} revoked`,
        });
      });
      req.log?.info({ grant: grant.id, by: ctx.user.id }, 'app: assistant grant revoked');
    }
    res.redirect(303, `${req.baseUrl}?done=revoked`);
  });

  return router;
}

const clientName = (metadata: unknown): string => {
  const meta = (typeof metadata === 'string' ? JSON.parse(metadata) : metadata ?? {}) as { client_name?: unknown };
  return typeof meta.client_name === 'string' && meta.client_name.trim() ? meta.client_name.slice(0, 100) : 'An unnamed assistant';
};

function grantTable(ctx: AppContext, grants: GrantRow[]): Safe {
  return html`<table class="rows" id="grants">
    <thead><tr><th scope="col">Assistant</th><th scope="col">User</th><th scope="col">Scopes</th><th scope="col">Connected</th><th scope="col">Last token</th><th scope="col">Action</th></tr></thead>
    <tbody>${grants.map((g) => {
      const name = clientName(g.metadata);
      const scopes = (typeof g.scopes === 'string' ? JSON.parse(g.scopes) : g.scopes) as string[];
      return html`<tr data-grant-id="${g.id}">
        <td data-label="Assistant">${name}<br><span class="muted">${g.audience === 'mcp' ? 'MCP server and API' : 'API'}</span></td>
        <td data-label="User">${g.user_name}${g.user_id === ctx.user.id ? ' (you)' : ''}</td>
        <td data-label="Scopes">${scopes.join(', ')}</td>
        <td data-label="Connected">${when(g.created_at)}</td>
        <td data-label="Last token">${g.last_used_at ? when(g.last_used_at) : 'never'}</td>
        <td data-label="Action"><form method="post" action="/app/settings/assistants/${g.id}/revoke" class="inline" data-confirm="Revoke ${name}'s access?">${csrfField(ctx)}<button type="submit" class="danger" aria-label="Revoke ${name} for ${g.user_name}">Revoke</button></form></td>
      </tr>`;
    })}</tbody>
  </table>`;
}
