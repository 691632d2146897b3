import type { ChildProcess } from 'node:child_process';

/**
 * etcd processes still running when the test process exits (a crashed suite, a forgotten stop()).
 * The exit hook kills them by PID and removes their temp dirs, so no etcd outlives its test run.
 */
const live = new Map<ChildProcess, () => void>();
let hooked = false;

function killAll(): void {
  for (const [child, cleanup] of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    try {
      cleanup();
    } catch {
      // best effort while exiting
    }
  }
  live.clear();
}

export function trackForCleanup(child: ChildProcess, cleanup: () => void): void {
  live.set(child, cleanup);
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

export function untrack(child: ChildProcess): void {
  live.delete(child);
}
