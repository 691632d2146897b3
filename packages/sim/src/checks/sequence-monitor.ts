import { type Datastore, sleep } from '@ipamkit/models';
import { SequenceTracker } from './sequence-tracker.js';

/** Pause after a broken stream before listing again (a restarting datastore needs a moment). */
const RESUME_DELAY_MS = 200;

/** Follows the block watch of a datastore and feeds every change to a SequenceTracker. */
export class SequenceMonitor {
  readonly tracker = new SequenceTracker();
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  /** Watch restarts after an error (an etcd restart ends the stream). */
  restarts = 0;

  constructor(private readonly datastore: Datastore) {}

  async start(): Promise<void> {
    const { items, revision } = await this.datastore.blocks.listWithRevision();
    for (const b of items) this.tracker.seen(b.cidr, b.sequenceNumber, b.deleted);
    this.loop = this.follow(revision);
  }

  private async follow(from: string): Promise<void> {
    let revision = from;
    while (!this.abort.signal.aborted) {
      try {
        for await (const ev of this.datastore.blocks.watch({ fromRevision: revision, signal: this.abort.signal })) {
          revision = ev.revision;
          if (ev.type === 'deleted') {
            // Without the previous value the block cannot be named: forget all rather than guess.
            if (ev.previous === undefined) this.tracker.forget();
            else this.tracker.gone(ev.previous.cidr);
          }          else if (ev.type !== 'bookmark') this.tracker.seen(ev.object.cidr, ev.object.sequenceNumber, ev.object.deleted);
        }
      } catch {
        if (this.stopping()) return;
        // The stream broke (datastore restart, compaction): resume from a fresh listing, and do not
        // compare across the gap, where a delete may have been missed.
        this.restarts += 1;
        await sleep(RESUME_DELAY_MS);
        try {
          const { items, revision: now } = await this.datastore.blocks.listWithRevision();
          this.tracker.forget();
          for (const b of items) this.tracker.seen(b.cidr, b.sequenceNumber, b.deleted);
          revision = now;
        } catch {
          // Still down: try again on the next turn.
        }
      }
    }
  }

  private stopping(): boolean {
    return this.abort.signal.aborted;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }
}
