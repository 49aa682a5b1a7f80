import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import ClientPGLite from 'knex-pglite';

export type Engine = 'pg' | 'pglite';

export interface Database {
  knex: Knex;
  engine: Engine;
  close(): Promise<void>;
}

// Both engines return the same JS types: int8 and numeric as numbers (counts and money in dollars,
// which fit a double exactly to the cent), `date` as the 'YYYY-MM-DD' string it is (never a Date
// shifted by the process time zone), timestamps as Date.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);
export const pgliteParsers = {
  [INT8]: (v: string) => Number(v),
  [NUMERIC]: (v: string) => Number(v),
  [DATE]: (v: string) => v,
};

export function openPostgres(url: string, pool: { min: number; max: number } = { min: 0, max: 10 }): Database {
  const knex = knexFactory({ client: 'pg', connection: url, pool });
  return { knex, engine: 'pg', close: () => knex.destroy() };
}

/** An embedded database from an existing PGlite instance (tests load one from a migrated template). */
export function wrapPglite(pglite: PGlite, onClose?: () => void): Database {
  const knex = knexFactory({ client: ClientPGLite as unknown as typeof knexFactory.Client, connection: { pglite } as never });
  return {
    knex,
    engine: 'pglite',
    close: async () => {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
      onClose?.();
    },
  };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded engine on a data folder. PGlite is one process and one connection: two processes on
 * one folder silently lose data, so a lock file with our pid guards the folder.
 */
export async function openPgliteDir(dataDir: string): Promise<Database> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'svc.lock');
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (pid && pid !== process.pid && pidAlive(pid)) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${pid}. PGlite allows one process per data folder: ` +
          'stop that process, or set DATA_DIR to another folder, or use PostgreSQL with DATABASE_URL.',
      );
    }
  }
  writeFileSync(lock, String(process.pid));
  const pglite = new PGlite(join(dir, 'pgdata'), { parsers: pgliteParsers });
  await pglite.waitReady;
  return wrapPglite(pglite, () => rmSync(lock, { force: true }));
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPgliteDir(opts.dataDir);
}
