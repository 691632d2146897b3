import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/calico-ipam.cjs', import.meta.url));

export function assertBinBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npx --no-install tsup" in packages/cni first`);
}

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a runtime gives a plugin, minus NODE_EXTRA_CA_CERTS (+40 ms per start, toolchain.md G1). */
export function pluginEnv(cni: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...cni };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Runs the bin as a container runtime does: environment in, config on stdin, result on stdout. */
export function runBin(cni: Record<string, string>, stdin: string, timeoutMs = 60_000): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], { env: pluginEnv(cni), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}
