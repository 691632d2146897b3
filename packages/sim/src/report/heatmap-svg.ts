import type { PoolHeatmap } from './collect-heatmaps.js';
import { escapeHtml } from './escape-html.js';

/** Fill colours by share of the block in use: empty, then five steps up to full. */
export const USE_COLOURS = ['#dbe9f6', '#ffffb2', '#fecc5c', '#fd8d3c', '#f03b20', '#bd0026'] as const;

export function useColour(used: number, size: number): string {
  if (used <= 0 || size <= 0) return USE_COLOURS[0];
  const step = Math.min(5, 1 + Math.floor((used / size) * 5));
  return USE_COLOURS[step] ?? USE_COLOURS[5];
}

const COLUMNS = 6;
const CELL_W = 188;
const CELL_H = 40;
const GAP = 4;

/** The node name a block is labelled with: the host of a host affinity, else the affinity text. */
function label(owner: string): string {
  if (owner === '') return '(no affinity)';
  return owner.startsWith('host:') ? owner.slice('host:'.length) : owner;
}

/** One pool's blocks as a grid of cells coloured by use and labelled by owning node. */
export function heatmapSvg(map: PoolHeatmap): string {
  if (map.cells.length === 0) return '<p class="empty">no blocks claimed</p>';
  const rows = Math.ceil(map.cells.length / COLUMNS);
  const width = COLUMNS * (CELL_W + GAP);
  const height = rows * (CELL_H + GAP);
  const cells = map.cells.map((c, i) => {
    const x = (i % COLUMNS) * (CELL_W + GAP);
    const y = Math.floor(i / COLUMNS) * (CELL_H + GAP);
    const fill = useColour(c.used, c.size);
    const dark = c.used / Math.max(1, c.size) > 0.6;
    const text = dark ? '#ffffff' : '#1a1a1a';
    return (
      `<g class="cell"><title>${escapeHtml(`${c.cidr} — ${c.used}/${c.size} used — ${c.owner || 'no affinity'}`)}</title>` +
      `<rect x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" rx="3" fill="${fill}"/>` +
      `<text x="${x + 6}" y="${y + 16}" fill="${text}" font-size="12">${escapeHtml(label(c.owner))}</text>` +
      `<text x="${x + 6}" y="${y + 32}" fill="${text}" font-size="11">${escapeHtml(c.cidr)} ${c.used}/${c.size}</text></g>`
    );
  });
  return `<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${cells.join('')}</svg>`;
}
