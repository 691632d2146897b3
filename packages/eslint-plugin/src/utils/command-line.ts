import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What a command of the plugin's bins reads and writes: the process in `cli.ts`, collectors in tests. */
export interface CommandIo {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses a command line strictly with `node:util` `parseArgs` (the flag style of design/README.md,
 * "One way to do each thing"; the plugin cannot import models' helper, which it lints). Answers the
 * values, or the exit code once the usage was printed: 0 for `--help` or `-h`, 2 for a bad flag.
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O, command: { name: string; usage: string }, io: CommandIo): Values<O> | number {
  try {
    // parseArgs cannot infer through the spread of a generic O; the values are O's plus `help`.
    const { values } = parseArgs({ args: [...argv], options: { ...options, ...HELP }, strict: true, allowPositionals: false }) as { values: Values<O> & { help?: boolean } };
    if (values.help !== true) return values;
    io.out(command.usage);
    return 0;
  } catch (error) {
    io.err(`${command.name}: ${error instanceof Error ? error.message : String(error)}`);
    io.err(command.usage);
    return 2;
  }
}

/** The whole of a bin's `cli.ts`: runs the command on the process and sets its exit code. */
export function runCommandBin(command: (argv: readonly string[], io: CommandIo) => number): void {
  process.exitCode = command(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
