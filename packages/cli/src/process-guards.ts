import { datastoreSecrets, redactedErrorMessage } from '@ipamkit/ipam-datastore';
import { EXIT } from './exit-codes.js';

const isBrokenPipe = (err: unknown): boolean => (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';

/** The last word on an error nothing else caught: its redacted message, never a stack trace. */
export function fail(err: unknown): never {
  if (isBrokenPipe(err)) process.exit(EXIT.ok);
  try {
    process.stderr.write(`ipamkit: ${redactedErrorMessage(err, datastoreSecrets(process.env))}\n`);
  } finally {
    process.exit(EXIT.problems);
  }
}

/**
 * The bin's process guards (design/cli.md "Exit codes"): a reader that stops early (`ipamkit ipam
 * check | head -3`) closes stdout, and the EPIPE that follows ends the process quietly with status 0,
 * as `head` expects; anything unexpected prints one line and exits 1.
 */
export function guardProcess(): void {
  process.stdout.on('error', (err) => (isBrokenPipe(err) ? process.exit(EXIT.ok) : fail(err)));
  process.stderr.on('error', () => process.exit(process.exitCode ?? EXIT.ok));
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
}
