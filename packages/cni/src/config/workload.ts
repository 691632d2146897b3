import { cniHandleId, cniWorkloadId } from '@ipamkit/models';
import { NetworkConfigError } from '../errors.js';
import type { CniArgs } from './cni-args.js';
import { echoInput } from './input-limits.js';

/** Who an invocation is for (design/calico-callers.md#identifiers). */
export interface Workload {
  orchestrator: 'k8s' | 'cni';
  namespace: string;
  pod: string;
  handleId: string;
  /** The legacy handle DEL also releases: `<ns>.<pod>` for pods, the container ID otherwise. */
  workloadId: string;
}

/** Calico's endpoint-name segment rule; the name is only logged, but a bad segment fails the call. */
function checkSegment(field: string, value: string): void {
  if (value === '' || value.startsWith('-') || value.endsWith('-')) {
    throw new NetworkConfigError(`error constructing WorkloadEndpoint name: error with field ${field} = ${JSON.stringify(echoInput(value))}`);
  }
}

export function workloadOf(args: { networkName: string; containerId: string; ifname: string; node: string; cniArgs: CniArgs }): Workload {
  const { cniArgs } = args;
  const k8s = cniArgs.podNamespace !== '' && cniArgs.podName !== '';
  checkSegment('node', args.node);
  if (k8s) checkSegment('pod', cniArgs.podName);
  else checkSegment('containerID', args.containerId);
  checkSegment('ifname', args.ifname);
  return {
    orchestrator: k8s ? 'k8s' : 'cni',
    namespace: k8s ? cniArgs.podNamespace : cniArgs.testNamespace,
    pod: k8s ? cniArgs.podName : '',
    handleId: cniHandleId(args.networkName, args.containerId),
    workloadId: k8s ? cniWorkloadId(cniArgs.podNamespace, cniArgs.podName) : args.containerId,
  };
}
