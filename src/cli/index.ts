import type { Knex } from 'knex';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openOperatorDatabase } from '../db/engine';
import { migrateLatest } from '../db/migrate';
import {
  AccountError, createAccessToken, createApiKey, createLocation, createUser, listApiKeys, listLocations, revokeApiKey, setUserActive,
} from '../features/accounts/accounts.service';
import { systemClock, type Clock } from '../lib/clock';
import { workerStatus } from '../jobs/heartbeat';
import { showMailbox } from '../mail/mailbox';
import type { Role } from '../http/spec';
import { LENDER_COMMANDS, LENDER_OPTIONS, LENDER_USAGE, LenderImportRejected, LenderUsageError } from './lenders';
import { listenMain } from './listen';
import { MAIL_COMMANDS, MAIL_OPTIONS, MAIL_USAGE, MailUsageError } from './mailbox';
import { OAUTH_COMMANDS, OAUTH_OPTIONS, OAUTH_USAGE, OAuthUsageError } from './oauth';
import { TRIGGER_COMMANDS, TRIGGER_USAGE, TriggerUsageError } from './trigger';
import { WEBHOOK_COMMANDS, WEBHOOK_OPTIONS, WEBHOOK_USAGE, WebhookUsageError } from './webhooks';

const USAGE = `Usage: npm run --silent cli -- <command>
  location create --name NAME [--test]
  location list                                   every location, oldest first
  location show ID                                one location: its users, keys and webhooks counted, its mailbox
                                                  (without password), whether a worker was seen in the last 2 minutes
  user create --location ID --name NAME --email EMAIL --role admin|manager|user
  user list --location ID                         the location's users, oldest first (active or not)
  user deactivate ID | user activate ID
  key create --location ID --name NAME [--role ROLE] [--user ID] [--scopes a:b,c:d] [--expires-at ISO]
                                                  --expires-at: a future time, e.g. 2027-01-01T00:00:00Z
  key revoke ID
  key list --location ID
  token create --user ID [--scopes a:b,c:d] [--audience mcp|api] [--ttl SECONDS]
${WEBHOOK_USAGE}
${TRIGGER_USAGE}
${MAIL_USAGE}
${OAUTH_USAGE}
${LENDER_USAGE}
  listen --forward-to URL [--events a.b,c.d] [--api-base URL]
                                                  forward this location's new events, re-signed, to a local server
                                                  (key in SVC_API_KEY; the local signing secret is printed on stderr)
  migrate
  help, --help                                    this text (exit 0)
Prints one JSON object on stdout; errors go to stderr with a non-zero exit.
Works while \`npm start\` runs on the embedded database: it then goes through that server.`;

class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
/** A command checks its arguments first (no database opened for a usage error), then runs. */
type Command = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;

function need(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}
function scopesOf(values: Values): string[] {
  return typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [];
}
function firstId(positionals: string[], what: string): string {
  if (!positionals[0]) throw new UsageError(`${what} is required`);
  return positionals[0];
}

const COMMANDS: Record<string, Command> = {
  migrate: () => async () => ({ migrated: true }),
  'location create': (v) => {
    const input = { name: need(v, 'name'), isTest: !!v.test };
    return (knex, clock) => createLocation(knex, clock, input);
  },
  'location list': () => async (knex) => ({ data: await listLocations(knex) }),
  'location show': (_, p) => {
    const id = firstId(p, 'location id');
    return async (knex, clock) => {
      const location = (await listLocations(knex)).find((l) => l.id === id);
      if (!location) throw new AccountError(`No location ${id}`);
      const count = async (q: Knex.QueryBuilder) => Number(((await q.count({ n: '*' }).first()) as { n: string | number }).n);
      return {
        ...location,
        users: { active: await count(knex('users').where({ location_id: id, active: true })), inactive: await count(knex('users').where({ location_id: id, active: false })) },
        api_keys: { usable: await count(knex('api_keys').where({ location_id: id }).whereNull('revoked_at').where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', clock.now()))) },
        webhooks: { active: await count(knex('webhook_subscriptions').where({ location_id: id, status: 'active' }).whereNull('deleted_at')), disabled: await count(knex('webhook_subscriptions').where({ location_id: id, status: 'disabled' }).whereNull('deleted_at')) },
        mailbox: await showMailbox(knex, id),
        worker: await workerStatus(knex, clock.now()),
      };
    };
  },
  'user list': (v) => {
    const location = need(v, 'location');
    return async (knex) => {
      if (!(await knex('locations').where({ id: location }).first('id'))) throw new AccountError(`No location ${location}`);
      const rows = await knex('users').where({ location_id: location }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]).select('id', 'name', 'email', 'role', 'active', 'created_at');
      return { data: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })) };
    };
  },
  'user create': (v) => {
    const input = { locationId: need(v, 'location'), name: need(v, 'name'), email: need(v, 'email'), role: need(v, 'role') as Role };
    return (knex, clock) => createUser(knex, clock, input);
  },
  'user deactivate': (_, p) => {
    const id = firstId(p, 'user id');
    return (knex, clock) => setUserActive(knex, clock, id, false);
  },
  'user activate': (_, p) => {
    const id = firstId(p, 'user id');
    return (knex, clock) => setUserActive(knex, clock, id, true);
  },
  'key create': (v) => {
    const exp = v['expires-at'];
    const input = {
      locationId: need(v, 'location'), name: need(v, 'name'), role: (v.role as Role | undefined) ?? 'manager',
      userId: (v.user as string | undefined) ?? null, scopes: scopesOf(v), expiresAt: typeof exp === 'string' ? exp : null,
    };
    return (knex, clock) => createApiKey(knex, clock, input);
  },
  'key revoke': (_, p) => {
    const id = firstId(p, 'key id');
    return (knex, clock) => revokeApiKey(knex, clock, id);
  },
  'key list': (v) => {
    const location = need(v, 'location');
    return async (knex) => ({ data: await listApiKeys(knex, location) });
  },
  'token create': (v) => {
    const input = {
      userId: need(v, 'user'), scopes: scopesOf(v), audience: (v.audience as 'mcp' | 'api' | undefined) ?? 'mcp',
      ttlSeconds: v.ttl ? Number(v.ttl) : undefined,
    };
    return (knex, clock) => createAccessToken(knex, clock, input);
  },
  ...WEBHOOK_COMMANDS,
  ...TRIGGER_COMMANDS,
  ...MAIL_COMMANDS,
  ...OAUTH_COMMANDS,
  ...LENDER_COMMANDS,
};

const OPTIONS = {
  name: { type: 'string' }, test: { type: 'boolean' }, location: { type: 'string' }, email: { type: 'string' },
  role: { type: 'string' }, user: { type: 'string' }, scopes: { type: 'string' }, 'expires-at': { type: 'string' },
  audience: { type: 'string' }, ttl: { type: 'string' }, ...WEBHOOK_OPTIONS, ...MAIL_OPTIONS, ...OAUTH_OPTIONS, ...LENDER_OPTIONS,
} as const;

/** Returns the JSON to print, or `undefined` when the usage was asked for. */
async function run(argv: string[]): Promise<unknown> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) return undefined;
  if (!argv.length) throw new UsageError('No command given.');
  const [group, action] = argv;
  const single = Object.hasOwn(COMMANDS, group);
  const name = single ? group : `${group} ${action ?? ''}`.trim();
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`Unknown command: ${argv.join(' ')}`);
  const command = COMMANDS[name];
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv.slice(single ? 1 : 2), allowPositionals: true, options: OPTIONS });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const exec = command(parsed.values, parsed.positionals);

  const config = loadConfig();
  const db = await openOperatorDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateLatest(db.knex);
    return await exec(db.knex, systemClock);
  } finally {
    await db.close();
  }
}

// `listen` talks to the API with a key, not to the database: it runs until Ctrl-C.
if (process.argv[2] === 'listen') void listenMain(process.argv.slice(3));
else run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(result === undefined ? `${USAGE}\n` : `${JSON.stringify(result)}\n`);
  },
  (err) => {
    if (err instanceof LenderImportRejected) {
      // The report (every bad row: row, column, reason) is the command's output; the exit says it failed.
      process.stdout.write(`${JSON.stringify(err.report)}\n`);
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    } else if (err instanceof UsageError || err instanceof MailUsageError || err instanceof WebhookUsageError || err instanceof TriggerUsageError || err instanceof OAuthUsageError || err instanceof LenderUsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(err instanceof AccountError ? `${err.message}\n` : `Failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
