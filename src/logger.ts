import pino, { type Logger } from 'pino';

/** Secrets and PII never reach the logs: these paths are censored wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization', 'headers.authorization', 'authorization', 'Authorization',
  '*.authorization', '*.Authorization', 'key', '*.key', 'token', '*.token', 'secret', '*.secret', '*.*.secret',
  'ssn', '*.ssn', '*.*.ssn', 'dob', '*.dob', '*.*.dob', 'api_credentials', '*.api_credentials',
  'password', '*.password', 'body.ssn', 'body.dob', 'body.api_credentials',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: undefined }, destination);
}
