/** Which pod a CNI invocation is for, as the container runtime names it. */
export interface CniPodCall {
  readonly command: 'ADD' | 'DEL';
  readonly containerId: string;
  readonly namespace: string;
  readonly pod: string;
}

/** One CNI invocation as the container runtime makes it. */
export interface CniCall extends CniPodCall {
  /** The network config JSON written to stdin. */
  readonly netConf: string;
}

/** The `CNI_*` environment kubelet sets for `call`: every driver of the simulator and the hammer uses it (design/sim.md, "All callers"). */
export function cniEnv(call: CniPodCall): Record<string, string> {
  return {
    CNI_COMMAND: call.command,
    CNI_CONTAINERID: call.containerId,
    CNI_NETNS: `/var/run/netns/${call.containerId}`,
    CNI_IFNAME: 'eth0',
    CNI_PATH: '/opt/cni/bin',
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=${call.namespace};K8S_POD_NAME=${call.pod};K8S_POD_INFRA_CONTAINER_ID=${call.containerId}`,
  };
}
