import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'error';
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, error: 2 };

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  error(msg: string): void;
}

/** Where log lines go; never stdout, which carries the CNI result. */
export type LogSink = (line: string) => void;

export function parseLogLevel(text: string | undefined): LogLevel {
  const v = (text ?? '').toLowerCase();
  return v === 'debug' || v === 'error' ? v : 'info';
}

/**
 * A line logger. Callers pass only messages they built themselves: never the stdin text, never a
 * kubeconfig, token or key (design/cni.md, "Logging").
 */
export function createLogger(opts: { level: LogLevel; sink: LogSink; file?: string; context: string }): Logger {
  let fileOk = opts.file !== undefined;
  if (opts.file !== undefined) {
    try {
      mkdirSync(dirname(opts.file), { recursive: true, mode: 0o755 });
    } catch {
      fileOk = false;
    }
  }
  const write = (level: LogLevel, msg: string): void => {
    if (RANK[level] < RANK[opts.level]) return;
    const line = `${new Date().toISOString()} [${level.toUpperCase()}] ${opts.context} ${msg}\n`;
    opts.sink(line);
    if (fileOk && opts.file !== undefined) {
      try {
        appendFileSync(opts.file, line, { mode: 0o644 });
      } catch {
        fileOk = false;
      }
    }
  };
  return { debug: (m) => write('debug', m), info: (m) => write('info', m), error: (m) => write('error', m) };
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined };
