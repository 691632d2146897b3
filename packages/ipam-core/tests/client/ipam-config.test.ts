import { ConflictError, IPAMConfigConflictError, StrictAffinityError, ValidationError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { createIpamClient } from '../../src/index.js';
import { BACKENDS, useBackends, world } from './fixtures.js';

useBackends();

const base = { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };

describe.each(BACKENDS)('IPAM config on $name', (backend) => {
  it('returns the defaults without storing them when none exists', async () => {
    const { ds, ipam } = await world(backend);
    expect(await ipam.getIPAMConfig()).toEqual({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, kubeVirtVMAddressPersistence: 'Enabled', ipCooldownSeconds: 0 });
    await expect(ds.ipamConfig.get()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('stores, updates and reads back a config', async () => {
    const { ipam } = await world(backend);
    await ipam.setIPAMConfig({ ...base, maxBlocksPerHost: 4 });
    expect(await ipam.getIPAMConfig()).toEqual({ ...base, maxBlocksPerHost: 4 });
    await ipam.setIPAMConfig({ ...base, ipCooldownSeconds: 30, kubeVirtVMAddressPersistence: 'Disabled' });
    expect(await ipam.getIPAMConfig()).toEqual({ ...base, ipCooldownSeconds: 30, kubeVirtVMAddressPersistence: 'Disabled' });
  });

  it.each([
    [{ ...base, strictAffinity: false, autoAllocateBlocks: false }, IPAMConfigConflictError, "Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time"],
    [{ ...base, strictAffinity: false, maxBlocksPerHost: 3 }, IPAMConfigConflictError, 'MaxBlocksPerHost requires StrictAffinity to be enabled'],
    [{ ...base, ipCooldownSeconds: 5000 }, ValidationError, 'ipCooldownSeconds 5000 is outside'],
    [{ ...base, maxBlocksPerHost: -1 }, ValidationError, 'maxBlocksPerHost -1 is outside'],
  ])('rejects %o and stores nothing', async (cfg, type, message) => {
    const { ds, ipam } = await world(backend);
    const attempt = ipam.setIPAMConfig(cfg);
    await expect(attempt).rejects.toBeInstanceOf(type);
    await expect(attempt).rejects.toThrow(message);
    await expect(ds.ipamConfig.get()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('requires strict affinity on a Windows host', async () => {
    const { ds } = await world(backend);
    const windows = createIpamClient({ datastore: ds, windowsHost: true });
    await expect(windows.getIPAMConfig()).rejects.toBeInstanceOf(StrictAffinityError);
    await windows.setIPAMConfig(base);
    expect((await windows.getIPAMConfig()).strictAffinity).toBe(true);
  });

  it('does not retry a lost config write', async () => {
    const { ds, ipam } = await world(backend, { config: base });
    const stored = await ds.ipamConfig.get();
    await ds.ipamConfig.update({ ...stored, ipCooldownSeconds: 5 });
    await expect(ds.ipamConfig.update({ ...stored, ipCooldownSeconds: 9 })).rejects.toBeInstanceOf(ConflictError);
    await ipam.setIPAMConfig({ ...base, ipCooldownSeconds: 7 });
    expect((await ipam.getIPAMConfig()).ipCooldownSeconds).toBe(7);
  });
});
