import { buildDeps } from './bootstrap';
import { loadConfig } from './config';
import { openOperatorDatabase } from './db/engine';
import { startInboundSmtp } from './features/inbound/smtp-listener';
import { createLogger } from './logger';

// `npm run inbound-smtp`: the optional self-hosted SMTP listener for lender replies, alone (see
// src/features/inbound/smtp-listener.ts). It binds INBOUND_SMTP_HOST (default 127.0.0.1) on
// INBOUND_SMTP_PORT (default 2525 here); as the MX of the reply domain it sits behind port 25 (a
// relay, a port forward, or INBOUND_SMTP_HOST=0.0.0.0 INBOUND_SMTP_PORT=25 with the right to bind
// it). Like `npm run worker` it opens PostgreSQL, or the embedded database through a running
// server's operator socket (or owns the folder when no server runs). What it applies (a
// submission's answer) raises events; webhooks go out from whichever worker runs.
const DEFAULT_PORT = 2525;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openOperatorDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const deps = await buildDeps(config, logger, { db });
  const host = config.inboundSmtpHost ?? '127.0.0.1';
  let listener: Awaited<ReturnType<typeof startInboundSmtp>>;
  try {
    listener = await startInboundSmtp(deps, { host, port: config.inboundSmtpPort ?? DEFAULT_PORT });
  } catch (err) {
    await db.close();
    throw err;
  }
  const where = `${host.includes(':') ? `[${host}]` : host}:${listener.port}`;
  logger.info({ host, port: listener.port, engine: db.engine }, 'inbound smtp listening');
  process.stdout.write(`Deal-Funding inbound SMTP listening on ${where} (database: ${db.engine === 'pg' ? 'PostgreSQL' : db.viaServer ? 'embedded, through the running server' : `embedded, ${config.dataDir}`})\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'inbound smtp stopping: no new connections, finishing the messages in flight');
    void listener
      .close()
      .then(() => db.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Could not start the inbound SMTP listener: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
