import { canonicalAddress, isRecord, orUndefined } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { CheckFailedError, NetworkConfigError } from '../errors.js';
import { ALLOCATION_DEADLINE_MS, withDeadline } from '../runtime/deadline.js';
import type { Invocation } from '../runtime/invocation.js';

/** The bare addresses of a prevResult (any 0.3+ shape: `ips[].address`). */
export function prevResultAddresses(prev: Record<string, unknown> | undefined): string[] {
  if (prev === undefined) throw new NetworkConfigError('CHECK needs prevResult in the network config');
  const ips = prev.ips;
  if (!Array.isArray(ips)) throw new NetworkConfigError('prevResult.ips must be a list');
  return ips.map((entry, i) => {
    const address = isRecord(entry) ? entry.address : undefined;
    if (typeof address !== 'string') throw new NetworkConfigError(`prevResult.ips[${i}].address must be a string`);
    try {
      return canonicalAddress(address.split('/')[0] ?? '');
    } catch {
      throw new NetworkConfigError(`prevResult.ips[${i}].address is not an address: ${address}`);
    }
  });
}

/**
 * CHECK: the handle must still own exactly the addresses of prevResult (Calico's CHECK does
 * nothing, design/calico-callers.md#cni-quirks). Read-only.
 */
export async function cmdCheck(inv: Invocation, workload: Workload): Promise<string> {
  const expected = new Set(prevResultAddresses(inv.conf.prevResult));
  const ipam = await inv.ipam();
  const held = (await orUndefined(withDeadline(inv.deadline, ALLOCATION_DEADLINE_MS, 'reading the allocation', () => ipam.ipsByHandle(workload.handleId)))) ?? [];
  const owned = new Set(held.map((ip) => canonicalAddress(ip)));
  const missing = [...expected].filter((ip) => !owned.has(ip));
  const extra = [...owned].filter((ip) => !expected.has(ip));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [missing.length > 0 ? `not allocated to it: ${missing.join(', ')}` : '', extra.length > 0 ? `allocated but not in prevResult: ${extra.join(', ')}` : ''].filter((p) => p !== '');
    throw new CheckFailedError(`handle ${workload.handleId} does not match prevResult (${parts.join('; ')})`);
  }
  return '';
}
