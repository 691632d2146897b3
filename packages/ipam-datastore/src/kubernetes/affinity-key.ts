import type { AffinityKey } from '@ipamkit/models';

/** An affinity's identity in watch events: type and host are part of it, unlike its object name. */
export function affinityRowKeyOf(key: AffinityKey): string {
  return `${key.type}/${key.host}/${key.cidr}`;
}
