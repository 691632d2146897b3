import { type ExportedName } from './collect-surface.js';

export const REPORT_HEADER_NOTE =
  'Generated from the built declarations by `npm run api:update`; do not edit. CI fails when the public surface differs from this file.';

/** The committed report of one package: one section per entry point, names sorted, no comments. */
export function renderReport(packageName: string, entries: { subpath: string; names: ExportedName[] }[]): string {
  const lines = [`# API report: ${packageName}`, '', REPORT_HEADER_NOTE, ''];
  for (const entry of entries) {
    const importPath = entry.subpath === '.' ? packageName : `${packageName}/${entry.subpath.replace(/^\.\//, '')}`;
    lines.push(`## \`${importPath}\` (${entry.names.length} exports)`, '', '```ts');
    for (const name of entry.names) {
      lines.push(`// ${name.name} (${name.kind})`, name.text, '');
    }
    if (entry.names.length > 0) lines.pop();
    lines.push('```', '');
  }
  return lines.join('\n');
}
