import { HELP_OPTION, parseOption, type CommandSpec, type ParsedOption } from './command-spec.js';

const HELP_WIDTH = 80;

/** Greedy word wrap to `width` columns (design/cli.md, "Command line"). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

const argumentUsage = (command: CommandSpec): string[] => (command.arguments ?? []).map((a) => (a.optional === true ? `[${a.name}]` : `<${a.name}>`));

/** Every option help lists for a command: its own, then help (and the version first, for the root). */
export function helpOptions(command: CommandSpec, extra: readonly ParsedOption[]): ParsedOption[] {
  return [...extra, ...(command.options ?? []).map(parseOption), HELP_OPTION];
}

function optionDescription(option: ParsedOption): string {
  if (option.repeatable === true) return `${option.description} (default: [])`;
  return option.default === undefined ? option.description : `${option.description} (default: ${JSON.stringify(option.default)})`;
}

/** `ipamkit <path> --help`: usage, description, then the arguments, options and subcommands in aligned columns. */
export function renderHelp(path: readonly CommandSpec[], extra: readonly ParsedOption[]): string {
  const command = path.at(-1) ?? path[0];
  if (command === undefined) return '';
  const sections: [string, [string, string][]][] = [
    ['Arguments:', (command.arguments ?? []).map((a) => [a.name, a.description])],
    ['Options:', helpOptions(command, extra).map((o) => [o.flags, optionDescription(o)])],
    ['Commands:', command.commands === undefined ? [] : [
      ...command.commands.map((c): [string, string] => [[c.name, ...(c.options?.length ? ['[options]'] : []), ...argumentUsage(c)].join(' '), c.description]),
      ['help [command]', 'display help for command'],
    ]],
  ];
  const termWidth = Math.max(...sections.flatMap(([, items]) => items.map(([term]) => term.length)));
  const usage = [...path.map((c) => c.name), '[options]', ...(command.commands === undefined ? [] : ['[command]']), ...argumentUsage(command)];
  const lines = [`Usage: ${usage.join(' ')}`, '', ...wrap(command.description, HELP_WIDTH), ''];
  for (const [heading, items] of sections) {
    if (items.length === 0) continue;
    lines.push(heading);
    for (const [term, description] of items) {
      const [first, ...rest] = wrap(description, HELP_WIDTH - termWidth - 4);
      lines.push(`  ${term.padEnd(termWidth)}  ${first ?? ''}`, ...rest.map((l) => `${' '.repeat(termWidth + 4)}${l}`));
    }
    lines.push('');
  }
  return lines.join('\n');
}
