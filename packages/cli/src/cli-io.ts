import type { Clock } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';

/** Anything text can be written to: `process.stdout`, or a collector in tests. */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * What a command runs against. Tests and the simulator pass an open `datastore` (which the command
 * then leaves open); the bin leaves it out and the datastore comes from flags or the environment.
 */
export interface CliIo {
  readonly datastore?: Datastore;
  readonly clock?: Clock;
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Where `DATASTORE_TYPE` and friends are read from when no datastore is given; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** What `-f -` reads; default process.stdin. */
  readonly stdin?: NodeJS.ReadableStream;
}

/** What the individual commands need: an open datastore and a clock. */
export interface CommandContext {
  readonly datastore: Datastore;
  readonly clock: Clock;
}
