import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runCni } from '@ipamkit/cni';
import type { Datastore } from '@ipamkit/models';
import { type CniCall, cniEnv } from './cni-call.js';

export interface CniOutcome {
  readonly exitCode: number;
  readonly stdout: string;
}

/** Runs a CNI call: in-process through `runCni`, or as the real `calico-ipam` bin. */
export type CniDriver = (call: CniCall) => Promise<CniOutcome>;

/** In-process: the same handler the bin runs, against the simulator's (counting) datastore. */
export function inProcessDriver(datastore: Datastore): CniDriver {
  return (call) => runCni({ env: cniEnv(call), stdin: call.netConf, datastore, stderr: () => undefined });
}

/** The path of the built `calico-ipam` bin of @ipamkit/cni. */
export function calicoIpamBinPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@ipamkit/cni/package.json')), 'dist', 'calico-ipam.cjs');
}

/** `--spawn`: one `node calico-ipam.cjs` process per call, reading its datastore from the config. */
export function spawnDriver(bin = calicoIpamBinPath()): CniDriver {
  return (call) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin], { env: { ...process.env, ...cniEnv(call) }, stdio: ['pipe', 'pipe', 'ignore'] });
      const out: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.once('error', reject);
      child.once('close', (code) => resolve({ exitCode: code ?? 1, stdout: Buffer.concat(out).toString('utf8') }));
      child.stdin.end(call.netConf);
    });
}

/** The addresses (without prefix length) of a CNI ADD result. */
export function resultAddresses(stdout: string): string[] {
  const parsed = JSON.parse(stdout) as { ips?: { address?: string }[] };
  return (parsed.ips ?? []).map((i) => (i.address ?? '').split('/')[0] ?? '').filter((a) => a !== '');
}
