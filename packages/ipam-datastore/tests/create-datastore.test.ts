import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatastoreConfigError } from '../src/errors.js';
import { createDatastore, datastoreFromEnv, type DatastoreConfig } from '../src/create-datastore.js';
import { resolveDatastoreConfig } from '../src/config/resolve-datastore-config.js';
import { tempDir } from './support/temp-dir.js';

describe('resolveDatastoreConfig', () => {
  it.each<{ env: Record<string, string>; config: DatastoreConfig }>([
    { env: { DATASTORE_TYPE: 'memory' }, config: { type: 'memory' } },
    { env: { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: '/var/lib/ipamkit/ipam.db' }, config: { type: 'sqlite', path: '/var/lib/ipamkit/ipam.db' } },
    { env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: 'http://10.0.0.1:2379, http://10.0.0.2:2379' }, config: { type: 'etcd', endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'] } },
    { env: { DATASTORE_TYPE: 'kubernetes', KUBECONFIG: '/etc/kube/config' }, config: { type: 'kubernetes', kubeconfig: '/etc/kube/config', apiGroup: 'crd.projectcalico.org/v1' } },
    { env: { DATASTORE_TYPE: 'kubernetes' }, config: { type: 'kubernetes', apiGroup: 'crd.projectcalico.org/v1' } },
    { env: {}, config: { type: 'kubernetes', apiGroup: 'crd.projectcalico.org/v1' } },
  ])('reads $env', ({ env, config }) => {
    expect(resolveDatastoreConfig(env)).toEqual(config);
  });

  it.each<{ env: Record<string, string>; message: string }>([
    { env: { DATASTORE_TYPE: 'etcd' }, message: 'DATASTORE_TYPE must be one of etcdv3, kubernetes, sqlite, memory; got "etcd"' },
    { env: { DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: ' , ' }, message: 'datastore type etcdv3 needs ETCD_ENDPOINTS or ETCD_AUTHORITY' },
  ])('refuses $env with DatastoreConfigError', ({ env, message }) => {
    expect(() => resolveDatastoreConfig(env)).toThrow(new DatastoreConfigError(message));
  });
});

describe('createDatastore', () => {
  it('opens a memory datastore', async () => {
    const ds = await createDatastore({ type: 'memory' });
    expect(ds.kind).toBe('memory');
    await ds.close();
  });

  it('opens the sqlite file named by the environment', async () => {
    const tmp = tempDir('create');
    const path = join(tmp.dir, 'ipam.db');
    try {
      const ds = await datastoreFromEnv({ DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: path });
      expect(ds.kind).toBe('sqlite');
      await ds.nodes.create({ name: 'node-a' });
      await ds.close();
      expect(statSync(path).isFile()).toBe(true);
    } finally {
      tmp.remove();
    }
  });

  it('refuses an unknown type and empty locations with DatastoreConfigError', async () => {
    await expect(createDatastore({ type: 'zookeeper' } as unknown as DatastoreConfig)).rejects.toThrow(new DatastoreConfigError('unknown datastore type "zookeeper"'));
    await expect(createDatastore({ type: 'sqlite', path: '' })).rejects.toBeInstanceOf(DatastoreConfigError);
    await expect(createDatastore({ type: 'etcd', endpoints: [] })).rejects.toBeInstanceOf(DatastoreConfigError);
  });
});
