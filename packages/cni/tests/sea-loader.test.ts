import { beforeAll, describe, expect, it } from 'vitest';
import { assertBinBuilt, CJS_BUNDLE, pluginEnv, SEA, spawnCollect } from './helpers/spawn-bin.js';

// The single executable's loader (scripts/sea-loader.cjs; design/cni.md, "Start-up cost").
describe('the single executable loader', () => {
  beforeAll(() => assertBinBuilt());

  it('runs the bundle with the code cache the build recorded, and V8 takes it', async () => {
    const res = await spawnCollect(SEA, [], pluginEnv({ CNI_COMMAND: 'VERSION', IPAMKIT_SEA_CODE_CACHE_REPORT: '1' }), '');
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('code cache accepted');
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
