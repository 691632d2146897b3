/** Where progress goes: a TTY stream (the bar redraws one line) or nothing. */
export interface ProgressSink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

const WIDTH = 30;

/** A one-line progress bar on a TTY; silent elsewhere so that logs and pipes stay clean. */
export class ProgressBar {
  private lastDraw = 0;

  constructor(private readonly sink: ProgressSink | undefined, private readonly total: number, private readonly label: string) {}

  private get enabled(): boolean {
    return this.sink?.isTTY === true;
  }

  update(done: number, note = ''): void {
    if (!this.enabled) return;
    const now = Date.now();
    // Redrawing on every operation would cost more than the operations: ten frames a second.
    if (now - this.lastDraw < 100 && done < this.total) return;
    this.lastDraw = now;
    const ratio = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const filled = Math.round(ratio * WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    this.sink?.write(`\r${this.label} [${bar}] ${Math.round(ratio * 100)}% ${done}/${this.total} ${note}\x1b[K`);
  }

  done(): void {
    if (this.enabled) this.sink?.write('\n');
  }
}
