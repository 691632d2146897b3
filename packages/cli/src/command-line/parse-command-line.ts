import { scanFlags } from '@ipamkit/models';
import { CliUsageError } from '../errors.js';
import { flagSpecOf, parseOption, VERSION_OPTION, type CommandSpec, type OptionValue, type OptionValues, type ParsedOption } from './command-spec.js';
import { helpOptions, renderHelp } from './render-help.js';
import { suggestSimilar } from './suggest-similar.js';

/**
 * The command line ends before any command runs: help or the version (exit 0, stdout), or a
 * misuse, help asked for by mistake included (exit 2, stderr). The text is printed as is.
 */
export class CommandLineEnd extends CliUsageError {
  override name = 'CommandLineEnd';
  constructor(readonly text: string, readonly exitCode: 0 | 2) {
    super(text);
  }
}

const misuse = (message: string): CommandLineEnd => new CommandLineEnd(`error: ${message}\n`, 2);
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/;

/** What the line asked for: the leaf's action, with the root's (global) options. */
export interface ParsedCommandLine {
  readonly globals: OptionValues;
  readonly run: () => void | Promise<void>;
}

interface Level {
  readonly path: readonly CommandSpec[];
  readonly version: string;
  /** The options of the commands above, the root's first. */
  readonly inherited: OptionValues;
  /** The root's options: the datastore flags. */
  readonly globals: OptionValues;
}

function optionsOf(level: Level): ParsedOption[] {
  const own = (level.path.at(-1)?.options ?? []).map(parseOption);
  return level.path.length === 1 ? [VERSION_OPTION, ...own] : own;
}

/** Reads one command's own flags off the line (design/cli.md, "Command line"): the rest goes on down. */
function readLevel(level: Level, argv: readonly string[], operandsIn: readonly string[]) {
  const options = optionsOf(level);
  const values: Record<string, OptionValue> = {};
  const lists = new Map(options.filter((o) => o.repeatable === true).map((o) => [o.key, [] as string[]]));
  for (const o of options) values[o.key] = lists.get(o.key) ?? o.default;
  const operands = [...operandsIn];
  const unknown: string[] = [];
  let dest = operands;
  const leaf = level.path.at(-1)?.commands === undefined;
  for (const arg of scanFlags(argv, flagSpecOf(options))) {
    if (arg.kind === 'end') {
      dest.push(...(dest === unknown ? ['--'] : []), ...arg.rest);
      break;
    }
    if (arg.kind !== 'flag') {
      if (dest === operands && arg.kind === 'unknown' && !(leaf && NEGATIVE_NUMBER.test(arg.text))) dest = unknown;
      dest.push(arg.text);
      continue;
    }
    const option = options.find((o) => o.long === arg.name);
    if (option === undefined || option === VERSION_OPTION) throw new CommandLineEnd(`${level.version}\n`, 0);
    if (arg.value === undefined) throw misuse(`option '${option.flags}' argument missing`);
    const list = lists.get(option.key);
    if (list === undefined) values[option.key] = arg.value;
    else list.push(String(arg.value));
  }
  return { options, values, operands, unknown };
}

function parseLevel(level: Level, argv: readonly string[], operandsIn: readonly string[]): ParsedCommandLine {
  const command = level.path.at(-1);
  if (command === undefined) throw new Error('empty command path');
  const { options, values, operands, unknown } = readLevel(level, argv, operandsIn);
  const merged = { ...level.inherited, ...values };
  const globals = level.path.length === 1 ? values : level.globals;
  const help = (exitCode: 0 | 2, path = level.path): CommandLineEnd => new CommandLineEnd(renderHelp(path, path.length === 1 ? [VERSION_OPTION] : []), exitCode);
  const sub = command.commands?.find((c) => c.name === operands[0]);
  if (sub !== undefined) return parseLevel({ ...level, path: [...level.path, sub], inherited: merged, globals }, unknown, operands.slice(1));
  if (command.commands !== undefined && operands[0] === 'help') {
    const named = operands[1] === undefined ? command : command.commands.find((c) => c.name === operands[1]);
    throw named === undefined ? help(2) : help(0, named === command ? level.path : [...level.path, named]);
  }
  if (command.commands !== undefined && operands.length === 0 && unknown.length === 0) throw help(2);
  if (unknown.some((arg) => arg === '-h' || arg === '--help')) throw help(0);
  const missing = options.find((o) => o.required === true && values[o.key] === undefined);
  if (missing !== undefined) throw misuse(`required option '${missing.flags}' not specified`);
  const [firstUnknown] = unknown;
  if (command.run !== undefined || operands.length === 0) {
    if (firstUnknown !== undefined) throw unknownOption(level, firstUnknown);
  }
  if (command.run === undefined) {
    throw operands[0] === undefined ? help(2) : misuse(`unknown command '${operands[0]}'${suggestSimilar(operands[0], [...(command.commands ?? []).map((c) => c.name), 'help'])}`);
  }
  const declared = command.arguments ?? [];
  const absent = declared.find((a, i) => a.optional !== true && operands[i] === undefined);
  if (absent !== undefined) throw misuse(`missing required argument '${absent.name}'`);
  if (operands.length > declared.length) {
    throw misuse(`too many arguments for '${command.name}'. Expected ${declared.length} argument${declared.length === 1 ? '' : 's'} but got ${operands.length}.`);
  }
  const run = command.run;
  return { globals, run: () => run(merged, operands) };
}

function unknownOption(level: Level, flag: string): CommandLineEnd {
  const candidates = level.path.flatMap((command, i) => helpOptions(command, i === 0 ? [VERSION_OPTION] : []).map((o) => `--${o.long}`));
  return misuse(`unknown option '${flag}'${flag.startsWith('--') ? suggestSimilar(flag, candidates) : ''}`);
}

/**
 * Parses `ipamkit <argv>` over the command tree, as the CLI always has: each command reads its own
 * flags wherever they stand and hands the rest to the subcommand the first word names; `-h`/`--help`
 * and `help [command]` print help, `-V`/`--version` the version (design/cli.md, "Command line").
 */
export function parseCommandLine(root: CommandSpec, argv: readonly string[], version: string): ParsedCommandLine {
  return parseLevel({ path: [root], version, inherited: {}, globals: {} }, argv, []);
}
