import type { TestProject } from 'vitest/node';
import knexFactory from 'knex';
import { migrateLatest } from '../../src/db/migrate';
import { startBundle } from './global-setup-bundle';
import { oncePerRun } from './once-per-run';
import { adminUrl, databaseUrl } from './pg-urls';

/**
 * One migrated template database per run (shared by the PostgreSQL projects); each test file
 * clones it (CREATE DATABASE ... TEMPLATE).
 */
export default async function setup(project: TestProject) {
  startBundle(); // built meanwhile: the bundle setup, next in this project's list, takes it
  const { value: name, release } = await oncePerRun('pg-template', async () => {
    const name = `svc_tmpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 8 } });
    await admin.raw(`CREATE DATABASE ${name}`);
    const tmpl = knexFactory({ client: 'pg', connection: databaseUrl(name), pool: { min: 0, max: 1 } });
    await migrateLatest(tmpl);
    await tmpl.destroy();
    const teardown = async () => {
      // The files drop their databases in the background (harness.ts): those a worker had not
      // dropped yet when it exited go here, all at once (a DROP waits for a checkpoint; drops at
      // once share one), then checked gone.
      const leftovers = async () => (await admin.raw(`SELECT datname FROM pg_database WHERE datname LIKE ?`, [`svc_t_${process.pid}_%`])).rows as { datname: string }[];
      await Promise.allSettled((await leftovers()).map(({ datname }) => admin.raw(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)));
      for (const { datname } of await leftovers()) await admin.raw(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    };
    return { value: name, teardown };
  });
  project.provide('pgTemplate', name);
  return release;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteTemplate: string;
  }
}
