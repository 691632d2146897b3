import type { IPVersion, Node } from '@ipamkit/models';

/** `infer`: Calico's rule (a published public key, no host encryption); the others force it. */
export type WireguardSetting = 'infer' | 'enabled' | 'disabled';

export interface WireguardOptions {
  readonly ipv4?: WireguardSetting;
  readonly ipv6?: WireguardSetting;
  /** `FELIX_WIREGUARDHOSTENCRYPTIONENABLED`: the device then uses the node IP, no tunnel address. */
  readonly hostEncryptionEnabled?: boolean;
}

export const WIREGUARD_SETTINGS: readonly WireguardSetting[] = ['infer', 'enabled', 'disabled'];

/**
 * Does this node want a WireGuard address of `version`? Calico infers it (design/calico-callers.md#qualifying-pools
 * step 1, design/calico-callers.md#node-tunnel-fields): Felix publishes the family's public key on the Node only once WireGuard runs, and
 * host encryption turns addresses off. An explicit setting wins over the inference, so an operator
 * can pre-allocate before Felix is up or opt out without touching Felix.
 */
export function wireguardEnabled(node: Node, version: IPVersion, options: WireguardOptions = {}): boolean {
  const setting = (version === 4 ? options.ipv4 : options.ipv6) ?? 'infer';
  if (setting !== 'infer') return setting === 'enabled';
  if (options.hostEncryptionEnabled === true) return false;
  const key = version === 4 ? node.wireguardPublicKey : node.wireguardPublicKeyV6;
  return key !== undefined && key !== '';
}
