import type { IpamClient } from '@ipamkit/ipam-core';
import { type ReconcileResult, startTunnelAllocDaemon, type Logger } from '../src/index.js';
import { type TunnelKind } from '../src/tunnel-kinds.js';
import { NODE, type World } from './fixtures.js';

/** Starts a daemon and lets tests await a reconcile whose result satisfies a predicate. */
export function daemonFor(w: Pick<World, 'ds' | 'ipam'>, extra: { ipam?: IpamClient; logger?: Logger } = {}) {
  const results: ReconcileResult[] = [];
  const waiters: { predicate: (r: ReconcileResult) => boolean; resolve: (r: ReconcileResult) => void }[] = [];
  const daemon = startTunnelAllocDaemon({
    datastore: w.ds,
    ipam: extra.ipam ?? w.ipam,
    nodeName: NODE,
    watchRetryDelayMs: 50,
    ...(extra.logger === undefined ? {} : { logger: extra.logger }),
    onReconciled: (result) => {
      results.push(result);
      for (const waiter of waiters.filter((x) => x.predicate(result))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(result);
      }
    },
  });
  const reconciled = (predicate: (r: ReconcileResult) => boolean): Promise<ReconcileResult> => {
    const seen = results.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ predicate, resolve }));
  };
  return { daemon, results, reconciled };
}

export const has = (kind: TunnelKind) => (r: ReconcileResult) => (r.node.tunnelAddresses?.[kind.nodeField] ?? '') !== '';
export const lacks = (kind: TunnelKind) => (r: ReconcileResult) => r.node.tunnelAddresses?.[kind.nodeField] === undefined;
