import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isoUtc, type LogFields, type Logger } from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';
import { ensureDirectory, FILE_MODE, refuseKernelFilesystem, resolvedPath } from './safe-directory.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Where log lines go; never stdout, which carries the CNI result. */
export type LogSink = (line: string) => void;

export function parseLogLevel(text: string | undefined): LogLevel {
  const v = (text ?? '').toLowerCase();
  return v === 'debug' || v === 'error' ? v : 'info';
}

/**
 * Prepares `log_file_path`: a path under /proc or /sys, or with a file where a directory should be,
 * is a code-7 error; a directory we cannot create only turns file logging off, as before.
 */
function prepareLogFile(file: string): boolean {
  refuseKernelFilesystem(resolvedPath(file), 'log_file_path');
  try {
    ensureDirectory(dirname(file), 'log_file_path');
    return true;
  } catch (err) {
    if (err instanceof NetworkConfigError) throw err;
    return false;
  }
}

/**
 * A line logger. Callers pass only messages they built themselves: never the stdin text, never a
 * kubeconfig, token or key (design/cni.md, "Logging"); a message that quotes a client's error is
 * still passed through `redact` before it reaches stderr or the file (design/cni.md, "Redaction"),
 * and only for lines at or above the level, so debug lines that are dropped cost nothing. The log
 * file and its directories are created 0600 and 0700 (design/cni.md, "Directories and file modes").
 */
export function createLogger(opts: { level: LogLevel; sink: LogSink; file?: string; context: string; redact?: (text: string) => string }): Logger {
  let fileOk = opts.file !== undefined && prepareLogFile(opts.file);
  const write = (level: LogLevel, msg: string, fields?: LogFields): void => {
    if (RANK[level] < RANK[opts.level]) return;
    const full = fields === undefined ? msg : `${msg} ${JSON.stringify(fields)}`;
    const text = opts.redact === undefined ? full : opts.redact(full);
    const line = `${isoUtc(new Date())} [${level.toUpperCase()}] ${opts.context} ${text}\n`;
    opts.sink(line);
    if (fileOk && opts.file !== undefined) {
      try {
        appendFileSync(opts.file, line, { mode: FILE_MODE });
      } catch {
        fileOk = false;
      }
    }
  };
  return { debug: (m, f) => write('debug', m, f), info: (m, f) => write('info', m, f), warn: (m, f) => write('warn', m, f), error: (m, f) => write('error', m, f) };
}
