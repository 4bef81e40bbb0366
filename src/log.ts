import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/** Paths pino blanks out: credentials never reach the log (SPEC 15). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-svc-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-svc-api-key"]',
  'headers.cookie',
  'password',
  'token',
  'key',
  'secret',
  '*.password',
  '*.token',
  '*.key',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
  'api_token',
  '*.api_token',
  'app_secret',
  '*.app_secret',
];

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'codrail' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
