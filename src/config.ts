/** Typed process configuration, read once from the environment. */
export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** PostgreSQL when set; otherwise the embedded engine in `dataDir`. */
  databaseUrl?: string;
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
}

function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  if (!v) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  return /^\d+$/.test(v) ? Number(v) : v;
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
    dataDir: env.DATA_DIR || './.data',
    secretKey: env.SECRET_KEY || undefined,
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
  if (mode === 'production') {
    if (!config.databaseUrl) throw new Error('DATABASE_URL is required when NODE_ENV=production');
    if (!config.secretKey || config.secretKey.length < 32) throw new Error('SECRET_KEY (at least 32 characters) is required when NODE_ENV=production');
  }
  return config;
}
