import { describe, expect, it } from 'vitest';
import { HAMMER_SPEC } from '../src/cli/hammer-command.js';
import { HAMMER_HELP } from '../src/cli/hammer-help.js';
import { main, USAGE } from '../src/cli/main.js';
import { RUN_SPEC } from '../src/cli/run-command.js';
import { RUN_HELP } from '../src/cli/run-help.js';
import { HAMMER_DEFAULTS } from '../src/hammer/hammer-options.js';
import { RUN_DEFAULTS } from '../src/run/run-options.js';

/** `main` with collecting streams: nothing here reaches a datastore, so no build is needed. */
async function sim(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** The flag names a help text lists, in order: `--name` at the start of each flag line. */
function listedFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-h, )?--([a-z-]+)/gm)].map((m) => m[1]!);
}

function flagLine(help: string, name: string): string {
  const line = help.split('\n').find((l) => l.startsWith(`  --${name} `));
  expect(line, `--${name} in the help`).toBeDefined();
  return line!;
}

describe('ipamkit-sim help', () => {
  it.each([
    { argv: ['run', '--help'], code: 0, stdout: RUN_HELP, stderr: '' },
    { argv: ['run', '-h'], code: 0, stdout: RUN_HELP, stderr: '' },
    { argv: ['hammer', '--help'], code: 0, stdout: HAMMER_HELP, stderr: '' },
    // --nodes 3 with the default 2000 pods would be rejected: help wins, nothing is validated or run.
    { argv: ['run', '--nodes', '3', '--help'], code: 0, stdout: RUN_HELP, stderr: '' },
    { argv: ['hammer', '--no-such-flag', '-h'], code: 0, stdout: HAMMER_HELP, stderr: '' },
    { argv: ['--help'], code: 0, stdout: USAGE, stderr: '' },
    { argv: ['help'], code: 0, stdout: USAGE, stderr: '' },
    { argv: [], code: 2, stdout: USAGE, stderr: '' },
    { argv: ['deploy'], code: 2, stdout: '', stderr: `unknown command "deploy"\n${USAGE}` },
    {
      argv: ['run', '--bogus'],
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^ipamkit-sim: SimConfigError: Unknown option '--bogus'/),
    },
    {
      argv: ['hammer', '--processes', '2', '--nodes', '4'],
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^ipamkit-sim: SimConfigError: Unknown option '--nodes'/),
    },
  ])('ipamkit-sim $argv exits $code', async ({ argv, code, stdout, stderr }) => {
    expect(await sim(argv)).toEqual({ code, stdout, stderr });
  });

  it('starts each command help with its usage and names the exit codes', () => {
    expect(RUN_HELP.startsWith('usage: ipamkit-sim run [flags]\n')).toBe(true);
    expect(HAMMER_HELP.startsWith('usage: ipamkit-sim hammer [flags]\n')).toBe(true);
    for (const help of [RUN_HELP, HAMMER_HELP]) expect(help).toContain('2 on a bad flag');
  });

  it.each([
    { command: 'run', help: RUN_HELP, spec: RUN_SPEC },
    { command: 'hammer', help: HAMMER_HELP, spec: HAMMER_SPEC },
  ])('$command --help lists exactly the flags its spec accepts, then --help', ({ help, spec }) => {
    expect(listedFlags(help)).toEqual([...Object.keys(spec), 'help']);
  });

  it.each([
    { help: RUN_HELP, flag: 'nodes', value: RUN_DEFAULTS.nodes },
    { help: RUN_HELP, flag: 'pods', value: RUN_DEFAULTS.pods },
    { help: RUN_HELP, flag: 'churn', value: RUN_DEFAULTS.churn },
    { help: RUN_HELP, flag: 'datastore', value: RUN_DEFAULTS.datastore },
    { help: RUN_HELP, flag: 'services', value: RUN_DEFAULTS.services },
    { help: RUN_HELP, flag: 'grace-ms', value: RUN_DEFAULTS.gracePeriodMs },
    { help: RUN_HELP, flag: 'seed', value: RUN_DEFAULTS.seed },
    { help: HAMMER_HELP, flag: 'processes', value: HAMMER_DEFAULTS.processes },
    { help: HAMMER_HELP, flag: 'ops', value: HAMMER_DEFAULTS.ops },
    { help: HAMMER_HELP, flag: 'kill-rate', value: HAMMER_DEFAULTS.killRate },
    { help: HAMMER_HELP, flag: 'datastore', value: HAMMER_DEFAULTS.datastore },
    { help: HAMMER_HELP, flag: 'pods-per-process', value: HAMMER_DEFAULTS.podsPerProcess },
    { help: HAMMER_HELP, flag: 'grace-ms', value: HAMMER_DEFAULTS.gracePeriodMs },
    { help: HAMMER_HELP, flag: 'seed', value: HAMMER_DEFAULTS.seed },
  ])('prints the real default of --$flag ($value)', ({ help, flag, value }) => {
    expect(flagLine(help, flag).endsWith(`(default ${value})`)).toBe(true);
  });

  it('explains the flags that take no value or have no default', () => {
    expect(flagLine(RUN_HELP, 'spawn')).toContain('calico-ipam bin');
    expect(flagLine(RUN_HELP, 'sqlite-path FILE')).toContain('temp file');
    expect(flagLine(HAMMER_HELP, 'restart-etcd')).toContain('implies --datastore etcd');
    expect(flagLine(HAMMER_HELP, 'json FILE')).toContain('JSON');
  });

  it('keeps the overall usage naming every flag of both commands', () => {
    for (const name of [...Object.keys(RUN_SPEC), ...Object.keys(HAMMER_SPEC)]) expect(USAGE).toContain(`[--${name}`);
  });
});
