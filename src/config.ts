import type { AttachmentLimits } from './features/inbound/attachments';
import { DEFAULT_KEEP_ALIVE_MS } from './http/keep-alive';

/** Typed process configuration, read once from the environment. */
export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** PostgreSQL when set; otherwise the embedded engine in `dataDir`. */
  databaseUrl?: string;
  /**
   * PostgreSQL: where the credential listener connects (DATABASE_LISTEN_URL, default DATABASE_URL).
   * LISTEN needs a session: behind a transaction-mode pooler point this at PostgreSQL directly (or a
   * session-mode pool). Without notifications reaching the process its credential cache stays off.
   */
  databaseListenUrl?: string;
  dataDir: string;
  /** Key material for cursor signatures and AES-256-GCM secrets at rest. */
  secretKey?: string;
  logLevel: string;
  publicBaseUrl?: string;
  /**
   * Express `trust proxy`: which proxies' X-Forwarded-For to believe for the client address (used
   * to throttle failed authentication per client). Unset: the socket's address. Behind a load
   * balancer set it (`1` for one hop, `loopback`, or a list of CIDRs), or every client shares one.
   */
  trustProxy?: boolean | number | string;
  /**
   * Run the background worker (webhook delivery, email, later jobs) inside the API process
   * (START_WORKER, default true). Set false on API processes when workers run apart (`npm run worker`).
   */
  startWorker: boolean;
  /** Deliveries and jobs a worker has in flight at once (WORKER_CONCURRENCY, default 32). */
  workerConcurrency?: number;
  /** A worker's idle wait between polls in ms (WORKER_POLL_MS, default 200): the bound on an idle worker's pick-up delay. */
  workerPollMs?: number;
  /** How long an idle keep-alive connection stays open, in ms (HTTP_KEEP_ALIVE_MS, default 65000: past a load balancer's usual 60 s; src/http/keep-alive.ts). */
  httpKeepAliveMs: number;
  /**
   * The self-hosted SMTP listener for lender replies (`npm run inbound-smtp`): its port
   * (INBOUND_SMTP_PORT; unset: not configured, the standalone process then uses 2525) and the
   * address it binds (INBOUND_SMTP_HOST, default 127.0.0.1; `0.0.0.0` to be reachable as an MX).
   */
  inboundSmtpPort?: number;
  inboundSmtpHost?: string;
  /**
   * Lender replies are applied unseen only from an authenticated sender (src/features/inbound/sender-auth.ts).
   * The authserv-ids whose Authentication-Results header is believed (INBOUND_TRUSTED_AUTHSERV_ID,
   * comma-separated: the inbound provider or relay in front of us); none by default.
   */
  inboundTrustedAuthservIds?: string[];
  /** Addresses of relays in front of the SMTP listener (INBOUND_SMTP_TRUSTED_RELAYS, comma-separated): their messages are judged by that header, not by the listener's own SPF/DKIM check. */
  inboundSmtpTrustedRelays?: string[];
  /** The SMTP listener's volume limits (INBOUND_SMTP_* below; see smtp-listener.ts). */
  inboundSmtpLimits?: Partial<InboundSmtpLimits>;
  /** Bounds on reading a reply's PDF attachments (src/features/inbound/attachments.ts); the defaults there, a setting for tests. */
  inboundAttachmentLimits?: Partial<AttachmentLimits>;
  /** Files of a matched reply filed as documents (src/features/inbound/email-documents.ts): at most maxFiles per message (10), each at most maxBytes (25 MB, the upload limit); a setting for tests. */
  inboundDocumentLimits?: { maxFiles?: number; maxBytes?: number };
  /** Days an unmatched reply keeps its raw message before the maintenance sweep empties it (INBOUND_UNMATCHED_RAW_DAYS, default 30). */
  inboundUnmatchedRawDays?: number;
  /**
   * Where document bytes are kept (STORAGE_URL): unset, the local folder `${dataDir}/files` served by
   * this server's signed upload and download routes; `s3://bucket?endpoint=...&region=...` for
   * S3-compatible object storage (credentials from the AWS SDK's usual environment variables).
   */
  storageUrl?: string;
  /**
   * The local storage routes' own bounds (they stream for minutes, outside OVERLOAD_*): uploads
   * (STORAGE_MAX_CONCURRENT_UPLOADS, default 16) and downloads (STORAGE_MAX_CONCURRENT_DOWNLOADS,
   * default 16) streaming at once; beyond either, `503 overloaded` with Retry-After.
   */
  storageLimits: { maxConcurrentUploads: number; maxConcurrentDownloads: number };
  /** JSON file of the operator's HTTP funder integrations (src/features/lenders/funder-specs.ts). */
  funderIntegrationsFile?: string;
  /**
   * JSON file of the operator's statement-analysis rows (STATEMENT_RULES_FILE), added to the
   * built-in table of funders, processors, NSF and transfer descriptors (src/features/statements/rules.ts).
   */
  statementRulesFile?: string;
  /**
   * Load shedding (src/http/overload.ts): requests worked on at once (OVERLOAD_MAX_CONCURRENT,
   * default 32), requests that may wait for a turn (OVERLOAD_MAX_QUEUE, default 256), and how long
   * one may wait (OVERLOAD_QUEUE_MS, default 5000). Beyond either, `503 overloaded` at once.
   */
  overload: { maxConcurrent: number; maxQueue: number; queueTimeoutMs: number; retryAfterSeconds: number };
  /**
   * PostgreSQL: connections per process (DB_POOL_MAX, default 10), the longest one statement may run
   * (DB_STATEMENT_TIMEOUT_MS, default 5000; also the longest a transaction may sit idle), and the
   * longest a request waits for a free connection (DB_ACQUIRE_TIMEOUT_MS, default 5000).
   */
  db: { poolMax: number; statementTimeoutMs: number; acquireTimeoutMs: number };
  /**
   * The embedded engine's operator socket (src/db/embedded-socket.ts): the longest an operator tool
   * (CLI, seed) may hold the server's one database connection, one statement or transaction, before
   * it is cut off and rolled back (OPERATOR_HOLD_TIMEOUT_MS, default 15000).
   */
  operatorHoldTimeoutMs: number;
}

/** The SMTP listener's limits: per window (`windowMs`) per client address and per location, and per UTC day per location. */
export interface InboundSmtpLimits {
  windowMs: number;
  clientMessages: number;
  clientBytes: number;
  locationMessages: number;
  locationBytes: number;
  locationDailyBytes: number;
}

const list = (v: string | undefined) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  if (!v) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  return /^\d+$/.test(v) ? Number(v) : v;
}

function parsePositiveInt(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return n;
}

function parseCount(v: string | undefined, name: string): number | undefined {
  if (v === '0') return 0;
  return parsePositiveInt(v, name);
}

function parsePort(v: string | undefined, name: string): number | undefined {
  const n = parsePositiveInt(v, name);
  if (n !== undefined && n > 65535) throw new Error(`${name} must be a port number (1-65535), got ${v}`);
  return n;
}

function parseBool(v: string | undefined, name: string, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new Error(`${name} must be true or false, got ${v}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const config: Config = {
    env: mode,
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseListenUrl: env.DATABASE_LISTEN_URL || undefined,
    dataDir: env.DATA_DIR || './.data',
    secretKey: env.SECRET_KEY || undefined,
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    startWorker: parseBool(env.START_WORKER, 'START_WORKER', true),
    workerConcurrency: parsePositiveInt(env.WORKER_CONCURRENCY, 'WORKER_CONCURRENCY'),
    workerPollMs: parsePositiveInt(env.WORKER_POLL_MS, 'WORKER_POLL_MS'),
    httpKeepAliveMs: parsePositiveInt(env.HTTP_KEEP_ALIVE_MS, 'HTTP_KEEP_ALIVE_MS') ?? DEFAULT_KEEP_ALIVE_MS,
    inboundSmtpPort: parsePort(env.INBOUND_SMTP_PORT, 'INBOUND_SMTP_PORT'),
    inboundSmtpHost: env.INBOUND_SMTP_HOST || '127.0.0.1',
    inboundTrustedAuthservIds: list(env.INBOUND_TRUSTED_AUTHSERV_ID),
    inboundSmtpTrustedRelays: list(env.INBOUND_SMTP_TRUSTED_RELAYS),
    inboundSmtpLimits: Object.fromEntries(
      Object.entries({
        windowMs: parsePositiveInt(env.INBOUND_SMTP_WINDOW_MS, 'INBOUND_SMTP_WINDOW_MS'),
        clientMessages: parsePositiveInt(env.INBOUND_SMTP_CLIENT_MESSAGES, 'INBOUND_SMTP_CLIENT_MESSAGES'),
        clientBytes: parsePositiveInt(env.INBOUND_SMTP_CLIENT_BYTES, 'INBOUND_SMTP_CLIENT_BYTES'),
        locationMessages: parsePositiveInt(env.INBOUND_SMTP_LOCATION_MESSAGES, 'INBOUND_SMTP_LOCATION_MESSAGES'),
        locationBytes: parsePositiveInt(env.INBOUND_SMTP_LOCATION_BYTES, 'INBOUND_SMTP_LOCATION_BYTES'),
        locationDailyBytes: parsePositiveInt(env.INBOUND_SMTP_LOCATION_DAILY_BYTES, 'INBOUND_SMTP_LOCATION_DAILY_BYTES'),
      }).filter(([, v]) => v !== undefined),
    ) as Partial<InboundSmtpLimits>,
    inboundUnmatchedRawDays: parsePositiveInt(env.INBOUND_UNMATCHED_RAW_DAYS, 'INBOUND_UNMATCHED_RAW_DAYS'),
    funderIntegrationsFile: env.FUNDER_INTEGRATIONS_FILE || undefined,
    statementRulesFile: env.STATEMENT_RULES_FILE || undefined,
    storageUrl: env.STORAGE_URL || undefined,
    storageLimits: {
      maxConcurrentUploads: parsePositiveInt(env.STORAGE_MAX_CONCURRENT_UPLOADS, 'STORAGE_MAX_CONCURRENT_UPLOADS') ?? 16,
      maxConcurrentDownloads: parsePositiveInt(env.STORAGE_MAX_CONCURRENT_DOWNLOADS, 'STORAGE_MAX_CONCURRENT_DOWNLOADS') ?? 16,
    },
    overload: {
      maxConcurrent: parsePositiveInt(env.OVERLOAD_MAX_CONCURRENT, 'OVERLOAD_MAX_CONCURRENT') ?? 32,
      maxQueue: parseCount(env.OVERLOAD_MAX_QUEUE, 'OVERLOAD_MAX_QUEUE') ?? 256,
      queueTimeoutMs: parsePositiveInt(env.OVERLOAD_QUEUE_MS, 'OVERLOAD_QUEUE_MS') ?? 5000,
      retryAfterSeconds: 1,
    },
    db: {
      poolMax: parsePositiveInt(env.DB_POOL_MAX, 'DB_POOL_MAX') ?? 10,
      statementTimeoutMs: parsePositiveInt(env.DB_STATEMENT_TIMEOUT_MS, 'DB_STATEMENT_TIMEOUT_MS') ?? 5000,
      acquireTimeoutMs: parsePositiveInt(env.DB_ACQUIRE_TIMEOUT_MS, 'DB_ACQUIRE_TIMEOUT_MS') ?? 5000,
    },
    operatorHoldTimeoutMs: parsePositiveInt(env.OPERATOR_HOLD_TIMEOUT_MS, 'OPERATOR_HOLD_TIMEOUT_MS') ?? 15_000,
  };
  if (mode === 'production') {
    if (!config.databaseUrl) throw new Error('DATABASE_URL is required when NODE_ENV=production');
    if (!config.secretKey || config.secretKey.length < 32) throw new Error('SECRET_KEY (at least 32 characters) is required when NODE_ENV=production');
  }
  return config;
}
