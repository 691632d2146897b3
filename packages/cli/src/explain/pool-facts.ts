import { applyIPPoolDefaults, cidrContains, isPoolEnabled, ipVersionOfCidr, type DefaultedIPPool, type IPPool } from '@ipamkit/models';

/** Pools in name order with read-time defaults, as allocation sees them. */
export function defaulted(pools: readonly IPPool[]): DefaultedIPPool[] {
  return pools.map(applyIPPoolDefaults).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function poolOf(pools: readonly DefaultedIPPool[], cidrOrIP: string): DefaultedIPPool | undefined {
  return pools.find((p) => cidrContains(p.cidr, cidrOrIP.split('/')[0] ?? cidrOrIP));
}

export function isEnabled(pool: DefaultedIPPool): boolean {
  return isPoolEnabled(pool, ipVersionOfCidr(pool.cidr));
}

export function describePool(pool: DefaultedIPPool): string {
  const parts = [
    `nodeSelector ${JSON.stringify(pool.nodeSelector)}`,
    ...(pool.namespaceSelector === undefined || pool.namespaceSelector === '' ? [] : [`namespaceSelector ${JSON.stringify(pool.namespaceSelector)}`]),
    `allowedUses ${pool.allowedUses.join(',')}`,
    `assignmentMode ${pool.assignmentMode}`,
    `blockSize ${pool.blockSize}`,
  ];
  if (!isEnabled(pool)) parts.push('disabled');
  return `${pool.name} (${pool.cidr}): ${parts.join(', ')}`;
}
