import type { DatastoreFactory } from '../harness.js';
import { defectScenarios } from './defect-scenarios.js';
import { lifecycleScenarios } from './lifecycle-scenarios.js';
import { managedScenarios } from './managed-scenarios.js';
import { requestScenarios } from './request-scenarios.js';
import { restartScenarios } from './restart-scenarios.js';

/** Every behaviour scenario of design/calico-callers.md#loadbalancer-controller, run against one backend. */
export function allScenarios(newDatastore: DatastoreFactory): void {
  managedScenarios(newDatastore);
  requestScenarios(newDatastore);
  lifecycleScenarios(newDatastore);
  defectScenarios(newDatastore);
  restartScenarios(newDatastore);
}
