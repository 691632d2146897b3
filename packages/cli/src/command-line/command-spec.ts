import type { FlagSpec } from '@ipamkit/models';

/** What a command's action reads: each flag by its camel-cased long name (`--show-blocks` → `showBlocks`). */
export type OptionValue = string | boolean | readonly string[] | undefined;
export type OptionValues = Readonly<Record<string, OptionValue>>;

export interface OptionSpec {
  /** As help shows it, e.g. `-o, --output <format>`; a `<value>` makes it a string flag, else a switch. */
  readonly flags: string;
  readonly description: string;
  readonly default?: string;
  /** Each use adds a value to a list (default: []). */
  readonly repeatable?: true;
  /** The command refuses to run without it. */
  readonly required?: true;
}

export interface ArgumentSpec {
  readonly name: string;
  readonly description: string;
  readonly optional?: true;
}

/**
 * One command of the `ipamkit` tree (design/cli.md, "Command line"): a group of subcommands, or a
 * leaf whose `run` gets its options (with the global ones) and its arguments.
 */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options?: readonly OptionSpec[];
  readonly arguments?: readonly ArgumentSpec[];
  readonly commands?: readonly CommandSpec[];
  readonly run?: (options: OptionValues, args: readonly (string | undefined)[]) => void | Promise<void>;
}

/** A leaf command whose action declares the options it reads. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- O is the action's own view of its options (as commander's action typing was); naming it once here keeps the one cast in this file
export function leafCommand<O extends object>(
  spec: Omit<CommandSpec, 'run' | 'commands'> & { readonly run: (options: O, args: readonly (string | undefined)[]) => void | Promise<void> },
): CommandSpec {
  return { ...spec, run: (options, args) => spec.run(options as O, args) };
}

/** An option's names, read from its flags. */
export interface ParsedOption extends OptionSpec {
  readonly short?: string;
  readonly long: string;
  readonly key: string;
  readonly takesValue: boolean;
}

export function parseOption(option: OptionSpec): ParsedOption {
  const match = /^(?:-(\w), )?--([\w-]+)( <[^>]+>)?$/.exec(option.flags);
  const long = match?.[2];
  if (match === null || long === undefined) throw new Error(`bad option flags ${JSON.stringify(option.flags)}`);
  const key = long.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
  return { ...option, ...(match[1] === undefined ? {} : { short: match[1] }), long, key, takesValue: match[3] !== undefined };
}

export const HELP_OPTION = parseOption({ flags: '-h, --help', description: 'display help for command' });
export const VERSION_OPTION = parseOption({ flags: '-V, --version', description: 'output the version number' });

/** The options a command reads on its own line, as `parseArgs` declares them. */
export function flagSpecOf(options: readonly ParsedOption[]): FlagSpec {
  return Object.fromEntries(options.map((o) => [o.long, { type: o.takesValue ? 'string' : 'boolean', ...(o.short === undefined ? {} : { short: o.short }) }]));
}
