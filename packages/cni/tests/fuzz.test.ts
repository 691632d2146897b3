import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCni } from '../src/index.js';
import { dump, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { ARTEFACTS, assertBinBuilt, runBin } from './helpers/spawn-bin.js';

interface Malformed {
  kind: string;
  env: Record<string, string>;
  stdin: string;
}

const KNOWN_CODES = new Set([1, 4, 5, 6, 7, 11, 999]);

/** A value of any JSON type except the one a field wants (so the config is always wrong). */
const notA = (wanted: 'string' | 'list' | 'object' | 'bool'): fc.Arbitrary<unknown> =>
  fc.oneof(
    ...(wanted === 'string' ? [] : [fc.string()]),
    fc.integer(),
    ...(wanted === 'bool' ? [] : [fc.boolean()]),
    ...(wanted === 'list' ? [fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1 })] : [fc.array(fc.anything(), { minLength: 1 })]),
    ...(wanted === 'object' ? [] : [fc.dictionary(fc.string(), fc.integer(), { minKeys: 1 })]),
  );

const STRING_FIELDS = ['cniVersion', 'name', 'nodename', 'nodename_file', 'hostname', 'ipam_lock_file', 'datastore_type', 'sqlite_path', 'etcd_endpoints', 'calico_api_group', 'log_level', 'ipam.type', 'ipam.assign_ipv4', 'ipam.assign_ipv6', 'kubernetes.kubeconfig', 'policy.type'];
const LIST_FIELDS = ['ipam.ipv4_pools', 'ipam.ipv6_pools', 'runtimeConfig.ips', 'cniVersions', 'ipam.gateways'];
const OBJECT_FIELDS = ['ipam', 'kubernetes', 'policy', 'feature_control', 'runtimeConfig', 'prevResult'];

function setPath(conf: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head = '', tail] = path.split('.');
  if (tail === undefined) return { ...conf, [head]: value };
  const inner = typeof conf[head] === 'object' && conf[head] !== null ? (conf[head] as Record<string, unknown>) : {};
  return { ...conf, [head]: { ...inner, [tail]: value } };
}

function malformedInputs(base: Record<string, unknown>): fc.Arbitrary<Malformed> {
  const add = cniEnv({ command: 'ADD', containerId: 'fuzz' });
  const ok = JSON.stringify(base);
  const notJson = fc.string().filter((s) => {
    try {
      const v: unknown = JSON.parse(s);
      return typeof v !== 'object' || v === null || Array.isArray(v);
    } catch {
      return true;
    }
  });
  const wrongType = fc.oneof(
    fc.tuple(fc.constantFrom(...STRING_FIELDS), notA('string')),
    fc.tuple(fc.constantFrom(...LIST_FIELDS), notA('list')),
    fc.tuple(fc.constantFrom(...OBJECT_FIELDS), notA('object')),
    fc.tuple(fc.constant('feature_control.ip_addrs_no_ipam'), notA('bool')),
  );
  const badCidr = fc.oneof(
    fc.constantFrom('10.0.0.0/33', '300.1.1.1/24', 'foo/24', '10.0.0/24', 'fd00::/129', '::/-1'),
    fc.string({ minLength: 1 }).map((s) => `no-such-pool-${s}`),
  );
  const garbageArgs = fc.oneof(
    fc.tuple(fc.string(), fc.string(), fc.string()).map(([a, b2, c]) => `K${a}=${b2}=${c}`),
    fc.string().map((s) => `K8S_POD_NAME${s.replace(/[=;]/g, '')}`).filter((s) => s !== ''),
    fc.string().map((s) => `Unknown${s.replace(/[=;]/g, '')}=1`),
    fc.string().map((s) => `IgnoreUnknown=maybe${s.replace(/[=;]/g, '')}`),
    fc.string().map((s) => `IgnoreUnknown=1;IP=not-an-ip${s.replace(/[=;]/g, '')}`),
  );
  const envBreak = fc.oneof(
    fc.constantFrom('CNI_CONTAINERID', 'CNI_NETNS', 'CNI_IFNAME', 'CNI_PATH').map((k) => ({ ...add, [k]: '' })),
    fc.string().map((s) => ({ ...add, CNI_COMMAND: `X${s}` })),
    fc.constantFrom('-lead', 'has/slash', '.dot', 'sp ace', '').map((id) => ({ ...add, CNI_CONTAINERID: id })),
    fc.constantFrom('a-very-long-interface', 'e/0', 'e:0', '.', '..', 'tab\tx').map((n) => ({ ...add, CNI_IFNAME: n })),
  );
  return fc.oneof(
    notJson.map((stdin) => ({ kind: 'not JSON', env: add, stdin })),
    wrongType.map(([path, value]) => ({ kind: `wrong type at ${path}`, env: add, stdin: JSON.stringify(setPath(base, path, value)) })),
    fc.tuple(fc.constantFrom('ipam.ipv4_pools', 'ipam.ipv6_pools'), badCidr).map(([path, pool]) => ({ kind: 'bad pool', env: add, stdin: JSON.stringify(setPath(base, path, [pool])) })),
    fc.constantFrom('', '0.2.0', '2.0.0', 'latest').map((v) => ({ kind: 'bad version', env: add, stdin: JSON.stringify({ ...base, cniVersion: v }) })),
    fc.constantFrom('', 'bad name!', 'a/b').map((n) => ({ kind: 'bad name', env: add, stdin: JSON.stringify({ ...base, name: n }) })),
    fc.tuple(fc.constantFrom('ADD', 'DEL', 'CHECK'), garbageArgs).map(([command, args]) => ({ kind: 'garbage CNI_ARGS', env: cniEnv({ command, containerId: 'c1', args }), stdin: ok })),
    envBreak.map((env) => ({ kind: 'bad environment', env, stdin: ok })),
  );
}

function expectCniError(stdout: string): void {
  const parsed = JSON.parse(stdout) as Record<string, unknown>;
  expect(Object.keys(parsed).every((k) => ['code', 'msg', 'details'].includes(k))).toBe(true);
  expect(KNOWN_CODES.has(parsed.code as number)).toBe(true);
  expect(typeof parsed.msg).toBe('string');
  expect((parsed.msg as string).length).toBeGreaterThan(0);
}

describe('malformed input', () => {
  let b: TestBackend;
  let base: Record<string, unknown>;
  let before: string;
  beforeAll(async () => {
    b = await sqliteBackend();
    await seed(b.ds);
    base = netConf(b.confKeys);
    // One live allocation (container c1) that no malformed DEL may release.
    const add = await runCni({ env: cniEnv({ command: 'ADD', containerId: 'c1' }), stdin: JSON.stringify(base), stderr: () => undefined });
    expect(add.exitCode).toBe(0);
    before = await dump(b.ds);
  });
  afterAll(async () => {
    await b.close();
  });

  it('1,000 malformed inputs through runCni each print CNI error JSON, exit 1 and leave the datastore unchanged', async () => {
    const kinds = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(malformedInputs(base), async (input) => {
        kinds.set(input.kind.split(' at ')[0] ?? input.kind, (kinds.get(input.kind.split(' at ')[0] ?? input.kind) ?? 0) + 1);
        const r = await runCni({ env: input.env, stdin: input.stdin, stderr: () => undefined });
        expect(r.exitCode).toBe(1);
        expectCniError(r.stdout);
        expect(await dump(b.ds)).toBe(before);
      }),
      { numRuns: 1000, seed: 4242 },
    );
    expect([...kinds.keys()].sort()).toEqual(['bad environment', 'bad name', 'bad pool', 'bad version', 'garbage CNI_ARGS', 'not JSON', 'wrong type']);
  }, 300_000);

  it.each(ARTEFACTS)('a handful of malformed inputs through $name behave the same', async (artefact) => {
    assertBinBuilt();
    const samples = fc.sample(malformedInputs(base), { numRuns: 8, seed: 7 });
    const results = await Promise.all(samples.map((s) => runBin(s.env, s.stdin, 60_000, artefact)));
    for (const r of results) {
      expect(r.code).toBe(1);
      expectCniError(r.stdout);
    }
    expect(await dump(b.ds)).toBe(before);
  }, 120_000);
});
