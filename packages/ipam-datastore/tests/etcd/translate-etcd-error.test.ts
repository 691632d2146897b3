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
import { DatastoreClosedError, DatastoreConfigError } from '../../src/errors.js';
import { translateEtcdError } from '../../src/etcd/translate-etcd-error.js';
import { retryUnavailable } from '../../src/transport-retry.js';
import { grpcWireError } from '../../src/etcd/wire/grpc-errors.js';
import { gatewayError } from '../../src/etcd/wire/http-transport.js';

type Case = [what: string, err: Error, expected: abstract new (...args: never[]) => Error];

const ENDPOINT = 'https://10.0.0.1:2379';

describe('translateEtcdError of the grpc client (etcd3 errors)', () => {
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
  it.each(cases)('maps %s to its taxonomy class, naming the endpoint and keeping the cause chain', (_what, err, expected) => {
    const translated = translateEtcdError(grpcWireError(err, ENDPOINT), 'block 10.0.0.0/30');
    expect(translated).toBeInstanceOf(expected);
    if (!(translated instanceof DatastoreClosedError)) {
      expect(translated.message).toContain(ENDPOINT);
      expect((translated.cause as Error).cause).toBe(err);
    }
  });
});

describe('translateEtcdError of the http client (etcd JSON gateway answers)', () => {
  type GatewayCase = [what: string, body: { message: string; code: number }, expected: abstract new (...args: never[]) => Error];
  const cases: GatewayCase[] = [
    ['a compacted revision', { message: 'etcdserver: mvcc: required revision has been compacted', code: 11 }, WatchExpiredError],
    ['refused permissions', { message: 'etcdserver: permission denied', code: 7 }, UnauthorizedError],
    ['a rejected token', { message: 'etcdserver: invalid auth token', code: 16 }, UnauthorizedError],
    ['a wrong password', { message: 'etcdserver: authentication failed, invalid user ID or password', code: 3 }, DatastoreConfigError],
    ['a rejected argument', { message: 'etcdserver: too many operations in txn request', code: 3 }, ValidationError],
    ['a leader change', { message: 'etcdserver: leader changed', code: 14 }, DatastoreUnavailableError],
  ];
  it.each(cases)('maps %s to its taxonomy class, naming the endpoint', (_what, body, expected) => {
    const translated = translateEtcdError(gatewayError(body, ENDPOINT, 400), 'block 10.0.0.0/30');
    expect(translated).toBeInstanceOf(expected);
    expect(translated.message).toContain(ENDPOINT);
  });

  it('passes our own errors through unchanged', () => {
    const conflict = new ConflictError('block 10.0.0.0/30');
    expect(translateEtcdError(conflict, 'x')).toBe(conflict);
  });
});

describe('retryUnavailable', () => {
  it('retries an unavailable etcd with backoff and returns the eventual answer', async () => {
    let calls = 0;
    const answer = await retryUnavailable(() => {
      calls++;
      return calls < 3 ? Promise.reject(new GRPCUnavailableError('14 UNAVAILABLE')) : Promise.resolve('ok');
    }, { attempts: 3, backoff: { baseMs: 1, capMs: 8 } }, (err) => translateEtcdError(err, 'k'));
    expect([answer, calls]).toEqual(['ok', 3]);
  });

  it('gives up after its attempts with DatastoreUnavailableError', async () => {
    let calls = 0;
    const op = () => {
      calls++;
      return Promise.reject(new GRPCUnavailableError('14 UNAVAILABLE'));
    };
    await expect(retryUnavailable(op, { attempts: 2, backoff: { baseMs: 1, capMs: 8 } }, (err) => translateEtcdError(err, 'k'))).rejects.toBeInstanceOf(DatastoreUnavailableError);
    expect(calls).toBe(2);
  });

  it('never retries a conflict', async () => {
    let calls = 0;
    const op = () => {
      calls++;
      return Promise.reject(new ConflictError('block 10.0.0.0/30'));
    };
    await expect(retryUnavailable(op, { attempts: 5, backoff: { baseMs: 1, capMs: 8 } }, (err) => translateEtcdError(err, 'k'))).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toBe(1);
  });
});
