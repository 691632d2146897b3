import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The `.cjs` bundle, for people who run the plugin with their own node. */
export const BIN = fileURLToPath(new URL('../../dist/calico-ipam.cjs', import.meta.url));
/** The single executable (design/cni.md, "Start-up cost") and the SQLite addon it loads from beside itself. */
export const SEA = fileURLToPath(new URL('../../dist/calico-ipam', import.meta.url));
export const ADDON = fileURLToPath(new URL('../../dist/better_sqlite3.node', import.meta.url));

/** One shipped form of the plugin: what a runtime executes, with which arguments. */
export interface Artefact {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export const CJS_BUNDLE: Artefact = { name: 'the .cjs bundle', command: process.execPath, args: [BIN] };
export const SINGLE_EXECUTABLE: Artefact = { name: 'the single executable', command: SEA, args: [] };
/** Every suite that spawns the plugin runs against both. */
export const ARTEFACTS: readonly Artefact[] = [SINGLE_EXECUTABLE, CJS_BUNDLE];

export function assertBinBuilt(): void {
  for (const file of [BIN, SEA, ADDON]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" in packages/cni first`);
  }
}

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a runtime gives a plugin, minus NODE_EXTRA_CA_CERTS (+40 ms per start, design/toolchain.md#node-startup). */
export function pluginEnv(cni: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...cni };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export interface SpawnOptions {
  timeoutMs?: number;
  /** The whole environment instead of this process's plus `cni`. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Spawns a command with stdin, collecting stdout and stderr whole (on pipes, as runtimes do). */
export function spawnCollect(command: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin: string, options: SpawnOptions = {}): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
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

/** Runs the plugin as a container runtime does: environment in, config on stdin, result on stdout. */
export function runBin(cni: Record<string, string>, stdin: string, timeoutMs = 60_000, artefact: Artefact = SINGLE_EXECUTABLE): Promise<BinResult> {
  return spawnCollect(artefact.command, artefact.args, pluginEnv(cni), stdin, { timeoutMs });
}
