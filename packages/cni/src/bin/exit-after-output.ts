/**
 * Writes the plugin's answer and exits only once it has left the process. `process.exit` right
 * after `write` loses whatever a pipe has not taken yet (64 KB on Linux), so the exit waits for
 * the write callbacks of stdout and of stderr (log lines), which run after everything queued
 * before them (design/cni.md, "Start-up cost").
 */
export function exitAfterOutput(stdout: string, code: number): void {
  let pending = 2;
  const done = (): void => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write(stdout, done);
  process.stderr.write('', done);
}
