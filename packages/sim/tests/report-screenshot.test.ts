import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USE_COLOURS } from '../src/report/heatmap-svg.js';
import { renderReport } from '../src/report/render-report.js';
import { runSim } from '../src/run/run-sim.js';
import { decodePng } from './helpers/decode-png.js';

const CHROMIUM = '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'ipamkit-sim-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

describe('the --report page', () => {
  it('is one self-contained file: no script, no external resource', async () => {
    const r = await runSim({ nodes: 4, pods: 24, churn: 1, services: 2, gracePeriodMs: 500 });
    const html = renderReport(r);
    writeFileSync(join(dir, 'report.html'), html);
    expect(html).not.toMatch(/<script|<link|src=|url\(/);
    expect(html).toContain('<svg class="heatmap"');
    expect(html).toContain('sim-node-000');
  });

  it('renders in headless Chromium with the heatmap cells drawn in their use colours', () => {
    const png = join(dir, 'report.png');
    // --no-sandbox: the tests may run as root in CI containers, where Chromium's sandbox refuses to start.
    const r = spawnSync(
      CHROMIUM,
      ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1', '--window-size=1200,1600', `--screenshot=${png}`, `file://${join(dir, 'report.html')}`],
      { encoding: 'utf8', timeout: 180_000 },
    );
    expect(r.status).toBe(0);
    const image = decodePng(readFileSync(png));
    expect(image.width).toBe(1200);
    // Count pixels painted in a "some use" heatmap colour (not the empty colour, which the legend
    // also shows in a few pixels). Each cell is 188×40 px, so even one cell gives thousands.
    const palette = USE_COLOURS.slice(1).map(rgb);
    let painted = 0;
    for (let i = 0; i < image.rgba.length; i += 4) {
      const [r0, g0, b0] = [image.rgba[i] ?? 0, image.rgba[i + 1] ?? 0, image.rgba[i + 2] ?? 0];
      if (palette.some(([pr, pg, pb]) => Math.abs(pr - r0) <= 3 && Math.abs(pg - g0) <= 3 && Math.abs(pb - b0) <= 3)) painted += 1;
    }
    expect(painted).toBeGreaterThan(5000);
  });
});
