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
// reads' compares are the writes' preconditions and each goes into the request once; the request
// has no else branch, and a failed commit is followed by one read, at its revision, that decides
// the error (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)" and
// "Allocation cost on etcd: the seventh round (2026-12-02)").

const block = sampleBlock('10.0.0.0/30');
const blockKv = encodeEtcd('IPAMBlock', block);
const handleKey = '/calico/ipam/v2/handle/h-1';

interface Sent {
  readonly compares: readonly WireCompare[];
  readonly success: readonly WireOp[];
  readonly failure: readonly WireOp[];
}

/**
 * A wire whose store holds the block at mod revision 5 until a commit: `commit` answers it and may
 * leave the block changed (or gone) for the reads after it. Every request is recorded.
 */
function fakeWire(commit: (sent: Sent) => { result: WireTxnResult; block?: WireKv | undefined }): { wire: EtcdWire; sent: Sent[] } {
  const sent: Sent[] = [];
  let stored: WireKv | undefined = { key: Buffer.from(blockKv.key), value: blockKv.value, modRevision: '5', createRevision: '2' };
  const answer = (op: WireOp): WireKv[] => (op.op === 'range' && stored !== undefined && op.range.key.equals(stored.key) ? [stored] : []);
  const wire: EtcdWire = {
    target: 'fake',
    range: () => Promise.reject(new Error('not used')),
    txn: (compares, success, failure) => {
      const request = { compares, success, failure };
      sent.push(request);
      // A batch of reads (no compares, only ranges): the body's reads, or the reads after a failed commit.
      if (compares.length === 0) return Promise.resolve({ succeeded: true, revision: '9', responses: success.map(answer) });
      const out = commit(request);
      if ('block' in out) stored = out.block;
      return Promise.resolve(out.result);
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
const readText = (op: WireOp): string => (op.op === 'range' ? `${op.range.key.toString()} @${op.range.revision ?? 'now'}` : op.op);
const failed: WireTxnResult = { succeeded: false, revision: '10', responses: [] };

describe('a transaction\'s commit request', () => {
  it('carries each compare once when the body read what it writes, and no else branch', async () => {
    const { wire, sent } = fakeWire(() => ({ result: { succeeded: true, revision: '10', responses: [] } }));
    await allocateLike(wire);
    // The body's one wave of reads, then the commit.
    expect(sent).toHaveLength(2);
    const commit = sent[1];
    expect(commit?.compares.map(compareText).sort()).toEqual([`${blockKv.key} mod equal 5`, `${handleKey} create equal 0`].sort());
    expect(commit?.failure).toEqual([]);
    expect(commit?.success.map((op) => op.op)).toEqual(['put', 'put']);
  });

  it('decides a failed commit from one read at its revision: a block changed meanwhile is a conflict', async () => {
    const changed: WireKv = { key: Buffer.from(blockKv.key), value: blockKv.value, modRevision: '8', createRevision: '2' };
    const { wire, sent } = fakeWire(() => ({ result: failed, block: changed }));
    await expect(allocateLike(wire)).rejects.toBeInstanceOf(ConflictError);
    // Reads, the commit, and the reads of the written keys at the failed commit's revision.
    expect(sent).toHaveLength(3);
    expect(sent[2]?.compares).toEqual([]);
    expect(sent[2]?.success.map(readText).sort()).toEqual([`${blockKv.key} @10`, `${handleKey} @10`].sort());
  });

  it('decides a failed commit from one read at its revision: a block gone meanwhile is not found', async () => {
    const { wire } = fakeWire(() => ({ result: failed, block: undefined }));
    await expect(allocateLike(wire)).rejects.toBeInstanceOf(NotFoundError);
  });
});
