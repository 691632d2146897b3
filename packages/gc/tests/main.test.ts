import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type InProcessRun, runMainInProcess } from '@ipamkit/test-utils';
import { main } from '../src/main.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const gc = (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<InProcessRun> => runMainInProcess(main, argv, env);

describe('ipamkit-gc main', () => {
  it('answers --version and --help with 0 and nothing on stderr', async () => {
    expect(await gc(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await gc(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ipamkit-gc: the ipamkit IPAM garbage collector\n\nUsage: ipamkit-gc \[--leak-grace-period 15m\]/);
  });

  it.each([
    [['--bogus'], /^ipamkit-gc: Unknown option '--bogus'/],
    [['--leak-grace-period', 'soon'], /^ipamkit-gc: invalid duration "soon"/],
    [['--metrics-port', 'nine'], /^ipamkit-gc: invalid metrics port: nine\n$/],
  ])('refuses %j with exit 1 and one line naming the bin', async (argv, stderr) => {
    const run = await gc(argv, { DATASTORE_TYPE: 'memory' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(stderr);
  });
});
