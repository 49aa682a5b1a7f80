import type { Server } from 'node:http';
import { createApp } from './app';
import { buildDeps } from './bootstrap';
import { loadConfig } from './config';
import { openDatabase } from './db/engine';
import { serveEmbeddedSocket, type EmbeddedSocket } from './db/embedded-socket';
import { createApiKey, createLocation, createUser } from './features/accounts/accounts.service';
import { handlers } from './features/handlers';
import { Worker } from './jobs/worker';
import { workerStatus } from './jobs/heartbeat';
import { startInboundSmtp } from './features/inbound/smtp-listener';
import { registerAllJobs } from './background';
import { createLogger } from './logger';
import { applyKeepAlive } from './http/keep-alive';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, databaseListenUrl: config.databaseListenUrl, dataDir: config.dataDir, limits: config.db });
  const deps = await buildDeps(config, logger, { db });
  const knex = deps.db.knex;

  // First run on an empty embedded database: a demo location and an admin key, printed once.
  let firstRun: { locationId: string; key: string } | undefined;
  if (config.env !== 'production' && deps.db.engine === 'pglite') {
    const any = await knex('locations').first('id');
    if (!any) {
      const loc = await createLocation(knex, deps.clock, { name: 'Demo location', isTest: true });
      const admin = await createUser(knex, deps.clock, { locationId: loc.id, name: 'Demo Admin', email: 'admin@demo.example', role: 'admin' });
      const key = (await createApiKey(knex, deps.clock, { locationId: loc.id, name: 'Demo admin key', role: 'admin', userId: admin.id })).key;
      firstRun = { locationId: loc.id, key };
    }
  }

  // Built before the worker starts: building the app holds the event loop for a while, and a poll
  // waiting for a connection meanwhile would time out (an error-level log at every busy start).
  const app = createApp(deps, handlers);

  // Ready means ready: every validator compiled and a database connection open before the port
  // opens, so the first request after "listening" costs what the hundredth does.
  await (app.locals.warmUp as () => Promise<number>)();

  // Background work in this process unless START_WORKER=false (then `npm run worker` runs it apart),
  // started before the port opens so its first round of polls is not paid by the first requests,
  // and after the warm-up: the first poll opens a pool connection, and on a loaded machine that
  // handshake, interleaved with the warm-up's compiles, outlasted the pool's wait (an error-level
  // "Timeout acquiring a connection" at a healthy start).
  let worker: Worker | undefined;
  if (config.startWorker) {
    registerAllJobs();
    worker = new Worker(deps, { ownsDatabase: !!db.pglite, concurrency: config.workerConcurrency, pollMs: config.workerPollMs });
    await worker.start();
    logger.info({ worker: worker.id }, 'worker started');
  }
  await knex.raw('select 1');
  const server: Server = app.listen(config.port, config.host);
  applyKeepAlive(server, config.httpKeepAliveMs); // idle connections outlast the load balancer's (keep-alive.ts)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });

  // The signal handlers go in as soon as the port is open: a SIGTERM during the rest of the start (the
  // operator socket, the banner's queries) used to find none and kill the process without a clean stop.
  let operatorSocket: EmbeddedSocket | undefined;
  let inboundSmtp: Awaited<ReturnType<typeof startInboundSmtp>> | undefined;
  let stopping = false;
  let started!: () => void;
  const startDone = new Promise<void>((resolve) => (started = resolve));
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    server.close(async () => {
      await startDone; // the rest of the start (socket, banner queries) finishes before the pool closes
      await worker?.stop();
      await inboundSmtp?.close();
      await operatorSocket?.close();
      await deps.db.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  // The operator CLI and `npm run seed` reach the embedded database through this process while it runs.
  if (db.pglite) {
    try {
      operatorSocket = await serveEmbeddedSocket(db, config.dataDir, { holdTimeoutMs: config.operatorHoldTimeoutMs, log: (msg, extra) => logger.warn(extra ?? {}, msg) });
      logger.info({ socket: operatorSocket.path }, 'operator socket for the CLI and seed');
    } catch (err) {
      // The API works without it; the CLI then says the folder is in use, as before.
      logger.warn({ err }, 'could not open the operator socket: the CLI and seed cannot run while this server runs');
    }
  }

  // The SMTP listener for lender replies, when INBOUND_SMTP_PORT is set (`npm run inbound-smtp` runs it apart).
  if (config.inboundSmtpPort !== undefined) {
    inboundSmtp = await startInboundSmtp(deps, { host: config.inboundSmtpHost ?? '127.0.0.1', port: config.inboundSmtpPort });
    logger.info({ port: inboundSmtp.port }, 'inbound SMTP listening');
  }

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicBaseUrl ?? `http://${config.host}:${port}`;
  logger.info({ url, engine: deps.db.engine }, 'listening');
  process.stdout.write(`\nDeal-Funding API listening on ${url} (database: ${deps.db.engine === 'pg' ? 'PostgreSQL' : `embedded, ${config.dataDir}`})\n`);
  // PostgreSQL (or production) on an empty database: nothing was created, so say what to do first.
  if (!firstRun && !(await knex('locations').first('id'))) {
    process.stdout.write(
      `\nNo location yet. Next step: create one and an admin key with the CLI (the key is printed once):\n` +
        `  npm run --silent cli -- location create --name "Your brokerage" [--test]\n` +
        `  npm run --silent cli -- user create --location LOCATION_ID --name "Your Name" --email you@example.com --role admin\n` +
        `  npm run --silent cli -- key create --location LOCATION_ID --name "First key" --role admin --user USER_ID\n\n`,
    );
  }
  // No worker in this process (START_WORKER=false) and none seen elsewhere: email and webhooks would wait.
  if (!worker && (await workerStatus(knex, deps.clock.now())) === 'not_seen') {
    process.stdout.write(
      `\nNo worker seen in the last 2 minutes: emails and webhooks stay queued until one runs.\n` +
        `  Start one with: npm run worker   (or start this server without START_WORKER=false)\n` +
        `  ${url}/readyz says "worker": "not_seen" meanwhile.\n\n`,
    );
  }
  if (firstRun) {
    process.stdout.write(
      `\nFirst run: created a demo location with an admin API key. The key is shown only this once:\n\n` +
        `  Location: ${firstRun.locationId} (TEST location)\n  API key:  ${firstRun.key}  (TEST key: acts only on test locations)\n\n` +
        `Try it:\n  curl -s ${url}/v1/businesses -H "Authorization: Bearer ${firstRun.key}"\n` +
        `  npm run --silent cli -- key list --location ${firstRun.locationId}\n\n` +
        `Settings (API keys, team, connected assistants): ${url}/app, sign in as admin@demo.example\n` +
        `Connect an assistant: point an MCP client at ${url}/mcp and sign in as admin@demo.example\n` +
        `  (a test location: the sign-in code is shown on the page).\n\n`,
    );
  }
  started();
}

main().catch((err) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
