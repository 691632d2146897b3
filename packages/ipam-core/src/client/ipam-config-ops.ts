import {
  DEFAULT_IPAM_CONFIG,
  type Datastore,
  type DatastoreTx,
  type IPAMConfig,
  NotFoundError,
  StrictAffinityError,
  validateIPAMConfig,
} from '@ipamkit/models';

/** The stored config, or the in-memory default (never persisted) when none exists (design/calico-ipam.md#ipam-configuration). */
export async function readIpamConfig(reader: Pick<DatastoreTx, 'ipamConfig'>, windowsHost: boolean): Promise<IPAMConfig> {
  let config: IPAMConfig;
  try {
    const stored = await reader.ipamConfig.get();
    config = {
      strictAffinity: stored.strictAffinity,
      autoAllocateBlocks: stored.autoAllocateBlocks,
      maxBlocksPerHost: stored.maxBlocksPerHost,
      ipCooldownSeconds: stored.ipCooldownSeconds,
    };
    if (stored.kubeVirtVMAddressPersistence !== undefined) config.kubeVirtVMAddressPersistence = stored.kubeVirtVMAddressPersistence;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    config = { ...DEFAULT_IPAM_CONFIG };
  }
  if (windowsHost && !config.strictAffinity) {
    throw new StrictAffinityError('global strict affinity should not be false for Windows node');
  }
  return config;
}

function sameConfig(a: IPAMConfig, b: IPAMConfig): boolean {
  return (
    a.strictAffinity === b.strictAffinity &&
    a.autoAllocateBlocks === b.autoAllocateBlocks &&
    a.maxBlocksPerHost === b.maxBlocksPerHost &&
    a.ipCooldownSeconds === b.ipCooldownSeconds &&
    a.kubeVirtVMAddressPersistence === b.kubeVirtVMAddressPersistence
  );
}

/**
 * Stores `cfg` (design/calico-ipam.md#ipam-configuration): no-op when equal to the current config; create, or CAS-update
 * on the revision just read (a conflict is returned, as Calico does, not retried).
 */
export async function writeIpamConfig(ds: Datastore, cfg: IPAMConfig, windowsHost: boolean): Promise<void> {
  let current: IPAMConfig | undefined;
  try {
    current = await readIpamConfig(ds, windowsHost);
  } catch (err) {
    // A Windows host with strict affinity off may still be fixing exactly that.
    if (!(err instanceof StrictAffinityError)) throw err;
  }
  if (current !== undefined && sameConfig(current, cfg)) return;
  validateIPAMConfig(cfg);
  const value: IPAMConfig = {
    strictAffinity: cfg.strictAffinity,
    autoAllocateBlocks: cfg.autoAllocateBlocks,
    maxBlocksPerHost: cfg.maxBlocksPerHost,
    ipCooldownSeconds: cfg.ipCooldownSeconds,
  };
  if (cfg.kubeVirtVMAddressPersistence !== undefined) value.kubeVirtVMAddressPersistence = cfg.kubeVirtVMAddressPersistence;
  try {
    const existing = await ds.ipamConfig.get();
    await ds.ipamConfig.update({ ...value, revision: existing.revision });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await ds.ipamConfig.create(value);
  }
}
