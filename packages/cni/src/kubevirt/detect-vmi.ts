import { orUndefined } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { AllocationError, CniError, messageOf } from '../errors.js';
import type { KubeReader, OwnerReference } from '../kube/kube-reader.js';
import { toCniError } from '../runtime/to-cni-error.js';

/** A KubeVirt VM's launcher pod, as design/calico-callers.md#kubevirt detects it. */
export interface VmiInfo {
  namespace: string;
  name: string;
  uid: string;
  /** UID of the owning VirtualMachine, when there is one. */
  vmUid?: string;
  /** The pod's `kubevirt.io/migrationJobUID` label: set on a live-migration target. */
  migrationJobUid?: string;
  /** VM deleting, or (no VM) VMI deleting: DEL may then release the VM's addresses. */
  shouldRelease: boolean;
}

export type VmiDetection = { kind: 'none' } | { kind: 'podGone' } | { kind: 'vmi'; vmi: VmiInfo };

const LAUNCHER_PREFIX = 'virt-launcher-';
const KUBEVIRT_API = 'kubevirt.io/v1';
const MIGRATION_LABEL = 'kubevirt.io/migrationJobUID';

function owner(refs: OwnerReference[], kind: string, controllerOnly: boolean): OwnerReference | undefined {
  return refs.find((r) => r.apiVersion === KUBEVIRT_API && r.kind === kind && (!controllerOnly || r.controller));
}


/**
 * Whether the workload is a KubeVirt launcher pod, and its VMI; pure apart from the reads. The
 * reader is asked for only for a launcher pod: finding Kubernetes access walks the kubeconfig chain
 * (files, the service account, the home directory), which the other pods never need.
 */
export async function detectVmi(kubeReader: () => KubeReader | undefined, workload: Workload): Promise<VmiDetection> {
  if (workload.orchestrator !== 'k8s' || !workload.pod.startsWith(LAUNCHER_PREFIX)) return { kind: 'none' };
  const kube = kubeReader();
  if (kube === undefined) return { kind: 'none' };
  const pod = await orUndefined(kube.getPod(workload.namespace, workload.pod));
  if (pod === undefined) return { kind: 'podGone' };
  const ref = owner(pod.ownerReferences, 'VirtualMachineInstance', true);
  if (ref === undefined) return { kind: 'none' };
  if (ref.name === '' || ref.uid === '') {
    throw new AllocationError(`pod ${workload.namespace}/${workload.pod} has invalid VMI ownerReference: name="${ref.name}" uid="${ref.uid}"`);
  }
  const vmi = await kube.getVirtualMachineInstance(workload.namespace, ref.name).catch((err: unknown) => {
    throw new AllocationError(`failed to query VMI resource ${workload.namespace}/${ref.name}: ${messageOf(err)}`, { cause: err });
  });
  if (vmi.uid !== ref.uid) throw new AllocationError(`VMI UID mismatch: pod ownerReference has ${ref.uid} but VMI resource has ${vmi.uid}`);
  const vmRef = owner(vmi.ownerReferences, 'VirtualMachine', false);
  const vm = vmRef === undefined ? undefined : await kube.getVirtualMachine(workload.namespace, vmRef.name);
  const info: VmiInfo = { namespace: workload.namespace, name: ref.name, uid: vmi.uid, shouldRelease: vm === undefined ? vmi.deleting : vm.deleting };
  if (vm !== undefined) info.vmUid = vm.uid;
  const migration = pod.labels[MIGRATION_LABEL];
  if (migration !== undefined && migration !== '') info.migrationJobUid = migration;
  return { kind: 'vmi', vmi: info };
}

/** `detectVmi` as ADD and DEL report its failure: under Calico's prefix, with the error's own code. */
export async function detectVmiOfCall(kubeReader: () => KubeReader | undefined, workload: Workload): Promise<VmiDetection> {
  try {
    return await detectVmi(kubeReader, workload);
  } catch (err) {
    const cni = toCniError(err);
    throw new CniError(cni.code, `failed to get VMI info: ${cni.message}`, '', { cause: err });
  }
}
