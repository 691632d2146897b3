import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, seed, type TestBackend } from './backend.js';
import { cniEnv, netConf, VERSIONS } from './cni-call.js';
import { ARTEFACTS, assertBinBuilt, runBin as spawnArtefact, type Artefact, type BinResult } from './spawn-bin.js';

/** The real bin, spawned as a runtime spawns it, against one datastore. */
export function describeBinScenarios(label: string, makeBackend: () => Promise<TestBackend>): void {
  describe.each(ARTEFACTS)(`$name of calico-ipam against ${label}`, (artefact: Artefact) => {
    const runBin = (cni: Record<string, string>, stdin: string, timeoutMs?: number): Promise<BinResult> => spawnArtefact(cni, stdin, timeoutMs, artefact);
    let b: TestBackend;
    beforeAll(async () => {
      assertBinBuilt();
      b = await makeBackend();
      await seed(b.ds, [{ name: 'pool4', cidr: '10.40.0.0/24', blockSize: 26 }, { name: 'pool6', cidr: 'fd00:40::/120', blockSize: 122 }]);
    });
    afterAll(async () => {
      await b.close();
    });

    it('VERSION prints the supported versions with a trailing newline', async () => {
      const r = await runBin({ CNI_COMMAND: 'VERSION' }, '');
      expect(r).toMatchObject({ code: 0, stdout: '{"cniVersion":"1.1.0","supportedVersions":["0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]}\n' });
    });

    it('-v prints the version of the package it was built from', async () => {
      const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
      expect(await runBin({}, '')).toMatchObject({ code: 0, stdout: '' });
      const r = await spawnArtefact({}, '', undefined, { ...artefact, args: [...artefact.args, '-v'] });
      expect(r).toMatchObject({ code: 0, stdout: `ipamkit calico-ipam ${version}\n` });
    });

    it('an answer far larger than a pipe buffer arrives whole before the process exits', async () => {
      // 5,000 configured routes are echoed in the result: ~280 KB of JSON on a 64 KB pipe.
      const routes = Array.from({ length: 5000 }, (_, i) => ({ dst: `10.99.${Math.floor(i / 250)}.${i % 250}/32` }));
      const conf = JSON.stringify(netConf(b.confKeys, { ipam: { type: 'calico-ipam', routes } }));
      const add = await runBin(cniEnv({ command: 'ADD', containerId: 'big-answer' }), conf);
      expect(add.code).toBe(0);
      expect(add.stdout.length).toBeGreaterThan(256 * 1024);
      expect((JSON.parse(add.stdout) as { routes: unknown[] }).routes).toEqual(routes);
      expect(await runBin(cniEnv({ command: 'DEL', containerId: 'big-answer' }), conf)).toMatchObject({ code: 0, stdout: '' });
    });

    it.each(VERSIONS)('ADD, CHECK, STATUS, GC and DEL in cniVersion %s (dual stack)', async (version) => {
      const conf = netConf(b.confKeys, { cniVersion: version, ipam: { type: 'calico-ipam', assign_ipv6: 'true' } });
      const id = `bin-${version.replace(/\./g, '')}`;
      const add = await runBin(cniEnv({ command: 'ADD', containerId: id }), JSON.stringify(conf));
      expect(add.code).toBe(0);
      const result = JSON.parse(add.stdout) as { ips: { address: string; version?: string }[] };
      expect(result.ips.map((i) => i.address)).toEqual([expect.stringMatching(/^10\.40\.0\.\d+\/26$/), expect.stringMatching(/^fd00:40::([0-9a-f]+)?\/122$/)]);
      expect(result.ips.map((i) => i.version)).toEqual(version.startsWith('0.') ? ['4', '6'] : [undefined, undefined]);
      const withPrev = JSON.stringify({ ...conf, prevResult: result, 'cni.dev/valid-attachments': [{ containerID: id, ifname: 'eth0' }] });
      const check = await runBin(cniEnv({ command: 'CHECK', containerId: id }), withPrev);
      expect(check.code).toBe(version === '0.3.0' || version === '0.3.1' ? 1 : 0);
      if (version === '1.1.0') {
        expect(await runBin(cniEnv({ command: 'STATUS' }), withPrev)).toMatchObject({ code: 0, stdout: '' });
        expect(await runBin(cniEnv({ command: 'GC' }), withPrev)).toMatchObject({ code: 0, stdout: '' });
        expect((await allocations(b.ds)).filter((a) => a.includes(id))).toHaveLength(2);
      }
      for (let i = 0; i < 2; i++) expect(await runBin(cniEnv({ command: 'DEL', containerId: id }), JSON.stringify(conf))).toMatchObject({ code: 0, stdout: '' });
      expect((await allocations(b.ds)).filter((a) => a.includes(id))).toEqual([]);
    });

    it('20 plugin processes spawned at once for ADD on one node get 20 distinct addresses', async () => {
      const conf = JSON.stringify(netConf(b.confKeys));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => runBin(cniEnv({ command: 'ADD', containerId: `par-${i}` }), conf, 120_000)));
      expect(results.map((r) => r.code)).toEqual(Array.from({ length: 20 }, () => 0));
      const addresses = results.map((r) => (JSON.parse(r.stdout) as { ips: { address: string }[] }).ips[0]?.address);
      expect(new Set(addresses).size).toBe(20);
      expect((await allocations(b.ds)).filter((a) => a.startsWith('k8s-pod-network.par-'))).toHaveLength(20);
    }, 180_000);
  });
}
