import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { datastoreConfigFromFlags } from '@ipamkit/cli';
import { datastoreConfigFor, parseNetConf } from '@ipamkit/cni';
import { resolveDatastoreConfig, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { afterAll, describe, expect, it } from 'vitest';
import { simDatastoreConfig } from '../src/index.js';

// design/ipam-datastore.md, "Configuration": every bin resolves its datastore through the one
// resolver, so the same environment gives every bin the same DatastoreConfig or the same error.
// The sim lives here because it depends on every caller package.

type Env = Record<string, string>;
type Outcome = { config: DatastoreConfig } | { error: string };

function outcome(resolve: () => DatastoreConfig): Outcome {
  try {
    return { config: resolve() };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

// No ~/.kube/config in HOME: the CNI alone falls back to it (design/cni.md, "Datastore configuration").
const home = mkdtempSync(join(tmpdir(), 'ipamkit-table-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const bareNetConf = parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'net', ipam: { type: 'calico-ipam' } }));

/** Each bin's own "flags/netconf + env → DatastoreConfig", called with no flags or netconf keys. */
const BINS: Record<string, (env: Env) => DatastoreConfig> = {
  'calico-ipam (CNI)': (env) => datastoreConfigFor(bareNetConf, { ...env, HOME: home }),
  'ipamkit (CLI)': (env) => datastoreConfigFromFlags({}, env),
  // These bins have no datastore flags: their main resolves the environment alone.
  'ipamkit-gc, ipamkit-lb-alloc, ipamkit-tunnel-alloc': (env) => resolveDatastoreConfig(env),
};

const V1 = 'crd.projectcalico.org/v1';
const TLS_AUTH: Env = {
  DATASTORE_TYPE: 'etcdv3',
  ETCD_ENDPOINTS: 'https://etcd-a:2379,https://etcd-b:2379',
  ETCD_CA_CERT_FILE: '/etc/calico/ca.pem',
  ETCD_CERT_FILE: '/etc/calico/cert.pem',
  ETCD_KEY_FILE: '/etc/calico/key.pem',
  ETCD_USERNAME: 'calico',
  ETCD_PASSWORD: 'table-password',
};

const ROWS: { name: string; env: Env; expected: Outcome; sim?: 'sqlite' | 'etcd' }[] = [
  { name: 'plain etcd', env: { ETCD_ENDPOINTS: 'http://10.0.0.1:2379, http://10.0.0.2:2379' }, expected: { config: { type: 'etcd', endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'] } }, sim: 'etcd' },
  {
    name: 'etcd with TLS files and username/password',
    env: TLS_AUTH,
    expected: { config: { type: 'etcd', endpoints: ['https://etcd-a:2379', 'https://etcd-b:2379'], tls: { caFile: '/etc/calico/ca.pem', certFile: '/etc/calico/cert.pem', keyFile: '/etc/calico/key.pem' }, username: 'calico', password: 'table-password' } },
    sim: 'etcd',
  },
  { name: 'authority and scheme', env: { ETCD_AUTHORITY: 'etcd:2379', ETCD_SCHEME: 'https' }, expected: { config: { type: 'etcd', endpoints: ['https://etcd:2379'] } }, sim: 'etcd' },
  { name: 'etcd with a prefix', env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: 'http://etcd:2379', IPAMKIT_ETCD_PREFIX: '/tenant-a' }, expected: { config: { type: 'etcd', endpoints: ['http://etcd:2379'], prefix: '/tenant-a' } }, sim: 'etcd' },
  {
    name: 'kubernetes with KUBECONFIG and the v3 API group',
    env: { DATASTORE_TYPE: 'kubernetes', KUBECONFIG: '/etc/kubernetes/calico.conf', CALICO_API_GROUP: 'projectcalico.org/v3' },
    expected: { config: { type: 'kubernetes', kubeconfig: '/etc/kubernetes/calico.conf', apiGroup: 'projectcalico.org/v3' } },
  },
  { name: 'sqlite', env: { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: '/var/lib/ipamkit/test.db' }, expected: { config: { type: 'sqlite', path: '/var/lib/ipamkit/test.db' } }, sim: 'sqlite' },
  { name: 'memory', env: { DATASTORE_TYPE: 'memory' }, expected: { config: { type: 'memory' } } },
  { name: 'nothing set', env: {}, expected: { config: { type: 'kubernetes', apiGroup: V1 } } },
  {
    name: 'an endpoint with user info',
    env: { ETCD_ENDPOINTS: 'http://root:table-secret@etcd:2379' },
    expected: { error: 'etcd endpoint 1 of ETCD_ENDPOINTS carries user info (user:password@); give the credentials in ETCD_USERNAME and ETCD_PASSWORD instead' },
    sim: 'etcd',
  },
  { name: 'etcdv3 without a server', env: { DATASTORE_TYPE: 'etcdv3' }, expected: { error: 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY' }, sim: 'etcd' },
  { name: 'a password without a user', env: { ...TLS_AUTH, ETCD_USERNAME: '' }, expected: { error: 'ETCD_PASSWORD is set but ETCD_USERNAME is not' }, sim: 'etcd' },
  { name: 'an unknown type', env: { DATASTORE_TYPE: 'consul' }, expected: { error: 'DATASTORE_TYPE must be one of etcdv3, kubernetes, sqlite, memory; got "consul"' } },
];

describe('every bin resolves the same environment to the same datastore configuration', () => {
  describe.each(ROWS)('$name', ({ env, expected, sim }) => {
    it('the shared resolver gives the expected outcome', () => {
      expect(outcome(() => resolveDatastoreConfig(env))).toEqual(expected);
    });

    it.each(Object.keys(BINS))('%s agrees', (bin) => {
      const resolve = BINS[bin];
      if (resolve === undefined) throw new Error(`no resolution function for ${bin}`);
      expect(outcome(() => resolve(env))).toEqual(expected);
    });

    // The sim always names its own type (sqlite or etcd); everything else comes from the environment.
    if (sim !== undefined) {
      it(`ipamkit-sim --datastore ${sim} agrees`, () => {
        expect(outcome(() => simDatastoreConfig({ datastore: sim }, env))).toEqual(expected);
      });
    }
  });
});

describe("each bin's own flags or keys map onto the same overrides", () => {
  // The environment says something else for every setting the flags give: the flags must win.
  const misleading: Env = { DATASTORE_TYPE: 'sqlite', ETCD_ENDPOINTS: 'http://wrong:2379', ETCD_CA_CERT_FILE: '/wrong/ca', ETCD_CERT_FILE: '/wrong/cert', ETCD_KEY_FILE: '/wrong/key', IPAMKIT_ETCD_PREFIX: '/wrong', KUBECONFIG: '/wrong/kc' };
  const credentials: Env = { ETCD_USERNAME: 'calico', ETCD_PASSWORD: 'table-password' };

  it('etcd with TLS files and a prefix', () => {
    const expected: DatastoreConfig = resolveDatastoreConfig({ ...TLS_AUTH, IPAMKIT_ETCD_PREFIX: '/tenant-a' });
    const env = { ...misleading, ...credentials };
    const netconf = parseNetConf(
      JSON.stringify({
        cniVersion: '1.0.0',
        name: 'net',
        datastore_type: 'etcdv3',
        etcd_endpoints: 'https://etcd-a:2379,https://etcd-b:2379',
        etcd_ca_cert_file: '/etc/calico/ca.pem',
        etcd_cert_file: '/etc/calico/cert.pem',
        etcd_key_file: '/etc/calico/key.pem',
        etcd_prefix: '/tenant-a',
      }),
    );
    const cli = { datastore: 'etcd', etcdEndpoints: 'https://etcd-a:2379,https://etcd-b:2379', etcdCaCertFile: '/etc/calico/ca.pem', etcdCertFile: '/etc/calico/cert.pem', etcdKeyFile: '/etc/calico/key.pem', etcdPrefix: '/tenant-a' };
    expect(datastoreConfigFor(netconf, { ...env, HOME: home })).toEqual(expected);
    expect(datastoreConfigFromFlags(cli, env)).toEqual(expected);
    // The sim's flags carry the servers and the prefix; TLS files and credentials are the environment's.
    expect(simDatastoreConfig({ datastore: 'etcd', etcdEndpoints: ['https://etcd-a:2379', 'https://etcd-b:2379'], etcdPrefix: '/tenant-a' }, TLS_AUTH)).toEqual(expected);
  });

  it('kubernetes with a kubeconfig and the v3 API group', () => {
    const expected: DatastoreConfig = resolveDatastoreConfig({ DATASTORE_TYPE: 'kubernetes', KUBECONFIG: '/etc/kubernetes/calico.conf', CALICO_API_GROUP: 'projectcalico.org/v3' });
    const netconf = parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'net', datastore_type: 'kubernetes', kubernetes: { kubeconfig: '/etc/kubernetes/calico.conf' }, calico_api_group: 'projectcalico.org/v3' }));
    expect(datastoreConfigFor(netconf, { ...misleading, HOME: home })).toEqual(expected);
    expect(datastoreConfigFromFlags({ datastore: 'kubernetes', kubeconfig: '/etc/kubernetes/calico.conf' }, { ...misleading, CALICO_API_GROUP: 'projectcalico.org/v3' })).toEqual(expected);
  });

  it('a bad value names the flag or key it came from', () => {
    const userInfo = 'https://root:table-secret@etcd:2379';
    const netconf = parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'net', etcd_endpoints: userInfo }));
    expect(outcome(() => datastoreConfigFor(netconf, { HOME: home }))).toEqual({ error: expect.stringMatching(/^etcd endpoint 1 of etcd_endpoints carries user info/) });
    expect(outcome(() => datastoreConfigFromFlags({ etcdEndpoints: userInfo }, {}))).toEqual({ error: expect.stringMatching(/^etcd endpoint 1 of --etcd-endpoints carries user info/) });
    expect(outcome(() => simDatastoreConfig({ datastore: 'etcd', etcdEndpoints: [userInfo] }, {}))).toEqual({ error: expect.stringMatching(/^etcd endpoint 1 of --etcd-endpoints carries user info/) });
  });
});
