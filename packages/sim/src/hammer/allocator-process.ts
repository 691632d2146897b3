import { fork, type ChildProcess } from 'node:child_process';
import { SimStepError } from '../errors.js';
import { READY, WORKER_ENV, type WorkerConfig, type WorkerReply, type WorkerRequest } from './hammer-protocol.js';

/** What a call came back with: the CNI outcome, or the news that the process died under it. */
export type CallOutcome = WorkerReply | { readonly killed: true };

/** One allocator child process, driven one request at a time. */
export class AllocatorProcess {
  private readonly waiting = new Map<number, (o: CallOutcome) => void>();
  private nextId = 1;
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        for (const resolveCall of this.waiting.values()) resolveCall({ killed: true });
        this.waiting.clear();
        resolve();
      });
    });
    // Write errors surface through send callbacks; without a listener they would crash the parent.
    child.on('error', () => undefined);
    child.on('message', (msg: WorkerReply | string) => {
      if (typeof msg === 'string') return;
      this.waiting.get(msg.id)?.(msg);
      this.waiting.delete(msg.id);
    });
  }

  /** Forks the worker and waits until it has opened the datastore. */
  static async start(workerPath: string, config: WorkerConfig, timeoutMs = 60_000): Promise<AllocatorProcess> {
    const child = fork(workerPath, [], { env: { ...process.env, [WORKER_ENV]: JSON.stringify(config) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const proc = new AllocatorProcess(child);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new SimStepError('allocator', `allocator process did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      child.on('message', (msg) => {
        if (msg !== READY) return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new SimStepError('allocator', `allocator process exited with code ${String(code)} while starting`));
      });
    });
    return proc;
  }

  call(req: Omit<WorkerRequest, 'id'>): Promise<CallOutcome> {
    if (this.exited) return Promise.resolve({ killed: true });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      // A child killed but not yet reaped refuses the write (EPIPE): that is a death mid-call too.
      this.child.send({ ...req, id }, (err) => {
        if (err === null) return;
        this.waiting.delete(id);
        resolve({ killed: true });
      });
    });
  }

  /** SIGKILL, mid-operation if one is running; resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.exited) this.child.kill('SIGKILL');
    await this.exit;
  }

  /** Lets the worker close its datastore and exit; kills it if it does not within the timeout. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.exited) return;
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exit;
    clearTimeout(timer);
  }
}
