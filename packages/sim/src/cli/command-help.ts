import type { FlagSpec } from '@ipamkit/models';

/** One flag's line in a command's help: the value it takes (none for a switch), its default, what it does. */
export interface FlagHelp {
  readonly value?: string;
  readonly default?: string | number;
  readonly description: string;
}

/** A command's help: keyed by its flag spec, so a flag added to the spec without help does not compile. */
export interface CommandHelp<S extends FlagSpec> {
  readonly usage: string;
  readonly summary: string;
  readonly flags: { readonly [K in keyof S]: FlagHelp };
}

const HELP_FLAGS: readonly string[] = ['--help', '-h'];

/** `--help` or `-h` anywhere among a command's arguments: help wins over every other flag, valid or not. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.some((a) => HELP_FLAGS.includes(a));
}

/** The help text: usage, summary, then one aligned line per flag in spec order, `-h, --help` last. */
export function renderCommandHelp<S extends FlagSpec>(help: CommandHelp<S>): string {
  const rows: [string, string][] = Object.entries<FlagHelp>(help.flags).map(([name, flag]) => [
    flag.value === undefined ? `--${name}` : `--${name} ${flag.value}`,
    flag.default === undefined ? flag.description : `${flag.description} (default ${flag.default})`,
  ]);
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  return `usage: ${help.usage}\n\n${help.summary}\n\nflags:\n${lines.join('\n')}\n`;
}
