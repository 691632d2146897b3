import fc from 'fast-check';
import { BadHandleError, BadSequenceNumberError, type AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { assignInBlock } from '../../src/block/take-named-address.js';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { AddressInUseError } from '../../src/block/block-errors.js';
import { sequenceNumberFor } from '../../src/block/block-queries.js';
import { bumpSequenceNumber } from '../../src/block/block-writes.js';
import { collectInPlace, garbageCollectCooldown } from '../../src/block/garbage-collect-cooldown.js';
import { cloneBlock } from '../../src/block/block-state.js';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { addressOf } from '../../src/block/ordinals.js';
import { releaseHandleInBlock } from '../../src/block/release-handle-in-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { setOwnerAttributesInBlock } from '../../src/block/set-owner-attributes-in-block.js';
import { createReservationFilter } from '../../src/reservations/reservation-filter.js';
import { blockViolations, snapshot } from './block-invariants.js';

const handles = ['h0', 'h1', 'h2'];
const owners = [{ pod: 'a', namespace: 'n' }, { pod: 'b', namespace: 'n' }];

const op = fc.oneof(
  fc.record({ kind: fc.constant('auto' as const), num: fc.integer({ min: 0, max: 5 }), handle: fc.nat(2), owner: fc.nat(1) }),
  fc.record({ kind: fc.constant('assign' as const), ordinal: fc.nat(63), handle: fc.nat(2) }),
  fc.record({ kind: fc.constant('release' as const), ordinals: fc.uniqueArray(fc.nat(63), { maxLength: 6 }), withSeq: fc.boolean(), withHandle: fc.boolean() }),
  fc.record({ kind: fc.constant('releaseHandle' as const), handle: fc.nat(2) }),
  fc.record({ kind: fc.constant('gc' as const) }),
  fc.record({ kind: fc.constant('setOwner' as const), ordinal: fc.nat(63), owner: fc.nat(1) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const scenario = fc.record({
  cidr: fc.constantFrom('10.0.0.0/28', '10.0.0.64/29', 'fd00::1:0/122'),
  hostReserved: fc.boolean(),
  reserve: fc.boolean(),
  cooldownSeconds: fc.integer({ min: -1, max: 5 }),
  ops: fc.array(fc.record({ op, advanceMs: fc.integer({ min: 0, max: 3000 }) }), { maxLength: 40 }),
});

/** Applies one op and checks its FIFO contract; returns the next block (expected errors keep the old one). */
function step(block: AllocationBlock, o: Op, ctx: { now: Date; cooldownSeconds: number; reservations: ReturnType<typeof createReservationFilter> }): AllocationBlock {
  const n = block.allocations.length;
  const { now, cooldownSeconds, reservations } = ctx;
  const appendsAscending = (next: AllocationBlock) => {
    expect(next.unallocated.slice(0, block.unallocated.length)).toEqual(block.unallocated);
    const tail = next.unallocated.slice(block.unallocated.length);
    expect(tail).toEqual([...tail].sort((a, b) => a - b));
  };
  switch (o.kind) {
    case 'auto': {
      const r = autoAssignInBlock(block, { num: o.num, handleId: handles[o.handle]!, attrs: owners[o.owner]!, reservations });
      const expected = block.unallocated.filter((x) => !reservations.matchesAddress(addressOf(block, x))).slice(0, o.num);
      expect(r.ordinals).toEqual(expected);
      expect(r.block.unallocated).toEqual(block.unallocated.filter((x) => !expected.includes(x)));
      for (const x of expected) expect(sequenceNumberFor(r.block, addressOf(block, x))).toBe(block.sequenceNumber);
      return r.block;
    }
    case 'assign': {
      const ordinal = o.ordinal % n;
      const ip = addressOf(block, ordinal);
      if (block.allocations[ordinal] !== null) {
        expect(() => assignInBlock(block, { ip, handleId: handles[o.handle]! })).toThrow(AddressInUseError);
        return block;
      }
      const next = assignInBlock(block, { ip, handleId: handles[o.handle]! }).block;
      expect(next.unallocated).toEqual(block.unallocated.filter((x) => x !== ordinal));
      return next;
    }
    case 'release': {
      const releases = o.ordinals.map((x) => {
        const address = addressOf(block, x % n);
        const index = block.allocations[x % n];
        const handle = index === null || index === undefined ? undefined : block.attributes[index]?.handleId;
        return {
          address,
          ...(o.withHandle && handle !== undefined ? { handle } : {}),
          ...(o.withSeq ? { sequenceNumber: sequenceNumberFor(block, address) ?? 0n } : {}),
        };
      });
      const r = releaseInBlock(block, { releases, now, cooldownSeconds });
      appendsAscending(r.block);
      return r.block;
    }
    case 'releaseHandle': {
      const r = releaseHandleInBlock(block, { handleId: handles[o.handle]!, now, cooldownSeconds });
      appendsAscending(r.block);
      return r.block;
    }
    case 'gc': {
      const r = garbageCollectCooldown(block, { cooldownSeconds, now });
      // Skipping the clone when nothing is to collect must decide as collecting on a clone does.
      const onClone = cloneBlock(block);
      expect(collectInPlace(onClone, { cooldownSeconds, now }).changed).toBe(r.changed);
      expect(r.block === block).toBe(!r.changed);
      if (!r.changed) expect(r.block).toEqual(block);
      appendsAscending(r.block);
      expect(r.freed).toEqual(r.block.unallocated.slice(block.unallocated.length));
      return bumpSequenceNumber(r.block);
    }
    case 'setOwner': {
      const ordinal = o.ordinal % n;
      const index = block.allocations[ordinal];
      const attribute = index === null || index === undefined ? undefined : block.attributes[index];
      if (attribute?.handleId === undefined || attribute.releasedAt !== undefined || attribute.handleId === WINDOWS_RESERVED_HANDLE) return block;
      const next = setOwnerAttributesInBlock(block, {
        ip: addressOf(block, ordinal), handleId: attribute.handleId, updates: { alternateOwnerAttrs: owners[o.owner]! },
      }).block;
      expect(next.unallocated).toEqual(block.unallocated);
      return next;
    }
  }
}

describe('block operations (properties)', () => {
  it('keep allocations and the FIFO a partition of the ordinals, every reference valid, every attribute used, inputs untouched', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        let now = new Date('2026-08-22T13:33:20Z');
        const reservations = createReservationFilter(s.reserve ? [{ name: 'r', reservedCIDRs: [addressOfFirst(s.cidr, 5), addressOfFirst(s.cidr, 2, 31)] }] : []);
        let block = newBlock({
          cidr: s.cidr, now, owner: { type: 'host', host: 'n' },
          ...(s.hostReserved ? { hostReserved: { startOfBlock: 2, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'w' } } : {}),
        });
        for (const { op: o, advanceMs } of s.ops) {
          now = new Date(now.getTime() + advanceMs);
          const before = snapshot(block);
          const next = step(block, o, { now, cooldownSeconds: s.cooldownSeconds, reservations });
          expect(block).toEqual(before);
          // Every attribute an operation makes is frozen with its owner maps (the SQLite engine shares
          // such attributes), so clones share only frozen ones: a change in place would have thrown.
          for (const a of next.attributes) {
            expect([a, a.activeOwnerAttrs, a.alternateOwnerAttrs].every((x) => x === undefined || Object.isFrozen(x))).toBe(true);
          }
          expect(blockViolations(next)).toEqual([]);
          expect(next.sequenceNumber >= block.sequenceNumber).toBe(true);
          block = bumpSequenceNumber(next);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reject releases with a stale sequence number or a foreign handle without changing anything', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.nat(7), fc.bigInt({ min: 1n, max: 1000n }), (num, pick, delta) => {
        const now = new Date('2026-08-22T13:33:20Z');
        const block = bumpSequenceNumber(autoAssignInBlock(newBlock({ cidr: '10.0.0.0/29', now }), { num, handleId: 'mine' }).block);
        const address = addressOf(block, pick % num);
        const stored = sequenceNumberFor(block, address)!;
        const before = snapshot(block);
        expect(() => releaseInBlock(block, { releases: [{ address, sequenceNumber: stored + delta }], now, cooldownSeconds: 0 })).toThrow(
          BadSequenceNumberError,
        );
        expect(() => releaseInBlock(block, { releases: [{ address, handle: 'theirs' }], now, cooldownSeconds: 0 })).toThrow(BadHandleError);
        expect(block).toEqual(before);
      }),
    );
  });
});

/** The `offset`-th address of a CIDR as a reservation entry (single address or /len). */
function addressOfFirst(cidr: string, offset: number, prefix?: number): string {
  const ip = addressOf({ cidr }, offset);
  if (prefix === undefined) return ip;
  return ip.includes(':') ? `${ip}/127` : `${ip}/${prefix}`;
}

