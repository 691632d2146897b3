import type { IPAMConfig } from '@ipamkit/models';
import { formatCountWithPercent, formatG5 } from '../format/go-number.js';
import { renderTable, type TableColumn } from '../format/render-table.js';
import type { ShowResult, UtilizationRow } from './ipam-show.js';

const UTILIZATION_COLUMNS: TableColumn[] = [
  { header: 'GROUPING' },
  { header: 'CIDR' },
  { header: 'IPS TOTAL', align: 'right' },
  { header: 'IPS IN USE', align: 'right' },
  { header: 'IPS RESERVED', align: 'right' },
  { header: 'IPS FREE', align: 'right' },
];

const BORROWED_COLUMNS: TableColumn[] = ['IP', 'BORROWING-NODE', 'BLOCK', 'BLOCK OWNER', 'TYPE', 'ALLOCATED-TO'].map((header) => ({ header }));

const utilizationCells = (r: UtilizationRow): string[] => [
  r.grouping,
  r.cidr,
  formatG5(r.total),
  formatCountWithPercent(r.inUse, r.total),
  formatCountWithPercent(r.reserved, r.total),
  formatCountWithPercent(r.free, r.total),
];

/** Upstream prints a Go pointer for the persistence field (design/calico-callers.md#ipam-show); we print the value. */
function configurationRows(config: IPAMConfig): string[][] {
  return [
    ['StrictAffinity', String(config.strictAffinity)],
    ['AutoAllocateBlocks', String(config.autoAllocateBlocks)],
    ['MaxBlocksPerHost', String(config.maxBlocksPerHost)],
    ['KubeVirtVMAddressPersistence', config.kubeVirtVMAddressPersistence ?? '<nil>'],
    ['IPCooldownSeconds', String(config.ipCooldownSeconds)],
  ];
}

function sortedAttributeLines(attrs: Readonly<Record<string, string>>): string[] {
  return Object.keys(attrs)
    .sort()
    .map((key) => `  ${key}: ${attrs[key] ?? ''}`);
}

/** The terminal text of an `ipam show` result (design/calico-callers.md#ipam-show). */
export function renderShow(result: ShowResult): string {
  switch (result.mode) {
    case 'pools':
    case 'blocks':
      return renderTable(UTILIZATION_COLUMNS, result.rows.map(utilizationCells));
    case 'borrowed': {
      const table = renderTable(
        BORROWED_COLUMNS,
        result.rows.map((r) => [r.ip, r.borrowingNode, r.block, r.blockOwner, r.type, r.allocatedTo]),
      );
      if (result.unclassified === 0) return table;
      return `${table}\nNote: found ${result.unclassified} IP allocations without an explicit node association. Unable to determine if they are borrowed.\n`;
    }
    case 'configuration':
      return renderTable([{ header: 'PROPERTY' }, { header: 'VALUE' }], configurationRows(result.config));
    case 'ip': {
      if (!result.assigned) return `${result.ip} is not assigned\n`;
      const lines = [`IP ${result.ip} is in use`, `Handle ID: ${result.handleId ?? '<none>'}`];
      const active = sortedAttributeLines(result.activeOwnerAttrs);
      if (active.length === 0) lines.push('No Active Owner attributes defined');
      else lines.push('Active Owner Attributes:', ...active);
      const alternate = sortedAttributeLines(result.alternateOwnerAttrs);
      if (alternate.length > 0) lines.push('Alternate Owner Attributes:', ...alternate);
      return `${lines.join('\n')}\n`;
    }
  }
}
