import { describe, expect, it } from 'vitest';
import { CLI_VERSION, runIpamCommand } from '../src/index.js';
import { Sink } from './fixtures.js';
import { golden } from './golden.js';

/** Runs a command line that never reaches a datastore: help, the version, or a misuse. */
async function ipamkit(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runIpamCommand(argv, { stdout, stderr, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

// Every command of the tree; the golden help texts were written by the commander-based CLI this
// parser replaced, so a match proves the help is unchanged (design/cli.md, "Command line").
const COMMANDS = [
  [], ['ipam'], ['datastore'], ['datastore', 'migrate'], ['install-cni'], ['get'], ['create'], ['apply'], ['replace'], ['delete'],
  ...['show', 'check', 'release', 'configure', 'split', 'explain', 'runway', 'what-if', 'migrate-pool'].map((c) => ['ipam', c]),
  ['datastore', 'migrate', 'export'], ['datastore', 'migrate', 'import'],
];
const helpFile = (path: readonly string[]): string => `help/${path.length === 0 ? 'ipamkit' : path.join('-')}.txt`;

describe('ipamkit command line', () => {
  it.each(COMMANDS)('%j --help, -h and help <command> print the same help on stdout and exit 0', async (...path) => {
    const help = await ipamkit([...path, '--help']);
    expect(help).toEqual({ code: 0, stdout: golden(helpFile(path), help.stdout), stderr: '' });
    expect(await ipamkit([...path, '-h'])).toEqual(help);
    if (path.length > 0) expect(await ipamkit([...path.slice(0, -1), 'help', path.at(-1) ?? ''])).toEqual(help);
  });

  it('prints the help of a command group on stderr and exits 2 when no subcommand is given', async () => {
    for (const path of [[], ['ipam'], ['datastore', 'migrate']]) {
      expect(await ipamkit(path)).toEqual({ code: 2, stdout: '', stderr: golden(helpFile(path), '') });
    }
    expect(await ipamkit(['help', 'bogus'])).toEqual({ code: 2, stdout: '', stderr: golden(helpFile([]), '') });
  });

  it('answers -V and --version wherever they stand, before any other flag is judged', async () => {
    for (const argv of [['-V'], ['--version'], ['ipam', 'show', '--version'], ['--version', '--bogus'], ['--bogus', '--version']]) {
      expect(await ipamkit(argv)).toEqual({ code: 0, stdout: `${CLI_VERSION}\n`, stderr: '' });
    }
  });

  it.each([
    [['ipam', 'show', '--bogus'], "error: unknown option '--bogus'\n"],
    [['ipam', 'show', '-xyz'], "error: unknown option '-xyz'\n"],
    [['ipam', 'show', '--show-blocks=x'], "error: unknown option '--show-blocks=x'\n(Did you mean --show-blocks?)\n"],
    [['ipam', 'show', '--hepl'], "error: unknown option '--hepl'\n(Did you mean --help?)\n"],
    [['--dtastore', 'x'], "error: unknown option '--dtastore'\n(Did you mean --datastore?)\n"],
    [['ipam', 'chek'], "error: unknown command 'chek'\n(Did you mean check?)\n"],
    [['ipam', 'frobnicate'], "error: unknown command 'frobnicate'\n"],
    [['ipam', 'show', '--ip'], "error: option '--ip <ip>' argument missing\n"],
    [['ipam', 'show', '-o'], "error: option '-o, --output <format>' argument missing\n"],
    [['--datastore'], "error: option '--datastore <type>' argument missing\n"],
    [['ipam', 'migrate-pool', 'plan', '--from', 'a'], "error: required option '--to <pool>' not specified\n"],
    [['datastore', 'migrate', 'import', '--bogus'], "error: required option '-f, --file <path>' not specified\n"],
    [['get'], "error: missing required argument 'kind'\n"],
    [['get', 'ippool', 'a', 'b'], "error: too many arguments for 'get'. Expected 2 arguments but got 3.\n"],
    [['ipam', 'split', '2', '3'], "error: too many arguments for 'split'. Expected 1 argument but got 2.\n"],
    [['ipam', 'show', '--', 'x'], "error: too many arguments for 'show'. Expected 0 arguments but got 1.\n"],
  ])('refuses %j with exit 2 and one error line', async (argv, stderr) => {
    expect(await ipamkit(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('reads flags in every form commander did: --flag=value, -ovalue, global flags after the command', async () => {
    for (const argv of [['ipam', 'show', '--output=yaml'], ['ipam', 'show', '-oyaml'], ['ipam', '--datastore', 'memory', 'show', '-o', 'yaml']]) {
      expect(await ipamkit(argv)).toEqual({ code: 2, stdout: '', stderr: 'unknown output format "yaml": use table or json\n' });
    }
    // A value flag takes the next argument even when it starts with a dash; a negative number is an argument.
    expect((await ipamkit(['--datastore', 'memory', 'ipam', 'show', '--ip', '--show-blocks'])).stderr).toBe('invalid IP address specified: --show-blocks\n');
    expect((await ipamkit(['--datastore', 'memory', 'ipam', 'split', '-4'])).stderr).toBe('number to split CIDR into is not a valid power of 2: -4\n');
    expect((await ipamkit(['ipam', 'show', '--datastore', 'bogus'])).stderr).toBe('--datastore must be one of etcdv3, kubernetes, sqlite, memory; got "bogus"\n');
  });
});
