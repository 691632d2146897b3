/** Passed to the Kubernetes API test server process in IPAMKIT_HAMMER_KUBE_API (JSON). */
export interface KubeApiProcessConfig {
  /** Where the process writes the kubeconfig every other process reads. */
  readonly kubeconfigPath: string;
  readonly crdDirectory: string;
  readonly faultRate: number;
  readonly seed: number;
  readonly namespaces: readonly string[];
  /** Bearer token of every client (random per run; never printed). */
  readonly token: string;
}

/** Parent → server process: change the fault rate (0 turns faults off for the settle phase). */
export interface KubeApiSetFaultRate {
  readonly faultRate: number;
}

/** Server process → parent: sent once listening, then after every rate change. */
export interface KubeApiStatus {
  readonly url: string;
  readonly faultRate: number;
  readonly injected: { readonly 409: number; readonly 500: number; readonly 410: number };
}

export const KUBE_API_ENV = 'IPAMKIT_HAMMER_KUBE_API';
