import { buildDeps } from './bootstrap';
import { loadConfig } from './config';
import { openOperatorDatabase } from './db/engine';
import { Worker } from './jobs/worker';
import { registerAllJobs } from './background';
import { createLogger } from './logger';

// `npm run worker`: background work alone (webhook delivery, email, later jobs), so production can
// scale API processes (START_WORKER=false) and worker processes separately on one PostgreSQL. On the
// embedded engine it goes through a running server's operator socket, or owns the folder when no
// server runs.
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openOperatorDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const deps = await buildDeps(config, logger, { db });
  registerAllJobs();
  const worker = new Worker(deps, { ownsDatabase: !!db.pglite, concurrency: config.workerConcurrency, pollMs: config.workerPollMs });
  await worker.start();
  logger.info({ worker: worker.id, engine: db.engine }, 'worker started');
  process.stdout.write(`Deal-Funding worker ${worker.id} running (database: ${db.engine === 'pg' ? 'PostgreSQL' : db.viaServer ? 'embedded, through the running server' : `embedded, ${config.dataDir}`})\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping: finishing the attempts in flight');
    void worker
      .stop()
      .then(() => db.close())
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Could not start the worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
