import type { Knex } from 'knex';
import type { Clock } from '../lib/clock';
import { AccountError } from '../features/accounts/accounts.service';
import { revokeGrant } from '../oauth/provider';

// Operator commands for the OAuth authorization server (who connected which assistant, and ending it):
//   oauth clients                    every registered client, newest first, with its live grant count
//   oauth grants --user ID           a user's grants (client, scopes, audience, when, revoked or not)
//   oauth revoke GRANT_ID            ends the grant and every token minted under it, at once

export class OAuthUsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
export type OAuthCommand = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;

const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export const OAUTH_OPTIONS = {} as const;

export const OAUTH_USAGE = `  oauth clients                                   registered assistants (OAuth clients), newest first
  oauth grants --user ID                          what a user approved: client, scopes, audience, revoked or not
  oauth revoke GRANT_ID                           end a grant and every token minted under it, at once`;

export const OAUTH_COMMANDS: Record<string, OAuthCommand> = {
  'oauth clients': () => async (knex) => {
    const rows = await knex('oauth_clients as c')
      .leftJoin('oauth_grants as g', function live() {
        this.on('g.client_id', 'c.client_id').andOnNull('g.revoked_at');
      })
      .groupBy('c.client_id', 'c.metadata', 'c.created_at')
      .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.client_id', order: 'desc' }])
      .select('c.client_id', 'c.metadata', 'c.created_at', knex.raw('count(g.id)::int AS live_grants'));
    return {
      data: rows.map((r) => {
        const meta = json<{ client_name?: string; redirect_uris?: string[]; token_endpoint_auth_method?: string }>(r.metadata);
        return {
          client_id: r.client_id, client_name: meta.client_name ?? null, redirect_uris: meta.redirect_uris ?? [],
          token_endpoint_auth_method: meta.token_endpoint_auth_method ?? null, live_grants: Number(r.live_grants), created_at: iso(r.created_at),
        };
      }),
    };
  },
  'oauth grants': (v) => {
    const user = v.user;
    if (typeof user !== 'string' || !user) throw new OAuthUsageError('--user is required');
    return async (knex) => {
      if (!(await knex('users').where({ id: user }).first('id'))) throw new AccountError(`No user ${user}`);
      const rows = await knex('oauth_grants as g').join('oauth_clients as c', 'c.client_id', 'g.client_id').where('g.user_id', user)
        .orderBy([{ column: 'g.created_at', order: 'desc' }, { column: 'g.id', order: 'desc' }]).select('g.*', 'c.metadata');
      return {
        data: rows.map((r) => ({
          id: r.id, client_id: r.client_id, client_name: json<{ client_name?: string }>(r.metadata).client_name ?? null, location_id: r.location_id,
          user_id: r.user_id, scopes: json<string[]>(r.scopes), audience: r.audience, created_at: iso(r.created_at), revoked_at: iso(r.revoked_at),
        })),
      };
    };
  },
  'oauth revoke': (_, p) => {
    const id = p[0];
    if (!id) throw new OAuthUsageError('grant id is required');
    return async (knex, clock) => {
      const grant = await knex('oauth_grants').where({ id }).first('id', 'revoked_at');
      if (!grant) throw new AccountError(`No OAuth grant ${id}`);
      const at = clock.now();
      await knex.transaction((trx) => revokeGrant(trx, id, at));
      const after = await knex('oauth_grants').where({ id }).first('revoked_at');
      return { id, revoked: true, revoked_at: iso(after.revoked_at) };
    };
  },
};
