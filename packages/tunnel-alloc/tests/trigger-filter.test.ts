import type { IPPool, Node, WatchEvent } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { TriggerFilter } from '../src/trigger-filter.js';

const pool: IPPool = { name: 'p', cidr: '10.0.0.0/16', ipipMode: 'Always', nodeSelector: 'all()' };
const node: Node = { name: 'node-1', labels: { zone: 'a' } };

function modified<T>(object: T): WatchEvent<T> {
  return { type: 'modified', key: 'k', object: { ...object, revision: '2' }, revision: '2' };
}

function seeded(): TriggerFilter {
  const filter = new TriggerFilter('node-1');
  filter.seedPools([pool]);
  filter.seedNodes([node, { name: 'node-2' }]);
  return filter;
}

describe('TriggerFilter', () => {
  it.each<[string, Partial<IPPool>, boolean]>([
    ['a nodeSelector edit (Calico misses it)', { nodeSelector: "zone == 'b'" }, true],
    ['an ipipMode change', { ipipMode: 'Never' }, true],
    ['a vxlanMode change', { vxlanMode: 'Always' }, true],
    ['disabling the pool', { disabled: true }, true],
    ['a deletion timestamp', { deletionTimestamp: '2026-11-29T00:00:00Z' }, true],
    ['an allowedUses change', { allowedUses: ['Workload'] }, true],
    ['an Allocatable=False condition', { conditions: [{ type: 'Allocatable', status: 'False' }] }, true],
    ['a label-only change', { labels: { team: 'x' } }, false],
    ['a blockSize-only change', { blockSize: 28 }, false],
    ['a natOutgoing-only change', { natOutgoing: true }, false],
  ])('pool update: %s → trigger %s', (_name, change, expected) => {
    expect(seeded().poolEvent(modified({ ...pool, ...change }))).toBe(expected);
  });

  it('triggers on pool creation and deletion, not on bookmarks', () => {
    const filter = seeded();
    expect(filter.poolEvent(modified({ ...pool, name: 'new' }))).toBe(true);
    expect(filter.poolEvent({ type: 'deleted', key: 'k', previous: { ...pool, revision: '3' }, revision: '3' })).toBe(true);
    expect(filter.poolEvent({ type: 'bookmark', revision: '4' })).toBe(false);
  });

  it.each<[string, Node, boolean]>([
    ['a label change on the own node', { ...node, labels: { zone: 'b' } }, true],
    ['a published WireGuard key', { ...node, wireguardPublicKey: 'k=' }, true],
    ['a published WireGuard IPv6 key', { ...node, wireguardPublicKeyV6: 'k=' }, true],
    ['a tunnel field edited by someone else', { ...node, tunnelAddresses: { ipv4IPIPTunnelAddr: '10.0.0.9' } }, true],
    ['an unchanged own node', { ...node }, false],
    ['a BGP address change only', { ...node, bgpIPv4Address: '192.0.2.1/24' }, false],
    ['any change on another node', { name: 'node-2', labels: { zone: 'z' } }, false],
  ])('node update: %s → trigger %s', (_name, next, expected) => {
    expect(seeded().nodeEvent(modified(next))).toBe(expected);
  });

  it('triggers when the own node is deleted and ignores other deletions', () => {
    const filter = seeded();
    expect(filter.nodeEvent({ type: 'deleted', key: 'x', previous: { name: 'node-2', revision: '5' }, revision: '5' })).toBe(false);
    expect(filter.nodeEvent({ type: 'deleted', key: 'x', previous: { ...node, revision: '6' }, revision: '6' })).toBe(true);
  });
});
