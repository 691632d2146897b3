import { describe, expect, it } from 'vitest';
import { SelectorParseError } from '../../src/errors.js';
import type { IPPool } from '../../src/resources/ip-pool.js';
import { isPoolEnabled, selectsEveryNode, selectsNamespace, selectsNode } from '../../src/validation/pool-selection.js';

const pool: IPPool = { name: 'p', cidr: '10.0.0.0/16' };

describe('isPoolEnabled', () => {
  it.each<[string, IPPool, 4 | 6, boolean]>([
    ['a plain v4 pool for v4', pool, 4, true],
    ['a plain v4 pool for v6', pool, 6, false],
    ['a v6 pool for v6', { ...pool, cidr: 'fd00::/64' }, 6, true],
    ['a disabled pool', { ...pool, disabled: true }, 4, false],
    ['an explicitly enabled pool', { ...pool, disabled: false }, 4, true],
    ['a pool being deleted', { ...pool, deletionTimestamp: '2026-08-22T13:33:20Z' }, 4, false],
    ['a pool with Allocatable=False', { ...pool, conditions: [{ type: 'Allocatable', status: 'False', reason: 'CIDROverlap' }] }, 4, false],
    ['a pool with Allocatable=True', { ...pool, conditions: [{ type: 'Allocatable', status: 'True', reason: 'OK' }] }, 4, true],
    ['a pool with another condition False', { ...pool, conditions: [{ type: 'Ready', status: 'False' }] }, 4, true],
    ['a pool with an unparsable CIDR', { ...pool, cidr: 'nonsense' }, 4, false],
  ])('%s: %s', (_, p, version, expected) => {
    expect(isPoolEnabled(p, version)).toBe(expected);
  });
});

describe('selectsEveryNode', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ['', true],
    ['   ', true],
    ['all()', true],
    [' all( ) ', true],
    ['has(zone)', false],
    ['!has(edge)', false],
    ['zone == "a"', false],
    ['all() && has(zone)', false],
    ['global()', false],
  ])('nodeSelector %j: %s', (nodeSelector, expected) => {
    const p = nodeSelector === undefined ? {} : { nodeSelector };
    expect(selectsEveryNode(p)).toBe(expected);
    // Whatever it says must agree with selectsNode on nodes with and without labels.
    if (expected) for (const labels of [undefined, {}, { zone: 'a', edge: '' }]) expect(selectsNode(p, labels)).toBe(true);
  });

  it('throws SelectorParseError on an unparsable selector, as selectsNode does', () => {
    expect(() => selectsEveryNode({ nodeSelector: 'zone ==' })).toThrow(SelectorParseError);
  });
});

describe('selectsNode and selectsNamespace', () => {
  it('treats an empty or absent selector as matching everything', () => {
    expect(selectsNode(pool, {})).toBe(true);
    expect(selectsNode({ nodeSelector: '' }, undefined)).toBe(true);
    expect(selectsNamespace(pool, undefined)).toBe(true);
    expect(selectsNamespace({ namespaceSelector: '  ' }, { a: 'b' })).toBe(true);
  });

  it('evaluates the node selector against node labels', () => {
    const p = { nodeSelector: 'zone == "a" && !has(edge)' };
    expect(selectsNode(p, { zone: 'a' })).toBe(true);
    expect(selectsNode(p, { zone: 'a', edge: '' })).toBe(false);
    expect(selectsNode(p, { zone: 'b' })).toBe(false);
    expect(selectsNode(p, undefined)).toBe(false);
  });

  it('evaluates the namespace selector against no labels when there is no namespace', () => {
    expect(selectsNamespace({ namespaceSelector: 'team == "x"' }, undefined)).toBe(false);
    expect(selectsNamespace({ namespaceSelector: '!has(team)' }, undefined)).toBe(true);
    expect(selectsNamespace({ namespaceSelector: 'team == "x"' }, { team: 'x' })).toBe(true);
  });

  it('throws SelectorParseError for a selector that does not parse', () => {
    expect(() => selectsNode({ nodeSelector: 'zone ==' }, {})).toThrow(SelectorParseError);
    expect(() => selectsNamespace({ namespaceSelector: '(' }, {})).toThrow(SelectorParseError);
  });
});
