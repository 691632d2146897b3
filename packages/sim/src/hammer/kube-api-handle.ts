import { fork, type ChildProcess } from 'node:child_process';
import { SimStepError } from '../errors.js';
import { KUBE_API_ENV, type KubeApiProcessConfig, type KubeApiStatus } from './kube-api-protocol.js';

/** The Kubernetes API test server process, as the parent drives it. */
export class KubeApiHandle {
  private last: KubeApiStatus;

  private constructor(private readonly child: ChildProcess, first: KubeApiStatus) {
    this.last = first;
    child.on('message', (msg: KubeApiStatus) => {
      this.last = msg;
    });
  }

  static async start(script: string, config: KubeApiProcessConfig, timeoutMs = 60_000): Promise<KubeApiHandle> {
    const child = fork(script, [], { env: { ...process.env, [KUBE_API_ENV]: JSON.stringify(config) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('error', () => undefined);
    const first = await new Promise<KubeApiStatus>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new SimStepError('kube', `the Kubernetes API test server did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('message', (msg: KubeApiStatus) => {
        clearTimeout(timer);
        resolve(msg);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new SimStepError('kube', `the Kubernetes API test server exited with code ${String(code)} while starting`));
      });
    });
    return new KubeApiHandle(child, first);
  }

  get url(): string {
    return this.last.url;
  }

  /** Sets the fault rate and waits for the server to confirm it (with the counts so far). */
  async setFaultRate(faultRate: number): Promise<KubeApiStatus> {
    return new Promise((resolve) => {
      this.child.once('message', (msg: KubeApiStatus) => resolve(msg));
      this.child.send({ faultRate });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}
