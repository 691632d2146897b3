/** Structured log sink; `fields.type` carries the tunnel attribute value, as Calico logs it. */
export interface TunnelLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: TunnelLogger = {
  info: () => undefined,
  warn: () => undefined,
};

/** One JSON line per entry on `write` (the bin passes stderr). */
export function jsonLineLogger(write: (line: string) => void, clock: () => Date = () => new Date()): TunnelLogger {
  const emit = (level: string, message: string, fields: Record<string, unknown> = {}): void => {
    write(`${JSON.stringify({ time: clock().toISOString(), level, msg: message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
  };
}
