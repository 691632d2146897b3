import type { HammerResult } from './run-hammer.js';

/** The hammer's report: what ran, then each Part B check with its verdict. */
export function renderHammer(r: HammerResult): string {
  const o = r.options;
  const has = (word: string): boolean => r.violations.some((v) => v.includes(word));
  const verdict = (ok: boolean): string => (ok ? 'ok  ' : 'FAIL');
  const lines = [
    `ipamkit-sim hammer: ${o.processes} processes, ${o.ops} operations, kill rate ${o.killRate}, ${o.datastore}${o.restartEtcd ? ' with one etcd restart' : ''}`,
    `  ran in ${(r.durationMs / 1000).toFixed(1)}s: ${r.adds} ADD, ${r.dels} DEL, ${r.kills} SIGKILLs, ${r.failures} failed calls, ${r.opsPerSecond.toFixed(0)} ops/s`,
    `  etcd restarts ${r.etcdRestarts}, block watch restarts ${r.watchRestarts}, ${r.sequenceObservations} block versions observed`,
    `  GC settled ${(r.settleMs / 1000).toFixed(1)}s after the last operation; ${r.allocationsAtEnd} allocations left (live pods)`,
    ...(r.allCallers === undefined ? [] : allCallersLines(r)),
    'checks (design/calico-callers.md#accounting-checks):',
    `  ${verdict(!has('duplicate'))} no address held by two handles`,
    `  ${verdict(!has('counts') && !has('does not exist'))} every handle count equals its block allocations`,
    `  ${verdict(!has('still allocated') && !has('not released'))} every allocation of a killed process or deleted pod released by the GC`,
    `  ${verdict(!has('pending affinity'))} no pending affinity left behind`,
    `  ${verdict(!has('sequence number went back'))} block sequence numbers only increase`,
    `  ${verdict(!has('malformed') && !has('ipam check'))} every block well-formed; ipam check clean`,
  ];
  if (r.violations.length === 0) lines.push('RESULT: OK');
  else lines.push(`RESULT: FAILED — ${r.violations.length} violation(s):`, ...r.violations.slice(0, 50).map((v) => `  - ${v}`));
  if (r.violations.length > 50) lines.push(`  … and ${r.violations.length - 50} more`);
  return `${lines.join('\n')}\n`;
}

function allCallersLines(r: HammerResult): string[] {
  const a = r.allCallers;
  if (a === undefined) return [];
  const f = a.faultsInjected;
  return [
    `  all callers: ${a.cniProcesses} calico-ipam processes (${a.cniKills} SIGKILLed), ${a.controllerProcesses} controller processes (${a.controllerKills} SIGKILLed, ${a.controllerStarts} starts)`,
    `  services ${a.servicesCreated} created, ${a.servicesDeleted} deleted, ${a.servicesAtEnd} at the end; faults injected: ${f[409]}×409, ${f[500]}×500, ${f[410]}×410 (${a.clusterRetries} cluster retries)`,
    `  after settle: ${a.duplicates} duplicates, ${a.leaks} leaks, ${a.drift} handle/block drift`,
  ];
}
