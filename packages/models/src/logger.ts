import { type Clock, systemClock } from './clock.js';
import { isoUtc } from './iso-utc.js';

/** Structured fields of one log line. */
export type LogFields = Record<string, unknown>;

/** The one log interface of the workspace (design/models.md, "Logger"); each bin picks the sink. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** bigints (sequence numbers) as decimal strings: JSON has no bigint. */
const bigintAsString = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/**
 * One JSON line (`time`, `level`, `msg`, fields) per entry on `write`; debug lines only when
 * `verbose`. `redact` rewrites each line before it is written: bins pass the datastore's secret
 * redaction, since fields carry raw client errors.
 */
export function jsonLineLogger(options: { write: (line: string) => void; verbose?: boolean; redact?: (line: string) => string; clock?: Clock }): Logger {
  const { write, clock = systemClock } = options;
  const redact = options.redact ?? ((line: string): string => line);
  const emit = (level: string, message: string, fields?: LogFields): void => {
    write(`${redact(JSON.stringify({ time: isoUtc(clock.now()), level, msg: message, ...fields }, bigintAsString))}\n`);
  };
  return {
    debug: (m, f) => {
      if (options.verbose === true) emit('debug', m, f);
    },
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
