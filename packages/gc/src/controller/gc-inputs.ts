import { cidrToName } from '@ipamkit/models';
import type { AllocationBlock, IPPool, IPReservation, Node, Versioned, WatchEvent } from '@ipamkit/models';
import type { GcMetrics } from '../metrics/gc-metrics.js';
import { kubernetesNameOf } from '../nodes/node-resolver.js';
import type { GcState } from '../state/gc-state.js';

/** One datastore input: a full listing (replaces what was known) or one watch event. */
export type GcInput =
  | { readonly kind: 'blocks'; readonly snapshot: readonly Versioned<AllocationBlock>[] }
  | { readonly kind: 'blocks'; readonly event: WatchEvent<AllocationBlock> }
  | { readonly kind: 'pools'; readonly snapshot: readonly Versioned<IPPool>[] }
  | { readonly kind: 'pools'; readonly event: WatchEvent<IPPool> }
  | { readonly kind: 'reservations'; readonly snapshot: readonly Versioned<IPReservation>[] }
  | { readonly kind: 'reservations'; readonly event: WatchEvent<IPReservation> }
  | { readonly kind: 'nodes'; readonly snapshot: readonly Versioned<Node>[] }
  | { readonly kind: 'nodes'; readonly event: WatchEvent<Node> };

/** A delete event without the previous object: find the block its key names (any backend's form). */
function blockForKey(state: GcState, key: string): string | undefined {
  for (const cidr of state.allBlocks.keys()) {
    if (key.endsWith(cidr) || key.endsWith(cidr.replace('/', '-')) || key.endsWith(cidrToName(cidr))) return cidr;
  }
  return undefined;
}

/**
 * One named kind (pools, reservations, Calico nodes): a listing replaces the `known` names, an event
 * adds, changes or removes one object.
 */
function applyNamed<T extends { name: string }>(
  input: { readonly snapshot: readonly Versioned<T>[] } | { readonly event: WatchEvent<T> },
  known: () => Iterable<string>,
  upsert: (object: T) => void,
  remove: (name: string) => void,
): void {
  if ('snapshot' in input) {
    const listed = new Set(input.snapshot.map((o) => o.name));
    for (const name of [...known()]) if (!listed.has(name)) remove(name);
    for (const o of input.snapshot) upsert(o);
    return;
  }
  const event = input.event;
  if (event.type === 'added' || event.type === 'modified') upsert(event.object);
  // Without the previous object, the name is the tail of the key.
  else if (event.type === 'deleted') remove(event.previous?.name ?? event.key.slice(event.key.lastIndexOf('/') + 1));
}

/** Applies one input to the maps (design/calico-callers.md#ingesting-updates). Only called from the controller's serial loop. */
export function applyInput(state: GcState, metrics: GcMetrics | undefined, input: GcInput): void {
  switch (input.kind) {
    case 'blocks': {
      if ('snapshot' in input) {
        const listed = new Set(input.snapshot.map((b) => b.cidr));
        for (const cidr of [...state.allBlocks.keys()]) if (!listed.has(cidr)) state.forgetBlock(cidr);
        for (const block of input.snapshot) state.onBlockUpdated(block);
        return;
      }
      const event = input.event;
      if (event.type === 'added' || event.type === 'modified') state.onBlockUpdated(event.object);
      else if (event.type === 'deleted') {
        const cidr = event.previous?.cidr ?? blockForKey(state, event.key);
        if (cidr !== undefined) state.forgetBlock(cidr);
      }
      return;
    }
    case 'pools':
      return applyNamed(
        input,
        () => state.pools.allPools.keys(),
        (pool) => {
          if (state.setPool(pool)) metrics?.onPoolAdded(pool);
        },
        (name) => {
          state.deletePool(name);
          metrics?.onPoolDeleted(name);
        },
      );
    case 'reservations':
      return applyNamed(input, () => state.reservations.keys(), (r) => state.setReservation(r), (name) => state.deleteReservation(name));
    case 'nodes':
      return applyNamed(input, () => state.kubernetesNodesByCalicoName.keys(), (n) => state.setCalicoNode(n.name, kubernetesNameOf(n) ?? ''), (name) => state.deleteCalicoNode(name));
  }
}
