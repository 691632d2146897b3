import { dirname } from 'node:path';
import { createDatastore, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { createIpamClient, type Clock, type IpamClient } from '@ipamkit/ipam-core';
import { definedFields, type Datastore } from '@ipamkit/models';
import type { CniEnv } from '../config/cni-env.js';
import { datastoreConfigFor } from '../config/datastore-config.js';
import type { NetConf } from '../config/net-config.js';
import { createKubeReader, resolveKubeConnection, type KubeReader } from '../kube/kube-reader.js';
import { CallDeadline, CLOSE_GRACE_MS, DEFAULT_TIMEOUT_SECONDS, runWithinDeadline } from './call-deadline.js';
import { type AffineHintsFile, loadAffineHints, saveAffineHints } from './affine-hints-file.js';
import { acquireIpamLock, DEFAULT_LOCK_FILE } from './ipam-lock.js';
import { reportingUnavailable } from './unavailable-recorder.js';
import type { Logger } from '@ipamkit/models';
import { ensureDirectory, refuseKernelFilesystem, resolvedPath } from './safe-directory.js';

/**
 * A call leaves its SQLite connection to the exit, so the next call, opening the file alone,
 * rebuilds the WAL index from every frame in the WAL; truncating it at 64 pages (about six ADDs)
 * keeps that read short (design/cni.md, "Start-up cost").
 */
export const CNI_WAL_TRUNCATE_PAGES = 64;

type Env = Readonly<Record<string, string | undefined>>;

/** Everything one CNI call shares; the datastore and the Kubernetes reader are opened on first use. */
export class Invocation {
  private datastore: Datastore | undefined;
  private opening: Promise<Datastore> | undefined;
  private ownsDatastore = false;
  private client: IpamClient | undefined;
  /** The client's read hints as kept beside the host lock, on datastores a round trip away. */
  private hints: AffineHintsFile | undefined;
  private kube: KubeReader | null | undefined;
  private holdingLock = false;
  /** The call's one budget: lock wait and datastore work (design/cni.md, "Deadline"). */
  readonly deadline: CallDeadline;

  constructor(
    readonly conf: NetConf,
    readonly cni: CniEnv,
    readonly env: Env,
    readonly node: string,
    readonly log: Logger,
    private readonly options: { datastore?: Datastore; clock?: Clock; leaveOpenForExit?: boolean; onKubernetesAccess?: () => void },
  ) {
    this.datastore = options.datastore;
    this.deadline = new CallDeadline(conf.ipam.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, `waiting for ${cni.command} to finish`);
  }

  /** Runs a verb within the call's budget; when it runs out the answer is code 11 naming what it waited for. */
  within<T>(work: () => Promise<T>): Promise<T> {
    return runWithinDeadline(this.deadline, work);
  }

  get clock(): Clock {
    return this.options.clock ?? { now: () => new Date() };
  }

  /** Opens the backend the config names, once however many callers ask; only that backend's client library is loaded. */
  async store(): Promise<Datastore> {
    if (this.datastore !== undefined) return this.datastore;
    // A failed opening is forgotten, so the next caller tries again and reports its own error.
    this.opening ??= this.open().catch((err: unknown) => {
      this.opening = undefined;
      throw err;
    });
    return this.opening;
  }

  /**
   * Starts opening the datastore while the call waits for something else (the pod's reads), on
   * backends whose opening writes nothing: never SQLite, which may create its file. A failure here is
   * dropped; the caller that needs the datastore meets it again (design/cni.md, "Start-up cost").
   */
  openInBackground(): void {
    if (this.datastore !== undefined || this.opening !== undefined) return;
    let config;
    try {
      config = datastoreConfigFor(this.conf, this.env);
    } catch {
      return;
    }
    if (config.type === 'sqlite') return;
    this.store().catch(() => undefined);
  }

  private async open(): Promise<Datastore> {
    const config = datastoreConfigFor(this.conf, this.env);
    if (config.type === 'sqlite') {
      // Never Node's recursive mkdir, which can spin under /proc (design/cni.md, "Directories and file modes").
      refuseKernelFilesystem(resolvedPath(config.path), 'sqlite_path');
      ensureDirectory(dirname(config.path), 'sqlite_path');
    }
    if (config.type === 'kubernetes') this.options.onKubernetesAccess?.();
    const tuned: DatastoreConfig = config.type === 'sqlite' ? { ...config, walTruncatePages: CNI_WAL_TRUNCATE_PAGES } : config;
    const opened = await this.deadline.during(`waiting for the ${config.type} datastore to open`, () => createDatastore(tuned));
    const datastore = reportingUnavailable(opened, (err) => this.deadline.noteUnavailable(err));
    this.datastore = datastore;
    this.ownsDatastore = true;
    return datastore;
  }

  async ipam(): Promise<IpamClient> {
    const datastore = await this.store();
    if (this.client === undefined) {
      // A local datastore reads a hinted block no sooner than any other (design/cni.md, "Read hints between calls").
      this.hints = datastore.kind === 'etcd' || datastore.kind === 'kubernetes' ? loadAffineHints(this.hintsPath) : undefined;
      this.client = createIpamClient({
        datastore,
        // One call makes one allocation or release: a context cache would only add the stamps of
        // what it read (design/cni.md, "Start-up cost").
        cacheAssignContext: false,
        ...definedFields({ clock: this.options.clock, affineHints: this.hints?.hints }),
      });
    }
    return this.client;
  }

  private get hintsPath(): string {
    return `${this.conf.ipamLockFile ?? DEFAULT_LOCK_FILE}.hints`;
  }

  /** Keeps the client's read hints for the next call; best effort (a call never fails for its hints). */
  private keepHints(): void {
    if (this.hints === undefined) return;
    try {
      saveAffineHints(this.hints);
    } catch (err) {
      this.log.debug(`read hints not kept: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }

  /** A pod/namespace reader when Kubernetes access is configured (design/calico-callers.md#datastore-client), else undefined. */
  kubeReader(): KubeReader | undefined {
    if (this.kube === undefined) {
      this.options.onKubernetesAccess?.();
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
      this.kube = conn === undefined ? null : this.named(createKubeReader(conn));
    }
    return this.kube ?? undefined;
  }

  /** A reader whose calls say what the call waits for, should the budget run out during one. */
  private named(reader: KubeReader): KubeReader {
    const during = <T>(what: string, work: () => Promise<T>): Promise<T> => this.deadline.during(`waiting for the Kubernetes API to return ${what}`, work);
    return {
      getPod: (ns, name) => during(`pod ${ns}/${name}`, () => reader.getPod(ns, name)),
      getNamespace: (name) => during(`namespace ${name}`, () => reader.getNamespace(name)),
      getVirtualMachineInstance: (ns, name) => during(`VirtualMachineInstance ${ns}/${name}`, () => reader.getVirtualMachineInstance(ns, name)),
      getVirtualMachine: (ns, name) => during(`VirtualMachine ${ns}/${name}`, () => reader.getVirtualMachine(ns, name)),
    };
  }

  /**
   * Runs `work` holding the host IPAM lock (design/cni.md, "Host lock"); the wait counts against the
   * call's budget. Work that runs while the call holds the lock already just runs.
   */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    if (this.holdingLock) return work();
    const path = this.conf.ipamLockFile ?? DEFAULT_LOCK_FILE;
    const unlock = await acquireIpamLock({ path, log: this.log, deadline: this.deadline });
    this.holdingLock = true;
    try {
      const result = await work();
      // Under the lock, so that calls on this host write the hints one at a time.
      this.keepHints();
      return result;
    } finally {
      this.holdingLock = false;
      unlock();
    }
  }

  /**
   * Starts the first reads of this call's AutoAssign while the call reads something else (design/cni.md,
   * "Read-ahead"); only on a datastore that is opening in the background (never SQLite). Best effort:
   * a failure is the AutoAssign's to meet and report.
   */
  readAhead(families: { num4: number; num6: number }): void {
    if (this.opening === undefined) return;
    void this.ipam().then(
      (ipam) => ipam.readAhead({ hostname: this.node, intendedUse: 'Workload', ...families }),
      () => undefined,
    );
  }

  /** Closes what this call opened, giving up after CLOSE_GRACE_MS (a client stuck on a dead endpoint). */
  async close(): Promise<void> {
    // The process exits next: nothing to gain from closing, and SQLite would checkpoint and fsync.
    if (this.options.leaveOpenForExit === true) return;
    const owned = this.ownsDatastore ? this.datastore : undefined;
    // An opening still under way (started in the background, never awaited) is closed once it is open.
    const pending = owned === undefined ? this.opening : undefined;
    this.datastore = undefined;
    this.opening = undefined;
    if (owned === undefined && pending === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
      timer.unref();
    });
    try {
      const closing = owned !== undefined ? owned.close() : pending?.then((opened) => opened.close(), () => undefined);
      await Promise.race([closing, grace]);
    } finally {
      clearTimeout(timer);
    }
  }
}
