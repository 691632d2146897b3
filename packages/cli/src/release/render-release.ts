import type { ReleaseResult } from './ipam-release.js';

const count = (items: readonly { outcome: string }[], outcome: string): number => items.filter((i) => i.outcome === outcome).length;

/** The terminal text of a release. */
export function renderRelease(result: ReleaseResult): string {
  if (result.mode === 'none') return '';
  if (result.mode === 'ip') {
    const [only] = result.ips;
    if (only === undefined) return '';
    return result.dryRun ? `Would release IP address ${only.ip} (${only.detail})\n` : `Successfully released IP address ${only.ip}\n`;
  }
  const lines = [...result.warnings];
  if (result.dryRun) lines.push('Dry run: nothing will be changed.');
  if (result.ips.length === 0) lines.push("Report didn't contain any leaked IPs to clean up.");
  else {
    lines.push(`${result.dryRun ? 'Checking' : 'Releasing'} ${result.ips.length} old IPs...`);
    for (const o of result.ips) lines.push(`  ${o.ip} ${o.outcome}: ${o.detail}`);
    const done = result.dryRun ? count(result.ips, 'would-release') : count(result.ips, 'released');
    lines.push(
      `${result.dryRun ? 'Would release' : 'Released'} ${done} IPs; ${count(result.ips, 'skipped')} skipped; ${count(result.ips, 'already-free')} already free; ${count(result.ips, 'error')} errors.`,
    );
  }
  if (result.handles.length === 0) lines.push("Report didn't contain any handles to clean up.");
  else {
    lines.push(`${result.dryRun ? 'Checking' : 'Deleting'} ${result.handles.length} handles...`);
    for (const o of result.handles) lines.push(`  ${o.id} ${o.outcome}: ${o.detail}`);
    const done = result.dryRun ? count(result.handles, 'would-delete') : count(result.handles, 'deleted');
    lines.push(`${result.dryRun ? 'Would delete' : 'Deleted'} ${done} handles; ${count(result.handles, 'skipped')} skipped; ${count(result.handles, 'error')} errors.`);
  }
  return `${lines.join('\n')}\n`;
}
