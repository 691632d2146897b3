import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '@ipamkit/models';
import { collectEvents, describeEvent } from '../../src/contract/collect-events.js';

type E = WatchEvent<{ name: string }>;

async function* stream(events: E[], thenWait = false): AsyncGenerator<E> {
  for (const e of events) yield await Promise.resolve(e);
  if (thenWait) await new Promise(() => undefined);
}

const added = (key: string, revision: string): E => ({ type: 'added', key, revision, object: { name: key, revision } });

describe('collectEvents', () => {
  it('returns the first n change events and skips bookmarks', async () => {
    const events = await collectEvents(stream([{ type: 'bookmark', revision: '1' }, added('a', '2'), added('b', '3'), added('c', '4')]), 2, 1_000);
    expect(events.map(describeEvent)).toEqual(['added:a', 'added:b']);
  });

  it('fails naming the events it saw when the rest never arrive', async () => {
    await expect(collectEvents(stream([added('a', '2')], true), 2, 200)).rejects.toThrow('watch delivered 1 of 2 events in 200 ms: ["added:a"]');
  });

  it('fails when the watch ends early', async () => {
    await expect(collectEvents(stream([added('a', '2')]), 2, 1_000)).rejects.toThrow('watch ended after 1 of 2 events');
  });
});
