/** The controller's log sink; the bin writes JSON lines to stderr, tests pass a silent one. */
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

/**
 * JSON lines on stderr; debug lines only when `verbose`. `redact` rewrites each line before it is
 * written: the bin passes the datastore's secret redaction, since fields carry raw client errors.
 */
export function stderrLogger(verbose = false, redact: (line: string) => string = (line) => line): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
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
