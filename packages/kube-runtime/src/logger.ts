/** A controller's log sink; bins write JSON lines to stderr, tests pass a silent one. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  debug: () => undefined,
};

/** bigints (sequence numbers) as decimal strings: JSON has no bigint. */
const bigintAsString = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/**
 * JSON lines (`time`, `level`, `msg`, fields) on stderr; debug lines only when `verbose`. `redact`
 * rewrites each line before it is written: bins pass the datastore's secret redaction, since fields
 * carry raw client errors.
 */
export function stderrLogger(verbose = false, redact: (line: string) => string = (line) => line): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }, bigintAsString);
    process.stderr.write(`${redact(line)}\n`);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    debug: (m, f) => {
      if (verbose) write('debug', m, f);
    },
  };
}
