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
  };
  if (mode === 'production') {
    if (!config.databaseUrl) throw new Error('DATABASE_URL is required when NODE_ENV=production');
    if (!config.secretKey || config.secretKey.length < 32) throw new Error('SECRET_KEY (at least 32 characters) is required when NODE_ENV=production');
  }
  return config;
}
