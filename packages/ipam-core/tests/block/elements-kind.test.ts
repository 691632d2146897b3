import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSources } from '../bundle-sources.js';

// design/ipam-core.md, "Arrays of one elements kind": the arrays the assignment's hot path builds
// have the same V8 map whether the function that builds them runs in the interpreter or optimized.
// `map` and `filter` do not give that (the builtin and TurboFan's inlined copy allocate differently),
// and optimized code that met one map is thrown away when it meets the other. Checked in a child
// process with V8's test intrinsics: each function runs interpreted, then optimized, and the maps
// of its results are compared.

let bundleDir = '';

beforeAll(async () => {
  bundleDir = await bundleSources('elements-kind', {
    take: 'src/block/take-free-addresses.ts',
    fresh: 'src/block/new-block.ts',
    pools: 'src/client/pool-qualification.ts',
  });
}, 120_000);

afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
});

/** Runs `body` (JavaScript using V8's `%` intrinsics) in a child process; returns what it printed as JSON. */
function runWithIntrinsics(body: string): Record<string, boolean> {
  const script = join(bundleDir, `probe-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    script,
    `import { autoAssignInBlock } from './take.js';
import { newBlock } from './fresh.js';
import { determinePools, enabledPools, filterPoolsByUse } from './pools.js';
import { applyIPPoolDefaults } from '@ipamkit/models';
/** Calls call() with target interpreted, then optimized; says whether each picked result kept its map. */
function sameMaps(target, call, pick) {
  %PrepareFunctionForOptimization(target);
  const interpreted = pick(call());
  pick(call());
  %OptimizeFunctionOnNextCall(target);
  const optimized = pick(call());
  if ((%GetOptimizationStatus(target) & 16) === 0) throw new Error(target.name + ' was not optimized');
  const out = {};
  for (const k of Object.keys(interpreted)) out[k] = %HaveSameMap(interpreted[k], optimized[k]);
  return out;
}
${body}
`,
  );
  const child = spawnSync(process.execPath, ['--allow-natives-syntax', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`probe failed (${String(child.status)}): ${child.stderr}`);
  return JSON.parse(child.stdout.trim()) as Record<string, boolean>;
}

describe('arrays of one elements kind', () => {
  it('autoAssignInBlock returns its addresses in arrays of one map, interpreted or optimized', () => {
    const result = runWithIntrinsics(`
const owner = { type: 'host', host: 'node-a' };
const now = new Date('2026-08-22T13:33:20Z');
const block = newBlock({ cidr: '10.0.0.0/26', now, owner });
const take = () => autoAssignInBlock(block, { num: 2, handleId: 'h', attrs: { pod: 'p' } });
console.log(JSON.stringify(sameMaps(autoAssignInBlock, take, (r) => ({ ips: r.ips, ipNets: r.ipNets }))));
`);
    expect(result).toEqual({ ips: true, ipNets: true });
  });

  it('pool qualification returns its lists in arrays of one map, interpreted or optimized', () => {
    const result = runWithIntrinsics(`
const pools = [
  applyIPPoolDefaults({ name: 'a', cidr: '10.0.0.0/16', blockSize: 26 }),
  applyIPPoolDefaults({ name: 'b', cidr: '10.1.0.0/16', blockSize: 26, nodeSelector: 'zone == "x"' }),
  applyIPPoolDefaults({ name: 'c', cidr: 'fd00::/48', blockSize: 122 }),
];
const node = { name: 'node-a', labels: { zone: 'y' } };
const args = { all: pools, version: 4, requested: [], node, namespace: undefined, maxPrefixLen: 32 };
const selecting = determinePools(args).selecting;
console.log(JSON.stringify({
  // Both branches run before the function is optimized, so neither is new to the optimized code.
  ...sameMaps(
    determinePools,
    () => [determinePools(args), determinePools({ ...args, requested: ['10.0.0.0/16'] })],
    ([automatic, requested]) => ({ selecting: automatic.selecting, enabled: automatic.enabled, requested: requested.selecting }),
  ),
  ...sameMaps(filterPoolsByUse, () => filterPoolsByUse(selecting, 'Workload'), (r) => ({ allowed: r })),
  ...sameMaps(enabledPools, () => enabledPools(pools), (r) => ({ both: r })),
}));
`);
    expect(result).toEqual({ selecting: true, enabled: true, allowed: true, both: true, requested: true });
  });
});
