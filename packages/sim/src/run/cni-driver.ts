import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runCni } from '@ipamkit/cni';
import type { Datastore } from '@ipamkit/models';

/** One CNI invocation as the container runtime makes it. */
export interface CniCall {
  readonly command: 'ADD' | 'DEL';
  readonly containerId: string;
  readonly namespace: string;
  readonly pod: string;
  /** The network config JSON written to stdin. */
  readonly netConf: string;
}

export interface CniOutcome {
  readonly exitCode: number;
  readonly stdout: string;
}

/** Runs a CNI call: in-process through `runCni`, or as the real `calico-ipam` bin. */
export type CniDriver = (call: CniCall) => Promise<CniOutcome>;

function cniEnv(call: CniCall): Record<string, string> {
  return {
    CNI_COMMAND: call.command,
    CNI_CONTAINERID: call.containerId,
    CNI_NETNS: `/var/run/netns/${call.containerId}`,
    CNI_IFNAME: 'eth0',
    CNI_PATH: '/opt/cni/bin',
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=${call.namespace};K8S_POD_NAME=${call.pod};K8S_POD_INFRA_CONTAINER_ID=${call.containerId}`,
  };
}

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
