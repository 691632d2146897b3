export type KubeVirtVMAddressPersistence = 'Enabled' | 'Disabled';

/** The IPAM configuration singleton (always named `default`; design/calico-stored-formats.md#ipam-configuration). */
export interface IPAMConfig {
  strictAffinity: boolean;
  autoAllocateBlocks: boolean;
  /** 0 means "use the default of 20". */
  maxBlocksPerHost: number;
  /** Absent is treated as Enabled by consumers. */
  kubeVirtVMAddressPersistence?: KubeVirtVMAddressPersistence;
  ipCooldownSeconds: number;
}
