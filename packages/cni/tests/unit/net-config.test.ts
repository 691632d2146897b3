import { describe, expect, it } from 'vitest';
import { CniDecodeError, IncompatibleVersionError, NetworkConfigError, parseNetConf } from '../../src/index.js';

const base = { cniVersion: '1.0.0', name: 'net' };
const parse = (extra: Record<string, unknown>) => parseNetConf(JSON.stringify({ ...base, ...extra }));

describe('parseNetConf', () => {
  it('reads the keys calico-ipam uses', () => {
    const conf = parse({
      nodename: 'n1',
      datastore_type: 'sqlite',
      sqlite_path: '/x.db',
      ipam: { type: 'calico-ipam', assign_ipv6: 'true', ipv4_pools: ['a'], ipv6_pools: ['fd00::/64'] },
      policy: { type: 'k8s' },
      feature_control: { ip_addrs_no_ipam: true },
      runtimeConfig: { ips: ['10.0.0.1/24'] },
      'cni.dev/valid-attachments': [{ containerID: 'c', ifname: 'eth0' }],
      unknown_key: { anything: 1 },
    });
    expect(conf).toEqual({
      cniVersion: '1.0.0',
      name: 'net',
      nodename: 'n1',
      datastoreType: 'sqlite',
      sqlitePath: '/x.db',
      ipam: { type: 'calico-ipam', assignIpv6: 'true', ipv4Pools: ['a'], ipv6Pools: ['fd00::/64'], gateways: [] },
      etcd: {},
      kubernetes: {},
      policy: { type: 'k8s' },
      featureControl: { ipAddrsNoIpam: true },
      windowsUseSingleNetwork: false,
      runtimeIps: ['10.0.0.1/24'],
      validAttachments: [{ containerID: 'c', ifname: 'eth0' }],
    });
  });

  it.each([
    { cniVersion: undefined, cniVersions: ['0.4.0', '1.1.0', '9.9.9'], expected: '1.1.0' },
    { cniVersion: '0.3.1', cniVersions: ['1.1.0'], expected: '0.3.1' },
  ])('negotiates $expected from cniVersion $cniVersion and cniVersions $cniVersions', ({ cniVersion, cniVersions, expected }) => {
    expect(parseNetConf(JSON.stringify({ name: 'n', cniVersion, cniVersions })).cniVersion).toBe(expected);
  });

  it.each([
    { input: '{', err: CniDecodeError, msg: /^error unmarshall network config/ },
    { input: '[1]', err: CniDecodeError, msg: /must be a JSON object/ },
    { input: JSON.stringify({ cniVersion: '1.0.0' }), err: NetworkConfigError, msg: /^missing network name$/ },
    { input: JSON.stringify({ cniVersion: '1.0.0', name: 'a b' }), err: NetworkConfigError, msg: /invalid characters detected/ },
    { input: JSON.stringify({ name: 'n' }), err: IncompatibleVersionError, msg: /incompatible CNI versions/ },
    { input: JSON.stringify({ name: 'n', cniVersion: '0.2.0' }), err: IncompatibleVersionError, msg: /incompatible CNI versions/ },
    { input: JSON.stringify({ ...base, ipam: { assign_ipv6: true } }), err: NetworkConfigError, msg: /ipam.assign_ipv6 must be a string/ },
    { input: JSON.stringify({ ...base, ipam: { ipv4_pools: 'a' } }), err: NetworkConfigError, msg: /ipam.ipv4_pools must be a list of strings/ },
    { input: JSON.stringify({ ...base, ipam: { gateways: ['nope'] } }), err: NetworkConfigError, msg: /ipam.gateways\[0\] is not an IP address/ },
    { input: JSON.stringify({ ...base, ipam: { routes: [{ dst: '10.0.0.0/40' }] } }), err: NetworkConfigError, msg: /is not a CIDR/ },
    { input: JSON.stringify({ ...base, prevResult: [] }), err: NetworkConfigError, msg: /prevResult must be an object/ },
  ])('rejects $input', ({ input, err, msg }) => {
    expect(() => parseNetConf(input)).toThrow(err);
    expect(() => parseNetConf(input)).toThrow(msg);
  });
});
