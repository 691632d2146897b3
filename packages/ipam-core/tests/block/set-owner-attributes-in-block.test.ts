import { BadHandleError, IPInCooldownError, NotFoundError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { InvalidBlockArgumentError, OwnerPreconditionError } from '../../src/block/block-errors.js';
import { attributesFor } from '../../src/block/block-queries.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { ownerMatches, setOwnerAttributesInBlock } from '../../src/block/set-owner-attributes-in-block.js';
import { blockViolations, snapshot } from './block-invariants.js';

const now = new Date('2026-08-22T13:33:20Z');
const source = { pod: 'virt-launcher-a', namespace: 'ns' };
const target = { pod: 'virt-launcher-b', namespace: 'ns' };
/** .0 and .1 share one attribute (same handle and owner). */
const shared = () => autoAssignInBlock(newBlock({ cidr: '10.0.0.0/29', now }), { num: 2, handleId: 'vm', attrs: source }).block;

describe('setOwnerAttributesInBlock', () => {
  it('changes only the named address even when its attribute entry is shared', () => {
    const block = shared();
    const before = snapshot(block);
    const next = setOwnerAttributesInBlock(block, { ip: '10.0.0.1', handleId: 'vm', updates: { alternateOwnerAttrs: target } }).block;
    expect(attributesFor(next, '10.0.0.1')).toEqual({ handleId: 'vm', activeOwnerAttrs: source, alternateOwnerAttrs: target });
    expect(attributesFor(next, '10.0.0.0')).toEqual({ handleId: 'vm', activeOwnerAttrs: source });
    expect(block).toEqual(before);
    expect(blockViolations(next)).toEqual([]);
  });

  it('swaps owners under matching preconditions and compacts the old entry away', () => {
    const one = autoAssignInBlock(newBlock({ cidr: '10.0.0.0/29', now }), { num: 1, handleId: 'vm', attrs: source }).block;
    const migrating = setOwnerAttributesInBlock(one, { ip: '10.0.0.0', handleId: 'vm', updates: { alternateOwnerAttrs: target } }).block;
    const swapped = setOwnerAttributesInBlock(migrating, {
      ip: '10.0.0.0',
      handleId: 'vm',
      updates: { activeOwnerAttrs: target, alternateOwnerAttrs: source },
      preconditions: { expectedActiveOwner: { namespace: 'ns', name: 'virt-launcher-a' }, expectedAlternateOwner: { namespace: 'ns', name: 'virt-launcher-b' } },
    }).block;
    expect(swapped.attributes).toEqual([{ handleId: 'vm', activeOwnerAttrs: target, alternateOwnerAttrs: source }]);
    const cleared = setOwnerAttributesInBlock(swapped, {
      ip: '10.0.0.0', handleId: 'vm', updates: { clearAlternateOwner: true },
    }).block;
    expect(cleared.attributes).toEqual([{ handleId: 'vm', activeOwnerAttrs: target }]);
  });

  it.each([
    ['an expected active owner that differs', { expectedActiveOwner: { namespace: 'ns', name: 'other' } }, { activeOwnerAttrs: target }],
    ['verify-empty on a set active owner', { verifyActiveOwnerEmpty: true }, { activeOwnerAttrs: target }],
    ['an expected alternate owner when there is none', { expectedAlternateOwner: { namespace: 'ns', name: 'b' } }, { clearAlternateOwner: true }],
  ])('rejects %s with OwnerPreconditionError', (_name, preconditions, updates) => {
    expect(() => setOwnerAttributesInBlock(shared(), { ip: '10.0.0.0', handleId: 'vm', updates, preconditions })).toThrow(OwnerPreconditionError);
  });

  it('only checks preconditions of the side being updated', () => {
    const next = setOwnerAttributesInBlock(shared(), {
      ip: '10.0.0.0', handleId: 'vm', updates: { alternateOwnerAttrs: target }, preconditions: { verifyActiveOwnerEmpty: true },
    }).block;
    expect(attributesFor(next, '10.0.0.0').alternateOwnerAttrs).toEqual(target);
  });

  it.each([
    ['set and clear the active owner', { activeOwnerAttrs: target, clearActiveOwner: true }, {}],
    ['set and clear the alternate owner', { alternateOwnerAttrs: target, clearAlternateOwner: true }, {}],
    ['expect and verify-empty the active owner', {}, { verifyActiveOwnerEmpty: true, expectedActiveOwner: { namespace: 'n', name: 'p' } }],
  ])('rejects a request to %s', (_name, updates, preconditions) => {
    expect(() => setOwnerAttributesInBlock(shared(), { ip: '10.0.0.0', handleId: 'vm', updates, preconditions })).toThrow(InvalidBlockArgumentError);
  });

  it('rejects another handle, an unassigned address and an address in cooldown', () => {
    expect(() => setOwnerAttributesInBlock(shared(), { ip: '10.0.0.0', handleId: 'x', updates: {} })).toThrow(BadHandleError);
    expect(() => setOwnerAttributesInBlock(shared(), { ip: '10.0.0.5', handleId: 'vm', updates: {} })).toThrow(NotFoundError);
    const cooling = releaseInBlock(shared(), { releases: [{ address: '10.0.0.0' }], now, cooldownSeconds: 60 }).block;
    expect(() => setOwnerAttributesInBlock(cooling, { ip: '10.0.0.0', handleId: 'vm', updates: {} })).toThrow(IPInCooldownError);
  });
});

describe('ownerMatches', () => {
  it.each([
    [{ namespace: '', name: '' }, undefined, true],
    [{ namespace: '', name: '' }, {}, true],
    [{ namespace: '', name: '' }, { pod: 'p' }, false],
    [{ namespace: 'ns', name: 'p' }, { pod: 'p', namespace: 'ns', node: 'n' }, true],
    [{ namespace: 'ns', name: 'p' }, { pod: 'p' }, false],
    [{ namespace: 'ns', name: 'p' }, undefined, false],
  ])('%o against %o → %s', (owner, attrs, expected) => {
    expect(ownerMatches(owner, attrs)).toBe(expected);
  });
});
