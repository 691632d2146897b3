import {
  ClientClosedError,
  EtcdError,
  EtcdPermissionDeniedError,
  GRPCDeadlineExceededError,
  GRPCInvalidArgumentError,
  GRPCUnavailableError,
  GRPCUnauthenticatedError,
} from 'etcd3';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  DatastoreUnavailableError,
  UnauthorizedError,
  ValidationError,
  WatchExpiredError,
} from '@ipamkit/models';
import { DatastoreClosedError } from '../../src/errors.js';
import { translateEtcdError } from '../../src/etcd/translate-etcd-error.js';
import { retryUnavailable } from '../../src/etcd/retry-unavailable.js';

type Case = [what: string, err: Error, expected: abstract new (...args: never[]) => Error];

describe('translateEtcdError', () => {
  const cases: Case[] = [
    ['an unreachable host', new GRPCUnavailableError('14 UNAVAILABLE: No connection established'), DatastoreUnavailableError],
    ['a deadline', new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED'), DatastoreUnavailableError],
    ['an open circuit breaker', Object.assign(new Error('Execution prevented because the circuit breaker is open'), { name: 'BrokenCircuitError' }), DatastoreUnavailableError],
    ['an unknown server error', new EtcdError('etcdserver: leader changed'), DatastoreUnavailableError],
    ['a compacted revision', new EtcdError('etcdserver: mvcc: required revision has been compacted'), WatchExpiredError],
    ['refused permissions', new EtcdPermissionDeniedError('etcdserver: permission denied'), UnauthorizedError],
    ['missing credentials', new GRPCUnauthenticatedError('16 UNAUTHENTICATED'), UnauthorizedError],
    ['a rejected argument', new GRPCInvalidArgumentError('etcdserver: too many operations in txn request'), ValidationError],
    ['a closed client', new ClientClosedError('KV'), DatastoreClosedError],
  ];
  it.each(cases)('maps %s to its taxonomy class, keeping the cause', (_what, err, expected) => {
    const translated = translateEtcdError(err, 'block 10.0.0.0/30');
    expect(translated).toBeInstanceOf(expected);
    expect(translated.cause ?? err).toBe(err);
  });

  it('passes our own errors through unchanged', () => {
    const conflict = new ConflictError('block 10.0.0.0/30');
    expect(translateEtcdError(conflict, 'x')).toBe(conflict);
  });
});

describe('retryUnavailable', () => {
  it('retries an unavailable etcd with backoff and returns the eventual answer', async () => {
    let calls = 0;
    const answer = await retryUnavailable('k', { attempts: 3, initialDelayMs: 1 }, () => {
      calls++;
      return calls < 3 ? Promise.reject(new GRPCUnavailableError('14 UNAVAILABLE')) : Promise.resolve('ok');
    });
    expect([answer, calls]).toEqual(['ok', 3]);
  });

  it('gives up after its attempts with DatastoreUnavailableError', async () => {
    let calls = 0;
    const op = () => {
      calls++;
      return Promise.reject(new GRPCUnavailableError('14 UNAVAILABLE'));
    };
    await expect(retryUnavailable('k', { attempts: 2, initialDelayMs: 1 }, op)).rejects.toBeInstanceOf(DatastoreUnavailableError);
    expect(calls).toBe(2);
  });

  it('never retries a conflict', async () => {
    let calls = 0;
    const op = () => {
      calls++;
      return Promise.reject(new ConflictError('block 10.0.0.0/30'));
    };
    await expect(retryUnavailable('k', { attempts: 5, initialDelayMs: 1 }, op)).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toBe(1);
  });
});
