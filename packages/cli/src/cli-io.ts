import type { Clock } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import { EXIT } from './exit-codes.js';
import type { DatastoreAccess } from './resources/datastore-access.js';

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

/** What a command produced: text for the terminal, the structured value for `-o json`, its exit status. */
export interface Produced {
  readonly text: string;
  readonly json: unknown;
  readonly exitCode?: number;
}

/** A command's work once the datastore is open; `sqlitePath` names the file behind a SQLite one. */
export type Task = (ctx: CommandContext & { readonly sqlitePath?: string }) => Promise<Produced>;

/**
 * The usual task: `compute` a result, print `render(result)`, or the result itself for `-o json`;
 * exit 1 when `failed(result)` (design/cli.md "Exit codes").
 */
export function renderedTask<R>(compute: (ctx: CommandContext) => Promise<R>, render: (result: R) => string, failed?: (result: R) => boolean): Task {
  return async (ctx) => {
    const result = await compute(ctx);
    return { text: render(result), json: result, ...(failed?.(result) === true ? { exitCode: EXIT.problems } : {}) };
  };
}
/** How an action hands its task to the runner, with whether `-o json` was asked and the access it needs. */
export type SetTask = (task: Task, json: boolean, access: DatastoreAccess) => void;
