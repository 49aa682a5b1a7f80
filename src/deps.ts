import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/engine';
import type { Clock } from './lib/clock';
import type { SecretBox } from './lib/crypto';
import type { Storage } from './storage';

/** Everything a handler or service may use, injected once (tests swap the clock and database). */
export interface Deps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** AES-256-GCM for secrets at rest. */
  secrets: SecretBox;
  /** Where document bytes live: a local folder (embedded default) or S3-compatible storage (STORAGE_URL). */
  storage: Storage;
  /** The address partners and merchants reach this server at (upload, download and portal links). */
  publicBaseUrl: string;
  /** HMAC key for portal sessions and their CSRF tokens. */
  portalKey: string;
  /** HMAC key for tamper-evident pagination cursors. */
  cursorKey: string;
  /** Response validation against openapi.yaml (on in tests). */
  validateResponses?: boolean;
}
