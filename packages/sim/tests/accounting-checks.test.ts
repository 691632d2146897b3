import type { AllocationBlock, BlockAffinity, IPAMHandle } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import {
  allocatedAddresses,
  duplicateAddressViolations,
  handleCountViolations,
  orphanViolations,
  pendingAffinityViolations,
} from '../src/checks/accounting-checks.js';

function block(cidr: string, size: number, owners: Record<number, string>): AllocationBlock {
  const handles = [...new Set(Object.values(owners))];
  const allocations: (number | null)[] = Array.from({ length: size }, (_, i) => {
    const h = owners[i];
    return h === undefined ? null : handles.indexOf(h);
  });
  return {
    cidr,
    allocations,
    unallocated: allocations.flatMap((a, i) => (a === null ? [i] : [])),
    attributes: handles.map((handleId) => ({ handleId, activeOwnerAttrs: { node: 'n1' } })),
    sequenceNumber: 3n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

const handle = (handleId: string, counts: Record<string, number>): IPAMHandle => ({ handleId, block: counts, deleted: false });

describe('allocatedAddresses', () => {
  it('lists every allocated ordinal with its address and handle', () => {
    expect(allocatedAddresses([block('10.0.0.0/30', 4, { 1: 'a', 3: 'b' })]).map((a) => [a.ip, a.handleId])).toEqual([
      ['10.0.0.1', 'a'],
      ['10.0.0.3', 'b'],
    ]);
  });

  it('skips soft-deleted blocks', () => {
    expect(allocatedAddresses([{ ...block('10.0.0.0/30', 4, { 1: 'a' }), deleted: true }])).toEqual([]);
  });
});

describe('duplicateAddressViolations', () => {
  it.each([
    { name: 'disjoint blocks', blocks: [block('10.0.0.0/30', 4, { 1: 'a' }), block('10.0.0.4/30', 4, { 1: 'b' })], expected: 0 },
    { name: 'overlapping blocks, different ordinals', blocks: [block('10.0.0.0/29', 8, { 1: 'a' }), block('10.0.0.0/30', 4, { 2: 'b' })], expected: 0 },
    { name: 'one address in two blocks', blocks: [block('10.0.0.0/29', 8, { 1: 'a' }), block('10.0.0.0/30', 4, { 1: 'b' })], expected: 1 },
  ])('$name: $expected violation(s)', ({ blocks, expected }) => {
    expect(duplicateAddressViolations(allocatedAddresses(blocks))).toHaveLength(expected);
  });

  it('names the address and both holders', () => {
    const v = duplicateAddressViolations(allocatedAddresses([block('10.0.0.0/29', 8, { 1: 'a' }), block('10.0.0.0/30', 4, { 1: 'b' })]));
    expect(v).toEqual(['duplicate allocation: 10.0.0.1 is held 2 times (a in 10.0.0.0/29, b in 10.0.0.0/30)']);
  });
});

describe('handleCountViolations', () => {
  const blocks = [block('10.0.0.0/30', 4, { 0: 'a', 1: 'a', 2: 'b' })];
  const run = (handles: IPAMHandle[]): string[] => handleCountViolations(handles, allocatedAddresses(blocks));

  it.each([
    { name: 'counts agree', handles: [handle('a', { '10.0.0.0/30': 2 }), handle('b', { '10.0.0.0/30': 1 })], expected: [] },
    {
      name: 'a handle counts too few',
      handles: [handle('a', { '10.0.0.0/30': 1 }), handle('b', { '10.0.0.0/30': 1 })],
      expected: ['handle a counts 1 allocation(s) in 10.0.0.0/30, the block holds 2'],
    },
    {
      name: 'a handle counts a block it holds nothing in',
      handles: [handle('a', { '10.0.0.0/30': 2, '10.0.1.0/30': 1 }), handle('b', { '10.0.0.0/30': 1 })],
      expected: ['handle a counts 1 allocation(s) in 10.0.1.0/30, the block holds 0'],
    },
    {
      name: 'an allocation names a missing handle',
      handles: [handle('a', { '10.0.0.0/30': 2 })],
      expected: ['allocation(s) in 10.0.0.0/30 name handle b, which does not exist'],
    },
  ])('$name', ({ handles, expected }) => {
    expect(run(handles)).toEqual(expected);
  });
});

describe('pendingAffinityViolations', () => {
  const aff = (state: BlockAffinity['state'], deleted = false): BlockAffinity => ({ host: 'n1', type: 'host', cidr: '10.0.0.0/26', state, deleted });

  it.each([
    { state: 'confirmed' as const, deleted: false, expected: 0 },
    { state: 'pendingDeletion' as const, deleted: false, expected: 0 },
    { state: 'pending' as const, deleted: true, expected: 0 },
    { state: 'pending' as const, deleted: false, expected: 1 },
  ])('$state (deleted $deleted): $expected violation(s)', ({ state, deleted, expected }) => {
    expect(pendingAffinityViolations([aff(state, deleted)])).toHaveLength(expected);
  });
});

describe('orphanViolations', () => {
  it('reports only allocations of gone handles', () => {
    const addresses = allocatedAddresses([block('10.0.0.0/30', 4, { 0: 'gone', 1: 'alive' })]);
    expect(orphanViolations(addresses, new Set(['gone']), 'killed')).toEqual(['10.0.0.0 (handle gone) is still allocated: killed']);
  });
});
