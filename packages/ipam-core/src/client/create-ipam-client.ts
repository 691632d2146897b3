import {
  claimAffinity,
  releaseAffinity,
  releaseBlockAffinity,
  releaseHostAffinities,
  releasePoolAffinities,
  removeIPAMHost,
} from './affinity-api.js';
import { AssignContextCache } from './assign-context-cache.js';
import { assignIP } from './assign-ip.js';
import { autoAssign, readAhead } from './auto-assign.js';
import type { ClientDeps } from './client-deps.js';
import { systemClock } from '@ipamkit/models';
import type { CreateIpamClientOptions, IpamClient } from './client-types.js';
import { ensureBlock } from './ensure-block.js';
import { getUtilization } from './get-utilization.js';
import { ipsByHandle } from './handle-queries.js';
import { readIpamConfig, writeIpamConfig } from './ipam-config-ops.js';
import { garbageCollectColdIPs, getAssignmentAttributes, setOwnerAttributes } from './owner-attributes.js';
import { releaseByHandle } from './release-by-handle.js';
import { releaseIPs } from './release-ips.js';
import { resolvePendingAffinities } from './resolve-pending-affinities.js';
import { upgradeHost } from './upgrade-host.js';

export { systemClock } from '@ipamkit/models';

/**
 * The IPAM client (design/architecture.md#public-api). Stateless apart from read hints and the cached
 * assignment context, both re-validated against the datastore (the context by version stamps inside
 * each transaction); correctness rests on its compare-and-swap writes alone.
 */
export function createIpamClient(opts: CreateIpamClientOptions): IpamClient {
  const deps: ClientDeps = {
    ds: opts.datastore,
    clock: opts.clock ?? systemClock,
    windowsHost: opts.windowsHost ?? process.platform === 'win32',
    affineHints: opts.affineHints ?? new Map<string, string[]>(),
    contextCache: opts.cacheAssignContext === false ? undefined : new AssignContextCache(),
    readAhead: new Map(),
  };
  return {
    autoAssign: (args) => autoAssign(deps, args),
    readAhead: (args) => readAhead(deps, args),
    assignIP: (args) => assignIP(deps, args),
    releaseIPs: (options) => releaseIPs(deps, options),
    releaseByHandle: (handleId, options) => releaseByHandle(deps, handleId, options),
    ipsByHandle: (handleId) => ipsByHandle(deps, handleId),
    getAssignmentAttributes: (ip) => getAssignmentAttributes(deps, ip),
    claimAffinity: (cidr, affinity) => claimAffinity(deps, cidr, affinity),
    releaseAffinity: (cidr, host, mustBeEmpty) => releaseAffinity(deps, cidr, host, mustBeEmpty),
    releaseHostAffinities: (affinity, mustBeEmpty) => releaseHostAffinities(deps, affinity, mustBeEmpty),
    releasePoolAffinities: (poolCidr) => releasePoolAffinities(deps, poolCidr),
    releaseBlockAffinity: (block, mustBeEmpty) => releaseBlockAffinity(deps, block, mustBeEmpty),
    removeIPAMHost: (affinity) => removeIPAMHost(deps, affinity),
    getIPAMConfig: () => readIpamConfig(deps.ds, deps.windowsHost),
    setIPAMConfig: (cfg) => writeIpamConfig(deps.ds, cfg, deps.windowsHost),
    getUtilization: (args) => getUtilization(deps, args),
    ensureBlock: (args) => ensureBlock(deps, args),
    upgradeHost: (nodeName) => upgradeHost(deps, nodeName),
    resolvePendingAffinities: (affinity) => resolvePendingAffinities(deps, affinity),
    garbageCollectColdIPs: (blockCidr) => garbageCollectColdIPs(deps, blockCidr),
    setOwnerAttributes: (ip, handleId, updates, preconditions) => setOwnerAttributes(deps, ip, handleId, updates, preconditions),
  };
}
