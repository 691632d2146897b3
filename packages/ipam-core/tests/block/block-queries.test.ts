import { IPInCooldownError, NotFoundError, type AllocationBlock } from '@ipamkit/models';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignInBlock } from '../../src/block/take-named-address.js';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { hostOwnsBlock } from '../../src/block/block-owner.js';
import { addressState, attributesFor, inUseCount, ipsForHandle, isEmpty, numFree } from '../../src/block/block-queries.js';
import { clearAffinity } from '../../src/block/block-writes.js';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { addressOf, ordinalOf } from '../../src/block/ordinals.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { createReservationFilter } from '../../src/reservations/reservation-filter.js';

const now = new Date('2026-08-22T13:33:20Z');
const windows = { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows host rsvd' };
const fresh = (hostReserved = false): AllocationBlock =>
  newBlock({ cidr: '10.0.0.0/29', now, ...(hostReserved ? { hostReserved: windows } : {}) });
const withCooldown = (): AllocationBlock => {
  const one = autoAssignInBlock(fresh(), { num: 1, handleId: 'h' }).block;
  return releaseInBlock(one, { releases: [{ address: '10.0.0.0' }], now, cooldownSeconds: 60 }).block;
};
const upperCaseReserved = (): AllocationBlock => {
  const block = structuredClone(fresh(true));
  block.attributes[0]!.handleId = WINDOWS_RESERVED_HANDLE.toUpperCase();
  return block;
};

describe('isEmpty', () => {
  it.each([
    ['a fresh block', fresh, true],
    ['a block with only host-reserved ordinals', () => fresh(true), true],
    ['host-reserved ordinals under an upper-case handle', upperCaseReserved, true],
    ['a block with one allocation', () => autoAssignInBlock(fresh(), { num: 1, handleId: 'h' }).block, false],
    ['a host-reserved block with one allocation', () => autoAssignInBlock(fresh(true), { num: 1 }).block, false],
    ['a block with an ordinal in cooldown', withCooldown, false],
  ])('%s → %s', (_name, make, expected) => {
    expect(isEmpty(make())).toBe(expected);
  });
});

describe('counters', () => {
  const reservations = createReservationFilter([{ name: 'r', reservedCIDRs: ['10.0.0.0/30', '10.0.0.2'] }]);
  const whole = createReservationFilter([{ name: 'r', reservedCIDRs: ['10.0.0.0/24'] }]);
  const none = createReservationFilter([{ name: 'r', reservedCIDRs: ['10.0.1.0/24'] }]);

  it.each([
    ['no filter', undefined, 8, 0],
    ['a partial reservation', reservations, 4, 4],
    ['a reservation covering the block', whole, 0, 8],
    ['a reservation elsewhere', none, 8, 0],
  ])('numFree and numReserved with %s', (_name, filter, free, reserved) => {
    expect(numFree(fresh(), filter)).toBe(free);
    if (filter !== undefined) expect(Number(filter.countIn(fresh().cidr))).toBe(reserved);
  });

  it('counts host-reserved and cooldown ordinals as in use', () => {
    expect(inUseCount(fresh(true))).toBe(4);
    expect(inUseCount(withCooldown())).toBe(1);
  });
});

describe('per-address queries', () => {
  const block = assignInBlock(autoAssignInBlock(fresh(), { num: 2, handleId: 'h\rx', attrs: { pod: 'p' } }).block, {
    ip: '10.0.0.6', handleId: 'other',
  }).block;

  it('lists the addresses of a handle in ordinal order, sanitizing stored handles', () => {
    expect(ipsForHandle(block, 'h')).toEqual(['10.0.0.0', '10.0.0.1']);
    expect(ipsForHandle(block, 'other')).toEqual(['10.0.0.6']);
    expect(ipsForHandle(withCooldown(), 'h')).toEqual([]);
  });

  it('returns a sanitized copy of the attributes', () => {
    const attrs = attributesFor(block, '10.0.0.1');
    expect(attrs).toEqual({ handleId: 'h', activeOwnerAttrs: { pod: 'p' } });
    attrs.activeOwnerAttrs!.pod = 'changed';
    expect(block.attributes[0]!.activeOwnerAttrs).toEqual({ pod: 'p' });
  });

  it('distinguishes unassigned from cooldown', () => {
    expect(() => attributesFor(block, '10.0.0.3')).toThrow(NotFoundError);
    expect(() => attributesFor(withCooldown(), '10.0.0.0')).toThrow(IPInCooldownError);
    expect(addressState(withCooldown(), '10.0.0.0')).toEqual({ state: 'cooldown', releasedAt: '2026-08-22T13:33:20Z' });
    expect(addressState(block, '10.0.0.3')).toEqual({ state: 'free' });
    expect(addressState(block, '10.0.0.0')).toEqual({ state: 'allocated', handleId: 'h' });
  });
});

describe('ordinal math and affinity', () => {
  it.each([
    ['10.0.0.0/29', '10.0.0.5', 5],
    ['fd00::1:0/122', 'fd00::1:3f', 63],
    ['10.0.0.7/32', '10.0.0.7', 0],
  ])('in %s, %s is ordinal %d and back', (cidr, ip, ordinal) => {
    expect(ordinalOf({ cidr }, ip)).toBe(ordinal);
    expect(addressOf({ cidr }, ordinal)).toBe(ip);
  });

  it('round-trips every ordinal of random IPv4 and IPv6 blocks', () => {
    const v4 = fc.record({ base: fc.nat(0xffffffff), len: fc.integer({ min: 20, max: 32 }) }).map(({ base, len }) => {
      const b = BigInt(base);
      return { cidr: `${[24n, 16n, 8n, 0n].map((s) => String((b >> s) & 255n)).join('.')}/${len}`, size: 2 ** (32 - len) };
    });
    const v6 = fc.record({ hi: fc.nat(0xffff), lo: fc.nat(0xffff), len: fc.integer({ min: 116, max: 128 }) }).map(({ hi, lo, len }) => ({
      cidr: `fd00:${hi.toString(16)}::${lo.toString(16)}/${len}`,
      size: 2 ** (128 - len),
    }));
    fc.assert(
      fc.property(fc.oneof(v4, v6), fc.nat(), ({ cidr, size }, pick) => {
        const ordinal = pick % size;
        const ip = addressOf({ cidr }, ordinal);
        expect(ordinalOf({ cidr }, ip)).toBe(ordinal);
        expect(() => addressOf({ cidr }, size)).toThrow('not in block');
      }),
    );
  });

  it('rejects ordinals outside the block', () => {
    expect(() => addressOf({ cidr: '10.0.0.0/29' }, 8)).toThrow('not in block');
    expect(() => addressOf({ cidr: '10.0.0.0/29' }, -1)).toThrow('not in block');
  });

  it('checks and clears the affinity without touching the input', () => {
    const block = fresh();
    const owned: AllocationBlock = { ...block, affinity: { type: 'host', host: 'node-a' }, affinityClaimTime: '2026-08-22T13:33:20Z' };
    expect(hostOwnsBlock(owned, { type: 'host', host: 'node-a' })).toBe(true);
    expect(hostOwnsBlock(owned, { type: 'virtual', host: 'node-a' })).toBe(false);
    expect(hostOwnsBlock(block, { type: 'host', host: 'node-a' })).toBe(false);
    const cleared = clearAffinity(owned);
    expect(cleared.affinity).toBeUndefined();
    expect(cleared.affinityClaimTime).toBeUndefined();
    expect(owned.affinity).toEqual({ type: 'host', host: 'node-a' });
  });
});
