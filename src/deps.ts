import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/engine';
import type { Clock } from './lib/clock';
import type { SecretBox } from './lib/crypto';

/** Everything a handler or service may use, injected once (tests swap the clock and database). */
export interface Deps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** AES-256-GCM for secrets at rest. */
  secrets: SecretBox;
  /** HMAC key for tamper-evident pagination cursors. */
  cursorKey: string;
  /** Response validation against openapi.yaml (on in tests). */
  validateResponses?: boolean;
}
