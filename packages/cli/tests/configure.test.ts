import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './fixtures.js';
import { runCli } from './run-cli.js';

describe('ipam configure', () => {
  let ds: Datastore;
  const clock = new FakeClock();

  beforeEach(async () => {
    ds = await createDatastore({ type: 'memory' });
  });

  it('sets every given field and prints one line per flag in a fixed order', async () => {
    const run = await runCli(
      ['ipam', 'configure', '--ip-cooldown-seconds', '30', '--kubevirt-ip-persistence', 'Disabled', '--max-blocks-per-host', '4', '--strictaffinity', 'T'],
      ds,
      clock,
    );
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'Successfully set StrictAffinity to: true\nSuccessfully set MaxBlocksPerHost to: 4\n' +
        'Successfully set KubeVirtVMAddressPersistence to: Disabled\nSuccessfully set IPCooldownSeconds to: 30\n',
    });
    const stored = await ds.ipamConfig.get();
    expect({ ...stored, revision: '' }).toEqual({
      strictAffinity: true,
      autoAllocateBlocks: true,
      maxBlocksPerHost: 4,
      kubeVirtVMAddressPersistence: 'Disabled',
      ipCooldownSeconds: 30,
      revision: '',
    });
  });

  it.each([
    [['--strictaffinity', 'yes'], 'invalid value. Use true or false to set strictaffinity', 2],
    [['--max-blocks-per-host', 'four'], 'invalid value for maxblockhost. Use a valid number', 2],
    [['--kubevirt-ip-persistence', 'enabled'], 'invalid value for --kubevirt-ip-persistence. Use Enabled or Disabled', 2],
    [['--ip-cooldown-seconds', '1.5'], 'invalid value for --ip-cooldown-seconds. Use a valid number', 2],
    [[], 'at least one configuration option must be specified', 2],
    [['--max-blocks-per-host', '4'], 'MaxBlocksPerHost requires StrictAffinity to be enabled', 1],
    [['--ip-cooldown-seconds', '5000'], 'IPAMConfig is invalid: ipCooldownSeconds 5000 is outside 0–1200', 1],
  ])('refuses %j with a clear error and writes nothing', async (flags, message, code) => {
    const run = await runCli(['ipam', 'configure', ...flags], ds, clock);
    // A malformed flag is usage (2); values Calico's rules refuse are a failed command (1).
    expect(run.code).toBe(code);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${message}\n`);
    await expect(ds.ipamConfig.get()).rejects.toThrow();
  });

  it('refuses to disable strict affinity while auto-allocation is off', async () => {
    await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: false, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
    const run = await runCli(['ipam', 'configure', '--strictaffinity', 'false'], ds, clock);
    expect(run.stderr).toBe("Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time\n");
    expect((await ds.ipamConfig.get()).strictAffinity).toBe(true);
  });
});
