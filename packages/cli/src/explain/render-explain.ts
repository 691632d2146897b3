import type { IPExplanation } from './explain-ip.js';
import type { NodeExplanation } from './explain-node.js';
import type { PodExplanation } from './explain-pod.js';

function attributeLines(title: string, attrs: Readonly<Record<string, string>>): string[] {
  const keys = Object.keys(attrs).sort();
  return keys.length === 0 ? [] : [`${title}:`, ...keys.map((k) => `  ${k}: ${attrs[k] ?? ''}`)];
}

export function renderIPExplanation(e: IPExplanation): string {
  const lines = [`IP ${e.ip}: ${e.state}`];
  if (e.pool !== undefined) lines.push(`Pool: ${e.pool}`);
  if (e.block !== undefined) lines.push(`Block: ${e.block} (affinity ${e.blockAffinity ?? '<none>'})`);
  if (e.state === 'allocated') lines.push(`Handle ID: ${e.handle ?? '<none>'}`);
  if (e.sequenceNumber !== undefined) lines.push(`Sequence number: ${e.sequenceNumber}`);
  lines.push(...attributeLines('Active Owner Attributes', e.activeOwnerAttrs), ...attributeLines('Alternate Owner Attributes', e.alternateOwnerAttrs));
  lines.push('Why:', ...e.reasons.map((r) => `  - ${r}`));
  return `${lines.join('\n')}\n`;
}

export function renderPodExplanation(e: PodExplanation): string {
  const head = [`Pod ${e.namespace}/${e.name}: ${e.addresses.length} addresses`, ...e.reasons.map((r) => `  - ${r}`)].join('\n');
  return [`${head}\n`, ...e.addresses.map(renderIPExplanation)].join('\n');
}

export function renderNodeExplanation(e: NodeExplanation): string {
  const lines = [
    `Node ${e.node}${e.nodeExists ? '' : ' (no Node object: no labels to match)'}`,
    `StrictAffinity: ${e.strictAffinity}; AutoAllocateBlocks: ${e.autoAllocateBlocks}`,
  ];
  if (e.families.length === 0) lines.push('No enabled IP pools: the next allocation would fail.');
  for (const f of e.families) {
    lines.push(`IPv${f.version}: next allocation would ${f.wouldSucceed ? 'succeed' : 'FAIL'}: ${f.reason}`);
    lines.push(`  selecting pools: ${f.selectingPools.length === 0 ? '<none>' : f.selectingPools.join(', ')}`);
    for (const r of f.rejectedPools) lines.push(`  not selecting: ${r.pool}: ${r.why}`);
    lines.push(`  blocks owned: ${f.ownedBlocks} of cap ${f.blockCap}; in selecting pools: ${f.affineBlocks.map((b) => `${b.cidr} (${b.free} free)`).join(', ') || '<none>'}`);
    lines.push(`  unclaimed blocks: ${f.unclaimedBlocks}; free addresses in other blocks: ${f.borrowableAddresses}`);
  }
  return `${lines.join('\n')}\n`;
}
