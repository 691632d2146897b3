import { describe, expect, it } from 'vitest';
import { IPAMConfigConflictError, ValidationError } from '../../src/errors.js';
import type { IPAMConfig } from '../../src/resources/ipam-config.js';
import { IPAMConfigValidationError } from '../../src/validation/ip-pool-validation-error.js';
import { applyIPAMConfigDefaults, DEFAULT_IPAM_CONFIG } from '../../src/validation/ipam-config-defaults.js';
import { validateIPAMConfig } from '../../src/validation/validate-ipam-config.js';

const base: IPAMConfig = { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };

describe('IPAMConfig defaults', () => {
  it('is the not-found default of design/calico-ipam.md#ipam-configuration, frozen', () => {
    expect(DEFAULT_IPAM_CONFIG).toEqual({
      strictAffinity: false,
      autoAllocateBlocks: true,
      maxBlocksPerHost: 0,
      kubeVirtVMAddressPersistence: 'Enabled',
      ipCooldownSeconds: 0,
    });
    expect(Object.isFrozen(DEFAULT_IPAM_CONFIG)).toBe(true);
  });

  it('fills missing fields but leaves kubeVirtVMAddressPersistence absent', () => {
    expect(applyIPAMConfigDefaults({})).toEqual(base);
    expect(applyIPAMConfigDefaults({ strictAffinity: true, ipCooldownSeconds: 60, kubeVirtVMAddressPersistence: 'Disabled' })).toEqual({
      ...base,
      strictAffinity: true,
      ipCooldownSeconds: 60,
      kubeVirtVMAddressPersistence: 'Disabled',
    });
  });
});

describe('validateIPAMConfig', () => {
  it.each<[string, IPAMConfig]>([
    ['the default', { ...DEFAULT_IPAM_CONFIG }],
    ['strict affinity with no auto-allocation', { ...base, strictAffinity: true, autoAllocateBlocks: false }],
    ['a block cap with strict affinity', { ...base, strictAffinity: true, maxBlocksPerHost: 5 }],
    ['the longest cooldown', { ...base, ipCooldownSeconds: 1200 }],
  ])('accepts %s', (_, cfg) => {
    expect(validateIPAMConfig(cfg)).toBeUndefined();
  });

  it.each<[string, IPAMConfig, string]>([
    ['both StrictAffinity and AutoAllocateBlocks off', { ...base, autoAllocateBlocks: false }, "Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time"],
    ['MaxBlocksPerHost without StrictAffinity', { ...base, maxBlocksPerHost: 4 }, 'MaxBlocksPerHost requires StrictAffinity to be enabled'],
    [
      'both conflicts together',
      { ...base, autoAllocateBlocks: false, maxBlocksPerHost: 1 },
      "Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time; MaxBlocksPerHost requires StrictAffinity to be enabled",
    ],
  ])('rejects %s with IPAMConfigConflictError', (_, cfg, message) => {
    expect(() => validateIPAMConfig(cfg)).toThrow(IPAMConfigConflictError);
    expect(() => validateIPAMConfig(cfg)).toThrow(message);
  });

  it.each<[string, IPAMConfig, string]>([
    ['a negative cooldown', { ...base, ipCooldownSeconds: -1 }, 'ipCooldownSeconds -1 is outside 0–1200'],
    ['a cooldown above 1200', { ...base, ipCooldownSeconds: 1201 }, 'ipCooldownSeconds 1201 is outside 0–1200'],
    ['a fractional cooldown', { ...base, ipCooldownSeconds: 1.5 }, 'ipCooldownSeconds 1.5 is outside 0–1200'],
    ['a negative block cap', { ...base, strictAffinity: true, maxBlocksPerHost: -1 }, 'maxBlocksPerHost -1 is outside 0–2147483647'],
    ['an unknown persistence value', { ...base, kubeVirtVMAddressPersistence: 'On' as 'Enabled' }, 'kubeVirtVMAddressPersistence "On" is not Enabled or Disabled'],
  ])('rejects %s as out of range', (_, cfg, problem) => {
    let caught: unknown;
    try {
      validateIPAMConfig(cfg);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(IPAMConfigValidationError);
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).not.toBeInstanceOf(IPAMConfigConflictError);
    expect((caught as IPAMConfigValidationError).problems).toEqual([problem]);
  });

  it('reports range problems alongside a conflict', () => {
    const cfg = { ...base, autoAllocateBlocks: false, ipCooldownSeconds: 5000 };
    expect(() => validateIPAMConfig(cfg)).toThrow(IPAMConfigConflictError);
    expect(() => validateIPAMConfig(cfg)).toThrow(
      "Cannot disable 'StrictAffinity' and 'AutoAllocateBlocks' at the same time; ipCooldownSeconds 5000 is outside 0–1200",
    );
  });
});
