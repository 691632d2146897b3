/**
 * Block sequence numbers only increase (design/calico-callers.md#accounting-checks) — within one life of a block: a
 * block that is deleted and claimed again starts over, so a delete forgets what was seen.
 */
export class SequenceTracker {
  private readonly last = new Map<string, bigint>();
  private readonly found: string[] = [];
  observed = 0;

  /** A block was seen (created, updated, or listed) at `sequenceNumber`. */
  seen(cidr: string, sequenceNumber: bigint, deleted: boolean): void {
    this.observed += 1;
    if (deleted) {
      this.last.delete(cidr);
      return;
    }
    const before = this.last.get(cidr);
    if (before !== undefined && sequenceNumber < before) {
      this.found.push(`block ${cidr} sequence number went back from ${before} to ${sequenceNumber}`);
    }
    this.last.set(cidr, sequenceNumber);
  }

  /** The block is gone (delete event). */
  gone(cidr: string): void {
    this.observed += 1;
    this.last.delete(cidr);
  }

  /** After a gap in the event stream, nothing seen before can be compared with what comes next. */
  forget(): void {
    this.last.clear();
  }

  get violations(): readonly string[] {
    return this.found;
  }
}
