import { prettyJson } from '../format/pretty-json.js';
import type { Listed } from './kind-ops.js';
import type { V3Document } from './resource-handler.js';

export type GetOutput = 'table' | 'wide' | 'yaml' | 'json';

/** calicoctl's `get` table: tab-aligned columns, three spaces apart, no rules. */
export function renderColumns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3)))
      .join('')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** One named object prints as its document; a listing as a `<Kind>List` that apply reads back. */
function asValue(listed: Listed, named: boolean): V3Document {
  if (named && listed.documents[0] !== undefined) return listed.documents[0];
  return { apiVersion: 'projectcalico.org/v3', kind: `${listed.kind}List`, items: listed.documents };
}

export async function renderGet(listed: Listed, named: boolean, output: GetOutput): Promise<string> {
  switch (output) {
    case 'yaml': {
      // On demand, as in read-documents.ts: only `-o yaml` pays for the YAML library.
      const { stringify } = await import('yaml');
      return stringify(asValue(listed, named));
    }
    case 'json':
      return prettyJson(asValue(listed, named));
    default:
      return renderColumns(listed.header, listed.rows);
  }
}
