import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type InProcessRun, runMainInProcess } from '@ipamkit/test-utils';
import { main } from '../src/main.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const lbAlloc = (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<InProcessRun> => runMainInProcess(main, argv, env);

describe('ipamkit-lb-alloc main', () => {
  it('answers --version and --help with 0 and nothing on stderr', async () => {
    expect(await lbAlloc(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await lbAlloc(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ipamkit-lb-alloc: assigns addresses from LoadBalancer IP pools to type: LoadBalancer Services\n\nUsage: ipamkit-lb-alloc \[--assign-ips /);
  });

  it.each([
    [['--bogus'], /^ipamkit-lb-alloc: Unknown option '--bogus'/],
    [['--full-sync-interval-seconds=-5'], /^ipamkit-lb-alloc: invalid full sync interval: -5\n$/],
    [['--metrics-port', 'nine'], /^ipamkit-lb-alloc: invalid metrics port: nine\n$/],
  ])('refuses %j with exit 1 and one line naming the bin', async (argv, stderr) => {
    const run = await lbAlloc(argv, { DATASTORE_TYPE: 'memory' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(stderr);
  });
});
