import { ApiException, CoordinationV1Api, type KubeConfig, V1Lease, V1LeaseSpec, V1MicroTime, V1ObjectMeta } from '@kubernetes/client-node';

export interface LeaseLeaderElectionOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly name: string;
  /** This process's identity (the pod name in a cluster). */
  readonly identity: string;
  /** How long a lease is valid without renewal (client-go default 15 s). */
  readonly leaseDurationMs?: number;
  /** How often to try to acquire or renew (client-go default 2 s). */
  readonly retryPeriodMs?: number;
  readonly now?: () => Date;
}

const isStatus = (err: unknown, code: number): boolean => err instanceof ApiException && err.code === code;

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go does it: create the lease or take
 * it over once its holder stopped renewing for a lease duration, then renew it every retry period.
 * Compare-and-swap on resourceVersion means two candidates never both win a round.
 */
export class LeaseLeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly durationMs: number;
  private readonly retryMs: number;
  private readonly now: () => Date;
  private renewTimer: NodeJS.Timeout | undefined;
  private leading = false;

  constructor(private readonly options: LeaseLeaderElectionOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
    this.durationMs = options.leaseDurationMs ?? 15_000;
    this.retryMs = options.retryPeriodMs ?? 2_000;
    this.now = options.now ?? (() => new Date());
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** One round: true when this process holds the lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const now = new V1MicroTime(this.now().getTime());
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ namespace, name });
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
      try {
        const body = new V1Lease();
        body.apiVersion = 'coordination.k8s.io/v1';
        body.kind = 'Lease';
        body.metadata = new V1ObjectMeta();
        body.metadata.name = name;
        body.metadata.namespace = namespace;
        body.spec = new V1LeaseSpec();
        body.spec.holderIdentity = identity;
        body.spec.leaseDurationSeconds = Math.ceil(this.durationMs / 1000);
        body.spec.acquireTime = now;
        body.spec.renewTime = now;
        body.spec.leaseTransitions = 0;
        await this.api.createNamespacedLease({ namespace, body });
        return (this.leading = true);
      } catch (createErr) {
        if (isStatus(createErr, 409)) return (this.leading = false);
        throw createErr;
      }
    }
    const spec = lease.spec ?? new V1LeaseSpec();
    const holder = spec.holderIdentity ?? '';
    const renewedMs = spec.renewTime === undefined ? 0 : new Date(spec.renewTime).getTime();
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    const expired = holder === '' || renewedMs + durationMs < now.getTime();
    if (holder !== identity && !expired) return (this.leading = false);
    const takeover = holder !== identity;
    try {
      // The lease was just read for this round and is ours to rewrite; resourceVersion makes it CAS.
      spec.holderIdentity = identity;
      spec.leaseDurationSeconds = Math.ceil(this.durationMs / 1000);
      spec.renewTime = now;
      if (takeover) {
        spec.acquireTime = now;
        spec.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
      }
      lease.spec = spec;
      await this.api.replaceNamespacedLease({ namespace, name, body: lease });
      return (this.leading = true);
    } catch (err) {
      if (isStatus(err, 409)) return (this.leading = false);
      throw err;
    }
  }

  /** Resolves once this process leads; retries every retry period until `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      try {
        if (await this.tryAcquireOrRenew()) return true;
      } catch {
        // An API error is one failed round; try again after the retry period.
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

  /**
   * Renews every retry period; calls `onLost` once if a renewal fails to keep the lease for a whole
   * lease duration (the process should then stop, as client-go's callers do).
   */
  keepRenewing(onLost: () => void): void {
    let lastRenewMs = Date.now();
    const round = async (): Promise<void> => {
      let kept = false;
      try {
        kept = await this.tryAcquireOrRenew();
      } catch {
        kept = false;
      }
      if (kept) lastRenewMs = Date.now();
      else if (Date.now() - lastRenewMs >= this.durationMs || !this.leading) {
        this.leading = false;
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
