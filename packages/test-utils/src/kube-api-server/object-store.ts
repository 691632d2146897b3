import type { JsonValue } from './lossless-json.js';

export type KubeObject = Record<string, JsonValue>;

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `object` is the state after it (for DELETED, the last state). */
export interface StoreEvent {
  readonly rv: bigint;
  readonly type: StoreEventType;
  /** `group/plural` of the resource type. */
  readonly collection: string;
  readonly key: string;
  readonly object: KubeObject;
  readonly previous?: KubeObject;
}

export class ResourceVersionExpiredError extends Error {
  override name = 'ResourceVersionExpiredError';
}

type Listener = (event: StoreEvent) => void;

/**
 * The API server's storage: objects per key, one global resourceVersion counter (what etcd's
 * revision is to a real server), and a bounded event history for watches and for consistent
 * `continue` pages. Events older than the history are compacted: asking for them is a 410.
 */
export class ObjectStore {
  private readonly objects = new Map<string, KubeObject>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<Listener>();
  /**
   * Starts above 0: "0" is not a position in a watch request (it means "any state"), so no list
   * may report it, just as a real cluster's etcd revision is never 0.
   */
  private revision = 1n;
  /** Highest resourceVersion no longer reachable through the history. */
  private compactedThrough = 0n;

  constructor(private readonly maxHistory: number) {}

  get currentRevision(): bigint {
    return this.revision;
  }

  nextRevision(): bigint {
    this.revision += 1n;
    return this.revision;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** Commits a change already stamped with `rv` (from `nextRevision`) and tells every watcher. */
  commit(event: StoreEvent): void {
    if (event.type === 'DELETED') this.objects.delete(event.key);
    else this.objects.set(event.key, event.object);
    this.history.push(event);
    while (this.history.length > this.maxHistory) {
      const dropped = this.history.shift();
      if (dropped !== undefined) this.compactedThrough = dropped.rv;
    }
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Drops history up to the current revision, as an etcd compaction would. */
  compact(): void {
    this.history.length = 0;
    this.compactedThrough = this.revision;
  }

  /** Objects of `collection` as they were at `rv` (current state if absent), sorted by key. */
  snapshot(collection: string, rv?: bigint): { key: string; object: KubeObject }[] {
    const state = new Map<string, KubeObject>();
    const prefix = `${collection}/`;
    for (const [key, object] of this.objects) if (key.startsWith(prefix)) state.set(key, object);
    if (rv !== undefined && rv < this.revision) {
      if (rv < this.compactedThrough) throw new ResourceVersionExpiredError(`resourceVersion ${rv} has been compacted`);
      for (let i = this.history.length - 1; i >= 0; i -= 1) {
        const event = this.history[i];
        if (event === undefined || event.rv <= rv) break;
        if (event.collection !== collection) continue;
        if (event.previous === undefined) state.delete(event.key);
        else state.set(event.key, event.previous);
      }
    }
    return [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, object]) => ({ key, object }));
  }

  /** Events after `rv`, in order; throws if some of them were compacted away. */
  eventsSince(rv: bigint): StoreEvent[] {
    if (rv < this.compactedThrough) throw new ResourceVersionExpiredError(`too old resource version: ${rv} (${this.compactedThrough + 1n})`);
    return this.history.filter((e) => e.rv > rv);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
