import type { MigrationPlan } from './migrate-pool-plan.js';
import type { MigrationFinish, MigrationStart, MigrationStatus } from './migrate-pool-steps.js';
import type { PoolAllocation } from './pool-allocations.js';

function podLine(a: PoolAllocation): string {
  const who = a.kind === 'workload' ? `${a.namespace ?? '(none)'}/${a.pod ?? '(unnamed)'}` : `${a.kind} ${a.handle ?? '(no handle)'}`;
  return `  ${who} on ${a.node ?? '(unknown node)'} (${a.ip})\n`;
}

const namespaces = (rows: readonly { namespace: string; count: number }[]): string =>
  rows.length === 0 ? '' : `By namespace: ${rows.map((r) => `${r.namespace} ${r.count}`).join(', ')}\n`;

export function renderMigrationPlan(plan: MigrationPlan): string {
  const to = `${plan.to.name} (${plan.to.cidr})${plan.to.exists ? (plan.to.disabled ? ', disabled now: start enables it' : '') : ', to be created by start'}`;
  const lines = [
    `Migrate ${plan.from.name} (${plan.from.cidr}) to ${to}\n`,
    `${plan.workloads.length} workloads on ${plan.from.name}; the new pool has ${plan.toAvailable} free addresses\n`,
    namespaces(plan.byNamespace),
    ...plan.nodes.map((n) => `  ${n.node}: ${n.workloads} workloads, ${n.fits ? 'fit' : `do not all fit: ${n.reason ?? ''}`}\n`),
    plan.fits ? 'Every node can re-add its workloads in the new pool.\n' : 'Some nodes cannot re-add all their workloads in the new pool (above).\n',
  ];
  if (plan.others.length > 0) lines.push(`Moved by their controllers, not by restarting pods:\n${plan.others.map(podLine).join('')}`);
  if (plan.workloads.length > 0) lines.push(`Pods to restart after start (your choice when; nothing deletes them):\n${plan.workloads.map(podLine).join('')}`);
  return lines.join('');
}

export function renderMigrationStart(result: MigrationStart): string {
  const did = [
    result.createdTo ? `created ${result.to}` : result.enabledTo ? `enabled ${result.to}` : `${result.to} already enabled`,
    result.disabledFrom ? `disabled ${result.from}` : `${result.from} already disabled`,
  ];
  const pods = result.workloads.length === 0 ? 'No workloads to restart.\n' : `Restart these pods when you choose (nothing deletes them):\n${result.workloads.map(podLine).join('')}`;
  return `Started: ${did.join('; ')}\n${pods}`;
}

export function renderMigrationStatus(status: MigrationStatus): string {
  if (status.phase === 'finished') return `Pool ${status.from} is gone: the migration is finished.\n`;
  const head = `Pool ${status.from}: ${status.phase}, ${status.remaining} allocations left${status.cooldown > 0 ? `, ${status.cooldown} in cooldown` : ''}\n`;
  return head + namespaces(status.byNamespace) + status.allocations.map(podLine).join('');
}

export function renderMigrationFinish(result: MigrationFinish): string {
  if (result.alreadyFinished) return `Pool ${result.from} is already gone: nothing to do.\n`;
  return `Finished: released ${result.releasedAffinities} affinities, removed ${result.deletedBlocks} empty blocks and deleted pool ${result.from}\n`;
}
