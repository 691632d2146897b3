import { ApiException, CoordinationV1Api, type KubeConfig, V1Lease, V1LeaseSpec, V1MicroTime, V1ObjectMeta } from '@kubernetes/client-node';
import { type Clock, isoUtc, sleep, systemClock } from '@ipamkit/models';
import type { LeaderElector } from '../runner/leader-elector.js';

export interface LeaseLeaderElectorOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly name: string;
  /** This process's identity (the pod name in a cluster). */
  readonly identity: string;
  /** How long a candidate waits, after it last saw the lease change, before taking it over (client-go default 15 s). */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives up (client-go default 10 s; below the lease duration). */
  readonly renewDeadlineMs?: number;
  /** How often to try to acquire or renew (client-go default 2 s). */
  readonly retryPeriodMs?: number;
  /** This process's clock; injected by tests (clock skew between candidates). */
  readonly clock?: Clock;
}

/** Read through a call: the answer changes across awaits. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

const hasStatus = (err: unknown, code: number): boolean => err instanceof ApiException && err.code === code;

/** What a candidate last saw of the lease: a change to any of these restarts its expiry countdown. */
const recordOf = (lease: V1Lease): string => {
  const spec = lease.spec;
  const renew = spec?.renewTime === undefined ? '' : isoUtc(new Date(spec.renewTime));
  return `${lease.metadata?.resourceVersion ?? ''}|${spec?.holderIdentity ?? ''}|${renew}`;
};

/**
 * Leader election on a coordination.k8s.io/v1 Lease with client-go's semantics (design/kube-runtime.md
 * "Lease leader election"): a candidate takes the lease over only when it has not seen the lease record
 * change for the record's lease duration, measured on its OWN clock since it last observed a change
 * (never by comparing the holder's `renewTime` with the local clock, so clock skew between nodes
 * cannot elect two leaders). Writes are compare-and-swap on resourceVersion. The leader gives up once
 * it could not renew for the renew deadline, and releases the lease on shutdown by clearing
 * `holderIdentity`.
 */
export class LeaseLeaderElector implements LeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly durationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private observedRecord: string | undefined;
  private observedAtMs = 0;
  private leading = false;
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LeaseLeaderElectorOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
    this.durationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? Math.round((this.durationMs * 2) / 3);
    this.retryMs = options.retryPeriodMs ?? Math.max(1, Math.round(this.durationMs / 7.5));
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get leaseSeconds(): number {
    return Math.max(1, Math.ceil(this.durationMs / 1000));
  }

  private observe(lease: V1Lease): void {
    const record = recordOf(lease);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAtMs = this.now();
    }
  }

  /** One round: true when this process holds the lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ namespace, name });
    } catch (err) {
      if (!hasStatus(err, 404)) throw err;
      return this.create();
    }
    this.observe(lease);
    const spec = lease.spec ?? new V1LeaseSpec();
    const holder = spec.holderIdentity ?? '';
    const recordDurationMs = (spec.leaseDurationSeconds ?? this.leaseSeconds) * 1000;
    const expired = this.observedAtMs + recordDurationMs <= this.now();
    if (holder !== '' && holder !== identity && !expired) return (this.leading = false);
    const stamp = new V1MicroTime(this.now());
    if (holder !== identity) {
      spec.acquireTime = stamp;
      spec.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    }
    spec.holderIdentity = identity;
    spec.leaseDurationSeconds = this.leaseSeconds;
    spec.renewTime = stamp;
    lease.spec = spec;
    // The lease was just read for this round; its resourceVersion makes the replace a compare-and-swap.
    return this.leadsAfter(this.api.replaceNamespacedLease({ namespace, name, body: lease }));
  }

  /** A write of the lease that lands makes us leader; one that lost the race (409 Conflict) does not. */
  private async leadsAfter(write: Promise<V1Lease>): Promise<boolean> {
    try {
      this.observe(await write);
      return (this.leading = true);
    } catch (err) {
      if (hasStatus(err, 409)) return (this.leading = false);
      throw err;
    }
  }

  private async create(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const stamp = new V1MicroTime(this.now());
    // The client's model classes, filled in place.
    const body = Object.assign(new V1Lease(), { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' });
    body.metadata = Object.assign(new V1ObjectMeta(), { name, namespace });
    body.spec = Object.assign(new V1LeaseSpec(), { holderIdentity: identity, leaseDurationSeconds: this.leaseSeconds, acquireTime: stamp, renewTime: stamp, leaseTransitions: 0 });
    return this.leadsAfter(this.api.createNamespacedLease({ namespace, body }));
  }

  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      try {
        if (await this.tryAcquireOrRenew()) return !isAborted(signal) || (await this.releaseAfterAbort());
      } catch {
        // An API error is one failed round; the next round retries.
      }
      await sleep(this.retryMs, signal);
    }
    return false;
  }

  /** Won the lease in the same round the caller gave up: hand it back. */
  private async releaseAfterAbort(): Promise<boolean> {
    await this.release();
    return false;
  }

  keepRenewing(onLost: () => void): void {
    let lastRenewMs = this.now();
    const round = async (): Promise<void> => {
      let kept = false;
      let takenOver = false;
      try {
        kept = await this.tryAcquireOrRenew();
        takenOver = !kept;
      } catch {
        kept = false;
      }
      if (this.renewTimer === undefined) return;
      if (kept) lastRenewMs = this.now();
      else if (takenOver || this.now() - lastRenewMs >= this.renewDeadlineMs) {
        this.leading = false;
        this.renewTimer = undefined;
        onLost();
        return;
      }
      this.renewTimer = setTimeout(() => void round(), this.retryMs);
    };
    this.renewTimer = setTimeout(() => void round(), this.retryMs);
  }

  stop(): void {
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
  }

  async release(): Promise<void> {
    if (!this.leading) return;
    this.stop();
    this.leading = false;
    const { namespace, name, identity } = this.options;
    const lease = await this.api.readNamespacedLease({ namespace, name });
    const spec = lease.spec ?? new V1LeaseSpec();
    if (spec.holderIdentity !== identity) return;
    const stamp = new V1MicroTime(this.now());
    // As client-go's release: no holder, a one-second duration, the transition count kept.
    spec.holderIdentity = '';
    spec.leaseDurationSeconds = 1;
    spec.acquireTime = stamp;
    spec.renewTime = stamp;
    lease.spec = spec;
    try {
      await this.api.replaceNamespacedLease({ namespace, name, body: lease });
    } catch (err) {
      // Someone else wrote the lease meanwhile: it is not ours to release any more.
      if (!hasStatus(err, 409)) throw err;
    }
  }
}
