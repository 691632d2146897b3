import {
  renameTunnelHandleNode,
  type AllocationAttribute,
  type AllocationBlock,
  type BlockAffinity,
  type IPAMHandle,
  type Node,
} from '@ipamkit/models';
import { MigrationRejectedError } from '../errors.js';
import type { MigrationContents } from './migration-contents.js';

// The IPAM rewriting of design/calico-callers.md#ipam-rewriting, as pure functions returning new objects. Where we differ
// from calicoctl (design/cli.md "datastore migrate"): IPv6 tunnel handles are renamed too, and a
// `virtual` owner (e.g. `load-balancer`) is never a node, so it is left alone.

type Renames = ReadonlyMap<string, string>;

function renameOwnerAttrs(attrs: Record<string, string> | undefined, renames: Renames): Record<string, string> | undefined {
  const node = attrs?.node;
  if (attrs === undefined || node === undefined) return attrs;
  const renamed = renames.get(node);
  return renamed === undefined ? attrs : { ...attrs, node: renamed };
}

function renameAttribute(attribute: AllocationAttribute, renames: Renames): AllocationAttribute {
  const out: AllocationAttribute = { ...attribute };
  if (attribute.handleId !== undefined) out.handleId = renameTunnelHandleNode(attribute.handleId, (n) => renames.get(n));
  const active = renameOwnerAttrs(attribute.activeOwnerAttrs, renames);
  if (active !== undefined) out.activeOwnerAttrs = active;
  const alternate = renameOwnerAttrs(attribute.alternateOwnerAttrs, renames);
  if (alternate !== undefined) out.alternateOwnerAttrs = alternate;
  return out;
}

export function renameBlock(block: AllocationBlock, renames: Renames): AllocationBlock {
  const owner = block.affinity;
  const newHost = owner?.type === 'host' ? renames.get(owner.host) : undefined;
  return {
    ...block,
    ...(newHost === undefined ? {} : { affinity: { type: 'host' as const, host: newHost } }),
    attributes: block.attributes.map((a) => renameAttribute(a, renames)),
  };
}

export function renameAffinity(affinity: BlockAffinity, renames: Renames): BlockAffinity {
  const newHost = affinity.type === 'host' ? renames.get(affinity.host) : undefined;
  return newHost === undefined ? affinity : { ...affinity, host: newHost };
}

/** The handle's per-block counts stay as they are; only the ID changes. */
export function renameHandle(handle: IPAMHandle, renames: Renames): IPAMHandle {
  return { ...handle, handleId: renameTunnelHandleNode(handle.handleId, (n) => renames.get(n)) };
}

export function renameNode(node: Node, renames: Renames): Node {
  const newName = renames.get(node.name);
  return newName === undefined ? node : { ...node, name: newName };
}

function requireUnique(keys: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) throw new MigrationRejectedError(`renaming nodes would give two ${what} the same key ${key}`);
    seen.add(key);
  }
}

/** Applies the renames to everything (pools, reservations and config are unchanged) and checks no two objects now collide. */
export function renameContents(contents: MigrationContents, renames: Renames): MigrationContents {
  if (renames.size === 0) return contents;
  const renamed: MigrationContents = {
    ...contents,
    nodes: contents.nodes.map((n) => renameNode(n, renames)),
    affinities: contents.affinities.map((a) => renameAffinity(a, renames)),
    blocks: contents.blocks.map((b) => renameBlock(b, renames)),
    handles: contents.handles.map((h) => renameHandle(h, renames)),
  };
  requireUnique(renamed.nodes.map((n) => n.name), 'nodes');
  requireUnique(renamed.affinities.map((a) => `${a.type}/${a.host}/${a.cidr}`), 'block affinities');
  requireUnique(renamed.handles.map((h) => h.handleId), 'handles');
  return renamed;
}
