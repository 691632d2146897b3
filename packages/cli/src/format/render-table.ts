// ASCII tables in the default go-pretty style calicoctl uses (design/calico-callers.md#tables-and-numbers): a rule above and
// below the header and after the last row, one space of padding, headers left-aligned.

export type Alignment = 'left' | 'right';

export interface TableColumn {
  readonly header: string;
  readonly align?: Alignment;
}

function pad(text: string, width: number, align: Alignment): string {
  const fill = ' '.repeat(Math.max(0, width - text.length));
  return align === 'right' ? fill + text : text + fill;
}

/** Renders the table; the result ends with a newline. An empty table still shows its header. */
export function renderTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const line = (cells: readonly string[], aligns: readonly Alignment[]): string =>
    `| ${widths.map((w, i) => pad(cells[i] ?? '', w, aligns[i] ?? 'left')).join(' | ')} |`;
  const headerAligns = columns.map((): Alignment => 'left');
  const dataAligns = columns.map((c): Alignment => c.align ?? 'left');
  const out = [rule, line(columns.map((c) => c.header.toUpperCase()), headerAligns), rule];
  for (const row of rows) out.push(line(row, dataAligns));
  out.push(rule);
  return `${out.join('\n')}\n`;
}
