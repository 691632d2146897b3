import type { Clock } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import { runIpamCommand } from '../src/index.js';
import { Sink } from './fixtures.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one command in-process against an open datastore. */
export async function runCli(argv: readonly string[], datastore: Datastore, clock: Clock): Promise<CliRun> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runIpamCommand(argv, { datastore, clock, stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
