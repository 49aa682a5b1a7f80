import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { pgliteExtensions, pgliteParsers, wrapPglite } from '../../src/db/engine';
import { migrateLatest } from '../../src/db/migrate';
import { startBundle } from './global-setup-bundle';
import { oncePerRun } from './once-per-run';

/** A new PGlite costs seconds: migrate one, dump it, and let every test file load the dump (once per run, shared by the embedded projects). */
export default async function setup(project: TestProject) {
  startBundle(); // built meanwhile: the bundle setup, next in this project's list, takes it
  const { value: file, release } = await oncePerRun('pglite-template', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pglite-'));
    const pglite = new PGlite({ parsers: pgliteParsers, extensions: pgliteExtensions });
    // initdb runs here (seconds of CPU): awaited before the first query, so a busy machine cannot
    // run it into knex's 60 s wait for a connection (the migration's first queries).
    await pglite.waitReady;
    const db = wrapPglite(pglite);
    await migrateLatest(db.knex);
    const dump = await pglite.dumpDataDir('none');
    const file = join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
    return { value: file, teardown: () => rmSync(dir, { recursive: true, force: true }) };
  });
  project.provide('pgliteTemplate', file);
  return release;
}
