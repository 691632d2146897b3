export type KubeVirtVMAddressPersistence = 'Enabled' | 'Disabled';

/** The IPAM configuration singleton (always named `default`; spec/datastore.md §6). */
export interface IPAMConfig {
  strictAffinity: boolean;
  autoAllocateBlocks: boolean;
  /** 0 means "use the default of 20". */
  maxBlocksPerHost: number;
  /** Absent is treated as Enabled by consumers. */
  kubeVirtVMAddressPersistence?: KubeVirtVMAddressPersistence;
  ipCooldownSeconds: number;
}
