import { describe, expect, it } from 'vitest';
import { ConflictError, encodeEtcd, NotFoundError, type TxWrite } from '@ipamkit/models';
import { sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { DecodedMemo } from '../../src/etcd/decoded-memo.js';
import { EtcdKv } from '../../src/etcd/etcd-kv.js';
import { commitWrites } from '../../src/etcd/etcd-transaction.js';
import { TransactionKv } from '../../src/etcd/transaction-kv.js';
import { TxReadCache } from '../../src/etcd/tx-read-cache.js';
import type { EtcdWire, WireCompare, WireKv, WireOp, WireTxnResult } from '../../src/etcd/wire/etcd-wire.js';

// What a transaction's commit sends: the body read the block and the handle it writes, so their
// reads' compares are the writes' preconditions; each goes into the request once, and a failed
// commit's else branch still decides the error from the right answer
// (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)").

const block = sampleBlock('10.0.0.0/30');
const blockKv = encodeEtcd('IPAMBlock', block);
const handleKey = '/calico/ipam/v2/handle/h-1';

interface Sent {
  readonly compares: readonly WireCompare[];
  readonly success: readonly WireOp[];
  readonly failure: readonly WireOp[];
}

/** A wire that answers reads with the block at mod revision 5 and commits with `commit`. */
function fakeWire(commit: (sent: Sent) => WireTxnResult): { wire: EtcdWire; sent: Sent[] } {
  const sent: Sent[] = [];
  const stored: WireKv = { key: Buffer.from(blockKv.key), value: blockKv.value, modRevision: '5', createRevision: '2' };
  const answer = (op: WireOp): WireKv[] => (op.op === 'range' && op.range.key.equals(stored.key) ? [stored] : []);
  const wire: EtcdWire = {
    target: 'fake',
    range: () => Promise.reject(new Error('not used')),
    txn: (compares, success, failure) => {
      // A batch of reads (no compares, only ranges): the body's reads.
      if (compares.length === 0) return Promise.resolve({ succeeded: true, revision: '9', responses: success.map(answer) });
      const request = { compares, success, failure };
      sent.push(request);
      return Promise.resolve(commit(request));
    },
    deleteKey: () => Promise.reject(new Error('not used')),
    watch: () => Promise.reject(new Error('not used')),
    close: () => undefined,
  };
  return { wire, sent };
}

/** What the core's allocation does: read the block and the (absent) handle, write both. */
async function allocateLike(wire: EtcdWire): Promise<void> {
  const kv = new EtcdKv(wire, '', { attempts: 1, backoff: false }, { memo: new DecodedMemo(), txCache: new TxReadCache() });
  const view = new TransactionKv(kv, kv.txCache);
  const [read, handle] = await Promise.all([view.get(blockKv.key), view.get(handleKey)]);
  expect(read?.modRevision).toBe('5');
  expect(handle).toBeUndefined();
  const writes: TxWrite[] = [
    { op: 'update', kind: 'block', value: { ...block, sequenceNumber: 1n, revision: '5' } },
    { op: 'create', kind: 'handle', value: sampleHandle('h-1') },
  ];
  await commitWrites(kv, writes, view);
}

const compareText = (c: WireCompare): string => `${c.key.toString()} ${c.target} ${c.result} ${c.revision}`;
const readText = (op: WireOp): string => (op.op === 'range' ? op.range.key.toString() : op.op);

describe('a transaction\'s commit request', () => {
  it('carries each compare and each else-branch read once when the body read what it writes', async () => {
    const { wire, sent } = fakeWire(() => ({ succeeded: true, revision: '10', responses: [] }));
    await allocateLike(wire);
    const [commit] = sent;
    expect(commit?.compares.map(compareText).sort()).toEqual([`${blockKv.key} mod equal 5`, `${handleKey} create equal 0`].sort());
    expect(commit?.failure.map(readText).sort()).toEqual([blockKv.key, handleKey].sort());
    expect(commit?.success.map((op) => op.op)).toEqual(['put', 'put']);
  });

  it('decides a failed commit from the else-branch answer for the written key: a block changed meanwhile is a conflict', async () => {
    const changed: WireKv = { key: Buffer.from(blockKv.key), value: blockKv.value, modRevision: '8', createRevision: '2' };
    const { wire } = fakeWire((request) => ({
      succeeded: false,
      revision: '10',
      responses: request.failure.map((op) => (op.op === 'range' && op.range.key.equals(changed.key) ? [changed] : [])),
    }));
    await expect(allocateLike(wire)).rejects.toBeInstanceOf(ConflictError);
  });

  it('decides a failed commit from the else-branch answer for the written key: a block gone meanwhile is not found', async () => {
    const { wire } = fakeWire((request) => ({ succeeded: false, revision: '10', responses: request.failure.map(() => []) }));
    await expect(allocateLike(wire)).rejects.toBeInstanceOf(NotFoundError);
  });
});
