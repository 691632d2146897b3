import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient, type Clock, type IpamClient } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import type { CniEnv } from '../config/cni-env.js';
import { datastoreConfigFor } from '../config/datastore-config.js';
import type { NetConf } from '../config/net-config.js';
import { createKubeReader, resolveKubeConnection, type KubeReader } from '../kube/kube-reader.js';
import { acquireIpamLock, DEFAULT_LOCK_FILE } from './ipam-lock.js';
import type { Logger } from './logger.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Everything one CNI call shares; the datastore and the Kubernetes reader are opened on first use. */
export class Invocation {
  private datastore: Datastore | undefined;
  private ownsDatastore = false;
  private client: IpamClient | undefined;
  private kube: KubeReader | null | undefined;

  constructor(
    readonly conf: NetConf,
    readonly cni: CniEnv,
    readonly env: Env,
    readonly node: string,
    readonly log: Logger,
    private readonly options: { datastore?: Datastore; clock?: Clock },
  ) {
    this.datastore = options.datastore;
  }

  get clock(): Clock {
    return this.options.clock ?? { now: () => new Date() };
  }

  /** Opens the backend the config names; only that backend's client library is loaded. */
  async store(): Promise<Datastore> {
    if (this.datastore !== undefined) return this.datastore;
    const config = datastoreConfigFor(this.conf, this.env);
    if (config.type === 'sqlite') mkdirSync(dirname(config.path), { recursive: true });
    const opened = await createDatastore(config);
    this.datastore = opened;
    this.ownsDatastore = true;
    return opened;
  }

  async ipam(): Promise<IpamClient> {
    this.client ??= createIpamClient({ datastore: await this.store(), ...(this.options.clock === undefined ? {} : { clock: this.options.clock }) });
    return this.client;
  }

  /** A pod/namespace reader when Kubernetes access is configured (spec/cni.md §8), else undefined. */
  kubeReader(): KubeReader | undefined {
    if (this.kube === undefined) {
      const { kubernetes, policy } = this.conf;
      const conn = resolveKubeConnection(
        Object.fromEntries(
          Object.entries({
            kubeconfig: kubernetes.kubeconfig,
            apiRoot: kubernetes.k8sApiRoot ?? policy.k8sApiRoot,
            token: policy.k8sAuthToken,
            clientCertificate: policy.k8sClientCertificate,
            clientKey: policy.k8sClientKey,
            certificateAuthority: policy.k8sCertificateAuthority,
          }).filter(([, v]) => v !== undefined && v !== ''),
        ),
        this.env,
      );
      this.kube = conn === undefined ? null : createKubeReader(conn);
    }
    return this.kube ?? undefined;
  }

  /** Runs `work` holding the host IPAM lock (best effort). */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    const unlock = await acquireIpamLock(this.conf.ipamLockFile ?? DEFAULT_LOCK_FILE, this.log);
    try {
      return await work();
    } finally {
      unlock();
    }
  }

  async close(): Promise<void> {
    if (this.ownsDatastore && this.datastore !== undefined) await this.datastore.close();
    this.datastore = undefined;
  }
}
