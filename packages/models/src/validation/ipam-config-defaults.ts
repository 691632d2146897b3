import { putDefined } from '../codecs/field-readers.js';
import type { IPAMConfig } from '../resources/ipam-config.js';

/** What GetIPAMConfig returns when no object is stored (design/calico-ipam.md#ipam-configuration); never persisted. */
export const DEFAULT_IPAM_CONFIG: Readonly<IPAMConfig> = Object.freeze({
  strictAffinity: false,
  autoAllocateBlocks: true,
  maxBlocksPerHost: 0,
  kubeVirtVMAddressPersistence: 'Enabled',
  ipCooldownSeconds: 0,
});

/** `maxBlocksPerHost: 0` means this many (design/calico-ipam.md#ipam-configuration). */
export const DEFAULT_MAX_BLOCKS_PER_HOST = 20;

/**
 * Fill the fields a stored config may omit with their schema defaults. A missing
 * `kubeVirtVMAddressPersistence` stays absent: Calico keeps it nil on read and consumers treat
 * nil as Enabled (design/calico-ipam.md#ipam-configuration).
 */
export function applyIPAMConfigDefaults(partial: Partial<IPAMConfig>): IPAMConfig {
  const config: IPAMConfig = {
    strictAffinity: partial.strictAffinity ?? DEFAULT_IPAM_CONFIG.strictAffinity,
    autoAllocateBlocks: partial.autoAllocateBlocks ?? DEFAULT_IPAM_CONFIG.autoAllocateBlocks,
    maxBlocksPerHost: partial.maxBlocksPerHost ?? DEFAULT_IPAM_CONFIG.maxBlocksPerHost,
    ipCooldownSeconds: partial.ipCooldownSeconds ?? DEFAULT_IPAM_CONFIG.ipCooldownSeconds,
  };
  putDefined(config, 'kubeVirtVMAddressPersistence', partial.kubeVirtVMAddressPersistence);
  return config;
}

