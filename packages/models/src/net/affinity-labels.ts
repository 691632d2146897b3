import type { AffinityKey } from '../resources/block-affinity.js';
import { hostnameHashLabel } from './hostname-hash-label.js';

/** Label keys stamped on every BlockAffinity written to Kubernetes (design/calico-stored-formats.md#affinities). */
export const AFFINITY_HOSTNAME_HASH_LABEL = 'projectcalico.org/hostname-hash';
export const AFFINITY_TYPE_LABEL = 'projectcalico.org/affinity-type';
export const AFFINITY_IP_VERSION_LABEL = 'projectcalico.org/ip-version';

/** The three labels of an affinity; legacy rows may carry an empty type, kept verbatim. */
export function affinityLabels(affinity: Pick<AffinityKey, 'host' | 'cidr'> & { type: string }): Record<string, string> {
  return {
    [AFFINITY_HOSTNAME_HASH_LABEL]: hostnameHashLabel(affinity.host),
    [AFFINITY_TYPE_LABEL]: affinity.type,
    [AFFINITY_IP_VERSION_LABEL]: affinity.cidr.includes(':') ? '6' : '4',
  };
}
