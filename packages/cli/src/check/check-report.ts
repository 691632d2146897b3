import { definedFields } from '@ipamkit/models';
import { CLI_VERSION } from '../version.js';
import type { CheckedAllocation, CheckResult, LeakedHandle } from './ipam-check.js';
import type { Finding } from './structural-findings.js';

/** One entry of the report's `allocations` map: calicoctl's keys, then ours. */
export interface ReportAllocation {
  ip: string;
  handle?: string;
  sequenceNumber: bigint;
  pod?: string;
  namespace?: string;
  node?: string;
  type?: string;
  creationTimestamp?: string;
  inUse: boolean;
  borrowed?: boolean;
  coolingDown?: boolean;
  owners: string[] | null;
  block?: string;
  classification?: string;
  reason?: string;
  releasable?: boolean;
}

/**
 * The `-o FILE` report: calicoctl's format (design/calico-callers.md#report-format) so its tooling can read it, plus
 * ipamkit's fields. With no ClusterInformation in our datastores, `clusterGUID` carries the pool
 * fingerprint and `clusterInformationRevision` is empty (design/cli.md "Releasing from a report").
 */
export interface CheckReport {
  version: string;
  clusterGUID: string;
  datastoreLocked: boolean;
  clusterInformationRevision: string;
  clusterType: string;
  allocations: Record<string, ReportAllocation[]>;
  leakedHandles?: LeakedHandle[];
  generatedAt?: string;
  datastoreKind?: string;
  findings?: Finding[];
  problems?: number;
  /** Pods in the cluster state the check judged against; absent without a pod list (release's guard). */
  podsChecked?: number;
}

function reportAllocation(a: CheckedAllocation): ReportAllocation {
  // Key order is the report's field order; optional calicoctl keys are dropped when empty (omitempty).
  const { ip, handle, sequenceNumber, pod, namespace, node, type, creationTimestamp, inUse, owners, block, classification, reason, releasable } = a;
  const flags = { borrowed: a.borrowed ? true : undefined, coolingDown: a.coolingDown ? true : undefined };
  return definedFields({ ip, handle, sequenceNumber, pod, namespace, node, type, creationTimestamp, inUse, ...flags, owners, block, classification, reason, releasable });
}

export function checkReport(result: CheckResult): CheckReport {
  const allocations: Record<string, ReportAllocation[]> = {};
  // calicoctl sorts the map's keys as strings, not numerically.
  for (const a of [...result.allocations].sort((x, y) => (x.ip < y.ip ? -1 : x.ip > y.ip ? 1 : 0))) {
    (allocations[a.ip] ??= []).push(reportAllocation(a));
  }
  return {
    version: CLI_VERSION,
    clusterGUID: result.clusterFingerprint,
    datastoreLocked: false,
    clusterInformationRevision: '',
    clusterType: `ipamkit,${result.datastoreKind}`,
    allocations,
    ...(result.leakedHandles.length === 0 ? {} : { leakedHandles: result.leakedHandles }),
    generatedAt: result.generatedAt,
    datastoreKind: result.datastoreKind,
    findings: result.findings,
    problems: result.problems,
    ...(result.counts.pods === undefined ? {} : { podsChecked: result.counts.pods }),
  };
}
