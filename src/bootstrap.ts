import { loadFunderIntegrationsFile } from './features/lenders/funder-specs';
import { loadStatementRulesFile } from './features/statements/rules';
import { registerAllJobs } from './background';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase, type Database } from './db/engine';
import { migrateLatest } from './db/migrate';
import type { Deps } from './deps';
import { systemClock, type Clock } from './lib/clock';
import { SecretBox, hmacHex } from './lib/crypto';
import { createStorage, type Storage } from './storage';

/** The secret key: SECRET_KEY, or (outside production) one generated once and kept in the database. */
export async function resolveSecretKey(knex: Knex, config: Config): Promise<string> {
  if (config.secretKey) return config.secretKey;
  const row = await knex('app_settings').where({ key: 'secret_key' }).first('value');
  if (row) return row.value;
  const value = randomBytes(32).toString('base64url');
  await knex('app_settings').insert({ key: 'secret_key', value }).onConflict('key').ignore();
  return (await knex('app_settings').where({ key: 'secret_key' }).first('value')).value;
}

/** The address this server is reached at: PUBLIC_BASE_URL, else its own host and port. */
export function publicBaseUrl(config: Config): string {
  return (config.publicBaseUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`).replace(/\/+$/, '');
}

export async function buildDeps(
  config: Config,
  logger: Logger,
  opts: { db?: Database; clock?: Clock; validateResponses?: boolean; storage?: Storage; s3Credentials?: { accessKeyId: string; secretAccessKey: string } } = {},
): Promise<Deps> {
  loadFunderIntegrationsFile(config.funderIntegrationsFile);
  loadStatementRulesFile(config.statementRulesFile);
  // The features' job handlers, poll sources and submission channels (src/background.ts).
  registerAllJobs();
  const db = opts.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, databaseListenUrl: config.databaseListenUrl, dataDir: config.dataDir, limits: config.db }));
  await migrateLatest(db.knex);
  const clock = opts.clock ?? systemClock;
  const secretKey = await resolveSecretKey(db.knex, config);
  const baseUrl = publicBaseUrl(config);
  const storage =
    opts.storage ??
    createStorage({ storageUrl: config.storageUrl, dataDir: config.dataDir, publicBaseUrl: baseUrl, signingKey: hmacHex(secretKey, 'storage-urls'), s3Credentials: opts.s3Credentials });
  return {
    db,
    clock,
    logger,
    config,
    secrets: new SecretBox(hmacHex(secretKey, 'secrets-at-rest')),
    cursorKey: hmacHex(secretKey, 'pagination-cursors'),
    storage,
    publicBaseUrl: baseUrl,
    portalKey: hmacHex(secretKey, 'merchant-portal'),
    validateResponses: opts.validateResponses,
  };
}
