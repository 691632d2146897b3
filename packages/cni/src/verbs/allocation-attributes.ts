import { isoUtc } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';

/** Go's default time format, as Calico writes the `timestamp` attribute (design/calico-callers.md#allocation-attributes-written). */
export function goTimestamp(now: Date): string {
  const iso = isoUtc(now); // 2025-01-02T03:04:05.123Z
  let fraction = iso.slice(20, 23);
  while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction === '' ? '' : `.${fraction}`} +0000 UTC`;
}

/** The active-owner attributes of each allocation (design/calico-callers.md#allocation-attributes-written). */
export function allocationAttributes(node: string, workload: Workload, now: Date): Record<string, string> {
  const attrs: Record<string, string> = { node, timestamp: goTimestamp(now) };
  if (workload.orchestrator === 'k8s') {
    attrs.pod = workload.pod;
    attrs.namespace = workload.namespace;
  }
  return attrs;
}
