import { runCni } from '../../src/index.js';

export const VERSIONS = ['0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0'] as const;

export function netConf(keys: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cniVersion: '1.0.0', name: 'k8s-pod-network', type: 'calico', nodename: 'node-a', ipam: { type: 'calico-ipam' }, ...keys, ...extra };
}

export interface CallArgs {
  command: string;
  conf: Record<string, unknown>;
  containerId?: string;
  ifname?: string;
  args?: string;
  env?: Record<string, string>;
}

export function cniEnv(a: Omit<CallArgs, 'conf'>): Record<string, string> {
  return {
    CNI_COMMAND: a.command,
    CNI_CONTAINERID: a.containerId ?? 'c1',
    CNI_NETNS: '/proc/self/ns/net',
    CNI_IFNAME: a.ifname ?? 'eth0',
    CNI_PATH: '/usr/lib/cni',
    ...(a.args === undefined ? {} : { CNI_ARGS: a.args }),
    ...a.env,
  };
}

export interface CallResult {
  exitCode: number;
  stdout: string;
  json: Record<string, unknown> | undefined;
  logs: string[];
}

/** runCni with a JSON config; log lines are captured, not printed. */
export async function call(a: CallArgs): Promise<CallResult> {
  const logs: string[] = [];
  const r = await runCni({ env: cniEnv(a), stdin: JSON.stringify(a.conf), stderr: (l) => logs.push(l) });
  return { ...r, json: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as Record<string, unknown>), logs };
}

/** The addresses of a result, any version. */
export function addressesOf(json: Record<string, unknown> | undefined): string[] {
  const ips = (json?.ips ?? []) as { address: string }[];
  return ips.map((i) => i.address);
}
