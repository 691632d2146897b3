import type { Datastore } from '@ipamkit/models';
import { vmHandleId } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { AllocationError } from '../errors.js';
import type { VmiInfo } from './detect-vmi.js';

/** How a KubeVirt pod's call proceeds: with the VM's persistent handle, or as an ordinary pod. */
export interface KubevirtPlan {
  vmi: VmiInfo;
  persistence: boolean;
  handleId: string;
}

/** Persistence is on unless IPAMConfig says exactly `Disabled`; a read error means on (design/calico-callers.md#add step 7). */
export async function kubevirtPlan(ds: Datastore, network: string, workload: Workload, vmi: VmiInfo): Promise<KubevirtPlan> {
  let persistence = true;
  try {
    persistence = (await ds.ipamConfig.get()).kubeVirtVMAddressPersistence !== 'Disabled';
  } catch {
    persistence = true;
  }
  return { vmi, persistence, handleId: persistence ? vmHandleId(network, vmi.namespace, vmi.name) : workload.handleId };
}

export function rejectMigrationWithoutPersistence(plan: KubevirtPlan): void {
  if (!plan.persistence && plan.vmi.migrationJobUid !== undefined) {
    throw new AllocationError('live migration target pod is not allowed when KubeVirtVMAddressPersistence is disabled');
  }
}

/** The KubeVirt attributes of design/calico-callers.md#allocation-attributes-written, added to the pod ones when persistence is on. */
export function kubevirtAttributes(plan: KubevirtPlan, base: Record<string, string>): Record<string, string> {
  if (!plan.persistence) return base;
  const attrs: Record<string, string> = { ...base, 'vmi-name': plan.vmi.name, 'vmi-uid': plan.vmi.uid };
  if (plan.vmi.vmUid !== undefined) attrs['vm-uid'] = plan.vmi.vmUid;
  if (plan.vmi.migrationJobUid !== undefined) attrs['vmim-uid'] = plan.vmi.migrationJobUid;
  return attrs;
}
