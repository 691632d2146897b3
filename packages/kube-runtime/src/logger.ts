import { jsonLineLogger, type Logger } from '@ipamkit/models';

export { type Logger, silentLogger } from '@ipamkit/models';

/** models' JSON-line logger on stderr (design/kube-runtime.md, "Logger"); debug lines only when `verbose`. */
export function stderrLogger(verbose = false, redact: (line: string) => string = (line) => line): Logger {
  return jsonLineLogger({ write: (line) => process.stderr.write(line), verbose, redact });
}
