import type { ExportResult } from './migrate-export.js';
import type { ImportResult } from './migrate-import.js';
import type { MigrationCounts } from './migration-contents.js';

function others(c: MigrationCounts): string {
  return `${String(c.ipPools)} IP pool(s), ${String(c.ipReservations)} IP reservation(s) and ${String(c.nodes)} node(s)`;
}

function renames(map: Readonly<Record<string, string>>): string {
  return Object.entries(map)
    .map(([from, to]) => `Renamed node ${from} to ${to}\n`)
    .join('');
}

/** With a file: a summary. Without one the document itself is the output (see run-ipam-command). */
export function renderExport(result: ExportResult): string {
  return (
    `Exported ${String(result.counts.ipamResources)} IPAM resource(s), ${others(result.counts)} from ${result.source}` +
    `${result.file === undefined ? '' : ` to ${result.file}`}\n${renames(result.nodeRenames)}`
  );
}

export function renderImport(result: ImportResult): string {
  const c = result.counts;
  const skipped = result.nodesSkipped > 0 ? `Skipped ${String(result.nodesSkipped)} node(s): Kubernetes provides the nodes\n` : '';
  if (result.dryRun) {
    return (
      `Dry run: would apply ${String(c.ipamResources)} IPAM resource(s) (${String(c.blockAffinities)} block affinities, ` +
      `${String(c.blocks)} blocks, ${String(c.handles)} handles, ${String(c.config)} config) and ${others(c)} ` +
      `to the ${result.target} datastore; nothing was written\n${skipped}`
    );
  }
  return (
    `Importing IPAM resources\nSuccessfully applied ${String(c.ipamResources)} IPAM resource(s)\n` +
    `Applied ${others(c)}\n${skipped}` +
    'Datastore information successfully imported. Please refer to the datastore migration documentation for next steps.\n'
  );
}
