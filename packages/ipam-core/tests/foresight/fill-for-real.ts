import { NotFoundError, WINDOWS_RESERVED_HANDLE, type Datastore, type IPAMConfig } from '@ipamkit/models';
import type { IpamClient } from '../../src/index.js';

/** A node of the real fill; a Windows node allocates as the CNI on Windows does. */
export interface FillNode {
  readonly name: string;
  readonly ipam: IpamClient;
  readonly windows?: boolean;
}

export interface RealFill {
  readonly placed: number;
  /** The first allocation that failed: its node and the pods placed before it. */
  readonly firstFailure: { readonly node: string; readonly afterPods: number } | undefined;
  readonly perNode: ReadonlyMap<string, { readonly placed: number; readonly failed: boolean }>;
}

/**
 * The planner's round-robin for real: nodes in name order, one pod each per round, each pod one
 * AutoAssign of one IPv4 address with a CNI-style handle and pod attributes. With `target`, every
 * node stops at that many pods and a failed node drops out; otherwise the first failure ends it.
 */
export async function fillForReal(nodes: readonly FillNode[], options: { readonly target?: number; readonly maxPods: number }): Promise<RealFill> {
  const active = [...nodes].sort((a, b) => (a.name < b.name ? -1 : 1)).map((n) => ({ n, placed: 0, failed: false }));
  let placed = 0;
  let firstFailure: RealFill['firstFailure'];
  const done = (): RealFill => ({ placed, firstFailure, perNode: new Map(active.map((a) => [a.n.name, { placed: a.placed, failed: a.failed }])) });
  for (;;) {
    const running = active.filter((a) => !a.failed && a.placed < (options.target ?? Number.POSITIVE_INFINITY));
    if (running.length === 0) return done();
    for (const a of running) {
      if (placed >= options.maxPods) throw new Error(`the real fill placed ${placed} pods without failing`);
      const pod = `${a.n.name}-pod-${a.placed}`;
      const ok = await a.n.ipam
        .autoAssign({
          num4: 1,
          hostname: a.n.name,
          intendedUse: 'Workload',
          handleId: `k8s-pod-network.${pod}`,
          attrs: { node: a.n.name, namespace: 'default', pod },
          ...(a.n.windows === true ? { hostReservedAttrIPv4s: { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' } } : {}),
        })
        .then(
          (r) => (r.ipv4?.ips.length ?? 0) === 1,
          () => false,
        );
      if (ok) {
        a.placed += 1;
        placed += 1;
        continue;
      }
      a.failed = true;
      firstFailure ??= { node: a.n.name, afterPods: placed };
      if (options.target === undefined) return done();
    }
  }
}

/** Writes the IPAM config, creating it when none is stored. */
export async function writeConfig(ds: Datastore, config: IPAMConfig): Promise<void> {
  try {
    const stored = await ds.ipamConfig.get();
    await ds.ipamConfig.update({ ...stored, ...config });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await ds.ipamConfig.create(config);
  }
}
