/**
 * Results of a pure function of a string, remembered for the texts seen most recently. When
 * `capacity` texts are held the memo starts over, so its memory stays bounded whatever the input.
 * Only successful results are kept (a throwing `compute` throws again next time), and results must
 * be immutable: every caller gets the same value.
 */
export class TextMemo<R> {
  private readonly entries = new Map<string, R>();

  constructor(private readonly capacity: number) {}

  get(text: string, compute: (text: string) => R): R {
    const hit = this.entries.get(text);
    if (hit !== undefined) return hit;
    const value = compute(text);
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(text, value);
    return value;
  }

  /** Texts held now (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
