import type { SimResult } from '../run/run-sim.js';
import { escapeHtml } from './escape-html.js';
import { heatmapSvg, USE_COLOURS } from './heatmap-svg.js';
import { latencySvg } from './latency-svg.js';

const STYLE = `body{font-family:system-ui,sans-serif;margin:24px;color:#1a1a1a;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}
.ok{color:#1a7f37;font-weight:bold}.bad{color:#c62828;font-weight:bold}
.legend span{display:inline-block;width:18px;height:12px;margin:0 4px 0 10px;vertical-align:middle}
pre{background:#f6f8fa;padding:8px;font-size:12px;overflow:auto}.empty{color:#777}`;

const ms = (v: number): string => `${v.toFixed(1)} ms`;

/** The `--report` page: one self-contained HTML file (inline CSS and SVG, no scripts, no fetches). */
export function renderReport(r: SimResult): string {
  const verdict =
    r.check.violations.length === 0
      ? '<p class="ok">ipam check: no leak, no duplicate, every invariant holds</p>'
      : `<p class="bad">${r.check.violations.length} violation(s)</p><pre>${escapeHtml(r.check.violations.join('\n'))}</pre>`;
  const rows: [string, string][] = [
    ['datastore', r.options.datastore + (r.options.spawn ? ' (calico-ipam bin per call)' : ' (runCni in-process)')],
    ['nodes / deleted', `${r.options.nodes} / ${r.nodesDeleted}`],
    ['CNI ADD / DEL / lost DEL / failed', `${r.stats.adds} / ${r.stats.dels} / ${r.stats.lostDeletes} / ${r.stats.failures}`],
    ['allocations per second', r.allocationsPerSecond.toFixed(1)],
    ['ADD latency p50 / p90 / p99', `${ms(r.latency.add.p50)} / ${ms(r.latency.add.p90)} / ${ms(r.latency.add.p99)}`],
    ['DEL latency p50 / p90 / p99', `${ms(r.latency.del.p50)} / ${ms(r.latency.del.p90)} / ${ms(r.latency.del.p99)}`],
    ['datastore round trips per ADD', r.roundTripsPerAdd === undefined ? 'n/a' : r.roundTripsPerAdd.toFixed(2)],
    ['allocations at the end', String(r.check.allocations)],
    ['GC settle time', ms(r.settleMs)],
  ];
  const legend = USE_COLOURS.map((c, i) => `<span style="background:${c}"></span>${i === 0 ? 'empty' : `≤ ${i * 20}%`}`).join('');
  const pools = r.heatmaps
    .map((m) => `<h3>${escapeHtml(m.pool)} <small>${escapeHtml(m.cidr)} — ${m.cells.length} of ${m.possibleBlocks} blocks claimed</small></h3>${heatmapSvg(m)}`)
    .join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>ipamkit-sim report</title><style>${STYLE}</style></head><body>
<h1>ipamkit-sim run</h1>${verdict}
<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<h2>Blocks per pool</h2><p class="legend">use:${legend}</p>${pools}
<h2>Latency over time</h2><p>dots: single CNI calls (grey ADD, teal DEL); lines: per-interval percentiles</p>${latencySvg(r.samples)}
<h2>ipam show</h2><pre>${escapeHtml(r.showTable)}</pre>
</body></html>
`;
}
