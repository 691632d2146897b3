/** What the bin runner needs of a leader elector (design/kube-runtime.md "Lease leader election"). */
export interface LeaderElector {
  readonly isLeader: boolean;
  /** Resolves true once this process leads, false if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<boolean>;
  /** Renews in the background; calls `onLost` once when leadership is lost. */
  keepRenewing(onLost: () => void): void;
  /** Stops renewing (leadership is kept on the server until `release` or expiry). */
  stop(): void;
  /** Gives the lease up at once if held, so a successor need not wait for it to expire. */
  release(): Promise<void>;
}
