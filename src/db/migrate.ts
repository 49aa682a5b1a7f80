import type { Knex } from 'knex';
import * as m0001 from './migrations/0001_platform';
import * as m0002 from './migrations/0002_records';
import * as m0005 from './migrations/0005_lender_config';
import * as m0006 from './migrations/0006_webhooks';
import * as m0007 from './migrations/0007_hardening';
import * as m0008 from './migrations/0008_delivery_error_code';
import * as m0009 from './migrations/0009_performance';
import * as m0010 from './migrations/0010_background_work';
import * as m0011 from './migrations/0011_mail_parts';
import * as m0012 from './migrations/0012_inbound_emails';
import * as m0013 from './migrations/0013_funder_attempts';
import * as m0014 from './migrations/0014_documents';
import * as m0015 from './migrations/0015_oauth';
import * as m0016 from './migrations/0016_oauth_hardening';
import * as m0017 from './migrations/0017_email_documents';
import * as m0018 from './migrations/0018_match_figures';
import * as m0019 from './migrations/0019_app_sessions';
import * as m0020 from './migrations/0020_notifications';
import * as m0021 from './migrations/0021_finding';
import * as m0022 from './migrations/0022_forced_submissions';
import * as m0024 from './migrations/0024_worker_heartbeats';
import * as m0025 from './migrations/0025_credential_notify';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/** Migrations in order. Immutable once landed: add a new file, never edit an old one. */
const migrations: Record<string, Migration> = {
  '0001_platform': m0001,
  '0002_records': m0002,
  '0005_lender_config': m0005,
  '0006_webhooks': m0006,
  '0007_hardening': m0007,
  '0008_delivery_error_code': m0008,
  '0009_performance': m0009,
  '0010_background_work': m0010,
  '0011_mail_parts': m0011,
  '0012_inbound_emails': m0012,
  '0013_funder_attempts': m0013,
  '0014_documents': m0014,
  '0015_oauth': m0015,
  '0016_oauth_hardening': m0016,
  '0017_email_documents': m0017,
  '0018_match_figures': m0018,
  '0019_app_sessions': m0019,
  '0020_notifications': m0020,
  '0021_finding': m0021,
  '0022_forced_submissions': m0022,
  '0024_worker_heartbeats': m0024,
  '0025_credential_notify': m0025,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = await knex.migrate.latest({ migrationSource: source });
  return applied as string[];
}

export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource: source }, true);
}

/** Migrations this release has that the database has not run (readiness fails while any remain). */
export async function pendingMigrations(knex: Knex): Promise<string[]> {
  const [, pending] = (await knex.migrate.list({ migrationSource: source })) as [unknown[], string[]];
  return pending.map(String);
}
