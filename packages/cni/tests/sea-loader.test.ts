import { beforeAll, describe, expect, it } from 'vitest';
import { assertBinBuilt, CJS_BUNDLE, pluginEnv, SEA, spawnCollect } from './helpers/spawn-bin.js';

// The single executable's loader (scripts/sea-loader.cjs; design/cni.md, "Start-up cost").
describe('the single executable loader', () => {
  beforeAll(() => assertBinBuilt());

  it('runs the bundle with the code cache the build recorded, and V8 takes it', async () => {
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'VERSION', IPAMKIT_SEA_CODE_CACHE_REPORT: '1' }), '');
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('code cache accepted (calico-ipam.kubernetes.add.cache)');
  });

  it('turns off optimizing compilation, the scheduled scavenge and regexp tier-up once the cache is taken (design/cni.md, "Start-up cost")', async () => {
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'VERSION', IPAMKIT_SEA_CODE_CACHE_REPORT: '1' }), '');
    const lines = res.stderr.split('\n');
    const cacheLine = lines.findIndex((l) => l.startsWith('code cache accepted'));
    const flagsLine = lines.findIndex((l) => l.startsWith('v8 flags set:'));
    // After the cache: V8 checks a cache against the flags it was made with.
    expect(cacheLine).toBeGreaterThanOrEqual(0);
    expect(flagsLine).toBeGreaterThan(cacheLine);
    expect(lines[flagsLine]?.split(' ').slice(3)).toEqual(['--max-opt=0', '--no-minor-gc-task', '--no-regexp-tier-up']);
  });

  // The loader reads stdin to take the cache trained on the config's datastore; the plugin still
  // gets the same stdin and decides (here every config is refused, before any datastore is opened).
  it.each([
    [{ datastore_type: 'sqlite' }, {}, 'sqlite'],
    [{ datastore_type: 'etcdv3' }, {}, 'etcd'],
    [{ etcd_endpoints: 'http://127.0.0.1:1' }, {}, 'etcd'],
    [{}, { DATASTORE_TYPE: 'etcdv3' }, 'etcd'],
    [{ datastore_type: 'kubernetes' }, { DATASTORE_TYPE: 'etcdv3' }, 'kubernetes'],
    [{}, {}, 'kubernetes'],
  ])('takes the cache of the datastore a config names: %j with %j → %s', async (keys, env, cache) => {
    const conf = JSON.stringify({ cniVersion: '1.0.0', name: 'n', type: 'calico', ipam: { type: 'calico-ipam' }, ...keys });
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'ADD', IPAMKIT_SEA_CODE_CACHE_REPORT: '1', ...env }), conf);
    expect(res.stderr).toContain(`code cache accepted (calico-ipam.${cache}.add.cache)`);
    // No CNI_CONTAINERID: the plugin read the same config and refused the call itself.
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ code: 4 });
  });

  it.each([
    ['DEL', 'del'],
    ['CHECK', 'add'],
  ])('takes the cache trained on the verb: %s → %s', async (command, verb) => {
    const conf = JSON.stringify({ cniVersion: '1.0.0', name: 'n', type: 'calico', ipam: { type: 'calico-ipam' }, datastore_type: 'sqlite' });
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: command, IPAMKIT_SEA_CODE_CACHE_REPORT: '1' }), conf);
    expect(res.stderr).toContain(`code cache accepted (calico-ipam.sqlite.${verb}.cache)`);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ code: 4 });
  });

  it('reads a stdin larger than its first buffer whole, multi-byte characters included', async () => {
    // 200 KB of two-byte characters before the keys: a truncated or mis-decoded read would leave the
    // loader guessing Kubernetes and the plugin answering a decode error (code 6).
    const conf = `{"pad":"${'\u00fc'.repeat(100_000)}","cniVersion":"1.0.0","name":"n","type":"calico","ipam":{"type":"calico-ipam"},"datastore_type":"sqlite"}`;
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'ADD', IPAMKIT_SEA_CODE_CACHE_REPORT: '1' }), conf);
    expect(res.stderr).toContain('code cache accepted (calico-ipam.sqlite.add.cache)');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ code: 4 });
  });

  it('hands a config that is not JSON to the plugin, which answers its decode error', async () => {
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c1', CNI_NETNS: '/x', CNI_IFNAME: 'eth0', CNI_PATH: '/x' }), '{not json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ code: 6 });
  });

  it('answers VERSION byte for byte as the bundle does', async () => {
    const fromSea = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'VERSION' }), '');
    const fromBundle = await spawnCollect(CJS_BUNDLE.command, CJS_BUNDLE.args, pluginEnv({ CNI_COMMAND: 'VERSION' }), '');
    expect(fromSea.code).toBe(0);
    expect(fromBundle.code).toBe(0);
    expect(JSON.parse(fromSea.stdout)).toMatchObject({ supportedVersions: expect.arrayContaining(['0.3.1', '1.0.0']) as unknown });
    expect(fromSea.stdout).toBe(fromBundle.stdout);
  });
});
