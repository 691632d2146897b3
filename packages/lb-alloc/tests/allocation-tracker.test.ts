import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AllocationTracker } from '../src/controller/allocation-tracker.js';
import type { ServiceKey } from '../src/service/lb-service.js';

const svcA: ServiceKey = { handle: 'lb-a', name: 'a', namespace: 'ns' };
const svcB: ServiceKey = { handle: 'lb-b', name: 'b', namespace: 'ns' };

describe('AllocationTracker (design/calico-callers.md#allocation-tracker, the leak tests)', () => {
  it('leaves no trace of a deleted Service in any map', () => {
    const t = new AllocationTracker();
    t.assignToBlock('10.0.0.0/28', '10.0.0.1', svcA);
    t.assignToService('10.0.0.2', svcA);
    t.assignToBlock('10.0.0.0/28', '10.0.0.3', svcB);
    t.deleteService(svcA);
    t.assertConsistent();
    expect(t.allIPs()).toEqual(['10.0.0.3']);
    expect(t.ipsOf(svcA)).toEqual([]);
    expect(t.serviceKeys()).toEqual([svcB]);
    expect(t.ipsOfBlock('10.0.0.0/28')).toEqual(['10.0.0.3']);
  });

  it('prunes a block whose last address is released', () => {
    const t = new AllocationTracker();
    t.assignToBlock('10.0.0.0/28', '10.0.0.1', svcA);
    t.releaseFromService('10.0.0.1');
    t.assertConsistent();
    expect(t.blockKeys()).toEqual([]);
    expect(t.serviceKeys()).toEqual([]);
  });

  it('keeps only the new owner when an address is re-assigned', () => {
    const t = new AllocationTracker();
    t.assignToBlock('10.0.0.0/28', '10.0.0.1', svcA);
    t.assignToBlock('10.0.0.0/28', '10.0.0.1', svcB);
    t.assertConsistent();
    expect(t.ownerOf('10.0.0.1')).toEqual(svcB);
    expect(t.ipsOf(svcA)).toEqual([]);
    expect(t.ipsOf(svcB)).toEqual(['10.0.0.1']);
  });

  it('releases every address of a deleted block from its Service', () => {
    const t = new AllocationTracker();
    t.assignToBlock('10.0.0.0/28', '10.0.0.1', svcA);
    t.assignToBlock('10.0.0.16/28', '10.0.0.17', svcA);
    t.deleteBlock('10.0.0.0/28');
    t.assertConsistent();
    expect(t.ipsOf(svcA)).toEqual(['10.0.0.17']);
    expect(t.blockKeys()).toEqual(['10.0.0.16/28']);
  });

  it('stays consistent under any sequence of operations', () => {
    const keys = [svcA, svcB, { handle: 'lb-c', name: 'c', namespace: 'other' }];
    const ip = fc.integer({ min: 0, max: 7 }).map((n) => `10.0.0.${String(n)}`);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('block' as const), ip, svc: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('service' as const), ip, svc: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('release' as const), ip }),
      fc.record({ kind: fc.constant('deleteService' as const), svc: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('deleteBlock' as const), block: fc.integer({ min: 0, max: 1 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const t = new AllocationTracker();
        const owner = new Map<string, number>();
        for (const o of ops) {
          // Addresses 0-3 sit in block 0, 4-7 in block 1.
          const blockOf = (addr: string): string => (Number(addr.split('.')[3]) < 4 ? 'b0' : 'b1');
          if (o.kind === 'block') {
            t.assignToBlock(blockOf(o.ip), o.ip, keys[o.svc]!);
            owner.set(o.ip, o.svc);
          } else if (o.kind === 'service') {
            t.assignToService(o.ip, keys[o.svc]!);
            owner.set(o.ip, o.svc);
          } else if (o.kind === 'release') {
            t.releaseFromService(o.ip);
            owner.delete(o.ip);
          } else if (o.kind === 'deleteService') {
            t.deleteService(keys[o.svc]!);
            for (const [addr, s] of owner) if (s === o.svc) owner.delete(addr);
          } else {
            const gone = t.ipsOfBlock(`b${String(o.block)}`);
            t.deleteBlock(`b${String(o.block)}`);
            for (const addr of gone) owner.delete(addr);
          }
          t.assertConsistent();
        }
        expect(new Map(t.allIPs().map((addr) => [addr, keys.indexOf(t.ownerOf(addr)!)]))).toEqual(owner);
      }),
    );
  });
});
