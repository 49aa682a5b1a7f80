import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/engine';
import { migrateLatest } from '../db/migrate';
import {
  AccountError, createAccessToken, createApiKey, createLocation, createUser, listApiKeys, revokeApiKey, setUserActive,
} from '../features/accounts/accounts.service';
import { systemClock } from '../lib/clock';
import type { Role } from '../http/spec';

const USAGE = `Usage: npm run --silent cli -- <command>
  location create --name NAME [--test]
  user create --location ID --name NAME --email EMAIL --role admin|manager|user
  user deactivate ID | user activate ID
  key create --location ID --name NAME [--role ROLE] [--user ID] [--scopes a:b,c:d] [--expires-at ISO]
  key revoke ID
  key list --location ID
  token create --user ID [--scopes a:b,c:d] [--audience mcp|api] [--ttl SECONDS]
  migrate
Prints one JSON object on stdout; errors go to stderr with a non-zero exit.`;

class UsageError extends Error {}

function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}

async function run(argv: string[]): Promise<unknown> {
  const [group, action, ...rest] = argv;
  if (!group || group === '--help' || group === 'help') throw new UsageError('');
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' }, test: { type: 'boolean' }, location: { type: 'string' }, email: { type: 'string' },
      role: { type: 'string' }, user: { type: 'string' }, scopes: { type: 'string' }, 'expires-at': { type: 'string' },
      audience: { type: 'string' }, ttl: { type: 'string' },
    },
  });
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateLatest(db.knex);
    const knex = db.knex;
    const clock = systemClock;
    const scopes = typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [];
    switch (`${group} ${action ?? ''}`.trim()) {
      case 'migrate':
        return { migrated: true };
      case 'location create':
        return await createLocation(knex, clock, { name: need(values, 'name'), isTest: !!values.test });
      case 'user create':
        return await createUser(knex, clock, { locationId: need(values, 'location'), name: need(values, 'name'), email: need(values, 'email'), role: need(values, 'role') as Role });
      case 'user deactivate':
      case 'user activate':
        if (!positionals[0]) throw new UsageError('user id is required');
        return await setUserActive(knex, clock, positionals[0], action === 'activate');
      case 'key create': {
        const exp = values['expires-at'];
        return await createApiKey(knex, clock, {
          locationId: need(values, 'location'), name: need(values, 'name'), role: (values.role as Role | undefined) ?? 'manager',
          userId: (values.user as string | undefined) ?? null, scopes, expiresAt: typeof exp === 'string' ? new Date(exp) : null,
        });
      }
      case 'key revoke':
        if (!positionals[0]) throw new UsageError('key id is required');
        return await revokeApiKey(knex, clock, positionals[0]);
      case 'key list':
        return { data: await listApiKeys(knex, need(values, 'location')) };
      case 'token create':
        return await createAccessToken(knex, clock, {
          userId: need(values, 'user'), scopes, audience: (values.audience as 'mcp' | 'api' | undefined) ?? 'mcp',
          ttlSeconds: values.ttl ? Number(values.ttl) : undefined,
        });
      default:
        throw new UsageError(`Unknown command: ${argv.join(' ')}`);
    }
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (err) => {
    if (err instanceof UsageError) process.stderr.write(`${err.message ? `${err.message}\n\n` : ''}${USAGE}\n`);
    else if (err instanceof AccountError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`Failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
