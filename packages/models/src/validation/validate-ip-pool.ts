import { INTENDED_USES, type IPVersion } from '../resources/intended-use.js';
import type { IPPool } from '../resources/ip-pool.js';
import { cidrsOverlap, parseCidrWithAddress, type ParsedCidrWithAddress } from '../net/cidr.js';
import { applyIPPoolDefaults, type DefaultedIPPool } from './ip-pool-defaults.js';
import { IPPoolValidationError } from './ip-pool-validation-error.js';
import { selectorProblems } from './selector-problems.js';

const MAX_CIDR_LENGTH = 48;
const MAX_ALLOWED_USES = 10;
const BLOCK_SIZE_RANGE: Readonly<Record<IPVersion, readonly [number, number]>> = { 4: [20, 32], 6: [116, 128] };
const LINK_LOCAL: Readonly<Record<IPVersion, string>> = { 4: '169.254.0.0/16', 6: 'fe80::/10' };
const ENCAPSULATION_MODES: readonly string[] = ['Never', 'Always', 'CrossSubnet'];
const ASSIGNMENT_MODES: readonly string[] = ['Automatic', 'Manual'];

function parseOrUndefined(cidr: string): ParsedCidrWithAddress | undefined {
  try {
    return parseCidrWithAddress(cidr);
  } catch {
    return undefined;
  }
}

function cidrProblems(pool: DefaultedIPPool, cidr: ParsedCidrWithAddress | undefined): string[] {
  if (pool.cidr.length > MAX_CIDR_LENGTH) return [`cidr is longer than ${MAX_CIDR_LENGTH} characters`];
  if (cidr === undefined) return [`cidr ${JSON.stringify(pool.cidr)} is not a valid CIDR`];
  const problems: string[] = [];
  if (cidr.address !== cidr.network) problems.push(`cidr ${pool.cidr} is not strictly masked (host bits set)`);
  if (cidrsOverlap(cidr, LINK_LOCAL[cidr.version])) {
    problems.push(`cidr ${pool.cidr} overlaps the link-local range ${LINK_LOCAL[cidr.version]}`);
  }
  const [min, max] = BLOCK_SIZE_RANGE[cidr.version];
  if (!Number.isInteger(pool.blockSize) || pool.blockSize < min || pool.blockSize > max) {
    problems.push(`blockSize ${pool.blockSize} is outside ${min}–${max} for IPv${cidr.version}`);
  } else if (cidr.prefixLength > pool.blockSize && pool.disabled !== true) {
    problems.push(`cidr prefix /${cidr.prefixLength} is longer than blockSize ${pool.blockSize} (allowed only on a disabled pool)`);
  }
  if (cidr.version === 6 && pool.ipipMode !== 'Never') problems.push('ipipMode is not supported on IPv6 pools');
  return problems;
}

function useProblems(pool: DefaultedIPPool): string[] {
  const problems: string[] = [];
  const uses: readonly string[] = pool.allowedUses;
  for (const use of uses) {
    if (!(INTENDED_USES as readonly string[]).includes(use)) problems.push(`allowedUses has unknown use ${JSON.stringify(use)}`);
  }
  if (new Set(uses).size !== uses.length) problems.push('allowedUses lists a use more than once');
  if (uses.length > MAX_ALLOWED_USES) problems.push(`allowedUses has more than ${MAX_ALLOWED_USES} items`);
  if (uses.includes('LoadBalancer')) {
    if (uses.some((u) => u !== 'LoadBalancer')) problems.push('LoadBalancer cannot be combined with other allowedUses');
    if (pool.ipipMode !== 'Never') problems.push('ipipMode must be Never on a LoadBalancer pool');
    if (pool.disableBGPExport === true) problems.push('disableBGPExport must be false on a LoadBalancer pool');
    if (pool.nodeSelector !== 'all()') problems.push('nodeSelector must be all() on a LoadBalancer pool');
  }
  return problems;
}

function modeProblems(pool: DefaultedIPPool): string[] {
  const problems: string[] = [];
  if (!ENCAPSULATION_MODES.includes(pool.ipipMode)) problems.push(`ipipMode ${JSON.stringify(pool.ipipMode)} is not one of ${ENCAPSULATION_MODES.join(', ')}`);
  if (!ENCAPSULATION_MODES.includes(pool.vxlanMode)) problems.push(`vxlanMode ${JSON.stringify(pool.vxlanMode)} is not one of ${ENCAPSULATION_MODES.join(', ')}`);
  if (!ASSIGNMENT_MODES.includes(pool.assignmentMode)) problems.push(`assignmentMode ${JSON.stringify(pool.assignmentMode)} is not one of ${ASSIGNMENT_MODES.join(', ')}`);
  if (pool.ipipMode !== 'Never' && pool.vxlanMode !== 'Never') problems.push('ipipMode and vxlanMode cannot both be enabled');
  return problems;
}

function poolSelectorProblems(pool: DefaultedIPPool): string[] {
  const problems = selectorProblems('nodeSelector', pool.nodeSelector);
  const ns = pool.namespaceSelector ?? '';
  if (ns.trim() !== '') {
    problems.push(...selectorProblems('namespaceSelector', ns));
    if (pool.allowedUses.includes('Tunnel')) problems.push('namespaceSelector is not allowed on a pool with the Tunnel use');
  }
  return problems;
}

/** Every rule of design/calico-stored-formats.md#ip-pools the pool breaks, after defaults; empty when valid. */
export function ipPoolProblems(pool: IPPool): string[] {
  const defaulted = applyIPPoolDefaults(pool);
  const problems: string[] = [];
  if (pool.name === '') problems.push('name must not be empty');
  problems.push(...cidrProblems(defaulted, parseOrUndefined(pool.cidr)));
  problems.push(...modeProblems(defaulted), ...useProblems(defaulted), ...poolSelectorProblems(defaulted));
  return problems;
}

/** Validate a pool (create-time rules); returns it with defaults applied, or throws listing every problem. */
export function validateIPPool(pool: IPPool): DefaultedIPPool {
  const problems = ipPoolProblems(pool);
  if (problems.length > 0) throw new IPPoolValidationError(pool.name, problems);
  return applyIPPoolDefaults(pool);
}
