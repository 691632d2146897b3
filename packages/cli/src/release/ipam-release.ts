import { createIpamClient } from '@ipamkit/ipam-core';
import { BadHandleError, BadSequenceNumberError, NotFoundError, type AllocationBlock } from '@ipamkit/models';
import { compareAddresses, parseIPArgument } from '../address-order.js';
import { clusterFingerprint } from '../check/ipam-check.js';
import type { CommandContext } from '../cli-io.js';
import { AddressNotAssignedError, ReportRejectedError } from '../errors.js';
import { CLI_VERSION } from '../version.js';
import { lookupAddress } from './allocation-lookup.js';
import { mergeReports } from './merge-reports.js';
import { readReport, type ParsedReport, type ReportCandidate, type ReportHandle } from './read-reports.js';

export interface ReleaseCommandOptions {
  readonly ip?: string;
  readonly fromReport?: readonly string[];
  readonly force?: boolean;
  readonly dryRun?: boolean;
  /** Reports older than this are stale; default one hour. */
  readonly maxReportAgeSeconds?: number;
  /** Accept a report judged against no pods, or fewer pods than the addresses it would free. */
  readonly allowEmptyCluster?: boolean;
}

export interface IPOutcome {
  readonly ip: string;
  readonly outcome: 'released' | 'would-release' | 'already-free' | 'skipped' | 'error';
  readonly detail: string;
}

export interface HandleOutcome {
  readonly id: string;
  readonly outcome: 'deleted' | 'would-delete' | 'skipped' | 'error';
  readonly detail: string;
}

export interface ReleaseResult {
  readonly mode: 'none' | 'ip' | 'report';
  readonly dryRun: boolean;
  readonly warnings: string[];
  readonly ips: IPOutcome[];
  readonly handles: HandleOutcome[];
}

export const DEFAULT_MAX_REPORT_AGE_SECONDS = 3600;

/** The safety checks of design/calico-callers.md#ipam-release, adapted to datastores without ClusterInformation. */
function vetReports(reports: readonly ParsedReport[], fingerprint: string, options: ReleaseCommandOptions, now: Date): string[] {
  const warnings: string[] = [];
  for (const report of reports) {
    if (report.clusterGUID !== fingerprint) {
      throw new ReportRejectedError(
        `cluster does not match the provided report (${report.file}): the IP pools differ from when it was written. Refusing to release`,
      );
    }
    if (report.version !== CLI_VERSION) {
      if (options.force !== true) {
        throw new ReportRejectedError(
          `the provided report (${report.file}) was produced using a different version (${report.version}) of ipamkit. Refusing to release`,
        );
      }
      warnings.push('WARNING: Report was produced using a different version of ipamkit. Ignoring due to --force option');
    }
  }
  const maxAgeMs = (options.maxReportAgeSeconds ?? DEFAULT_MAX_REPORT_AGE_SECONDS) * 1000;
  const fresh = reports.some((r) => {
    const at = r.generatedAt === undefined ? Number.NaN : Date.parse(r.generatedAt);
    return Number.isFinite(at) && now.getTime() - at <= maxAgeMs;
  });
  if (!fresh) {
    throw new ReportRejectedError(
      'the provided reports are all stale - at least one should be up-to-date. Please generate a new report and try again',
    );
  }
  return warnings;
}

/**
 * design/cli.md "Releasing from a report": a report made from an empty or truncated cluster state
 * calls every pod address leaked. Refuse one whose pods are fewer than the addresses it would free
 * (calicoctl reports, which carry no pod count, are not judged).
 */
function vetClusterState(reports: readonly ParsedReport[], options: ReleaseCommandOptions): void {
  if (options.allowEmptyCluster === true) return;
  for (const report of reports) {
    if (report.podsChecked === undefined) continue;
    const freed = new Set(report.allocations.filter((a) => a.releasable).map((a) => a.ip)).size;
    if (report.podsChecked >= freed) continue;
    const state = report.podsChecked === 0 ? 'no pods' : `only ${report.podsChecked} pods`;
    throw new ReportRejectedError(
      `the provided report (${report.file}) was made from a cluster state with ${state} but would release ${freed} addresses; ` +
        'an empty or truncated --cluster-state makes live pods look leaked. Regenerate the report, or pass --allow-empty-cluster if the cluster really is empty',
    );
  }
}

/** What the current state says about a report candidate, without writing. */
function preview(blocks: readonly AllocationBlock[], c: ReportCandidate): IPOutcome {
  const now = lookupAddress(blocks, c.ip);
  if (now.state !== 'allocated') {
    return { ip: c.ip, outcome: 'already-free', detail: 'already released since the report' };
  }
  if (now.sequenceNumber !== c.sequenceNumber) {
    return { ip: c.ip, outcome: 'skipped', detail: 're-allocated since the report (sequence number changed)' };
  }
  if (c.handle !== undefined && now.handle !== c.handle) {
    return { ip: c.ip, outcome: 'skipped', detail: `now held by handle ${now.handle ?? '<none>'}` };
  }
  return { ip: c.ip, outcome: 'would-release', detail: `sequence number ${c.sequenceNumber}` };
}

async function releaseCandidates(ctx: CommandContext, candidates: readonly ReportCandidate[], dryRun: boolean): Promise<IPOutcome[]> {
  const before = await ctx.datastore.blocks.list();
  const planned = candidates.map((c) => preview(before, c));
  if (dryRun) return planned;
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  const out: IPOutcome[] = [];
  // One address per call: the core fails a whole block's batch on one stale sequence number, and
  // one re-used address must not hold back the real leaks beside it.
  for (const [i, c] of candidates.entries()) {
    const plan = planned[i];
    if (plan === undefined || plan.outcome !== 'would-release') {
      if (plan !== undefined) out.push(plan);
      continue;
    }
    try {
      const result = await client.releaseIPs([{ address: c.ip, sequenceNumber: c.sequenceNumber, ...(c.handle === undefined ? {} : { handle: c.handle }) }]);
      out.push(
        result.unallocated.length > 0
          ? { ip: c.ip, outcome: 'already-free', detail: 'already released since the report' }
          : { ip: c.ip, outcome: 'released', detail: `sequence number ${c.sequenceNumber}` },
      );
    } catch (err) {
      if (err instanceof BadSequenceNumberError || err instanceof BadHandleError) {
        out.push({ ip: c.ip, outcome: 'skipped', detail: 're-allocated since the report (changed while releasing)' });
      } else {
        out.push({ ip: c.ip, outcome: 'error', detail: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return out;
}

async function deleteHandles(ctx: CommandContext, handles: readonly ReportHandle[], dryRun: boolean): Promise<HandleOutcome[]> {
  const out: HandleOutcome[] = [];
  for (const h of handles) {
    try {
      const current = await ctx.datastore.handles.get(h.id);
      if (current.revision !== h.revision) {
        out.push({ id: h.id, outcome: 'skipped', detail: 'handle changed since the report' });
      } else if (dryRun) {
        out.push({ id: h.id, outcome: 'would-delete', detail: 'unchanged since the report' });
      } else {
        // Compare-and-delete on the revision the report saw.
        await ctx.datastore.handles.delete(current);
        out.push({ id: h.id, outcome: 'deleted', detail: 'unchanged since the report' });
      }
    } catch (err) {
      if (err instanceof NotFoundError) out.push({ id: h.id, outcome: 'skipped', detail: 'handle no longer exists' });
      else out.push({ id: h.id, outcome: 'error', detail: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}

async function releaseOneIP(ctx: CommandContext, rawIP: string, dryRun: boolean): Promise<ReleaseResult> {
  const ip = parseIPArgument(rawIP);
  const current = lookupAddress(await ctx.datastore.blocks.list(), ip);
  if (current.state !== 'allocated') throw new AddressNotAssignedError(ip);
  const base = { mode: 'ip' as const, dryRun, warnings: [], handles: [] };
  if (dryRun) return { ...base, ips: [{ ip, outcome: 'would-release', detail: `sequence number ${current.sequenceNumber}` }] };
  // calicoctl releases by address alone; passing what we just read makes a concurrent re-use fail instead.
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  const result = await client.releaseIPs([
    { address: ip, sequenceNumber: current.sequenceNumber, ...(current.handle === undefined ? {} : { handle: current.handle }) },
  ]);
  if (result.unallocated.length > 0) throw new AddressNotAssignedError(ip);
  return { ...base, ips: [{ ip, outcome: 'released', detail: `sequence number ${current.sequenceNumber}` }] };
}

/** `ipam release` (design/calico-callers.md#ipam-release): `--from-report` wins over `--ip`; neither does nothing. */
export async function ipamRelease(ctx: CommandContext, options: ReleaseCommandOptions): Promise<ReleaseResult> {
  const dryRun = options.dryRun === true;
  const files = options.fromReport ?? [];
  if (files.length > 0) {
    const reports = await Promise.all(files.map(readReport));
    const warnings = vetReports(reports, clusterFingerprint(await ctx.datastore.ipPools.list()), options, ctx.clock.now());
    vetClusterState(reports, options);
    const merged = mergeReports(reports);
    return {
      mode: 'report',
      dryRun,
      warnings,
      ips: await releaseCandidates(ctx, [...merged.ips].sort((a, b) => compareAddresses(a.ip, b.ip)), dryRun),
      handles: await deleteHandles(ctx, merged.handles, dryRun),
    };
  }
  if (options.ip !== undefined) return releaseOneIP(ctx, options.ip, dryRun);
  return { mode: 'none', dryRun, warnings: [], ips: [], handles: [] };
}
