import { ApiException, CoordinationV1Api, type KubeConfig, V1Lease, V1LeaseSpec, V1MicroTime, V1ObjectMeta } from '@kubernetes/client-node';

export interface LeaseLeaderElectorOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly name: string;
  /** This process's identity (the pod name in a cluster). */
  readonly identity: string;
  /** How long a lease stays valid without renewal (client-go default 15 s). */
  readonly leaseDurationMs?: number;
  /** How often to try to acquire or renew (client-go default 2 s). */
  readonly retryPeriodMs?: number;
}

const hasStatus = (err: unknown, code: number): boolean => err instanceof ApiException && err.code === code;

/**
 * Leader election on a coordination.k8s.io/v1 Lease (ARCHITECTURE.md: one lb allocator per cluster):
 * create the lease, or take it over once its holder has not renewed it for a lease duration, then
 * renew it every retry period. Writes are compare-and-swap on resourceVersion, so two candidates
 * never both win a round.
 */
export class LeaseLeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly durationMs: number;
  private readonly retryMs: number;
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LeaseLeaderElectorOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
    this.durationMs = options.leaseDurationMs ?? 15_000;
    this.retryMs = options.retryPeriodMs ?? 2_000;
  }

  /** One round: true when this process holds the lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const now = new V1MicroTime(Date.now());
    const seconds = Math.ceil(this.durationMs / 1000);
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ namespace, name });
    } catch (err) {
      if (!hasStatus(err, 404)) throw err;
      try {
        // The client's model classes, filled in place (lint forbids object literals for them).
        const body = Object.assign(new V1Lease(), { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' });
        body.metadata = Object.assign(new V1ObjectMeta(), { name, namespace });
        body.spec = Object.assign(new V1LeaseSpec(), { holderIdentity: identity, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now, leaseTransitions: 0 });
        await this.api.createNamespacedLease({ namespace, body });
        return true;
      } catch (createErr) {
        if (hasStatus(createErr, 409)) return false;
        throw createErr;
      }
    }
    const spec = lease.spec ?? new V1LeaseSpec();
    const holder = spec.holderIdentity ?? '';
    const renewedMs = spec.renewTime === undefined ? 0 : new Date(spec.renewTime).getTime();
    const expired = holder === '' || renewedMs + (spec.leaseDurationSeconds ?? 0) * 1000 < now.getTime();
    if (holder !== identity && !expired) return false;
    spec.holderIdentity = identity;
    spec.leaseDurationSeconds = seconds;
    spec.renewTime = now;
    if (holder !== identity) {
      spec.acquireTime = now;
      spec.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    }
    lease.spec = spec;
    try {
      await this.api.replaceNamespacedLease({ namespace, name, body: lease });
      return true;
    } catch (err) {
      if (hasStatus(err, 409)) return false;
      throw err;
    }
  }

  /** Resolves true once this process leads, false if `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      try {
        if (await this.tryAcquireOrRenew()) return true;
      } catch {
        // An API error is one failed round; the next round retries.
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.retryMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
    }
    return false;
  }

  /** Renews every retry period; calls `onLost` once when the lease could not be kept for a lease duration. */
  keepRenewing(onLost: () => void): void {
    let lastRenewMs = Date.now();
    const round = async (): Promise<void> => {
      const kept = await this.tryAcquireOrRenew().catch(() => false);
      if (kept) lastRenewMs = Date.now();
      else if (Date.now() - lastRenewMs >= this.durationMs) {
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
}
