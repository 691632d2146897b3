// IPPool and IPAMConfig defaults and validation, and pool selection.
export type { DefaultedIPPool } from './ip-pool-defaults.js';
export { applyIPPoolDefaults, DEFAULT_BLOCK_SIZE, DEFAULT_NODE_SELECTOR, DEFAULT_ALLOWED_USES } from './ip-pool-defaults.js';
export {
  applyIPAMConfigDefaults,
  DEFAULT_IPAM_CONFIG,
  DEFAULT_MAX_BLOCKS_PER_HOST,
  effectiveMaxBlocksPerHost,
} from './ipam-config-defaults.js';
export { IPPoolValidationError, IPAMConfigValidationError } from './ip-pool-validation-error.js';
export { ipPoolProblems, validateIPPool, validateIPPoolUpdate } from './validate-ip-pool.js';
export { selectorProblems, MAX_SELECTOR_LENGTH } from './selector-problems.js';
export { isPoolEnabled, selectsNode, selectsNamespace } from './pool-selection.js';
export { validateIPAMConfig, MAX_IP_COOLDOWN_SECONDS, MAX_MAX_BLOCKS_PER_HOST } from './validate-ipam-config.js';
