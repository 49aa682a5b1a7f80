import type { TestProject } from 'vitest/node';
import knexFactory from 'knex';
import { migrateLatest } from '../../src/db/migrate';
import { adminUrl, databaseUrl } from './pg-urls';

/** One migrated template database per run; each test file clones it (CREATE DATABASE ... TEMPLATE). */
export default async function setup(project: TestProject) {
  const name = `svc_tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const tmpl = knexFactory({ client: 'pg', connection: databaseUrl(name), pool: { min: 0, max: 1 } });
  await migrateLatest(tmpl);
  await tmpl.destroy();
  project.provide('pgTemplate', name);
  return async () => {
    const leftovers = await admin.raw(`SELECT datname FROM pg_database WHERE datname LIKE ?`, [`svc_t_${process.pid}_%`]);
    for (const { datname } of leftovers.rows) await admin.raw(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteTemplate: string;
  }
}
