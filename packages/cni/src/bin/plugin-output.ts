import { writeSync } from 'node:fs';

/**
 * The plugin's stdout (the CNI answer) and stderr (log lines), written with `writeSync` on the
 * descriptors: creating `process.stdout`/`process.stderr` costs a few milliseconds of every call
 * (design/cni.md, "Start-up cost"). A descriptor another process left non-blocking may refuse part
 * of a large write (EAGAIN); the rest then goes through the stream, and the exit waits for it.
 */
export class PluginOutput {
  private readonly queued = new Map<1 | 2, number>([
    [1, 0],
    [2, 0],
  ]);
  private exitCode: number | undefined;

  constructor(private readonly exit: (code: number) => never = (code) => process.exit(code)) {}

  write(fd: 1 | 2, text: string): void {
    let rest = Buffer.from(text, 'utf8');
    // Once part of this descriptor's output waits in its stream, the rest must queue behind it.
    if (this.queued.get(fd) === 0) {
      try {
        while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
        return;
      } catch (err) {
        // EPIPE: nobody reads any more; the answer cannot be delivered, the exit code still is.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      }
    }
    this.queued.set(fd, (this.queued.get(fd) ?? 0) + 1);
    const stream = fd === 1 ? process.stdout : process.stderr;
    if (stream.listenerCount('error') === 0) stream.on('error', () => undefined);
    stream.write(rest, () => {
      this.queued.set(fd, (this.queued.get(fd) ?? 1) - 1);
      this.exitIfDone();
    });
  }

  /** Exits with `code` as soon as everything written so far has left the process. */
  exitWhenWritten(code: number): void {
    this.exitCode = code;
    this.exitIfDone();
  }

  private exitIfDone(): void {
    if (this.exitCode !== undefined && this.queued.get(1) === 0 && this.queued.get(2) === 0) this.exit(this.exitCode);
  }
}
