import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** A spawned controller bin with its stderr collected. */
export interface BinProcess {
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves with the first JSON log line whose msg is `msg`. */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends SIGTERM; resolves with the exit code and how long the exit took. */
  terminate(): Promise<{ code: number | null; ms: number }>;
}

/**
 * Spawns `bin` as an operator would: a script (`.js`, `.cjs`, `.mjs`) under this node, anything
 * else (a single executable) exec'd directly.
 */
export function spawnBin(bin: string, args: string[], env: NodeJS.ProcessEnv): BinProcess {
  const { NODE_EXTRA_CA_CERTS: _unused, ...inherited } = process.env;
  const [command, commandArgs] = /\.[cm]?js$/.test(bin) ? [process.execPath, [bin, ...args]] : [bin, args];
  const child = spawn(command, commandArgs, { env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let buffered = '';
  const waiters: { msg: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    const start = buffered.length;
    buffered += chunk.toString('utf8');
    const firstNewline = buffered.lastIndexOf('\n', start);
    for (const line of buffered.slice(firstNewline + 1).split('\n')) {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      for (const w of waiters.filter((x) => x.msg === parsed['msg'])) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(parsed);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => buffered,
    waitForLog(msg, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${msg}" log within ${String(timeoutMs)} ms; stderr:\n${buffered}`)), timeoutMs);
        waiters.push({ msg, resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        } });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${String(code)} before "${msg}"; stderr:\n${buffered}`));
        });
      });
    },
    async terminate() {
      const started = performance.now();
      child.kill('SIGTERM');
      const code = await exited;
      return { code, ms: performance.now() - started };
    },
  };
}

/** Kills a bin a test left running. */
export async function killBin(proc: BinProcess | undefined): Promise<void> {
  if (proc === undefined || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGKILL');
  await exited;
}

/** A kubeconfig like `yaml` whose server is `http://127.0.0.1:<port>` instead. */
export function writeKubeconfigForPort(yaml: string, serverUrl: string, port: number, file: string): string {
  writeFileSync(file, yaml.replaceAll(serverUrl, `http://127.0.0.1:${String(port)}`), { mode: 0o600 });
  return file;
}

export const fetchStatus = async (port: number, path: string): Promise<{ status: number; text: string }> => {
  const res = await fetch(`http://127.0.0.1:${String(port)}${path}`);
  return { status: res.status, text: await res.text() };
};
