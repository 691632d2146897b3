import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datastoreConfigFor, NetworkConfigError, parseNetConf } from '../../src/index.js';
import { DEFAULT_SQLITE_PATH } from '../../src/config/datastore-config.js';
import { staleHandles } from '../../src/verbs/cmd-gc.js';
import { determineNodeName } from '../../src/config/node-name.js';
import { resolvePools } from '../../src/request/resolve-pools.js';
import { goTimestamp } from '../../src/verbs/allocation-attributes.js';

const conf = (extra: Record<string, unknown>) => parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'net', ...extra }));

describe('goTimestamp', () => {
  it.each([
    { iso: '2025-01-02T03:04:05.123Z', text: '2025-01-02 03:04:05.123 +0000 UTC' },
    { iso: '2025-01-02T03:04:05.120Z', text: '2025-01-02 03:04:05.12 +0000 UTC' },
    { iso: '2025-01-02T03:04:05.000Z', text: '2025-01-02 03:04:05 +0000 UTC' },
  ])('formats $iso as Go does', ({ iso, text }) => {
    expect(goTimestamp(new Date(iso))).toBe(text);
  });
});

describe('determineNodeName', () => {
  it('prefers nodename, then the (trimmed) nodename file, then hostname, then the OS name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-node-'));
    try {
      const file = join(dir, 'nodename');
      writeFileSync(file, 'from-file\n');
      const os = () => ' OS-Host ';
      expect(determineNodeName({ nodename: 'explicit', nodenameFile: file, hostname: 'h' }, os)).toBe('explicit');
      expect(determineNodeName({ nodenameFile: file, hostname: 'h' }, os)).toBe('from-file');
      expect(determineNodeName({ nodenameFile: join(dir, 'missing'), hostname: 'h' }, os)).toBe('h');
      expect(determineNodeName({ nodenameFile: join(dir, 'missing') }, os)).toBe('os-host');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('datastoreConfigFor', () => {
  const V1 = 'crd.projectcalico.org/v1';
  const noHome = { HOME: '/nonexistent-home' };
  it.each([
    { keys: { datastore_type: 'sqlite' }, env: {}, expected: { type: 'sqlite', path: DEFAULT_SQLITE_PATH } },
    { keys: { datastore_type: 'sqlite', sqlite_path: '/a.db' }, env: { IPAMKIT_SQLITE_PATH: '/b.db' }, expected: { type: 'sqlite', path: '/a.db' } },
    { keys: {}, env: { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: '/b.db' }, expected: { type: 'sqlite', path: '/b.db' } },
    { keys: { etcd_endpoints: 'http://e1:2379, http://e2:2379' }, env: {}, expected: { type: 'etcd', endpoints: ['http://e1:2379', 'http://e2:2379'] } },
    { keys: { datastore_type: 'etcdv3', etcd_authority: 'e1:2379' }, env: {}, expected: { type: 'etcd', endpoints: ['http://e1:2379'] } },
    {
      keys: { etcd_endpoints: 'https://e1:2379', etcd_ca_cert_file: '/ca', etcd_cert_file: '/crt', etcd_key_file: '/key', etcd_prefix: '/p' },
      env: { ETCD_USERNAME: 'root', ETCD_PASSWORD: 'pw', ETCD_CA_CERT_FILE: '/ignored-ca' },
      expected: { type: 'etcd', endpoints: ['https://e1:2379'], prefix: '/p', tls: { caFile: '/ca', certFile: '/crt', keyFile: '/key' }, username: 'root', password: 'pw' },
    },
    { keys: { datastore_type: 'kubernetes', kubernetes: { kubeconfig: '/kc' }, calico_api_group: 'ProjectCalico.org/v3' }, env: {}, expected: { type: 'kubernetes', kubeconfig: '/kc', apiGroup: 'projectcalico.org/v3' } },
    { keys: {}, env: {}, expected: { type: 'kubernetes', apiGroup: V1 } },
  ])('maps $keys with env $env', ({ keys, env, expected }) => {
    expect(datastoreConfigFor(conf(keys), { ...noHome, ...env })).toEqual(expected);
  });

  it('uses ~/.kube/config for kubernetes when nothing names a kubeconfig and the file exists', () => {
    const home = mkdtempSync(join(tmpdir(), 'ipamkit-cni-home-'));
    try {
      mkdirSync(join(home, '.kube'));
      writeFileSync(join(home, '.kube', 'config'), 'apiVersion: v1\n');
      expect(datastoreConfigFor(conf({}), { HOME: home })).toEqual({ type: 'kubernetes', kubeconfig: join(home, '.kube', 'config'), apiGroup: V1 });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it.each([
    { keys: { datastore_type: 'mysql' }, msg: 'datastore_type must be one of etcdv3, kubernetes, sqlite, memory; got "mysql"' },
    { keys: { datastore_type: 'etcdv3' }, msg: 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY' },
    { keys: { etcd_endpoints: 'e1:2379' }, msg: 'etcd endpoint 1 of etcd_endpoints must be an http:// or https:// URL, got "e1:2379"' },
    { keys: { etcd_endpoints: 'https://e1:2379', etcd_key_file: '/k' }, msg: "etcd_key_file needs ETCD_CERT_FILE as well (the key's client certificate)" },
    { keys: { etcd_endpoints: 'https://e1:2379', etcd_discovery_srv: 'example.com' }, msg: 'etcd_discovery_srv (etcd DNS discovery) is not supported: list the servers in ETCD_ENDPOINTS' },
    { keys: { etcd_endpoints: 'https://root:s3cret-value@e1:2379' }, msg: 'etcd endpoint 1 of etcd_endpoints carries user info (user:password@); give the credentials in ETCD_USERNAME and ETCD_PASSWORD instead' },
  ])('rejects $keys with code 7', ({ keys, msg }) => {
    expect(() => datastoreConfigFor(conf(keys), noHome)).toThrow(new NetworkConfigError(msg));
  });
});

describe('resolvePools', () => {
  const pools = () => Promise.resolve([{ name: 'v4', cidr: '10.0.0.0/16' }, { name: 'v6', cidr: 'fd00::/64' }]);
  it('normalises CIDRs and maps names to their CIDR', async () => {
    expect(await resolvePools(['10.1.2.3/16', 'v4'], 4, pools)).toEqual(['10.1.0.0/16', '10.0.0.0/16']);
  });
  it.each([
    { entries: ['nope'], version: 4 as const, msg: 'error parsing pool "nope": invalid CIDR address: nope' },
    { entries: ['v6'], version: 4 as const, msg: '"v6" isn\'t a IPv4 address' },
    { entries: ['10.0.0.0/8'], version: 6 as const, msg: '"10.0.0.0/8" isn\'t a IPv6 address' },
  ])('rejects $entries for IPv$version', async ({ entries, version, msg }) => {
    await expect(resolvePools(entries, version, pools)).rejects.toThrow(new NetworkConfigError(msg));
  });
});

describe('staleHandles', () => {
  const h = (handleId: string) => ({ handleId, block: {}, deleted: false });
  it('selects only this network\'s CNI handles whose container is not valid', () => {
    const handles = ['net.keep', 'net.gone', 'net.vmi.ns.vm', 'other.gone', 'ipip-tunnel-addr-node', 'lb-abc', 'windows-reserved-ipam-handle', 'network.x'].map(h);
    expect(staleHandles(handles, 'net', new Set(['keep'])).map((x) => x.handleId)).toEqual(['net.gone']);
  });
});
