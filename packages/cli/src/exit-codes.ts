import { DatastoreConfigError, DatastoreStorageError } from '@ipamkit/ipam-datastore';
import { DatastoreUnavailableError, UnauthorizedError } from '@ipamkit/models';
import { CliUsageError, DatastoreMissingError, InvalidIPArgumentError } from './errors.js';

/**
 * The `ipamkit` exit statuses (design/cli.md "Exit codes"): one table for every command, so a
 * script can tell "found problems" from "typed it wrong" from "could not reach the data".
 */
export const EXIT = {
  ok: 0,
  /** `ipam check` found problems, or the command failed (refused input, a failed write). */
  problems: 1,
  /** The command line or the datastore configuration is wrong; nothing was read or written. */
  usage: 2,
  /** The datastore is missing, unreachable or refused access. */
  unreachable: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit status an error ends the command with. */
export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CliUsageError || err instanceof InvalidIPArgumentError || err instanceof DatastoreConfigError) return EXIT.usage;
  if (err instanceof DatastoreMissingError || err instanceof DatastoreUnavailableError || err instanceof UnauthorizedError) return EXIT.unreachable;
  if (err instanceof DatastoreStorageError) return EXIT.unreachable;
  return EXIT.problems;
}
