import { spawn, type ChildProcess } from 'node:child_process';

export interface SupervisedSpec {
  /** Name in reports, e.g. `gc` or `tunnel-alloc/node-3`. */
  readonly name: string;
  readonly script: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Pause before a restart, as a kubelet's back-off would (short: the hammer wants churn). */
  readonly restartDelayMs: number;
}

/**
 * A controller process kept running as a Deployment or DaemonSet keeps its pod running: whenever it
 * exits (SIGKILLed by the hammer, or crashed) it is started again, until `stop`. Its stderr is kept
 * (last 4 KB) so a crash can be reported.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private exited: Promise<void> = Promise.resolve();
  starts = 0;
  kills = 0;
  lastStderr = '';

  constructor(readonly spec: SupervisedSpec) {}

  start(): void {
    if (this.stopping) return;
    this.starts += 1;
    const child = spawn(process.execPath, [this.spec.script, ...this.spec.args], { env: { ...process.env, ...this.spec.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr.on('data', (chunk: Buffer) => {
      this.lastStderr = (this.lastStderr + chunk.toString('utf8')).slice(-4096);
    });
    child.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        if (this.child === child) this.child = undefined;
        resolve();
        if (!this.stopping) setTimeout(() => this.start(), this.spec.restartDelayMs);
      });
    });
  }

  /** SIGKILL, whatever it is doing; the supervisor starts it again. */
  kill(): void {
    if (this.child === undefined) return;
    this.kills += 1;
    this.child.kill('SIGKILL');
  }

  /** SIGTERM and wait; SIGKILL if it has not exited within the timeout. No restart afterwards. */
  async stop(timeoutMs = 5000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}
