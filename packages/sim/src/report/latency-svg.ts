import { quantile } from '../run/latency-recorder.js';
import type { LatencySample } from '../run/latency-recorder.js';

const W = 900;
const H = 320;
const PAD = { left: 56, right: 16, top: 16, bottom: 36 };
const BUCKETS = 40;
const MAX_DOTS = 3000;

export const LINE_COLOURS = { p50: '#1f77b4', p90: '#ff7f0e', p99: '#d62728' } as const;

/** Latency over time: every sample as a faint dot, and per time bucket the p50/p90/p99 lines. */
export function latencySvg(samples: readonly LatencySample[]): string {
  if (samples.length === 0) return '<p class="empty">no operations recorded</p>';
  const tMax = Math.max(...samples.map((s) => s.atMs), 1);
  const buckets = Array.from({ length: BUCKETS }, () => [] as number[]);
  for (const s of samples) buckets[Math.min(BUCKETS - 1, Math.floor((s.atMs / tMax) * BUCKETS))]?.push(s.ms);
  const stats = buckets.map((b) => {
    const sorted = [...b].sort((x, y) => x - y);
    return sorted.length === 0 ? undefined : { p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99) };
  });
  const yMax = Math.max(1, ...stats.map((s) => s?.p99 ?? 0)) * 1.15;
  const x = (t: number): number => PAD.left + (t / tMax) * (W - PAD.left - PAD.right);
  const y = (ms: number): number => PAD.top + (1 - Math.min(ms, yMax) / yMax) * (H - PAD.top - PAD.bottom);
  const step = Math.max(1, Math.ceil(samples.length / MAX_DOTS));
  const dots = samples
    .filter((_, i) => i % step === 0)
    .map((s) => `<circle cx="${x(s.atMs).toFixed(1)}" cy="${y(s.ms).toFixed(1)}" r="1.5" fill="${s.op === 'add' ? '#7f7f7f' : '#17becf'}" fill-opacity="0.35"/>`)
    .join('');
  const line = (key: keyof typeof LINE_COLOURS): string => {
    const points = stats.flatMap((s, i) => (s === undefined ? [] : [`${x(((i + 0.5) / BUCKETS) * tMax).toFixed(1)},${y(s[key]).toFixed(1)}`]));
    return `<polyline points="${points.join(' ')}" fill="none" stroke="${LINE_COLOURS[key]}" stroke-width="2"/>`;
  };
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => {
      const ms = f * yMax;
      return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(ms)}" y2="${y(ms)}" stroke="#eee"/><text x="${PAD.left - 6}" y="${y(ms) + 4}" text-anchor="end" font-size="11">${ms.toFixed(ms < 10 ? 1 : 0)} ms</text>`;
    })
    .join('');
  const axis = `<text x="${W / 2}" y="${H - 8}" text-anchor="middle" font-size="12">time since start (${(tMax / 1000).toFixed(1)} s total)</text>`;
  const legend = (['p50', 'p90', 'p99'] as const)
    .map((k, i) => `<rect x="${W - 220 + i * 70}" y="${PAD.top}" width="12" height="12" fill="${LINE_COLOURS[k]}"/><text x="${W - 204 + i * 70}" y="${PAD.top + 11}" font-size="12">${k}</text>`)
    .join('');
  return `<svg class="latency" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${ticks}${dots}${line('p50')}${line('p90')}${line('p99')}${axis}${legend}</svg>`;
}
