import { IPAMConfigConflictError } from '../errors.js';
import type { IPAMConfig } from '../resources/ipam-config.js';
import { IPAMConfigValidationError } from './ip-pool-validation-error.js';

export const MAX_IP_COOLDOWN_SECONDS = 1200;
/** The v1 CRD's bound (int32); the v3 CRD is stricter (1 000 000) but IPAM reads both. */
export const MAX_MAX_BLOCKS_PER_HOST = 2_147_483_647;

function rangeProblems(cfg: IPAMConfig): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(cfg.ipCooldownSeconds) || cfg.ipCooldownSeconds < 0 || cfg.ipCooldownSeconds > MAX_IP_COOLDOWN_SECONDS) {
    problems.push(`ipCooldownSeconds ${cfg.ipCooldownSeconds} is outside 0–${MAX_IP_COOLDOWN_SECONDS}`);
  }
  if (!Number.isInteger(cfg.maxBlocksPerHost) || cfg.maxBlocksPerHost < 0 || cfg.maxBlocksPerHost > MAX_MAX_BLOCKS_PER_HOST) {
    problems.push(`maxBlocksPerHost ${cfg.maxBlocksPerHost} is outside 0–${MAX_MAX_BLOCKS_PER_HOST}`);
  }
  const persistence: string | undefined = cfg.kubeVirtVMAddressPersistence;
  if (persistence !== undefined && persistence !== 'Enabled' && persistence !== 'Disabled') {
    problems.push(`kubeVirtVMAddressPersistence ${JSON.stringify(persistence)} is not Enabled or Disabled`);
  }
  return problems;
}

/**
 * The checks SetIPAMConfig makes (design/calico-ipam.md#ipam-configuration) plus the CRD bounds. Cross-field conflicts throw
 * IPAMConfigConflictError (with any range problems in the same message); range problems alone
 * throw IPAMConfigValidationError. Calico does not re-check these on read, and neither should callers.
 */
export function validateIPAMConfig(cfg: IPAMConfig): void {
  const conflicts: string[] = [];
  if (!cfg.strictAffinity && !cfg.autoAllocateBlocks) {
    conflicts.push("Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time");
  }
  if (cfg.maxBlocksPerHost > 0 && !cfg.strictAffinity) {
    conflicts.push('MaxBlocksPerHost requires StrictAffinity to be enabled');
  }
  const ranges = rangeProblems(cfg);
  if (conflicts.length > 0) throw new IPAMConfigConflictError([...conflicts, ...ranges].join('; '));
  if (ranges.length > 0) throw new IPAMConfigValidationError(ranges);
}
