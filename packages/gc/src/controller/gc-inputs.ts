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

/** The name a delete event refers to: the previous object's, else the tail of the key. */
function deletedName(event: { readonly key: string; readonly previous?: { name?: string; cidr?: string } }, field: 'name' | 'cidr'): string {
  const fromPrevious = event.previous?.[field];
  if (fromPrevious !== undefined) return fromPrevious;
  return event.key.slice(event.key.lastIndexOf('/') + 1);
}

/** A delete event without the previous object: find the block its key names (any backend's form). */
function blockForKey(state: GcState, key: string): string | undefined {
  for (const cidr of state.allBlocks.keys()) {
    if (key.endsWith(cidr) || key.endsWith(cidr.replace('/', '-')) || key.endsWith(cidrToName(cidr))) return cidr;
  }
  return undefined;
}

function upsertPool(state: GcState, metrics: GcMetrics | undefined, pool: IPPool): void {
  if (state.setPool(pool)) metrics?.onPoolAdded(pool);
}

function deletePool(state: GcState, metrics: GcMetrics | undefined, name: string): void {
  state.deletePool(name);
  metrics?.onPoolDeleted(name);
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
    case 'pools': {
      if ('snapshot' in input) {
        const listed = new Set(input.snapshot.map((p) => p.name));
        for (const name of [...state.pools.allPools.keys()]) if (!listed.has(name)) deletePool(state, metrics, name);
        for (const pool of input.snapshot) upsertPool(state, metrics, pool);
        return;
      }
      const event = input.event;
      if (event.type === 'added' || event.type === 'modified') upsertPool(state, metrics, event.object);
      else if (event.type === 'deleted') deletePool(state, metrics, deletedName(event, 'name'));
      return;
    }
    case 'reservations': {
      if ('snapshot' in input) {
        const listed = new Set(input.snapshot.map((r) => r.name));
        for (const name of [...state.reservations.keys()]) if (!listed.has(name)) state.deleteReservation(name);
        for (const r of input.snapshot) state.setReservation(r);
        return;
      }
      const event = input.event;
      if (event.type === 'added' || event.type === 'modified') state.setReservation(event.object);
      else if (event.type === 'deleted') state.deleteReservation(deletedName(event, 'name'));
      return;
    }
    case 'nodes': {
      if ('snapshot' in input) {
        const listed = new Set(input.snapshot.map((n) => n.name));
        for (const name of [...state.kubernetesNodesByCalicoName.keys()]) if (!listed.has(name)) state.deleteCalicoNode(name);
        for (const n of input.snapshot) state.setCalicoNode(n.name, kubernetesNameOf(n) ?? '');
        return;
      }
      const event = input.event;
      if (event.type === 'added' || event.type === 'modified') state.setCalicoNode(event.object.name, kubernetesNameOf(event.object) ?? '');
      else if (event.type === 'deleted') state.deleteCalicoNode(deletedName(event, 'name'));
      return;
    }
  }
}
