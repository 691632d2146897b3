import type { ParsedReport, ReportCandidate, ReportHandle } from './read-reports.js';

/**
 * The intersection of several reports (design/calico-callers.md#ipam-release): an address is released only if every
 * report calls it releasable, with the handle and sequence number of the latest report; a handle
 * is deleted only if every report lists it leaked at the same revision.
 */
export function mergeReports(reports: readonly ParsedReport[]): { ips: ReportCandidate[]; handles: ReportHandle[] } {
  const [first, ...rest] = reports;
  if (first === undefined) return { ips: [], handles: [] };
  const releasableOf = (r: ParsedReport): Map<string, ReportCandidate> => {
    const out = new Map<string, ReportCandidate>();
    // An IP listed twice (a duplicate) must be releasable in every entry.
    const blocked = new Set(r.allocations.filter((a) => !a.releasable).map((a) => a.ip));
    for (const a of r.allocations) if (a.releasable && !blocked.has(a.ip)) out.set(a.ip, a);
    return out;
  };
  let ips = releasableOf(first);
  let handles = new Map(first.leakedHandles.map((h) => [h.id, h]));
  for (const report of rest) {
    const next = releasableOf(report);
    ips = new Map([...ips.keys()].flatMap((ip) => {
      const latest = next.get(ip);
      return latest === undefined ? [] : [[ip, latest] as const];
    }));
    const revisions = new Map(report.leakedHandles.map((h) => [h.id, h.revision]));
    handles = new Map([...handles].filter(([id, h]) => revisions.get(id) === h.revision));
  }
  return { ips: [...ips.values()], handles: [...handles.values()] };
}
