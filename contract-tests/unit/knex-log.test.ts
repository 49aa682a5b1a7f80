import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { knexLog, openPostgres } from '../../src/db/engine';

/** A loopback port nothing listens on: every connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('knex writes nothing on stdout (an operator tool prints its result there)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a failed acquire reaches the query as an error, and no log line reaches stdout or stderr', async () => {
    const log = vi.spyOn(console, 'log');
    const out = vi.spyOn(process.stdout, 'write');
    const err = vi.spyOn(process.stderr, 'write');
    const db = openPostgres(`postgres://svc@127.0.0.1:${await closedPort()}/none`, { acquireTimeoutMs: 2000 });
    try {
      await expect(db.knex.raw('select 1')).rejects.toThrow(/ECONNREFUSED|Timeout acquiring/);
    } finally {
      await db.close();
    }
    const printed = [...log.mock.calls, ...out.mock.calls, ...err.mock.calls].map((c) => String(c[0]));
    expect(printed.filter((l) => /Acquire connection error/.test(l))).toEqual([]);
  });

  it('its other warnings go to stderr, never stdout', () => {
    const out = vi.spyOn(process.stdout, 'write');
    const log = vi.spyOn(console, 'log');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    knexLog.warn('something knex wants an operator to see');
    expect(err.mock.calls.map((c) => String(c[0]))).toEqual(['knex: something knex wants an operator to see\n']);
    expect(out).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});
