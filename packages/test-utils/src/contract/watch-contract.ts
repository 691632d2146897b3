import { describe, expect, it } from 'vitest';
import type { Datastore } from '@ipamkit/models';
import { collectEvents, describeEvent } from './collect-events.js';
import { content, sampleAffinity, sampleBlock } from './contract-fixtures.js';

/**
 * List-then-watch (design/calico-stored-formats.md#watch). Event keys are the store's identifier: the name for
 * the resource stores, the canonical CIDR for blocks.
 */
export function watchContract(ds: () => Datastore, timeoutMs: number): void {
  describe('watch', () => {
    const pool = (name: string, blockSize = 26) => ({ name, cidr: `10.${name.length}.0.0/16`, blockSize });

    it('delivers every change after the listed revision, in order', { timeout: timeoutMs + 10_000 }, async () => {
      await ds().ipPools.create(pool('pool-a'));
      const { items, revision } = await ds().ipPools.listWithRevision();
      expect(items.map((p) => p.name)).toEqual(['pool-a']);
      const a = await ds().ipPools.get('pool-a');
      await ds().ipPools.create(pool('pool-b'));
      await ds().ipPools.update({ ...a, blockSize: 28 });
      await ds().ipPools.delete('pool-b');
      const abort = new AbortController();
      try {
        const events = await collectEvents(ds().ipPools.watch({ fromRevision: revision, signal: abort.signal }), 3, timeoutMs);
        expect(events.map(describeEvent)).toEqual(['added:pool-b', 'modified:pool-a', 'deleted:pool-b']);
        const modified = events[1];
        expect(modified?.type === 'modified' ? modified.object.blockSize : undefined).toBe(28);
      } finally {
        abort.abort();
      }
    });

    it('resumes from an event revision without losing or repeating events', { timeout: 2 * timeoutMs + 10_000 }, async () => {
      const { revision } = await ds().ipPools.listWithRevision();
      for (const name of ['p1', 'p2', 'p3', 'p4']) await ds().ipPools.create(pool(name));
      await ds().ipPools.delete('p2');
      const abort = new AbortController();
      try {
        const all = await collectEvents(ds().ipPools.watch({ fromRevision: revision, signal: abort.signal }), 5, timeoutMs);
        expect(all.map(describeEvent)).toEqual(['added:p1', 'added:p2', 'added:p3', 'added:p4', 'deleted:p2']);
        const resumeAt = all[1]?.revision ?? '';
        const rest = await collectEvents(ds().ipPools.watch({ fromRevision: resumeAt, signal: abort.signal }), 3, timeoutMs);
        expect(rest.map(describeEvent)).toEqual(['added:p3', 'added:p4', 'deleted:p2']);
        expect(rest.map((e) => e.revision)).toEqual(all.slice(2).map((e) => e.revision));
      } finally {
        abort.abort();
      }
    });

    it('delivers changes made while the watch is running', { timeout: timeoutMs + 10_000 }, async () => {
      const { revision } = await ds().ipPools.listWithRevision();
      const abort = new AbortController();
      try {
        const pending = collectEvents(ds().ipPools.watch({ fromRevision: revision, signal: abort.signal }), 3, timeoutMs);
        const created = await ds().ipPools.create(pool('live'));
        await ds().ipPools.update({ ...created, blockSize: 30 });
        await ds().ipPools.delete('live');
        expect((await pending).map(describeEvent)).toEqual(['added:live', 'modified:live', 'deleted:live']);
      } finally {
        abort.abort();
      }
    });

    it('reports a soft-deleted block as deleted, never as an object', { timeout: timeoutMs + 10_000 }, async () => {
      const created = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const { revision } = await ds().blocks.listWithRevision();
      await ds().blocks.update({ ...created, deleted: true });
      await ds().blocks.create(sampleBlock('10.0.0.4/30'));
      const abort = new AbortController();
      try {
        const events = await collectEvents(ds().blocks.watch({ fromRevision: revision, signal: abort.signal }), 2, timeoutMs);
        expect(events.map(describeEvent)).toEqual(['deleted:10.0.0.0/30', 'added:10.0.0.4/30']);
        const added = events[1];
        expect(added?.type === 'added' ? content(added.object) : undefined).toEqual(sampleBlock('10.0.0.4/30'));
      } finally {
        abort.abort();
      }
    });

    it('reports block and affinity writes with the written objects', { timeout: 2 * timeoutMs + 10_000 }, async () => {
      const blocks = await ds().blocks.listWithRevision();
      const affinities = await ds().affinities.listWithRevision();
      const block = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      await ds().blocks.delete(block);
      const affinity = await ds().affinities.create({ ...sampleAffinity('node-a', '10.0.0.0/30'), state: 'pending' });
      await ds().affinities.update({ ...affinity, state: 'confirmed' });
      const abort = new AbortController();
      try {
        const blockEvents = await collectEvents(ds().blocks.watch({ fromRevision: blocks.revision, signal: abort.signal }), 2, timeoutMs);
        expect(blockEvents.map(describeEvent)).toEqual(['added:10.0.0.0/30', 'deleted:10.0.0.0/30']);
        const affinityEvents = await collectEvents(ds().affinities.watch({ fromRevision: affinities.revision, signal: abort.signal }), 2, timeoutMs);
        expect(affinityEvents.map((e) => (e.type === 'deleted' ? 'deleted' : `${e.type}:${e.object.host}:${e.object.state}`))).toEqual([
          'added:node-a:pending',
          'modified:node-a:confirmed',
        ]);
      } finally {
        abort.abort();
      }
    });
  });
}
