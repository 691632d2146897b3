import { addressOf } from '@ipamkit/ipam-core';
import { compareAddresses } from '../address-order.js';
import type { PodInfo } from '../check/cluster-state.js';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError } from '../errors.js';
import { explainAddress, loadExplainWorld, type IPExplanation } from './explain-ip.js';

export interface PodExplanation {
  readonly namespace: string;
  readonly name: string;
  readonly addresses: IPExplanation[];
  readonly reasons: string[];
}

/** `NS/NAME` → parts; throws CliUsageError. */
export function parsePodArgument(text: string): { namespace: string; name: string } {
  const parts = text.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new CliUsageError(`--pod must be NAMESPACE/NAME, got ${JSON.stringify(text)}`);
  return { namespace: parts[0] ?? '', name: parts[1] ?? '' };
}

/** `ipam explain --pod NS/NAME`: every address whose owner attributes name the pod (active or alternate). */
export async function explainPod(ctx: CommandContext, podArgument: string, pods?: readonly PodInfo[]): Promise<PodExplanation> {
  const { namespace, name } = parsePodArgument(podArgument);
  const world = await loadExplainWorld(ctx, pods);
  const ips: string[] = [];
  for (const block of world.blocks) {
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attribute = block.attributes[index];
      const owners = [attribute?.activeOwnerAttrs, attribute?.alternateOwnerAttrs];
      if (attribute?.releasedAt === undefined && owners.some((o) => o?.['namespace'] === namespace && o['pod'] === name)) {
        ips.push(addressOf(block, ordinal));
      }
    });
  }
  ips.sort(compareAddresses);
  const addresses: IPExplanation[] = [];
  for (const ip of ips) addresses.push(await explainAddress(ctx, world, ip));
  const reasons: string[] = [];
  if (ips.length === 0) reasons.push(`no allocation names pod ${namespace}/${name}`);
  const pod = world.pods?.get(`${namespace}/${name}`);
  if (world.pods !== undefined) {
    reasons.push(pod === undefined ? `pod ${namespace}/${name} is not in the given cluster state` : `pod phase ${pod.phase ?? 'unknown'} on node ${pod.nodeName ?? 'unknown'}`);
  }
  return { namespace, name, addresses, reasons };
}
